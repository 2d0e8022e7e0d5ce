/// <reference lib="esnext.disposable" preserve="true" />
/** The length-adaptive decision's sketches, kept in WebAssembly memory behind a handle. */

import { decideSketched, wordlessOf, type DecideTextsOptions, type TextSketches as TextSketchesType, type TextSketchesConstructor } from '../shared/adaptive.js';
import type { MinHashDecisions } from '../shared/decide.js';
import { normalizeRuns } from '../shared/text-normalize.js';
import { resolveTextOptions } from '../shared/text-options.js';
import { finalizer } from './finalizer.js';
import { instanceGeneration, wasm, withInstance } from './loader.js';
import { CallScope } from './marshal.js';
import { throwIfFailed } from './status.js';
import { encode } from './text.js';
import { describe } from '../shared/validate.js';

/** Texts are encoded into WebAssembly memory and sketched in batches of about this size. */
const BATCH_BYTES = 4 << 20;

const TEXT = resolveTextOptions(undefined, 'TextSketches');

interface Handle {
  readonly pointer: number;
  readonly generation: number;
}

const releaseUnfreed = finalizer<Handle>((handle) => {
  // Sketches of an instance dropped after a trap went with it.
  if (handle.generation === instanceGeneration()) wasm().sh_text_sketches_free(handle.pointer);
});

/** {@link TextSketches} of this entry. */
class WasmTextSketches implements TextSketchesType {
  #handle: Handle | null;

