/**
 * The length-adaptive decision over texts (text decision specification v3; v2 selectable):
 * short texts are compared by their sets of words weighed by what they say, long ones by their
 * sets of word pairs, each at the threshold that finds edited copies at that length without
 * joining unrelated texts or different items. The rule and its
 * constants are measured by `npm run quality` (docs/adaptive.md); each entry implements it in
 * its own engine (the Rust core, or `ts/pure/text-sketches.ts`), and both are checked against
 * the rule by brute force.
 */

import type { MinHashDecisions, PriorityOption } from './decide.js';
import { PRIORITY_OPTION, takingOrder } from './decide.js';
import { checkOptions, describe, optionKeys } from './validate.js';

/** The version of the text decision specification `decideTexts` implements by default. */
export const TEXT_DECISION_VERSION = 3;

/** A text with at most this many distinct words is short. */
export const SHORT_WORDS = 40;
/** Specification v2: the exact Jaccard similarity of their word sets that makes two short texts near-duplicates. */
export const SHORT_THRESHOLD = 0.4;
/** Specification v3: what a heavy word weighs (any word but a common word, a number — ASCII digits, `v` and digits, or digits and `st`, `nd`, `rd` or `th`, bare or a release's). */
export const HEAVY_WEIGHT = 4;
/** Specification v3: what a light word weighs. */
export const LIGHT_WEIGHT = 1;
/** Specification v3: what a heavy word and its typo share of their weight (each keeps the rest apart). */
export const TYPO_SHARED = 3;
/** Specification v3: the fewest code points of a word that can be a typo of another. */
export const TYPO_CHARS = 3;
/** Specification v3: the most words one typo key lists, the first to come (a word arriving after them is no typo through that key). */
export const TYPO_KEY_WORDS = 64;
/** Specification v3: the weighted word-set similarity (numerator, denominator) that makes two short texts not judged as lines near-duplicates. */
export const THRESHOLD: readonly [number, number] = [7, 10];
/** Specification v3: the same, with `templates: 'remove'`. */
export const TEMPLATES_THRESHOLD: readonly [number, number] = [1, 2];
/**
 * Specification v3: a pair in which a text has fewer distinct words than this is judged as lines
 * (the same heavy words but for one typo). A line of a few words that replaces one names another
 * item; a description of this many words or more may have two words edited and say the same.
 */
export const LINE_WORDS = 20;
/**
 * Specification v3: a pair of sentences (both of {@link LINE_WORDS} words or more) lets each text
 * hold one heavy word the other lacks per this many distinct words of the smaller text.
 */
export const SUBSTITUTION_SPAN = 10;
/**
 * Specification v3: the most light words a pair judged as lines may hold on one side only, each
 * way, and no more than the heavy words the two share.
 */
export const LIGHT_CHANGES = 3;
/** Specification v3: the fewest heavy words a pair judged as lines must share for a typo to be forgiven. */
export const TYPO_CONTEXT = 2;
/**
 * Specification v3: a typo is forgiven in a pair judged as lines only while fewer than this many
 * kept lines besides the one judged hold the heavy words the pair shares and one heavy word more:
 * a template whose item several kept lines replace names an item with that word.
 */
export const TYPO_SIBLINGS = 1;
/**
 * Specification v3: the most entries a line's shape holds (its repeated heavy words and the heavy
 * words it joins by a hyphen or one light word); a text that says more clashes with no other.
 */
export const SHAPE_ENTRIES = 32;
/**
 * Specification v3: lines of the same words are told apart by their shapes while fewer than this
 * many kept lines hold a line's heavy words; past that, words alone decide.
 */
export const SHAPES_PER_WORD_SET = 8;
/**
 * Specification v3: two sentences (both of {@link LINE_WORDS} distinct words or more) are
 * compared only when they share a word fewer than this many kept sentences taken before hold;
 * a word in that many says little of a pair, and the bound keeps each sentence's work bounded
 * whatever the input holds.
 */
export const SENTENCES_PER_WORD = 64;
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

/** What a text is to the rule (the codes the engines keep per text). */
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

/** Options of `decideTexts`: the priority, and which rule judges short texts. */
export interface DecideTextsOptions extends PriorityOption {
  /**
   * The text decision specification: `3` (default) weighs words by what they say, forgives
   * typos and keeps template siblings; `2` is the earlier rule (word-set Jaccard ≥ 0.4).
   */
  readonly version?: 2 | 3;
  /**
   * Specification v3 only: `'keep'` (default) keeps short lines that name different items on
   * one template ("… entry for ajv" / "… entry for conf"); `'remove'` removes them too, at
   * weighted similarity ≥ 0.5, for one line per template. With `'remove'` a text is compared
   * with every kept text sharing a word, so time grows quadratically on inputs of few distinct
   * words (100,000 lines of 12 words from 2,000: minutes; docs/adaptive.md, "Speed").
   */
  readonly templates?: 'keep' | 'remove';
}

