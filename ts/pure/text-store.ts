/**
 * What the length-adaptive rule keeps of each text, the twin of the Rust core's
 * `adaptive::sketch`: its kind, its word set when short (ids, ascending), its shape when it may
 * be judged as a line, its word-pair signature when it may meet a long text. One tokenisation
 * serves words and pairs.
 */

import { NUM_PERM, PAIRS_TO_MEET_LONG, SHORT_WORDS, TextKind } from '../shared/adaptive.js';
import { normalizeRuns } from '../shared/text-normalize.js';
import { resolveTextOptions } from '../shared/text-options.js';
import type { TextIndexColumns } from '../shared/text-index-format.js';
import { sketch } from './minhash-sketch.js';
import { KEYED_WORDS } from './text-lines.js';
import { NAME_MARK, NOT_A_NUMBER, RELEASE_MARK, digitsOf, inRelease, packsANumber } from './text-numbers.js';
import { shapeOf, type Shaped, type Token } from './text-shape.js';
import { Vocabulary } from './text-vocabulary.js';
import { encode, shingleScratch, trimScratch, unitScratch } from './text-scratch.js';
import { hashShingles, sortDistinct } from './text-shingles.js';
import { hashWordUnits } from './text-units.js';
import { prepareSeed, xxh3 } from './xxh3.js';

const TEXT = resolveTextOptions(undefined, 'TextSketches');
const SEED = prepareSeed(TEXT.seed);
const NO_SIGNATURE = 0xffff_ffff;

/** The tokens of a text whose words are `sequence`, over its sorted word set `sorted`. */
function tokensOf(sequence: readonly (readonly [id: number, hyphen: boolean])[], sorted: Uint32Array, vocabulary: Vocabulary): Token[] {
  return sequence.map(([id, hyphen]) => ({ position: sorted.indexOf(id), heavy: vocabulary.heavy(id), hyphen }));
}

/** The sketches of the texts added so far, in the order they were added. */
export class SketchStore {
  kinds: number[] = [];
  /** Short texts' word ids (distinct, ascending); `null` for the others. */
  words: (Uint32Array | null)[] = [];
  /** Texts' shapes over their word sets (empty past {@link KEYED_WORDS} words). */
  shapes: Uint16Array[] = [];
  /** Word-pair signatures, `null` for texts without one. */
  signatures: (Uint32Array | null)[] = [];
  vocabulary = new Vocabulary(TEXT.seed);

  get length(): number {
    return this.kinds.length;
  }

  /** The words (empty unless short) and shape of text `i`. */
  text(i: number): Shaped {
    return { words: this.words[i] ?? EMPTY, shape: this.shapes[i]! };
  }

  /**
   * Sketches `texts` after those added before, normalised as `fingerprintMany` normalises them
   * (`name` names the argument in errors). A call that throws adds no text.
   */
  add(texts: readonly string[], name = 'texts'): void {
    const normalized = texts.map((text, i) => normalizeRuns(text, TEXT, `${name}[${i}]`));
    const before = this.length;
    try {
      for (const text of normalized) this.#addOne(text);
    } catch (error) {
      // (Out of memory.) Its words stay, held by none.
      this.truncate(before);
      throw error;
    } finally {
      trimScratch();
    }
  }

  /** Forgets the texts after the first `len`; their words stay in the vocabulary, held by none. */
  truncate(len: number): void {
    this.kinds.length = this.words.length = this.shapes.length = this.signatures.length = Math.min(len, this.length);
  }

