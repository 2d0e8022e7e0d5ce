/** From text to fingerprints in WebAssembly (specification v1 in docs/specifications.md). */

import { memoryViews, withInstance, type WasmExports } from './loader.js';
import { CallScope } from './marshal.js';
import { throwIfFailed } from './status.js';
import type { PackedTexts } from '../shared/packed-texts.js';
import { normalizeRuns } from '../shared/text-normalize.js';
import { resolveTextOptions, type ResolvedTextOptions } from '../shared/text-options.js';
import type { TextOptions } from '../shared/types.js';
import { describe, iterate } from '../shared/validate.js';

/** Texts are encoded into WebAssembly memory and fingerprinted in batches of about this size. */
const BATCH_BYTES = 4 << 20;

const encoder = new TextEncoder();

interface Codes {
  /** Step 1 leaves ASCII capitals to this module (see `normalizeRuns`). */
  readonly lowercase: boolean;
  readonly unit: number;
  readonly weighting: number;
  readonly size: number;
  readonly seed: bigint;
}

function codes(options: ResolvedTextOptions): Codes {
  return {
    lowercase: options.lowercase,
    unit: options.unit === 'word' ? 0 : 1,
    weighting: options.weighting === 'tf' ? 0 : 1,
    size: options.size,
    // The i64 parameter takes the bit pattern.
    seed: BigInt.asIntN(64, options.seed),
  };
}

/**
 * Writes `texts` as UTF-8, back to back, into a fresh allocation of `scope`, with ASCII
 * capitals lowered when `lowercaseAscii` (texts normalised by runs leave them to this step);
 * returns the allocation and the offsets of each text (one more than there are texts). MinHash
 * reuses it.
 */
export function encode(scope: CallScope, live: WasmExports, texts: readonly string[], lowercaseAscii = false): { ptr: number; offsets: Uint32Array } {
  // Texts through step 1 already always fit: no null.
  return writeTexts(scope, live, texts, lowercaseAscii, undefined)!;
}

/**
 * {@link encode} of texts not yet through step 1: each is written as it is and kept if it was
 * ASCII, where step 1 changes nothing but capitals (lowered here, as `lowercase` says);
 * otherwise it is written again, normalised by runs (`normalizeRuns`). Looking for non-ASCII
 * code units with a regular expression first cost a tenth of the whole text path on English.
 * When a normalised text outgrows the room (NFKC lengthens a few code points manyfold), every
 * text is normalised first and written again.
 */
export function encodeRaw(
  scope: CallScope,
  live: WasmExports,
  texts: readonly string[],
  options: ResolvedTextOptions,
): { ptr: number; offsets: Uint32Array } {
  return (
    writeTexts(scope, live, texts, options.lowercase, options) ??
    encode(scope, live, texts.map((text) => normalizeRuns(text, options)), options.lowercase)
  );
}

/** {@link encode}, or with `stepOne` {@link encodeRaw}. */
function writeTexts(
  scope: CallScope,
  live: WasmExports,
  texts: readonly string[],
  lowercaseAscii: boolean,
  stepOne: ResolvedTextOptions | undefined,
): { ptr: number; offsets: Uint32Array } | null {
  let capacity = 0;
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  for (const text of texts) capacity += 3 * text.length;
  const ptr = scope.alloc(capacity, 'texts');
  const offsets = new Uint32Array(texts.length + 1);
  const u8 = memoryViews(live).u8;
  let written = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    if (text.length > 0) {
      const room = u8.subarray(ptr + written, ptr + capacity);
      // A text seen to hold non-ASCII (Chinese, Russian) is normalised before it is written:
      // written first, it would be written twice.
      let done = stepOne === undefined || looksAscii(text) ? encoder.encodeInto(text, room) : undefined;
      // ASCII: every code unit read, one byte each (a text cut short by the room can have
      // written as many bytes as it has code units).
      if (stepOne !== undefined && (done === undefined || done.read !== text.length || done.written !== text.length)) {
        const normalized = normalizeRuns(text, stepOne);
        // Step 1 hands back the text itself when it changes nothing (every non-ASCII character
        // already its own NFKC and lower case): the bytes written are then already right.
        if (normalized !== text || done === undefined || done.read !== text.length) {
          done = encoder.encodeInto(normalized, room);
          if (done.read !== normalized.length) return null;
        }
      }
      written += done!.written;
    }
    offsets[i + 1] = written;
  }
  if (lowercaseAscii) live.sh_text_lowercase_ascii(ptr, written);
  return { ptr, offsets };
}

