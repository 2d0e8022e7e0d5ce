/// <reference lib="esnext.disposable" preserve="true" />
/** `TextIndex` of the pure entry: the store and decider of `decideTexts`, kept between batches. */

import { RuleCode } from '../shared/adaptive.js';
import type { MinHashDecisions } from '../shared/decide.js';
import { checkIndexBytes } from '../shared/index-format.js';
import { checkDecideMany, checkId, removesTemplates, type TextIndex as TextIndexType, type TextIndexConstructor, type TextIndexOptions, type TextQueryResult } from '../shared/text-index.js';
import { decodeTextIndex, encodeTextIndex, textIndexFormatError } from '../shared/text-index-format.js';
import { describe } from '../shared/validate.js';
import { Decider } from './text-decider.js';
import type { Best } from './text-short.js';
import { SketchStore } from './text-store.js';

/** Per text taken: 0 removed as a near-duplicate, 1 kept, 2 kept then removed (the saved states). */
const enum State {
  Duplicate = 0,
  Kept = 1,
  Removed = 2,
}

/** {@link TextIndex} of this entry. */
class PureTextIndex implements TextIndexType {
  readonly templates: 'keep' | 'remove';
  #store = new SketchStore();
  #decider: Decider;
  /** Per text taken (by rank): its id and state. */
  #ids: number[] = [];
  #states: State[] = [];
  /** Id → the rank of the kept text holding it. */
  #byId = new Map<number, number>();
  #freed = false;

  /**
   * An empty index deciding by the rule of `decideTexts`.
   *
   * @throws {TypeError | RangeError} for invalid options.
   */
  constructor(options?: TextIndexOptions) {
    this.templates = removesTemplates(options) ? 'remove' : 'keep';
    this.#decider = this.#newDecider();
  }

  #newDecider(): Decider {
    return new Decider(this.templates === 'remove' ? RuleCode.v3Templates : RuleCode.v3, { store: this.#store });
  }

  /**
   * The index saved in `bytes` by `save()` of either entry.
   *
   * @throws {TypeError} unless `bytes` is a `Uint8Array`.
   * @throws {IndexFormatError} for bytes that are not a saved text index.
   */
  static load(bytes: Uint8Array): TextIndexType {
    const checked = checkIndexBytes(bytes);
    const columns = decodeTextIndex(checked);
    const store = SketchStore.fromColumns(columns);
    if (store === undefined) throw textIndexFormatError('contents', checked);
    const index = new PureTextIndex(columns.templates ? { templates: 'remove' } : undefined);
    index.#store = store;
    index.#decider = index.#newDecider();
    index.#decider.grow(store.length);
    // Texts are taken again as they were, without being judged.
    columns.states.forEach((state, rank) => {
      const id = columns.ids[rank]!;
      index.#decider.take(rank, state !== State.Duplicate);
      index.#ids.push(id);
      index.#states.push(state);
      if (state === State.Removed) index.#decider.remove(rank);
      if (state !== State.Kept) return;
      if (index.#byId.has(id)) throw textIndexFormatError('ids', checked);
      index.#byId.set(id, rank);
    });
    return index;
  }

  get freed(): boolean {
    return this.#freed;
  }

  get size(): number {
    this.#live();
    return this.#byId.size;
  }

  get decided(): number {
    this.#live();
    return this.#ids.length;
  }

  has(id: number): boolean {
    this.#live();
    return this.#byId.has(checkId(id));
  }

  remove(id: number): boolean {
    this.#live();
    const rank = this.#byId.get(checkId(id));
    if (rank === undefined) return false;
    this.#decider.remove(rank);
    this.#states[rank] = State.Removed;
    this.#byId.delete(id);
    return true;
  }

  decideMany(ids: Uint32Array, texts: readonly string[]): MinHashDecisions {
    const representative = new Uint32Array(texts.length);
    const similarity = new Float64Array(texts.length);
    this.#takeAll(ids, texts, true, (q, best) => {
      representative[q] = best.kept < 0 ? ids[q]! : this.#ids[best.kept]!;
      similarity[q] = best.kept < 0 ? 1 : best.similarity;
    });
    return { representative, similarity };
  }

  addMany(ids: Uint32Array, texts: readonly string[]): void {
    this.#takeAll(ids, texts, false, () => undefined);
  }

  add(id: number, text: string): void {
    this.addMany(Uint32Array.of(checkId(id)), [text]);
  }

  /** Checks a batch, sketches it and takes its texts in order, found against the kept ones when `judged` (else kept). */
  #takeAll(ids: Uint32Array, texts: readonly string[], judged: boolean, taken: (q: number, best: Best) => void): void {
    this.#live();
    const checked = checkDecideMany(ids, texts, (id) => this.#byId.has(id));
    const before = this.#store.length;
    this.#store.add(checked.texts);
    this.#decider.grow(this.#store.length);
    checked.ids.forEach((id, q) => {
      const rank = before + q;
      const best: Best = { similarity: -1, kept: -1 };
      if (judged) this.#decider.find(rank, best);
      const keep = best.kept < 0;
      this.#decider.take(rank, keep);
      this.#ids.push(id);
      this.#states.push(keep ? State.Kept : State.Duplicate);
      if (keep) this.#byId.set(id, rank);
      taken(q, best);
    });
  }

  query(text: string): TextQueryResult {
    this.#live();
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
    const rank = this.#store.length;
    const words = this.#store.vocabulary.length;
    const best: Best = { similarity: -1, kept: -1, every: [] };
    try {
      this.#store.add([text], 'text');
      this.#decider.grow(rank + 1);
      this.#decider.find(rank, best);
    } finally {
      // Nothing of the text stays, its new words neither.
      this.#store.truncate(rank);
      this.#store.vocabulary.rollBack(words);
    }
    const every = best.every!.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    return { ids: Uint32Array.from(every, ([, k]) => this.#ids[k]!), similarity: Float64Array.from(every, ([s]) => s) };
  }

  save(): Uint8Array {
    this.#live();
    return encodeTextIndex(this.#store.columns(this.templates === 'remove', Uint32Array.from(this.#ids), Uint8Array.from(this.#states)));
  }

  free(): void {
    this.#freed = true;
    this.#store = new SketchStore();
    this.#decider = this.#newDecider();
    this.#byId = new Map();
    this.#ids = [];
    this.#states = [];
  }

  [Symbol.dispose](): void {
    this.free();
  }

  #live(): void {
    if (this.#freed) throw new TypeError('this TextIndex has been freed');
  }
}

/**
 * The rule of `decideTexts` as an index of kept texts: `decideMany` decides each new batch
 * against the texts kept before, as `decideTexts` would over the whole stream; `query` lists a
 * text's near-duplicates; `save` and `TextIndex.load` carry it across restarts.
 *
 * @example
 * using index = new TextIndex();
 * const { representative } = index.decideMany(Uint32Array.of(1, 2), ['Fix a crash on start', 'Fix the crash on start.']);
 * // representative: [1, 1]
 * const bytes = index.save(); // TextIndex.load(bytes) decides alike
 */
export const TextIndex: TextIndexConstructor = PureTextIndex;
/** An instance of {@link TextIndex}. */
export type TextIndex = TextIndexType;