  #addOne(text: string): void {
    const encoded = encode(text, TEXT.lowercase);
    const units = unitScratch();
    const ranges: number[] = [];
    const count = hashWordUnits(encoded.bytes, encoded.view, encoded.length, SEED, units, ranges);
    const distinct: bigint[] = [];
    for (let i = 0; i < count && distinct.length <= SHORT_WORDS; i++) {
      const unit = units.getBigUint64(8 * i, true);
      if (!distinct.includes(unit)) distinct.push(unit);
    }
    const shingles = shingleScratch();
    const pairs = hashShingles(units, count, 2, SEED, shingles);
    const sign = (features: number): Uint32Array => {
      const out = new Uint32Array(NUM_PERM);
      sketch(shingles, 0, features, TEXT.seed, out, new Uint8Array(NUM_PERM));
      return out;
    };
    if (distinct.length === 0) {
      this.#push(TextKind.wordless, null, new Uint16Array(0), null);
    } else if (distinct.length <= SHORT_WORDS) {
      const { words, shape } = this.#wordsOf(encoded.bytes, encoded.length, units, ranges, count);
      const distinctPairs = sortDistinct(shingles, pairs);
      if (distinctPairs >= PAIRS_TO_MEET_LONG) this.#push(TextKind.shortWithPairs, words, shape, sign(distinctPairs));
      else this.#push(TextKind.short, words, shape, null);
    } else {
      this.#push(TextKind.long, null, new Uint16Array(0), sign(pairs));
    }
  }

  /**
   * A short text's word set and shape. A word keeps the `+` and `#` signs right after its token
   * (`c`, `c++`, `c#`); a shape notes hyphens between words.
   */
  #wordsOf(bytes: Uint8Array, length: number, units: DataView, ranges: readonly number[], count: number): { words: Uint32Array; shape: Uint16Array } {
    const vocabulary = this.vocabulary;
    const ids: number[] = [];
    // Each token's word, and whether a hyphen alone comes before it.
    const sequence: [id: number, hyphen: boolean][] = [];
    let previousEnd = -1;
    let previousRelease: number | undefined;
    const text = bytes.subarray(0, length);
    for (let i = 0; i < count; i++) {
      const [start, end] = [ranges[2 * i]!, ranges[2 * i + 1]!];
      let signed = end;
      while (signed < length && (bytes[signed] === 0x2b || bytes[signed] === 0x23)) signed++;
      const hyphen = previousEnd >= 0 && start === previousEnd + 1 && bytes[previousEnd] === 0x2d;
      const joinsNext = signed === end && bytes[end] === 0x2d && i + 1 < count && ranges[2 * i + 2] === end + 1;
      // A number in a release, and a name's part (a number a hyphen joins to the token before
      // it, or a common word that begins a compound: `non-parallel`), are words of their own:
      // each its token and a mark (text-numbers.ts).
      const number = signed === end && digitsOf(bytes.subarray(start, end)) !== undefined;
      const release = number && inRelease(text, start, end, previousRelease);
      const named = !release && ((hyphen && number) || (joinsNext && !hyphen && !number && vocabulary.isCommon(units.getBigUint64(8 * i, true))));
      previousRelease = release ? end : undefined;
      const word = release || named ? Uint8Array.of(...bytes.subarray(start, end), release ? RELEASE_MARK : NAME_MARK) : bytes.slice(start, signed);
      const hash = signed === end && !release && !named ? units.getBigUint64(8 * i, true) : xxh3(word, TEXT.seed);
      const id = vocabulary.id(hash) ?? vocabulary.insert(hash, word, end - start);
      if (!ids.includes(id)) ids.push(id);
      sequence.push([id, hyphen]);
      previousEnd = signed;
    }
    const words = Uint32Array.from(ids).sort();
    const shape = words.length <= KEYED_WORDS ? shapeOf(tokensOf(sequence, words, vocabulary)) : new Uint16Array(0);
    return { words, shape };
  }

  #push(kind: number, words: Uint32Array | null, shape: Uint16Array, signature: Uint32Array | null): void {
    this.kinds.push(kind);
    this.words.push(words);
    this.shapes.push(shape);
    this.signatures.push(signature);
  }

  /** The columns of the text index format, with each text's id and state. */
  columns(templates: boolean, ids: Uint32Array, states: Uint8Array): TextIndexColumns {
    const v = this.vocabulary;
    const ends = (lists: readonly ArrayLike<unknown>[]): Uint32Array => {
      let at = 0;
      return Uint32Array.from(lists, (list) => (at += list.length));
    };
    const signed = this.signatures.filter((s): s is Uint32Array => s !== null);
    const keys = v.typoKeys.map((own, id) => (v.number[id] !== NOT_A_NUMBER ? [v.number[id]!] : own));
    let next = 0;
    return {
      templates,
      hash: BigUint64Array.from(v.hash),
      base: Uint32Array.from(v.base),
      // A bare number is kind 2, its one key its packed digits.
      light: Uint8Array.from(v.light, (light, id) => (v.number[id] !== NOT_A_NUMBER ? NUMBER : light ? 1 : 0)),
      typoKeyEnds: ends(keys),
      typoKeys: BigUint64Array.from(keys.flat()),
      ids,
      states,
      kinds: Uint8Array.from(this.kinds),
      wordEnds: ends(this.words.map((w) => w ?? EMPTY)),
      words: Uint32Array.from(this.words.flatMap((w) => (w === null ? [] : Array.from(w)))),
      shapeEnds: ends(this.shapes),
      shapes: Uint16Array.from(this.shapes.flatMap((s) => Array.from(s))),
      signatureOf: Uint32Array.from(this.signatures, (s) => (s === null ? NO_SIGNATURE : next++)),
      signatures: Uint32Array.from(signed.flatMap((s) => Array.from(s))),
    };
  }

  /** The sketches of saved columns, or `undefined` when they are not what sketching makes. */
  static fromColumns(c: TextIndexColumns): SketchStore | undefined {
    const store = new SketchStore();
    const words = columnsFit(c) ? splitNumbers(c) : undefined;
    const vocabulary = words && Vocabulary.fromColumns(TEXT.seed, c.hash, c.base, words.light, words.number, words.typoKeyEnds, words.typoKeys);
    if (vocabulary === undefined) return undefined;
    store.vocabulary = vocabulary;
    let nextSignature = 0;
    for (let i = 0; i < c.ids.length; i++) {
      const words = c.words.slice(i === 0 ? 0 : c.wordEnds[i - 1]!, c.wordEnds[i]!);
      const shape = c.shapes.slice(i === 0 ? 0 : c.shapeEnds[i - 1]!, c.shapeEnds[i]!);
      const number = c.signatureOf[i]!;
      if (number !== NO_SIGNATURE && number !== nextSignature) return undefined;
      const signature = number === NO_SIGNATURE ? null : c.signatures.slice(NUM_PERM * nextSignature, NUM_PERM * ++nextSignature);
      const kind = c.kinds[i]!;
      if (!sketchFits(kind, words, shape, signature !== null, c.base)) return undefined;
      store.#push(kind, kind === TextKind.short || kind === TextKind.shortWithPairs ? words : null, shape, signature);
    }
    return nextSignature * NUM_PERM === c.signatures.length ? store : undefined;
  }
}

