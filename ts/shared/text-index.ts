/// <reference lib="esnext.disposable" preserve="true" />
/**
 * `TextIndex`: the default rule of `decideTexts` as an index of kept texts, deciding texts as
 * they come. Each entry implements it in its own engine; the options, the checks of arguments
 * and the answers' shapes are shared here.
 */

import type { MinHashDecisions } from './decide.js';
import { checkOptions, describe, optionKeys } from './validate.js';

/** Options of `new TextIndex(options)`. */
export interface TextIndexOptions {
  /**
   * `'keep'` (default) keeps short lines that name different items on one template; `'remove'`
   * removes them too, as `decideTexts(texts, { templates: 'remove' })` does.
   */
  readonly templates?: 'keep' | 'remove';
}

/** The names of {@link TextIndexOptions}. */
export const TEXT_INDEX_OPTIONS = optionKeys<TextIndexOptions>({ templates: true });

/** What `TextIndex.query` found: the kept texts' ids, most similar first, and each similarity. */
export interface TextQueryResult {
  readonly ids: Uint32Array;
  readonly similarity: Float64Array;
}

/**
 * Kept texts under ids, deciding each new text against them by the rule of `decideTexts`
 * (text decision specification v3). Decisions are the batch's: `decideMany` over any split of
 * a stream into batches equals `decideTexts` over the whole stream in that order (positions
 * as ids). Every text decided, kept or not, holds memory: its word set or signature, and the
 * counts of words that decide typos.
 */
export interface TextIndex {
  /** Number of kept texts. */
  readonly size: number;
  /** Number of texts decided, kept or not. */
  readonly decided: number;
  /** Whether template siblings are kept (`'keep'`) or removed too. */
  readonly templates: 'keep' | 'remove';
  /** `true` once `free()` has run; every other use then throws a `TypeError`. */
  readonly freed: boolean;
  /**
   * Decides `texts` in order: text q is removed as a near-duplicate of the most similar kept
   * text (ties to the one kept first) — of the index, or of the batch before it — or kept and
   * added under `ids[q]`. `representative[q]` is that kept text's id, or `ids[q]` when kept;
   * `similarity[q]` the similarity, or 1.
   *
   * @throws {TypeError} unless `ids` is a `Uint32Array` and `texts` an array of strings.
   * @throws {RangeError} when the lengths differ, or an id is held by a kept text or named twice
   * in the batch (nothing is decided then); or when memory runs out (the WebAssembly entry
   * decides a batch in pieces of about 4 MB of text, and the pieces before stay decided).
   */
  decideMany(ids: Uint32Array, texts: readonly string[]): MinHashDecisions;
  /**
   * Keeps `texts` under `ids` without judging them, even where a kept text is a near-duplicate
   * (for seeding an index with texts that must stay); later texts are judged against them. Each
   * is counted as every text taken is.
   *
   * @throws As {@link TextIndex.decideMany}.
   */
  addMany(ids: Uint32Array, texts: readonly string[]): void;
  /** {@link TextIndex.addMany} of one text. */
  add(id: number, text: string): void;
  /**
   * The kept texts the rule calls near-duplicates of `text`, most similar first (ties to the one
   * kept first): the first is the one `decideMany` would remove it for. Adds nothing.
   */
  query(text: string): TextQueryResult;
  /** Whether a kept text holds `id`. */
  has(id: number): boolean;
  /**
   * Removes the kept text `id`: no text is removed for it from now on, and its id is free. What
   * it taught the index (how many texts hold each of its words, which decides typos) stays.
   * Returns whether a kept text held `id`.
   */
  remove(id: number): boolean;
  /** The index as bytes in the text index format of docs/specifications.md; load with `TextIndex.load`. */
  save(): Uint8Array;
  /** Releases the index. Idempotent. */
  free(): void;
  /** Same as {@link TextIndex.free}, for `using` declarations. */
  [Symbol.dispose](): void;
}

/** The `TextIndex` class of either entry. */
export interface TextIndexConstructor {
  /** An empty index. @throws {TypeError | RangeError} for invalid options. */
  new (options?: TextIndexOptions): TextIndex;
  /**
   * The index saved in `bytes` (by either entry): it decides as the saved one would.
   *
   * @throws {TypeError} unless `bytes` is a `Uint8Array`; an `IndexFormatError` (a `RangeError`)
   * naming what is wrong with bytes that are not a saved text index.
   */
  load(bytes: Uint8Array): TextIndex;
  readonly prototype: TextIndex;
}

/** Checks the options of `new TextIndex`; `true` when template siblings are removed. */
export function removesTemplates(options: unknown): boolean {
  if (options === undefined) return false;
  const o = checkOptions(options, TEXT_INDEX_OPTIONS, 'TextIndex') as TextIndexOptions;
  if (o.templates !== undefined && o.templates !== 'keep' && o.templates !== 'remove') {
    throw new RangeError(`options.templates must be 'keep' or 'remove', got ${describe(o.templates)}`);
  }
  return o.templates === 'remove';
}

/** Checks an id argument. */
export function checkId(id: unknown, name = 'id'): number {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 0xffff_ffff) {
    throw new TypeError(`${name} must be an integer in 0..2^32-1, got ${describe(id)}`);
  }
  return id;
}

/**
 * Checks the arguments of `TextIndex.decideMany`: ids a `Uint32Array` as long as `texts`, each
 * new (held by no kept text, by `has`) and once in the batch; texts strings.
 */
export function checkDecideMany(ids: unknown, texts: unknown, has: (id: number) => boolean): { ids: Uint32Array; texts: readonly string[] } {
  if (!(ids instanceof Uint32Array)) throw new TypeError(`ids must be a Uint32Array, got ${describe(ids)}`);
  if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${describe(texts)}`);
  if (ids.length !== texts.length) throw new RangeError(`ids and texts must have the same length, got ${ids.length} ids and ${texts.length} texts`);
  texts.forEach((text: unknown, q) => {
    if (typeof text !== 'string') throw new TypeError(`texts[${q}] must be a string, got ${describe(text)}`);
  });
  const batch = new Set<number>();
  ids.forEach((id, q) => {
    if (has(id)) throw new RangeError(`ids[${q}] = ${id} is held by a kept text: ids must be new (remove the text first to reuse its id)`);
    if (batch.has(id)) throw new RangeError(`ids[${q}] = ${id} is named twice in the batch: ids must be distinct`);
    batch.add(id);
  });
  return { ids, texts: texts as readonly string[] };
}