/** The names of {@link DecideTextsOptions}. */
export const DECIDE_TEXTS_OPTIONS = [...PRIORITY_OPTION, ...optionKeys<Omit<DecideTextsOptions, keyof PriorityOption>>({ version: true, templates: true })];

/** The rule codes the engines take: v3 keeping template siblings, v3 removing them, v2. */
export const RuleCode = { v3: 0, v3Templates: 1, v2: 2 } as const;

/** The rule code of checked options. */
function ruleCode(o: DecideTextsOptions): number {
  if (o.version !== undefined && o.version !== 2 && o.version !== 3) {
    throw new RangeError(`options.version must be 2 or 3, got ${describe(o.version)}`);
  }
  if (o.templates !== undefined && o.templates !== 'keep' && o.templates !== 'remove') {
    throw new RangeError(`options.templates must be 'keep' or 'remove', got ${describe(o.templates)}`);
  }
  if (o.version === 2) {
    if (o.templates !== undefined) throw new RangeError(`options.templates applies to specification v3 only, got version 2`);
    return RuleCode.v2;
  }
  return o.templates === 'remove' ? RuleCode.v3Templates : RuleCode.v3;
}

/**
 * Texts sketched for the length-adaptive decision, added a batch at a time so that a stream of
 * texts need not be held: a short text keeps its word set (a few hundred bytes), a long one a
 * 512-byte signature. Holds memory of its engine until {@link TextSketches.free}.
 */
export interface TextSketches {
  /** Number of texts added. */
  readonly length: number;
  /**
   * Sketches `texts` after those added before (normalised as the text specification v1 says).
   *
   * @throws {TypeError} for an element that is not a string (then none is added); {@link RangeError} when memory runs out.
   */
  add(texts: readonly string[]): void;
  /** Positions of the texts added that have no word: `decide` keeps them and compares none. */
  wordless(): Uint32Array;
  /**
   * The decisions over every text added, by the rule of `decideTexts`.
   *
   * @throws {TypeError | RangeError} for a bad priority.
   */
  decide(options?: DecideTextsOptions): MinHashDecisions;
  /** Releases the sketches; the object is unusable afterwards. Calling it again does nothing. */
  free(): void;
  [Symbol.dispose](): void;
}

/** The constructor of {@link TextSketches} in each entry. */
export interface TextSketchesConstructor {
  new (): TextSketches;
}

/**
 * `TextSketches.decide` of either entry: checks the options and takes the texts in priority
 * order; `decideInOrder` is the engine's rule (a {@link RuleCode}) over a checked order.
 */
export function decideSketched(length: number, options: unknown, decideInOrder: (order: Uint32Array, rule: number) => MinHashDecisions): MinHashDecisions {
  const o = options === undefined ? {} : (checkOptions(options, DECIDE_TEXTS_OPTIONS, 'TextSketches.decide') as DecideTextsOptions);
  const rule = ruleCode(o);
  return decideInOrder(takingOrder(o.priority, length), rule);
}

/** Positions of the texts of kind {@link TextKind.wordless} among `kinds`. */
export function wordlessOf(kinds: Uint8Array): Uint32Array {
  const out: number[] = [];
  kinds.forEach((kind, i) => kind === TextKind.wordless && out.push(i));
  return Uint32Array.from(out);
}


/**
 * `decideTexts` of either entry: sketch the texts, then the rule.
 *
 * @throws {TypeError | RangeError} for texts that are not strings, or a bad priority.
 */
export function decideTextsWith(Sketches: TextSketchesConstructor, texts: unknown, options?: DecideTextsOptions): MinHashDecisions {
  if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${describe(texts)}`);
  // Checked before the work, naming this call.
  if (options !== undefined) checkOptions(options, DECIDE_TEXTS_OPTIONS, 'decideTexts');
  texts.forEach((text: unknown, i) => {
    if (typeof text !== 'string') throw new TypeError(`texts[${i}] must be a string, got ${describe(text)}`);
  });
  const sketches = new Sketches();
  try {
    sketches.add(texts as string[]);
    return sketches.decide(options);
  } finally {
    sketches.free();
  }
}
