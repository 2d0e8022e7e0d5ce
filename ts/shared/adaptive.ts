/**
 * The length-adaptive decision over texts (text decision specification v2): short texts are
 * compared by their sets of words, long ones by their sets of word pairs, each at the threshold
 * that finds edited copies at that length without joining unrelated texts. The rule and its
 * constants are measured by `npm run quality` (docs/adaptive.md).
 */

import { KeptBands, equalPositions, exactJaccard, minEqual } from './minhash-bands.js';
import { planMinHashLsh } from './minhash-plan.js';
import type { MinHashOptions } from './minhash-types.js';
import { takingOrder, type MinHashDecisions, type PriorityOption } from './decide.js';
import type { TextOptions, U64Input } from './types.js';
import { checkOptions, describe } from './validate.js';

/** The version of the text decision specification `decideTexts` implements. */
export const TEXT_DECISION_VERSION = 2;

/** A text with at most this many distinct words is short. */
export const SHORT_WORDS = 40;
/** Exact Jaccard similarity of their word sets that makes two short texts near-duplicates. */
export const SHORT_THRESHOLD = 0.4;
/** Estimated Jaccard similarity of their word-pair sets that makes two texts near-duplicates. */
export const LONG_THRESHOLD = 0.62;
/** Signature positions of both kinds. */
const NUM_PERM = 128;
/** LSH bands planned to miss few pairs: every candidate is checked, so extra ones cost only time. */
const WEIGHTS = { numPerm: NUM_PERM, falsePositiveWeight: 0.1, falseNegativeWeight: 0.9 } as const;
const SHORT_PLAN = planMinHashLsh({ threshold: SHORT_THRESHOLD, ...WEIGHTS });
const LONG_PLAN = planMinHashLsh({ threshold: LONG_THRESHOLD, ...WEIGHTS });

/** What the adaptive decision needs of an entry. */
export interface TextEngine {
  readonly features: (text: string, options?: TextOptions) => BigUint64Array;
  readonly minhashMany: {
    (texts: readonly string[], options?: MinHashOptions): Uint32Array;
    (features: U64Input, offsets: Uint32Array, options?: MinHashOptions): Uint32Array;
  };
}

/** The sketches of a batch of texts for the adaptive decision. */
export interface TextSketches {
  /** Signatures of every text's word pairs, 128 positions each, back to back. */
  readonly long: Uint32Array;
  /** The sorted, distinct word hashes of each short text; `null` for long ones. */
  readonly words: readonly (BigUint64Array | null)[];
  /** Signatures of the short texts' words, in the order of the short texts. */
  readonly short: Uint32Array;
}

/**
 * The sketches of `texts`: word-pair signatures for all, and for each short text its word set
 * and the signature of that set. A text without a word has an empty word set and is short.
 */
export function sketchTexts(engine: TextEngine, texts: readonly string[]): TextSketches {
  const long = engine.minhashMany(texts, { size: 2, numPerm: NUM_PERM });
  const words = texts.map((text) => {
    const set = engine.features(text, { size: 1, weighting: 'binary' });
    return set.length <= SHORT_WORDS ? set : null;
  });
  const shortSets = words.filter((set): set is BigUint64Array => set !== null);
  const offsets = new Uint32Array(shortSets.length + 1);
  shortSets.forEach((set, i) => (offsets[i + 1] = offsets[i]! + set.length));
  const all = new BigUint64Array(offsets[shortSets.length]!);
  shortSets.forEach((set, i) => all.set(set, offsets[i]!));
  const short = engine.minhashMany(all, offsets, { numPerm: NUM_PERM });
  return { long, words, short };
}

/** Options of `decideTexts`: only the priority; the rest is the specification's. */
export type DecideTextsOptions = PriorityOption;

/**
 * `decideTexts` of either entry: {@link sketchTexts}, then {@link decideSketches}.
 *
 * @throws {TypeError | RangeError} for texts that are not strings, or a bad priority.
 */
export function decideTextsWith(engine: TextEngine, texts: unknown, options?: DecideTextsOptions): MinHashDecisions {
  if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${describe(texts)}`);
  texts.forEach((text: unknown, i) => {
    if (typeof text !== 'string') throw new TypeError(`texts[${i}] must be a string, got ${describe(text)}`);
  });
  const o = options === undefined ? {} : (checkOptions(options) as DecideTextsOptions);
  const order = takingOrder(o.priority, texts.length);
  return decideSketches(sketchTexts(engine, texts as string[]), order);
}

/**
 * The rule of `decide` over texts sketched by {@link sketchTexts}, taken in `order`. Two texts
 * are near-duplicates when both are short and the exact Jaccard similarity of their word sets
 * reaches {@link SHORT_THRESHOLD}, or when one is long and the estimated similarity of their
 * word-pair sets reaches {@link LONG_THRESHOLD}; candidates are the kept texts that share an
 * LSH band of the signature the pair is judged by. A removed text points to the most similar
 * kept one (ties to the one taken first); `similarity` is the measure it was judged by.
 */
export function decideSketches(sketches: TextSketches, order: Uint32Array): MinHashDecisions {
  const n = sketches.words.length;
  const k = NUM_PERM;
  const representative = new Uint32Array(n);
  const similarity = new Float64Array(n);
  const shortAt = new Int32Array(n).fill(-1);
  for (let i = 0, s = 0; i < n; i++) if (sketches.words[i] !== null) shortAt[i] = s++ * k;
  const longBands = new KeptBands(LONG_PLAN.bands, LONG_PLAN.rows);
  const shortBands = new KeptBands(SHORT_PLAN.bands, SHORT_PLAN.rows);
  const seenLong = new Int32Array(n).fill(-1);
  const seenShort = new Int32Array(n).fill(-1);
  const neededLong = minEqual(LONG_THRESHOLD, k);
  for (let rank = 0; rank < n; rank++) {
    const position = order[rank]!;
    const words = sketches.words[position]!;
    let best = -1;
    let bestSimilarity = -1;
    const consider = (candidate: number, value: number): void => {
      if (value > bestSimilarity || (value === bestSimilarity && candidate < best)) [best, bestSimilarity] = [candidate, value];
    };
    // A text without a word is kept, and never compared.
    const wordless = words !== null && words.length === 0;
    if (wordless) {
      representative[position] = position;
      similarity[position] = 1;
      continue;
    }
    longBands.candidates(sketches.long, position * k, (r) => order[r]! * k, seenLong, rank, (candidate) => {
      const other = order[candidate]!;
      // Two short texts are judged by their words alone.
      if (words !== null && sketches.words[other] !== null) return;
      const equal = equalPositions(sketches.long, position * k, sketches.long, other * k, k);
      if (equal >= neededLong) consider(candidate, equal / k);
    });
    if (words !== null) {
      shortBands.candidates(sketches.short, shortAt[position]!, (r) => shortAt[order[r]!]!, seenShort, rank, (candidate) => {
        const otherWords = sketches.words[order[candidate]!]!;
        // Sets whose sizes differ more than the threshold allows cannot reach it.
        if (Math.min(words.length, otherWords.length) < SHORT_THRESHOLD * Math.max(words.length, otherWords.length)) return;
        const value = exactJaccard(words, otherWords);
        if (value >= SHORT_THRESHOLD) consider(candidate, value);
      });
    }
    if (best < 0) {
      representative[position] = position;
      similarity[position] = 1;
      longBands.addLast(rank);
      if (words !== null) shortBands.addLast(rank);
    } else {
      representative[position] = order[best]!;
      similarity[position] = bestSimilarity;
    }
  }
  return { representative, similarity };
}