/** Whether `text` looks ASCII: its first 32 code units and 32 spread over the rest are. */
function looksAscii(text: string): boolean {
  const end = Math.min(text.length, 32);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) > 0x7f) return false;
  const step = Math.floor(text.length / 32);
  if (step > 1) for (let i = end; i < text.length; i += step) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Writes packed texts into a fresh allocation of `scope` as {@link encode} writes the texts they
 * stand for: the ASCII ones copied as they are, in runs between the others, which are
 * normalised and encoded here.
 */
export function encodePacked(scope: CallScope, live: WasmExports, packed: PackedTexts, options: ResolvedTextOptions): { ptr: number; offsets: Uint32Array } {
  const count = packed.ends.length;
  const strings = packed.strings.map((text, k) => normalizeRuns(text, options, `texts[${packed.stringAt[k]}]`));
  let capacity = packed.ascii.length;
  for (const text of strings) capacity += 3 * text.length;
  const ptr = scope.alloc(capacity, 'texts');
  const offsets = new Uint32Array(count + 1);
  const u8 = memoryViews(live).u8;
  let written = 0;
  let copied = 0;
  let first = 0;
  for (let k = 0; k <= strings.length; k++) {
    // Texts first..last-1 are ASCII, back to back in `packed.ascii`; text `last` is string k.
    const last = k < strings.length ? packed.stringAt[k]! : count;
    const end = last > 0 ? packed.ends[last - 1]! : 0;
    u8.set(packed.ascii.subarray(copied, end), ptr + written);
    for (let i = first; i < last; i++) offsets[i + 1] = written + packed.ends[i]! - copied;
    written += end - copied;
    copied = end;
    if (k === strings.length) break;
    if (strings[k]!.length > 0) written += encoder.encodeInto(strings[k]!, u8.subarray(ptr + written, ptr + capacity)).written;
    offsets[last + 1] = written;
    first = last + 1;
  }
  if (options.lowercase) live.sh_text_lowercase_ascii(ptr, written);
  return { ptr, offsets };
}

function fingerprintEncoded(
  write: (scope: CallScope, live: WasmExports) => { ptr: number; offsets: Uint32Array },
  count: number,
  c: Codes,
  out: BigUint64Array,
  at: number,
  operation: string,
): void {
  withInstance((live) => {
    const scope = new CallScope(live);
    try {
      const { ptr, offsets } = write(scope, live);
      const offsetsRegion = scope.u32(offsets, 'texts');
      const result = scope.alloc(count * 8);
      const status = live.sh_text_fingerprint_many(
        ptr,
        offsets[count]!,
        offsetsRegion.ptr,
        offsetsRegion.length,
        c.unit,
        c.size,
        c.weighting,
        c.seed,
        result,
      );
      throwIfFailed(status, operation);
      out.set(new BigUint64Array(live.memory.buffer, result, count), at);
    } finally {
      scope.release();
    }
  });
}

/** Fingerprints of `texts`, strings not yet through step 1, written to `out` from `at`. */
function fingerprintBatch(texts: readonly string[], options: ResolvedTextOptions, c: Codes, out: BigUint64Array, at: number, operation: string): void {
  fingerprintEncoded(
    (scope, live) => encodeRaw(scope, live, texts, options),
    texts.length,
    c,
    out,
    at,
    operation,
  );
}

/**
 * {@link fingerprintMany} of the texts `packed` stands for (see `packTexts`): what the pool's
 * workers run, so that ASCII texts are copied rather than decoded and encoded again.
 *
 * @throws {TypeError | RangeError} for bad options.
 */
export function fingerprintPacked(packed: PackedTexts, options?: TextOptions): BigUint64Array {
  const resolved = resolveTextOptions(options, 'fingerprintPacked');
  const c = codes(resolved);
  const out = new BigUint64Array(packed.ends.length);
  fingerprintEncoded((scope, live) => encodePacked(scope, live, packed, resolved), out.length, c, out, 0, 'fingerprintMany');
  return out;
}

