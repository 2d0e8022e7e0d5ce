/// <reference lib="esnext.disposable" preserve="true" />
/**
 * `TextSketches` of the pure entry: texts sketched a batch at a time (`text-store.ts`), then
 * decided in priority order by the rule (`text-decider.ts`), the twin of the Rust core's.
 */

import { RuleCode, decideSketched, wordlessOf, type DecideTextsOptions, type TextSketches as TextSketchesType, type TextSketchesConstructor } from '../shared/adaptive.js';
import type { MinHashDecisions } from '../shared/decide.js';
import { describe } from '../shared/validate.js';
import { Decider } from './text-decider.js';
import type { Best } from './text-short.js';
import { SketchStore } from './text-store.js';

/** {@link TextSketches} of this entry. */
class PureTextSketches implements TextSketchesType {
  #store = new SketchStore();
  #freed = false;

  /** Number of texts added. */
  get length(): number {
    return this.#store.length;
  }

  /**
   * Sketches `texts` after those added before, normalised as `fingerprintMany` normalises them.
   *
   * @throws {TypeError} for an element that is not a string (then none is added), or once freed.
   */
  add(texts: readonly string[]): void {
    if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${describe(texts)}`);
    this.#live();
    this.#store.add(texts);
  }

  /** Positions of the texts added that have no word: `decide` keeps them and compares none. */
  wordless(): Uint32Array {
    this.#live();
    return wordlessOf(Uint8Array.from(this.#store.kinds));
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
    const seen = new Uint8Array(n);
    for (const position of order) {
      if (!(position < n) || seen[position] === 1) throw new RangeError(`order must name each of the ${n} texts once`);
      seen[position] = 1;
    }
    const store = this.#store;
    const decider = new Decider(rule, { store, order, ...(rule === RuleCode.v2 ? { sets: v2Sets(store) } : {}) });
    const representative = new Uint32Array(n);
    const similarity = new Float64Array(n);
    for (let rank = 0; rank < n; rank++) {
      const best: Best = { similarity: -1, kept: -1 };
      decider.find(rank, best);
      decider.take(rank, best.kept < 0);
      const p = order[rank]!;
      representative[p] = best.kept < 0 ? p : order[best.kept]!;
      similarity[p] = best.kept < 0 ? 1 : best.similarity;
    }
    return { representative, similarity };
  }

  /** Releases the sketches; calling it again does nothing. */
  free(): void {
    this.#freed = true;
    this.#store = new SketchStore();
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
 * Each short text's tokens (its words' bases) as ranks by rarity, ascending (fewest short texts
 * first, ties by first appearance): the word sets of specification v2, which keep common tokens
 * out of prefixes.
 */
function v2Sets(store: SketchStore): Uint32Array[] {
  const base = store.vocabulary.base;
  const tokens = store.words.map((ids) => (ids === null ? [] : [...new Set(Array.from(ids, (id) => base[id]!))]));
  const frequency = new Uint32Array(base.length);
  for (const set of tokens) for (const token of set) frequency[token]!++;
  const rankOf = new Uint32Array(base.length);
  Array.from(frequency.keys())
    .sort((a, b) => frequency[a]! - frequency[b]! || a - b)
    .forEach((id, rank) => (rankOf[id] = rank));
  return tokens.map((set) => Uint32Array.from(set, (token) => rankOf[token]!).sort());
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
