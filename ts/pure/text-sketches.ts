/// <reference lib="esnext.disposable" preserve="true" />
/**
 * The length-adaptive decision (text decision specification v3, or v2) in plain TypeScript: the
 * twin of the Rust core's `adaptive` module, decision for decision. Short texts find candidates
 * by v3's lists (`text-short.ts`) or v2's prefix filtering over words ranked rarest first, both
 * missing no pair; texts with word-pair signatures find theirs in LSH bands. Only kept texts are
 * indexed.
 */

import {
  LINE_WORDS,
  RuleCode,
  LONG_BANDS,
  LONG_EQUAL,
  LONG_ROWS,
  NUM_PERM,
  PAIRS_TO_MEET_LONG,
  SHORT_WORDS,
  TextKind,
  decideSketched,
  wordlessOf,
  type DecideTextsOptions,
  type TextSketches as TextSketchesType,
  type TextSketchesConstructor,
} from '../shared/adaptive.js';
import type { MinHashDecisions } from '../shared/decide.js';
import { bandEqual, bandKey, equalPositions } from '../shared/minhash-bands.js';
import { normalizeRuns } from '../shared/text-normalize.js';
import { resolveTextOptions } from '../shared/text-options.js';
import { describe } from '../shared/validate.js';
import { sketch } from './minhash-sketch.js';
import { KEYED_WORDS } from './text-lines.js';
import { clash, shapeOf, type Shaped, type Token } from './text-shape.js';
import { ShortMatcher, consider as considerBest, type Best } from './text-short.js';
import { Vocabulary } from './text-vocabulary.js';
import { encode, shingleScratch, trimScratch, unitScratch } from './text-scratch.js';
import { hashShingles, sortDistinct } from './text-shingles.js';
import { hashWordUnits } from './text-units.js';
import { prepareSeed, xxh3 } from './xxh3.js';

const TEXT = resolveTextOptions(undefined, 'TextSketches');
const SEED = prepareSeed(TEXT.seed);

/**
 * The prefixes a set of `s` words is probed with (as the larger of a pair: s − ⌈2s/5⌉ + 1) and
 * indexed under (as the smaller: s − ⌈4s/7⌉ + 1), for Jaccard 2/5.
 */
const probePrefix = (s: number): number => s - Math.ceil((2 * s) / 5) + 1;
const indexPrefix = (s: number): number => s - Math.ceil((4 * s) / 7) + 1;

/** Common elements of two ascending lists. */
function common(x: Uint32Array, y: Uint32Array): number {
  let i = 0;
  let j = 0;
  let c = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      c++;
      i++;
      j++;
    } else if (x[i]! < y[j]!) i++;
    else j++;
  }
  return c;
}

/** Whether sets of `sx` and `sy` words with at most `overlap` in common can reach Jaccard 2/5. */
function reachable(sx: number, sy: number, overlap: number): boolean {
  return 5 * Math.min(sx, sy) >= 2 * Math.max(sx, sy) && 7 * overlap >= 2 * (sx + sy);
}

/**
 * Looks at the kept texts listed under the first `prefix` words of `x` in `lists` (larger ones
 * if `larger`, else no larger). A kept text is met first under the first word the two share, so
 * the words after it bound their overlap; one that cannot reach the threshold is passed over,
 * and bounds only shrink at later meetings.
 */
function among(
  x: Uint32Array,
  rank: number,
  order: Uint32Array,
  words: readonly Uint32Array[],
  prefix: number,
  lists: readonly number[][],
  larger: boolean,
  stamp: Int32Array,
  consider: (value: number, kept: number) => void,
): void {
  const sx = x.length;
  for (let i = 0; i < prefix; i++) {
    const list = lists[x[i]!]!;
    for (let e = 0; e < list.length; e += 3) {
      const kept = list[e]!;
      const sy = list[e + 1]!;
      const j = list[e + 2]!;
      if (sy > sx !== larger || !reachable(sx, sy, 1 + Math.min(sx - i - 1, sy - j - 1)) || stamp[kept] === rank) continue;
      stamp[kept] = rank;
      // Nothing before the first shared word is shared.
      const c = 1 + common(x.subarray(i + 1), words[order[kept]!]!.subarray(j + 1));
      const union = sx + sy - c;
      if (5 * c >= 2 * union) consider(c / union, kept);
    }
  }
}

/** The tokens of a text whose words are `sequence`, over its sorted word set `sorted`. */
function tokensOf(sequence: readonly (readonly [id: number, hyphen: boolean])[], sorted: Uint32Array, vocabulary: Vocabulary): Token[] {
  return sequence.map(([id, hyphen]) => ({ position: sorted.indexOf(id), heavy: vocabulary.heavy(id), hyphen }));
}

/** Whether `rule` tells apart two texts of the same words by their shapes: lines by v3 with template siblings kept, whose shapes clash. */
function clashes(rule: number, x: Shaped, y: Shaped): boolean {
  return rule === RuleCode.v3 && x.words.length < LINE_WORDS && clash(x, y, undefined, () => true, () => true);
}