/**
 * One fingerprint per text, in order. Texts are normalised in JavaScript where they need it
 * (only runs that step 1 can change: not ASCII, not otherwise settled), written as UTF-8 straight
 * into WebAssembly memory, and lowered, tokenised, shingled, hashed and folded there in
 * batches, with no boundary crossing per shingle.
 *
 * A text without tokens (empty, or punctuation only) gets `0n`; exclude such texts before
 * searching for pairs, where they would all be at distance 0 from each other.
 *
 * @example
 * const fps = fingerprintMany(['the quick brown fox', 'the quick brown fox!', 'lorem ipsum']);
 * numDifferingBits(fps[0], fps[1]); // 0
 * @throws {TypeError | RangeError} for an element that is not a string, or bad options.
 */
export function fingerprintMany(texts: readonly string[] | Iterable<string>, options?: TextOptions): BigUint64Array {
  const resolved = resolveTextOptions(options, 'fingerprintMany');
  const c = codes(resolved);
  if (texts === null || typeof texts !== 'object' || !(Symbol.iterator in texts)) {
    throw new TypeError(`texts must be an array or an iterable of strings, got ${describe(texts)}`);
  }
  const known = Array.isArray(texts) ? texts.length : undefined;
  let out = new BigUint64Array(known ?? 16);
  let count = 0;
  let batch: string[] = [];
  let batchUnits = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    if (count + batch.length > out.length) {
      const grown = new BigUint64Array(Math.max(out.length * 2, count + batch.length));
      grown.set(out.subarray(0, count));
      out = grown;
    }
    fingerprintBatch(batch, resolved, c, out, count, 'fingerprintMany');
    count += batch.length;
    batch = [];
    batchUnits = 0;
  };
  let index = 0;
  for (const text of iterate(texts, 'texts')) {
    // Step 1 runs as each batch is written (encodeRaw); only the type is checked here.
    if (typeof text !== 'string') throw new TypeError(`texts[${index}] must be a string, got ${describe(text)}`);
    index++;
    batch.push(text);
    batchUnits += 3 * text.length;
    if (batchUnits >= BATCH_BYTES) flush();
  }
  flush();
  return count === out.length ? out : out.slice(0, count);
}

/**
 * The fingerprint of one text: {@link fingerprintMany} of `[text]`.
 *
 * @example
 * fingerprint('The quick brown fox jumps over the lazy dog'); // a bigint
 * fingerprint('...'); // 0n: no tokens
 * @throws {TypeError | RangeError} if `text` is not a string, or bad options.
 */
export function fingerprint(text: string, options?: TextOptions): bigint {
  const resolved = resolveTextOptions(options, 'fingerprint');
  if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
  const out = new BigUint64Array(1);
  fingerprintBatch([text], resolved, codes(resolved), out, 0, 'fingerprint');
  return out[0]!;
}

/**
 * Positions in `fingerprints` (of `texts`, in order) of the texts without a single shingle.
 * Their fingerprint is `0n`, which is also, very rarely, that of a text with shingles: only
 * texts fingerprinted `0n` are checked, with one more pass over each.
 *
 * @throws {TypeError | RangeError} for bad options.
 */
export function featurelessPositions(texts: readonly string[], fingerprints: BigUint64Array, options?: TextOptions): Uint32Array {
  const found: number[] = [];
  for (let i = 0; i < fingerprints.length; i++) {
    if (fingerprints[i] === 0n && features(texts[i] ?? '', options).length === 0) found.push(i);
  }
  return Uint32Array.from(found);
}

/**
 * The shingle hashes the fingerprint of `text` folds: in order with repeats for
 * `weighting: 'tf'`, sorted and distinct for `'binary'`. For callers who weight or inspect the
 * features themselves (`computeWeighted` takes them with weights of your choosing).
 *
 * @throws {TypeError | RangeError} if `text` is not a string, or bad options.
 */
export function features(text: string, options?: TextOptions): BigUint64Array {
  const resolved = resolveTextOptions(options, 'features');
  const c = codes(resolved);
  const normalized = normalizeRuns(text, resolved);
  return withInstance((live) => {
    const scope = new CallScope(live);
    try {
      const { ptr, offsets } = encode(scope, live, [normalized], c.lowercase);
      const result = scope.alloc(8);
      const status = live.sh_text_features(ptr, offsets[1]!, c.unit, c.size, c.weighting, c.seed, result);
      throwIfFailed(status, 'features');
      const u32 = memoryViews(live).u32;
      const [featuresPtr, count] = [u32[result / 4]! >>> 0, u32[result / 4 + 1]! >>> 0];
      try {
        return new BigUint64Array(live.memory.buffer, featuresPtr, count).slice();
      } finally {
        live.sh_u64s_free(featuresPtr, count);
      }
    } finally {
      scope.release();
    }
  });
}