  constructor() {
    this.#handle = { pointer: wasm().sh_text_sketches_new(), generation: instanceGeneration() };
    releaseUnfreed.register(this, this.#handle);
  }

  /** Number of texts added. */
  get length(): number {
    return wasm().sh_text_sketches_len(this.#pointer());
  }

  /**
   * Sketches `texts` after those added before: normalised as `fingerprintMany` normalises them,
   * tokenised once for words and word pairs, in WebAssembly in batches.
   *
   * @throws {TypeError} for an element that is not a string, or once freed; {@link RangeError}
   * when WebAssembly memory runs out. A call that throws adds no text.
   */
  add(texts: readonly string[]): void {
    if (!Array.isArray(texts)) throw new TypeError(`texts must be an array of strings, got ${describe(texts)}`);
    const pointer = this.#pointer();
    let batch: string[] = [];
    let bytes = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      const texts = batch;
      withInstance((live) => {
        const scope = new CallScope(live);
        try {
          const { ptr, offsets } = encode(scope, live, texts, TEXT.lowercase);
          const offsetsRegion = scope.u32(offsets, 'texts');
          throwIfFailed(live.sh_text_sketches_add(pointer, ptr, offsets[texts.length]!, offsetsRegion.ptr, offsetsRegion.length), 'decideTexts');
        } finally {
          scope.release();
        }
      });
      batch = [];
      bytes = 0;
    };
    // Every text is checked before any is sketched, and a batch that fails takes those before
    // it back with it: a call that throws adds none.
    const normalized = texts.map((text, i) => normalizeRuns(text, TEXT, `texts[${i}]`));
    const before = wasm().sh_text_sketches_len(pointer);
    try {
      for (const text of normalized) {
        batch.push(text);
        bytes += 3 * text.length;
        if (bytes >= BATCH_BYTES) flush();
      }
      flush();
    } catch (error) {
      if (this.#handle?.generation === instanceGeneration()) wasm().sh_text_sketches_truncate(pointer, before);
      throw error;
    }
  }

  /** Positions of the texts added that have no word: `decide` keeps them and compares none. */
  wordless(): Uint32Array {
    return wordlessOf(this.#kinds());
  }

  #kinds(): Uint8Array {
    const pointer = this.#pointer();
    return withInstance((live) => {
      const scope = new CallScope(live);
      try {
        const n = live.sh_text_sketches_len(pointer);
        const out = scope.alloc(n);
        throwIfFailed(live.sh_text_sketches_kinds(pointer, out, n), 'kinds');
        return new Uint8Array(live.memory.buffer, out, n).slice();
      } finally {
        scope.release();
      }
    });
  }

  /**
   * The decisions over every text added, by the rule of `decideTexts`: texts taken by
   * descending `options.priority` (input order by default), each removed for the most similar
   * kept text or kept.
   *
   * @throws {TypeError | RangeError} for a bad priority, or once freed.
   */
  decide(options?: DecideTextsOptions): MinHashDecisions {
    return decideSketched(this.length, options, (order, rule) => this.#decideInOrder(order, rule));
  }

  #decideInOrder(order: Uint32Array, rule: number): MinHashDecisions {
    const pointer = this.#pointer();
    return withInstance((live) => {
      const n = live.sh_text_sketches_len(pointer);
      if (order.length !== n) throw new RangeError(`order must name each of the ${n} texts once, got ${order.length} positions`);
      const scope = new CallScope(live);
      try {
        const orderRegion = scope.u32(order, 'order');
        const representative = scope.alloc(4 * n, 'representative');
        const similarity = scope.alloc(8 * n, 'similarity');
        const status = live.sh_text_sketches_decide(pointer, orderRegion.ptr, n, representative, similarity, rule);
        if (status === 1) throw new RangeError(`order must name each of the ${n} texts once`);
        throwIfFailed(status, 'decideTexts');
        return {
          representative: new Uint32Array(live.memory.buffer, representative, n).slice(),
          similarity: new Float64Array(live.memory.buffer, similarity, n).slice(),
        };
      } finally {
        scope.release();
      }
    });
  }

  /** The sketches as bytes, for {@link WasmTextSketches.append} in another instance. */
  static export(sketches: WasmTextSketches): Uint8Array {
    const pointer = sketches.#pointer();
    return withInstance((live) => {
      const scope = new CallScope(live);
      try {
        const result = scope.alloc(8);
        throwIfFailed(live.sh_text_sketches_export(pointer, result), 'pool.decideTexts');
        const view = new Uint32Array(live.memory.buffer, result, 2);
        const [ptr, len] = [view[0]!, view[1]!];
        const bytes = new Uint8Array(live.memory.buffer, ptr, len).slice();
        live.sh_bytes_free(ptr, len);
        return bytes;
      } finally {
        scope.release();
      }
    });
  }

  /** Appends sketches {@link WasmTextSketches.export} made. */
  static append(sketches: WasmTextSketches, bytes: Uint8Array): void {
    const pointer = sketches.#pointer();
    withInstance((live) => {
      const scope = new CallScope(live);
      try {
        const ptr = scope.alloc(bytes.length, 'sketches');
        new Uint8Array(live.memory.buffer, ptr, bytes.length).set(bytes);
        throwIfFailed(live.sh_text_sketches_append(pointer, ptr, bytes.length), 'pool.decideTexts');
      } finally {
        scope.release();
      }
    });
  }

  /** Releases the sketches' memory; calling it again does nothing. */
  free(): void {
    const handle = this.#handle;
    if (handle === null) return;
    this.#handle = null;
    releaseUnfreed.unregister(this);
    if (handle.generation === instanceGeneration()) wasm().sh_text_sketches_free(handle.pointer);
  }

  /** `free()`, for `using`. */
  [Symbol.dispose](): void {
    this.free();
  }

  #pointer(): number {
    const handle = this.#handle;
    if (handle === null) throw new TypeError('these text sketches have been freed');
    if (handle.generation !== instanceGeneration()) {
      throw new TypeError('these text sketches belonged to a WebAssembly instance that was reset after a trap');
    }
    return handle.pointer;
  }
}

/**
 * Texts sketched for `decideTexts`'s rule a batch at a time, in WebAssembly memory, so that a
 * stream of texts (a crawl, a JSON Lines dump) need not be held: `add` each batch, then
 * `decide` once. `decideTexts(texts)` is `add(texts)` then `decide()`. Call `free()` (or let
 * `using` do it) when done; an object collected unfreed is freed then.
 *
 * @example
 * const sketches = new TextSketches();
 * for (const batch of batches) sketches.add(batch);
 * const { representative } = sketches.decide();
 * sketches.free();
 */
export const TextSketches: TextSketchesConstructor = WasmTextSketches;
/** An instance of {@link TextSketches}. */
export type TextSketches = TextSketchesType;

/**
 * @internal The sketches of `texts` as bytes: a worker's share of `pool.decideTexts`, appended in
 * order by {@link decideSketches} to what sketching all the texts in one thread would make.
 */
export function sketchTexts(texts: readonly string[]): Uint8Array {
  const sketches = new WasmTextSketches();
  try {
    sketches.add(texts);
    return WasmTextSketches.export(sketches);
  } finally {
    sketches.free();
  }
}

/**
 * @internal The decisions of `decideTexts(texts, options)`, from the sketches of its texts that
 * {@link sketchTexts} made of consecutive chunks, in order.
 */
export function decideSketches(chunks: readonly Uint8Array[], options: DecideTextsOptions | undefined): MinHashDecisions {
  const sketches = new WasmTextSketches();
  try {
    for (const bytes of chunks) WasmTextSketches.append(sketches, bytes);
    return sketches.decide(options);
  } finally {
    sketches.free();
  }
}
