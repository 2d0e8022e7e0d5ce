/// <reference lib="esnext.disposable" preserve="true" />
/** `TextIndex` of the WebAssembly entry: the Rust core's index behind a handle. */

import type { MinHashDecisions } from '../shared/decide.js';
import { checkIndexBytes } from '../shared/index-format.js';
import { checkDecideMany, checkId, removesTemplates, type TextIndex as TextIndexType, type TextIndexConstructor, type TextIndexOptions, type TextQueryResult } from '../shared/text-index.js';
import { textIndexFormatError } from '../shared/text-index-format.js';
import { normalizeRuns } from '../shared/text-normalize.js';
import { resolveTextOptions } from '../shared/text-options.js';
import { describe } from '../shared/validate.js';
import { finalizer } from './finalizer.js';
import { instanceGeneration, memoryViews, wasm, withInstance, type WasmExports } from './loader.js';
import { CallScope } from './marshal.js';
import { newHandle, takeSavedBytes, type Handle } from './handle.js';
import { throwIfFailed } from './status.js';
import { encode } from './text.js';

/** Texts are encoded into WebAssembly memory and decided in batches of about this size. */
const BATCH_BYTES = 4 << 20;

const TEXT = resolveTextOptions(undefined, 'TextIndex');

const releaseUnfreed = finalizer<Handle>((handle) => {
  // An index of an instance dropped after a trap went with it.
  if (handle.generation === instanceGeneration()) wasm().sh_text_index_free(handle.pointer);
});

/** A piece of a batch written into WebAssembly memory: where its ids, texts and offsets are. */
interface Piece {
  readonly scope: CallScope;
  readonly ids: number;
  readonly texts: number;
  readonly bytes: number;
  readonly offsets: number;
}

/** Marks a handle made by `TextIndex.load`. */
class Loaded {
  constructor(readonly handle: Handle) {}
}

/** {@link TextIndex} of this entry. */
class WasmTextIndex implements TextIndexType {
  #handle: Handle | null;
  /** Byte offset of the handle's answer (see `TextIndexHandle` in the shim crate); it never moves. */
  readonly #answer: number;

