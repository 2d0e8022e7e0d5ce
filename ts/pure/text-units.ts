/**
 * Steps 3 to 6 of the text fingerprint specification over UTF-8 bytes: classify code points,
 * cut tokens, and hash each unit (a token, or one code point of a token) straight from the
 * bytes, with no string per token.
 */
import { MARK, SEPARATOR, UNSEGMENTED, WORD, astralClass, bmpClasses } from './text-classify.js';
import { type Xxh3Seed, xxh3Hash } from './xxh3.js';

/** Where one unit hash lands before it is stored little-endian. */
const hash = new Uint32Array(2);

/**
 * Unit hashes of the BMP's code points for one seed: a text has few distinct characters and
 * repeats them, so each is hashed once per seed rather than once per use.
 * `hashes[2 cp ..]` holds the hash of code point `cp` iff `known[cp]` is set.
 */
interface CharCache {
  readonly seed: Xxh3Seed;
  readonly hashes: Uint32Array;
  readonly known: Uint8Array;
}

let charCache: CharCache | undefined;

/** The character cache for `seed`, emptied if it held another seed's (576 KiB, made on first use). */
function charCacheFor(seed: Xxh3Seed): CharCache {
  if (charCache === undefined) {
    charCache = { seed, hashes: new Uint32Array(2 * 0x10000), known: new Uint8Array(0x10000) };
  } else if (charCache.seed !== seed) {
    charCache.known.fill(0);
    charCache = { ...charCache, seed };
  }
  return charCache;
}

/**
 * Hashes the tokens of the well-formed UTF-8 `bytes[0, length)` (as `TextEncoder` writes it)
 * and stores hash `i` as 8 little-endian bytes at `units[8 i]`, the layout step 7 hashes
 * shingles from. `units` must hold `8 length` bytes. Returns the number of tokens; with
 * `ranges`, appends each token's byte range `start, end` to it.
 *
 * A token is a maximal run of word code points, or one unsegmented code point; marks extend the
 * token they follow (so a word goes on after them), and other marks separate.
 */
export function hashWordUnits(
  bytes: Uint8Array,
  text: DataView,
  length: number,
  seed: Xxh3Seed,
  units: DataView,
  ranges?: number[],
): number {
  const cache = charCacheFor(seed);
  const classes = bmpClasses();
  let count = 0;
  // The kind of the token being built (WORD or UNSEGMENTED), or SEPARATOR between tokens.
  let open = SEPARATOR;
  let start = 0;
  let i = 0;
  while (i < length) {
    const b = bytes[i]!;
    let next = i + 1;
    let cls: number;
    if (b < 0x80) {
      cls = classes[b]!;
      if (cls === WORD && open === WORD) {
        // The common case, a letter inside an ASCII word: run to its end at once.
        for (let c = bytes[next]!; next < length && c < 0x80 && classes[c] === WORD; c = bytes[++next]!);
        i = next;
        continue;
      }
    } else {
      next = i + sequenceLength(b);
      const codePoint = decode(bytes, i, b);
      cls = codePoint < 0x10000 ? classes[codePoint]! : astralClass(codePoint);
    }
    const joins = cls === WORD ? open === WORD : cls === MARK && open !== SEPARATOR;
    if (!joins) {
      if (open !== SEPARATOR) {
        store(bytes, text, start, i, seed, cache, units, count);
        ranges?.push(start, i);
        count++;
      }
      open = cls === MARK ? SEPARATOR : cls;
      start = i;
    }
    i = next;
  }
  if (open !== SEPARATOR) {
    store(bytes, text, start, length, seed, cache, units, count);
    ranges?.push(start, length);
    count++;
  }
  return count;
}

/**
 * {@link hashWordUnits} for `unit: 'char'`: the units are the code points of the tokens, which
 * are all word and unsegmented code points and the marks that follow one (possibly through
 * other marks).
 */
export function hashCharUnits(
  bytes: Uint8Array,
  text: DataView,
  length: number,
  seed: Xxh3Seed,
  units: DataView,
): number {
  const cache = charCacheFor(seed);
  const classes = bmpClasses();
  let count = 0;
  let inToken = false;
  let i = 0;
  while (i < length) {
    const b = bytes[i]!;
    const next = b < 0x80 ? i + 1 : i + sequenceLength(b);
    const codePoint = b < 0x80 ? b : decode(bytes, i, b);
    const cls = codePoint < 0x10000 ? classes[codePoint]! : astralClass(codePoint);
    if (cls === WORD || cls === UNSEGMENTED || (cls === MARK && inToken)) {
      store(bytes, text, i, next, seed, cache, units, count);
      count++;
      inToken = true;
    } else {
      inToken = false;
    }
    i = next;
  }
  return count;
}

/** Length of the UTF-8 sequence led by byte `b` (well-formed input: `b` is a lead byte). */
function sequenceLength(b: number): number {
  return b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
}

/** The multi-byte code point led by `b = bytes[i]`. */
function decode(bytes: Uint8Array, i: number, b: number): number {
  if (b < 0xe0) return ((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
  if (b < 0xf0) return ((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
  return ((b & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
}

/**
 * Hashes the unit at bytes `[start, end)` into unit slot `index`; through the cache when the
 * unit is one code point of the BMP, as most character units and every unmarked token of a
 * script written without spaces are.
 */
function store(
  bytes: Uint8Array,
  text: DataView,
  start: number,
  end: number,
  seed: Xxh3Seed,
  cache: CharCache,
  units: DataView,
  index: number,
): void {
  const b = bytes[start]!;
  const length = end - start;
  let source: Uint32Array = hash;
  let at = 0;
  if (b < 0x80 ? length === 1 : length <= 3 && length === sequenceLength(b)) {
    const codePoint = b < 0x80 ? b : decode(bytes, start, b);
    if (cache.known[codePoint] === 0) {
      xxh3Hash(text, start, end, seed, cache.hashes, 2 * codePoint);
      cache.known[codePoint] = 1;
    }
    source = cache.hashes;
    at = 2 * codePoint;
  } else {
    xxh3Hash(text, start, end, seed, hash, 0);
  }
  units.setUint32(8 * index, source[at]!, true);
  units.setUint32(8 * index + 4, source[at + 1]!, true);
}
