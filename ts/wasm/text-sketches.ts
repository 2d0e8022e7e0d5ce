/** The length-adaptive decision's sketches, kept in WebAssembly memory behind a handle. */

import type { TextSketchSet } from '../shared/adaptive.js';
import type { MinHashDecisions } from '../shared/decide.js';
import { normalizeRuns } from '../shared/text-normalize.js';
import { resolveTextOptions } from '../shared/text-options.js';
import { finalizer } from './finalizer.js';
import { instanceGeneration, wasm, withInstance } from './loader.js';
import { CallScope } from './marshal.js';
import { throwIfFailed } from './status.js';
import { encode } from './text.js';

/** Texts are encoded into WebAssembly memory and sketched in batches of about this size. */
const BATCH_BYTES = 4 << 20;

const TEXT = resolveTextOptions(undefined);

interface Handle {
  readonly pointer: number;
  readonly generation: number;
}

const releaseUnfreed = finalizer<Handle>((handle) => {
  // Sketches of an instance dropped after a trap went with it.
  if (handle.generation === instanceGeneration()) wasm().sh_text_sketches_free(handle.pointer);
});

/** Text sketches in the Rust core (`simhash_core::adaptive`). */
export class WasmTextSketches implements TextSketchSet {
  #handle: Handle | null;

  constructor() {
    this.#handle = { pointer: wasm().sh_text_sketches_new(), generation: instanceGeneration() };
    releaseUnfreed.register(this, this.#handle);
  }

  get length(): number {
    return wasm().sh_text_sketches_len(this.#pointer());
  }

  add(texts: readonly string[]): void {
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
    // Every text is checked before any is sketched: a bad element adds none.
    const normalized = texts.map((text, i) => normalizeRuns(text, TEXT, `texts[${i}]`));
    for (const text of normalized) {
      batch.push(text);
      bytes += 3 * text.length;
      if (bytes >= BATCH_BYTES) flush();
    }
    flush();
  }

  kinds(): Uint8Array {
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

  decide(order: Uint32Array): MinHashDecisions {
    const pointer = this.#pointer();
    return withInstance((live) => {
      const n = live.sh_text_sketches_len(pointer);
      if (order.length !== n) throw new RangeError(`order must name each of the ${n} texts once, got ${order.length} positions`);
      const scope = new CallScope(live);
      try {
        const orderRegion = scope.u32(order, 'order');
        const representative = scope.alloc(4 * n, 'representative');
        const similarity = scope.alloc(8 * n, 'similarity');
        const status = live.sh_text_sketches_decide(pointer, orderRegion.ptr, n, representative, similarity);
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

  free(): void {
    const handle = this.#handle;
    if (handle === null) return;
    this.#handle = null;
    releaseUnfreed.unregister(this);
    if (handle.generation === instanceGeneration()) wasm().sh_text_sketches_free(handle.pointer);
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