  /**
   * An empty index deciding by the rule of `decideTexts`.
   *
   * @throws {TypeError | RangeError} for invalid options.
   */
  constructor(options?: TextIndexOptions) {
    const loaded = options instanceof Loaded ? options : null;
    if (loaded !== null) this.#handle = loaded.handle;
    else {
      const templates = removesTemplates(options) ? 1 : 0;
      this.#handle = withInstance((exports) => newHandle(exports, (_, out) => exports.sh_text_index_new(templates, out), 'new TextIndex'));
    }
    // A pointer: the i32 it comes back as is negative above 2 GiB.
    this.#answer = wasm().sh_text_index_answer(this.#handle.pointer) >>> 0;
    releaseUnfreed.register(this, this.#handle);
  }

  /**
   * The index saved in `bytes` by `save()` of either entry.
   *
   * @throws {TypeError} unless `bytes` is a `Uint8Array`.
   * @throws {IndexFormatError} for bytes that are not a saved text index.
   */
  static load(bytes: Uint8Array): TextIndexType {
    const checked = checkIndexBytes(bytes);
    const handle = withInstance((exports) =>
      newHandle(
        exports,
        (scope, out) => {
          const ptr = scope.alloc(checked.length);
          memoryViews(exports).u8.set(checked, ptr);
          return exports.sh_text_index_load(ptr, checked.length, out);
        },
        'TextIndex.load',
        { bytes: checked, error: textIndexFormatError },
      ),
    );
    return new WasmTextIndex(new Loaded(handle) as TextIndexOptions);
  }

  get freed(): boolean {
    return this.#handle === null;
  }

  get size(): number {
    return wasm().sh_text_index_count(this.#pointer(), 0);
  }

  get decided(): number {
    return wasm().sh_text_index_count(this.#pointer(), 1);
  }

  get templates(): 'keep' | 'remove' {
    return wasm().sh_text_index_count(this.#pointer(), 2) === 1 ? 'remove' : 'keep';
  }

  has(id: number): boolean {
    return wasm().sh_text_index_contains(this.#pointer(), checkId(id)) === 1;
  }

  remove(id: number): boolean {
    return wasm().sh_text_index_remove(this.#pointer(), checkId(id)) === 1;
  }

  decideMany(ids: Uint32Array, texts: readonly string[]): MinHashDecisions {
    const representative = new Uint32Array(texts.length);
    const similarity = new Float64Array(texts.length);
    this.#inPieces(ids, texts, (live, pointer, piece, start, end) => {
      const n = end - start;
      const repOut = piece.scope.alloc(4 * n, 'representative');
      const simOut = piece.scope.alloc(8 * n, 'similarity');
      const status = live.sh_text_index_decide_many(pointer, piece.ids, piece.texts, piece.bytes, piece.offsets, n + 1, repOut, simOut);
      throwIfFailed(status, 'TextIndex.decideMany');
      representative.set(new Uint32Array(live.memory.buffer, repOut, n), start);
      similarity.set(new Float64Array(live.memory.buffer, simOut, n), start);
    });
    return { representative, similarity };
  }

  addMany(ids: Uint32Array, texts: readonly string[]): void {
    this.#inPieces(ids, texts, (live, pointer, piece, start, end) => {
      throwIfFailed(live.sh_text_index_add_many(pointer, piece.ids, piece.texts, piece.bytes, piece.offsets, end - start + 1), 'TextIndex.addMany');
    });
  }

  add(id: number, text: string): void {
    this.addMany(Uint32Array.of(checkId(id)), [text]);
  }

  /**
   * Checks a batch and hands it to `take` in pieces of about {@link BATCH_BYTES} of text, in
   * order, each written into WebAssembly memory: pieces taken in order decide as one batch.
   */
  #inPieces(ids: Uint32Array, texts: readonly string[], take: (live: WasmExports, pointer: number, piece: Piece, start: number, end: number) => void): void {
    const pointer = this.#pointer();
    const checked = checkDecideMany(ids, texts, (id) => wasm().sh_text_index_contains(pointer, id) === 1);
    const normalized = checked.texts.map((text, q) => normalizeRuns(text, TEXT, `texts[${q}]`));
    let start = 0;
    while (start < normalized.length) {
      let end = start;
      let bytes = 0;
      while (end < normalized.length && (end === start || bytes < BATCH_BYTES)) bytes += 3 * normalized[end++]!.length;
      const [from, to] = [start, end];
      withInstance((live) => {
        const scope = new CallScope(live);
        try {
          const { ptr, offsets } = encode(scope, live, normalized.slice(from, to), TEXT.lowercase);
          const piece = { scope, ids: scope.u32(checked.ids.subarray(from, to), 'ids').ptr, texts: ptr, bytes: offsets[to - from]!, offsets: scope.u32(offsets, 'texts').ptr };
          take(live, pointer, piece, from, to);
        } finally {
          scope.release();
        }
      });
      start = end;
    }
  }

  query(text: string): TextQueryResult {
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
    const pointer = this.#pointer();
    const normalized = normalizeRuns(text, TEXT, 'text');
    return withInstance((live) => {
      const scope = new CallScope(live);
      try {
        const { ptr, offsets } = encode(scope, live, [normalized], TEXT.lowercase);
        throwIfFailed(live.sh_text_index_query(pointer, ptr, offsets[1]!), 'TextIndex.query');
        const { u32 } = memoryViews(live);
        const [ids, values, count] = [u32[this.#answer / 4]!, u32[this.#answer / 4 + 1]!, u32[this.#answer / 4 + 2]!];
        return { ids: u32.slice(ids / 4, ids / 4 + count), similarity: new Float64Array(live.memory.buffer, values, count).slice() };
      } finally {
        scope.release();
      }
    });
  }

  save(): Uint8Array {
    const pointer = this.#pointer();
    return withInstance((exports) => {
      throwIfFailed(exports.sh_text_index_save(pointer), 'TextIndex.save');
      return takeSavedBytes(exports, this.#answer, () => exports.sh_text_index_release_bytes(pointer));
    });
  }

  free(): void {
    const handle = this.#handle;
    if (handle === null) return;
    this.#handle = null;
    releaseUnfreed.unregister(this);
    if (handle.generation === instanceGeneration()) wasm().sh_text_index_free(handle.pointer);
  }

  [Symbol.dispose](): void {
    this.free();
  }

  #pointer(): number {
    const handle = this.#handle;
    if (handle === null) throw new TypeError('this TextIndex has been freed');
    if (handle.generation !== instanceGeneration()) {
      throw new TypeError('this TextIndex belonged to a WebAssembly instance that was reset after a trap');
    }
    return handle.pointer;
  }
}

/**
 * The rule of `decideTexts` as an index of kept texts, in WebAssembly memory: `decideMany`
 * decides each new batch against the texts kept before, as `decideTexts` would over the whole
 * stream; `query` lists a text's near-duplicates; `save` and `TextIndex.load` carry it across
 * restarts. Call `free()` (or let `using` do it) when done.
 *
 * @example
 * using index = new TextIndex();
 * const { representative } = index.decideMany(Uint32Array.of(1, 2), ['Fix a crash on start', 'Fix the crash on start.']);
 * // representative: [1, 1]
 * const bytes = index.save(); // TextIndex.load(bytes) decides alike
 */
export const TextIndex: TextIndexConstructor = WasmTextIndex;
/** An instance of {@link TextIndex}. */
export type TextIndex = TextIndexType;