const EMPTY = new Uint32Array(0);

/** Whether `ends` never decreases and ends at `total`. */
function endsFit(ends: Uint32Array, total: number): boolean {
  for (let i = 1; i < ends.length; i++) if (ends[i]! < ends[i - 1]!) return false;
  return (ends.length === 0 ? 0 : ends[ends.length - 1]!) === total;
}

/** A word's kind in the columns: a bare number, whose one key is its packed digits. */
const NUMBER = 2;

/**
 * The words' lightness, packed numbers and typo keys apart, from the columns; `undefined` when a
 * bare number has other than one key or it packs no number.
 */
function splitNumbers(c: TextIndexColumns): { light: Uint8Array; number: bigint[]; typoKeyEnds: Uint32Array; typoKeys: BigUint64Array } | undefined {
  const number: bigint[] = [];
  const keys: bigint[] = [];
  const typoKeyEnds = new Uint32Array(c.light.length);
  for (let id = 0; id < c.light.length; id++) {
    const own = c.typoKeys.subarray(id === 0 ? 0 : c.typoKeyEnds[id - 1]!, c.typoKeyEnds[id]!);
    if (c.light[id] === NUMBER) {
      if (own.length !== 1 || !packsANumber(own[0]!)) return undefined;
      number.push(own[0]!);
    } else {
      number.push(NOT_A_NUMBER);
      keys.push(...own);
    }
    typoKeyEnds[id] = keys.length;
  }
  return { light: Uint8Array.from(c.light, (l) => (l >= 1 ? 1 : 0)), number, typoKeyEnds, typoKeys: BigUint64Array.from(keys) };
}

/** The checks of the columns' frame the checksum cannot vouch for (the Rust core's order). */
function columnsFit(c: TextIndexColumns): boolean {
  const v = c.hash.length;
  return (
    c.base.every((b, i) => b <= i) &&
    c.light.every((l) => l <= NUMBER) &&
    endsFit(c.typoKeyEnds, c.typoKeys.length) &&
    c.states.every((s) => s <= 2) &&
    endsFit(c.wordEnds, c.words.length) &&
    endsFit(c.shapeEnds, c.shapes.length) &&
    c.words.every((w) => w < v)
  );
}

/** Shape entries: a repeat, a joint, the overflow; their fields name positions of the words. */
const REPEAT = 0x8000;
const HYPHEN = 31;
const OVERFLOW = 0xffff;

/**
 * Whether a short text's words come from at most {@link SHORT_WORDS} tokens: a word with signs or
 * a mark (`c++`, `5.`, `1-`) has its token's word as its base, so a text of 40 tokens can hold
 * more words than that, never more bases.
 */
function fewTokens(words: Uint32Array, base: ArrayLike<number>): boolean {
  if (words.length <= SHORT_WORDS) return true;
  if (words.some((w) => w >= base.length)) return false;
  return new Set(Array.from(words, (w) => base[w]!)).size <= SHORT_WORDS;
}

/** Whether a text is what sketching makes: words by kind, distinct and ascending, a shape over them. */
function sketchFits(kind: number, words: Uint32Array, shape: Uint16Array, signed: boolean, base: ArrayLike<number>): boolean {
  const short = kind === TextKind.short || kind === TextKind.shortWithPairs;
  const kindFits = short
    ? words.length > 0 && fewTokens(words, base) && signed === (kind === TextKind.shortWithPairs)
    : (kind === TextKind.wordless || kind === TextKind.long) && words.length === 0 && signed === (kind === TextKind.long);
  const position = (p: number): boolean => (p & 0x1f) < words.length;
  const entryFits = (e: number): boolean => ((e & REPEAT) !== 0 ? position(e >> 10) : position(e >> 10) && position(e) && (((e >> 5) & 0x1f) === HYPHEN || position(e >> 5)));
  const shapeFits = shape.length === 0 || (words.length <= KEYED_WORDS && ((shape.length === 1 && shape[0] === OVERFLOW) || shape.every(entryFits)));
  return kindFits && shapeFits && words.every((w, i) => i === 0 || words[i - 1]! < w);
}