/** {@link TextSketches} of this entry. */
class PureTextSketches implements TextSketchesType {
  #kinds: number[] = [];
  /** Short texts' word ids (distinct, in no order); `null` for the others. */
  #words: (Uint32Array | null)[] = [];
  /** Texts' shapes over their sorted word sets (empty past {@link KEYED_WORDS} words). */
  #shapes: Uint16Array[] = [];
  readonly #vocabulary = new Vocabulary(TEXT.seed);
  /** Word-pair signatures, `null` for texts without one. */
  #signatures: (Uint32Array | null)[] = [];
  #freed = false;

  /** Number of texts added. */
  get length(): number {
    return this.#kinds.length;
  }

  /**
   * Sketches `texts` after those added before, normalised as `fingerprintMany` normalises them.
   *
   * @throws {TypeError} for an element that is not a string (then none is added), or once freed.
   */
  add(texts: readonly string[]): void {
    if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${describe(texts)}`);
    this.#live();
    const normalized = texts.map((text, i) => normalizeRuns(text, TEXT, `texts[${i}]`));
    const before = this.length;
    try {
      for (const text of normalized) this.#addOne(text);
    } catch (error) {
      // A call that throws (out of memory) adds no text; its words stay, held by none.
      this.#kinds.length = this.#words.length = this.#shapes.length = this.#signatures.length = before;
      throw error;
    } finally {
      trimScratch();
    }
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
      // A word keeps the `+` and `#` signs right after its token (`c`, `c++`, `c#`).
      const vocabulary = this.#vocabulary;
      const bytes = encoded.bytes;
      const ids: number[] = [];
      // Each token's word, and whether a hyphen alone comes before it.
      const sequence: [id: number, hyphen: boolean][] = [];
      let previousEnd = -1;
      for (let i = 0; i < count; i++) {
        const [start, end] = [ranges[2 * i]!, ranges[2 * i + 1]!];
        let signed = end;
        while (signed < encoded.length && (bytes[signed] === 0x2b || bytes[signed] === 0x23)) signed++;
        const hash = signed === end ? units.getBigUint64(8 * i, true) : xxh3(bytes.subarray(start, signed), TEXT.seed);
        const id = vocabulary.id(hash) ?? vocabulary.insert(hash, bytes.slice(start, signed), end - start);
        if (!ids.includes(id)) ids.push(id);
        sequence.push([id, previousEnd >= 0 && start === previousEnd + 1 && bytes[previousEnd] === 0x2d]);
        previousEnd = signed;
      }
      const distinctPairs = sortDistinct(shingles, pairs);
      const words = Uint32Array.from(ids);
      const shape = words.length <= KEYED_WORDS ? shapeOf(tokensOf(sequence, words.slice().sort(), vocabulary)) : new Uint16Array(0);
      if (distinctPairs >= PAIRS_TO_MEET_LONG) this.#push(TextKind.shortWithPairs, words, shape, sign(distinctPairs));
      else this.#push(TextKind.short, words, shape, null);
    } else {
      this.#push(TextKind.long, null, new Uint16Array(0), sign(pairs));
    }
  }

  #push(kind: number, words: Uint32Array | null, shape: Uint16Array, signature: Uint32Array | null): void {
    this.#kinds.push(kind);
    this.#words.push(words);
    this.#shapes.push(shape);
    this.#signatures.push(signature);
  }

  /** Positions of the texts added that have no word: `decide` keeps them and compares none. */
  wordless(): Uint32Array {
    this.#live();
    return wordlessOf(Uint8Array.from(this.#kinds));
  }

  /**
   * The decisions over every text added, by the rule of `decideTexts`: texts taken by
   * descending `options.priority` (input order by default), each removed for the most similar
   * kept text or kept.
   *
   * @throws {TypeError | RangeError} for a bad priority, or once freed.
   */
  decide(options?: DecideTextsOptions): MinHashDecisions {
    this.#live();
    return decideSketched(this.length, options, (order, rule) => this.#decideInOrder(order, rule));
  }

  #decideInOrder(order: Uint32Array, rule: number): MinHashDecisions {
    const n = this.length;
    if (order.length !== n) throw new RangeError(`order must name each of the ${n} texts once, got ${order.length} positions`);
    const stamp = new Int32Array(n).fill(-1);
    for (let rank = 0; rank < n; rank++) {
      const position = order[rank]!;
      if (!(position < n) || stamp[position] !== -1) throw new RangeError(`order must name each of the ${n} texts once`);
      stamp[position] = rank;
    }
    stamp.fill(-1);
    const v2 = rule === RuleCode.v2;
    const words = this.#sets(v2);
    // Word rank → (kept rank, its size, the word's position in it) triples, for v2.
    const indexed: number[][] = v2 ? Array.from({ length: this.#vocabulary.length }, () => []) : [];
    const probed: number[][] = v2 ? Array.from({ length: this.#vocabulary.length }, () => []) : [];
    const text = (p: number): Shaped => ({ words: words[p]!, shape: this.#shapes[p]! });
    const matcher = v2 ? null : new ShortMatcher(this.#vocabulary, n, rule === RuleCode.v3Templates, (kept) => text(order[kept]!));
    const buckets = new Map<number, number[]>();
    const keptSets = new Map<string, number>();
    const keys = new Uint32Array(LONG_BANDS);
    const representative = new Uint32Array(n);
    const similarity = new Float64Array(n);
    for (let rank = 0; rank < n; rank++) {
      const p = order[rank]!;
      const kind = this.#kinds[p]!;
      representative[p] = p;
      similarity[p] = 1;
      if (kind === TextKind.wordless) continue;
      const best: Best = { similarity: -1, kept: -1 };
      const consider = (value: number, kept: number): void => considerBest(best, value, kept);
      const short = kind !== TextKind.long;
      const x = words[p]!;
      // A kept text of the same words is the best a short text can find among short ones (lines
      // of the same words may still clash in shape).
      const twin = short ? keptSets.get(x.join()) : undefined;
      if (twin !== undefined && !clashes(rule, text(p), text(order[twin]!))) consider(1, twin);
      else if (short && matcher !== null) matcher.find(text(p), rank, best);
      else if (short) {
        // Kept sets no larger under their index prefix, kept sets larger under their probe
        // prefix: the sizes part the two, so no text is looked at twice.
        among(x, rank, order, words, probePrefix(x.length), indexed, false, stamp, consider);
        among(x, rank, order, words, indexPrefix(x.length), probed, true, stamp, consider);
      }
      const signature = this.#signatures[p]!;
      if (signature !== null) {
        for (let band = 0; band < LONG_BANDS; band++) {
          keys[band] = bandKey(signature, 0, band, LONG_ROWS);
          for (const kept of buckets.get(keys[band]!) ?? []) {
            const other = order[kept]!;
            const theirs = this.#signatures[other]!;
            if (stamp[kept] === rank || !bandEqual(signature, 0, theirs, 0, band, LONG_ROWS)) continue;
            stamp[kept] = rank;
            // Two short texts are judged by their words alone.
            if (short && this.#kinds[other] !== TextKind.long) continue;
            const equal = equalPositions(signature, 0, theirs, 0, NUM_PERM);
            if (equal >= LONG_EQUAL) consider(equal / NUM_PERM, kept);
          }
        }
      }
      if (short) matcher?.count(x, rank);
      if (best.kept >= 0) {
        representative[p] = order[best.kept]!;
        similarity[p] = best.similarity;
        continue;
      }
      if (short) {
        if (!keptSets.has(x.join())) keptSets.set(x.join(), rank);
        if (matcher !== null) matcher.keep(x, rank);
        else {
          for (let j = 0; j < indexPrefix(x.length); j++) indexed[x[j]!]!.push(rank, x.length, j);
          for (let j = 0; j < probePrefix(x.length); j++) probed[x[j]!]!.push(rank, x.length, j);
        }
      }
      if (signature !== null) {
        for (const key of keys) {
          const bucket = buckets.get(key);
          if (bucket === undefined) buckets.set(key, [rank]);
          else if (bucket[bucket.length - 1] !== rank) bucket.push(rank);
        }
      }
    }
    return { representative, similarity };
  }

  /**
   * Each short text's word set, ascending: by v3 its words' ids; by v2 its tokens' (the words'
   * bases) ranks by rarity (fewest short texts first, ties by first appearance), which keeps
   * common tokens out of prefixes.
   */
  #sets(v2: boolean): Uint32Array[] {
    if (!v2) return this.#words.map((ids) => (ids === null ? new Uint32Array(0) : Uint32Array.from(ids).sort()));
    const base = this.#vocabulary.base;
    const tokens = this.#words.map((ids) => (ids === null ? [] : [...new Set(Array.from(ids, (id) => base[id]!))]));
    const frequency = new Uint32Array(base.length);
    for (const set of tokens) for (const token of set) frequency[token]!++;
    const rankOf = new Uint32Array(base.length);
    Array.from(frequency.keys())
      .sort((a, b) => frequency[a]! - frequency[b]! || a - b)
      .forEach((id, rank) => (rankOf[id] = rank));
    return tokens.map((set) => Uint32Array.from(set, (token) => rankOf[token]!).sort());
  }

  /** Releases the sketches; calling it again does nothing. */
  free(): void {
    this.#freed = true;
    this.#kinds = [];
    this.#words = [];
    this.#shapes = [];
    this.#signatures = [];
  }

  /** `free()`, for `using`. */
  [Symbol.dispose](): void {
    this.free();
  }

  #live(): void {
    if (this.#freed) throw new TypeError('these text sketches have been freed');
  }
}

/**
 * Texts sketched for `decideTexts`'s rule a batch at a time, so that a stream of texts need
 * not be held: `add` each batch, then `decide` once. `decideTexts(texts)` is `add(texts)` then
 * `decide()`.
 *
 * @example
 * const sketches = new TextSketches();
 * for (const batch of batches) sketches.add(batch);
 * const { representative } = sketches.decide();
 * sketches.free();
 */
export const TextSketches: TextSketchesConstructor = PureTextSketches;
/** An instance of {@link TextSketches}. */
export type TextSketches = TextSketchesType;
