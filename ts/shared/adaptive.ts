/**
 * The length-adaptive decision over texts (text decision specification v2): short texts are
 * compared by their sets of words, long ones by their sets of word pairs, each at the threshold
 * that finds edited copies at that length without joining unrelated texts. The rule and its
 * constants are measured by `npm run quality` (docs/adaptive.md); each entry implements it in
 * its own engine (the Rust core, or `ts/pure/text-sketches.ts`), and both are checked against
 * the rule by brute force.
 */

import type { MinHashDecisions, PriorityOption } from './decide.js';
import { takingOrder } from './decide.js';
import { checkOptions, describe } from './validate.js';

/** The version of the text decision specification `decideTexts` implements. */
export const TEXT_DECISION_VERSION = 2;

/** A text with at most this many distinct words is short. */
export const SHORT_WORDS = 40;
/** Exact Jaccard similarity of their word sets that makes two short texts near-duplicates. */
export const SHORT_THRESHOLD = 0.4;
/** Estimated Jaccard similarity of their word-pair sets that makes any other pair near-duplicates. */
export const LONG_THRESHOLD = 0.62;
/**
 * The fewest distinct word pairs a short text needs to be compared with a long one: a long
 * text has at least 40 distinct pairs, and similarity 0.62 needs the smaller set to hold 0.62
 * of the larger (⌈0.62 · 40⌉).
 */
export const PAIRS_TO_MEET_LONG = 25;
/** Positions of a word-pair signature. */
export const NUM_PERM = 128;
/** Equal positions that reach {@link LONG_THRESHOLD}: ⌈0.62 · 128⌉. */
export const LONG_EQUAL = 80;
/**
 * LSH bands of the word-pair signatures and rows per band: `planMinHashLsh({ threshold: 0.62,
 * numPerm: 128, falsePositiveWeight: 0.1, falseNegativeWeight: 0.9 })`, which misses about
 * 0.3 % of the area of the S-curve beyond the threshold.
 */
export const LONG_BANDS = 25;
/** See {@link LONG_BANDS}. */
export const LONG_ROWS = 5;

/** What a text is to the rule (the codes of `TextSketchSet.kinds`). */
export const TextKind = {
  /** No word: kept, never compared. */
  wordless: 0,
  /** Short, with fewer than {@link PAIRS_TO_MEET_LONG} distinct word pairs. */
  short: 1,
  /** Short, and signed by its word pairs to meet long texts. */
  shortWithPairs: 2,
  /** More than {@link SHORT_WORDS} distinct words. */
  long: 3,
} as const;

/**
 * Sketches of texts, added a batch at a time (texts need not outlive their batch), and the rule
 * over all of them. Holds memory of its engine until {@link TextSketchSet.free}.
 */
export interface TextSketchSet {
  /** Number of texts added. */
  readonly length: number;
  /**
   * Sketches `texts` (normalised as the text specification v1 says) after those added before.
   *
   * @throws {TypeError} for an element that is not a string; {@link RangeError} when memory runs out.
   */
  add(texts: readonly string[]): void;
  /** The {@link TextKind} code of every text, in the order added. */
  kinds(): Uint8Array;
  /**
   * The decisions over every text added, taken in `order` (a permutation of the texts, as
   * `takingOrder` makes): each removed text points to the most similar kept one.
   */
  decide(order: Uint32Array): MinHashDecisions;
  /** Releases the sketches; the set is unusable afterwards. */
  free(): void;
}

/** What the adaptive decision needs of an entry. */
export interface TextEngine {
  readonly textSketches: () => TextSketchSet;
}

/** Options of `decideTexts`: only the priority; the rest is the specification's. */
export type DecideTextsOptions = PriorityOption;

/**
 * `decideTexts` of either entry: sketch the texts, then the rule.
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
  const set = engine.textSketches();
  try {
    set.add(texts as string[]);
    return set.decide(order);
  } finally {
    set.free();
  }
}
