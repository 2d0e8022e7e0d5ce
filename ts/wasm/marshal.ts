/**
 * Getting arguments into the WebAssembly memory for one call: inputs that already live there
 * are passed by pointer, the others copied in once, and every temporary freed when the call
 * ends, whatever happens.
 */

import { WasmHashArray, allocate, isLiveRegion } from './hash-array.js';
import { memoryViews, type WasmExports } from './loader.js';
import { checkLength, checkU64ListLength, copyBigints } from '../shared/validate.js';

/** A region of the instance's memory: byte offset and element count. */
export interface Region {
  readonly ptr: number;
  readonly length: number;
}

/** Temporaries of one call. Create, use, and `release()` in a `finally`. */
export class CallScope {
  readonly #exports: WasmExports;
  readonly #owned: { ptr: number; bytes: number }[] = [];

  constructor(exports: WasmExports) {
    this.#exports = exports;
  }

  /**
   * Allocates `bytes` bytes freed by {@link CallScope.release}; pointer 0 for none. `name` says
   * what they are for when memory runs out.
   */
  alloc(bytes: number, name = 'this call'): number {
    if (bytes === 0) return 0;
    const ptr = allocate(bytes, name);
    this.#owned.push({ ptr, bytes });
    return ptr;
  }

  /**
   * A `U64Input` as a region: an owned array of this instance as it is, anything else copied.
   * `name` is the argument's name for errors.
   */
  u64(input: unknown, name: string): Region {
    if (input instanceof WasmHashArray) {
      return { ptr: input.pointer(name), length: input.length };
    }
    if (isForeignHashArray(input)) {
      if (input.freed) throw new TypeError(`${name} has been freed`);
      return this.u64(input.view, name);
    }
    const length = checkU64ListLength(input, name);
    if (input instanceof BigUint64Array && this.#inMemory(input, name)) return { ptr: input.byteOffset, length };
    let ptr: number;
    try {
      ptr = this.alloc(length * 8, name);
    } catch (error) {
      // What the pure entry would say of the same array: an element that is not a u64 (a sparse
      // array's hole, say) matters more than the memory it would take.
      if (Array.isArray(input)) copyBigints(input, name, new BigUint64Array(0));
      throw error;
    }
    const target = memoryViews(this.#exports).u64.subarray(ptr / 8, ptr / 8 + length);
    if (input instanceof BigUint64Array) target.set(input);
    else copyBigints(input as readonly unknown[], name, target);
    return { ptr, length };
  }

  /** A `Float64Array` copied in (unless it is a view of the instance's memory already). */
  f64(input: Float64Array, name: string): Region {
    if (this.#inMemory(input, name)) return { ptr: input.byteOffset, length: input.length };
    const ptr = this.alloc(input.length * 8, name);
    memoryViews(this.#exports).f64.set(input, ptr / 8);
    return { ptr, length: input.length };
  }

  /** A `Uint32Array` copied in (unless it is a view of the instance's memory already). */
  u32(input: Uint32Array, name: string): Region {
    checkLength(input.length, name);
    if (this.#inMemory(input, name)) return { ptr: input.byteOffset, length: input.length };
    const ptr = this.alloc(input.length * 4, name);
    memoryViews(this.#exports).u32.set(input, ptr / 4);
    return { ptr, length: input.length };
  }

  /**
   * Whether `view` is over the instance's memory (say, a `HashArray`'s `.view` or a part of it):
   * it is then passed where it is. Copying it instead could grow the memory, which detaches the
   * very view being copied.
   *
   * @throws {TypeError} when no live `HashArray` holds the viewed bytes: a freed array's kept
   * view reads memory that may already hold this call's own data.
   */
  #inMemory(view: ArrayBufferView, name: string): boolean {
    if (view.buffer !== this.#exports.memory.buffer) return false;
    if (!isLiveRegion(view.byteOffset, view.byteLength)) {
      throw new TypeError(
        `${name} is a view of WebAssembly memory that no live HashArray owns (the .view of a freed HashArray?): its bytes may already hold other data`,
      );
    }
    return true;
  }

  /** Frees every temporary. */
  release(): void {
    for (const { ptr, bytes } of this.#owned) this.#exports.sh_free(ptr, bytes);
    this.#owned.length = 0;
  }
}

/** A `HashArray` made by another implementation (the pure one): read through its view. */
function isForeignHashArray(input: unknown): input is { readonly view: BigUint64Array; readonly freed: boolean } {
  if (typeof input !== 'object' || input === null || input instanceof BigUint64Array || Array.isArray(input)) {
    return false;
  }
  const candidate = input as { freed?: unknown };
  return typeof candidate.freed === 'boolean' && 'view' in input;
}
