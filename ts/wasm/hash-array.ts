/// <reference lib="esnext.disposable" preserve="true" />
/** Arrays of 64-bit values that live inside the WebAssembly memory. */

import { finalizer } from './finalizer.js';
import { instanceGeneration, memoryViews, wasm, withInstance } from './loader.js';
import type { HashArray } from '../shared/types.js';
import { checkArrayLength } from '../shared/validate.js';

interface Allocation {
  readonly ptr: number;
  readonly bytes: number;
  readonly generation: number;
}

/**
 * Byte offset → byte length of every live array of the current instance, so that a view of
 * WebAssembly memory passed as input can be told from a freed array's kept `.view`, whose bytes
 * may already belong to something else.
 */
const liveRegions = new Map<number, number>();
let liveGeneration = -1;

function liveRegionsNow(): Map<number, number> {
  // A trap replaced the instance: its arrays, and their memory, are gone.
  if (liveGeneration !== instanceGeneration()) {
    liveRegions.clear();
    liveGeneration = instanceGeneration();
  }
  return liveRegions;
}

/** Whether bytes `[byteOffset, byteOffset + byteLength)` of the memory lie in one live array. */
export function isLiveRegion(byteOffset: number, byteLength: number): boolean {
  const regions = liveRegionsNow();
  const exact = regions.get(byteOffset);
  if (exact !== undefined) return byteLength <= exact;
  for (const [start, length] of regions) {
    if (byteOffset >= start && byteOffset + byteLength <= start + length) return true;
  }
  return false;
}

function release(allocation: Allocation): void {
  // Memory of an instance dropped after a trap went with it.
  if (allocation.generation === instanceGeneration()) {
    liveRegionsNow().delete(allocation.ptr);
    wasm().sh_free(allocation.ptr, allocation.bytes);
  }
}

const releaseUnfreed = finalizer<Allocation>(release);

/**
 * Allocates `bytes` bytes (8-aligned) in the instance's memory.
 *
 * @throws {RangeError} when the memory cannot grow that far.
 */
export function allocate(bytes: number, name: string): number {
  // A wasm32 address space holds at most 4 GiB; a larger request would wrap around.
  if (bytes > 0xffff_fff0) throw new RangeError(`${name} needs ${bytes} bytes of WebAssembly memory, more than its 4 GiB`);
  return withInstance((exports) => {
    const ptr = exports.sh_alloc(bytes) >>> 0;
    if (ptr === 0) throw new RangeError(`${name} needs ${bytes} bytes of WebAssembly memory, and it is out of memory`);
    return ptr;
  });
}

/** A {@link HashArray} whose storage is inside the WebAssembly memory: passed without a copy. */
export class WasmHashArray implements HashArray {
  readonly length: number;
  #allocation: Allocation | null;
  #view: BigUint64Array | null = null;

  /** Use {@link allocHashArray}. */
  constructor(length: number) {
    this.length = length;
    const bytes = length * 8;
    // Allocate before reading the generation: allocating may replace a trapped instance.
    const ptr = length === 0 ? 0 : allocate(bytes, 'length');
    this.#allocation = { ptr, bytes, generation: instanceGeneration() };
    if (length !== 0) {
      liveRegionsNow().set(ptr, bytes);
      releaseUnfreed.register(this, this.#allocation);
    }
  }

  get freed(): boolean {
    return this.#allocation === null;
  }

  /**
   * Byte offset of the storage in the instance's memory.
   *
   * @throws {TypeError} once freed, or when the instance it belonged to was dropped after a
   * trap.
   */
  pointer(name: string): number {
    const allocation = this.#allocation;
    if (allocation === null) throw new TypeError(`${name} has been freed`);
    if (allocation.generation !== instanceGeneration()) {
      throw new TypeError(`${name} belonged to a WebAssembly instance that was reset after a trap`);
    }
    return allocation.ptr;
  }

  get view(): BigUint64Array {
    const ptr = this.pointer('this HashArray');
    const buffer = memoryViews(wasm()).buffer;
    if (this.#view === null || this.#view.buffer !== buffer) {
      this.#view = new BigUint64Array(buffer, ptr, this.length);
    }
    return this.#view;
  }

  free(): void {
    const allocation = this.#allocation;
    if (allocation === null) return;
    this.#allocation = null;
    this.#view = null;
    if (allocation.bytes !== 0) {
      releaseUnfreed.unregister(this);
      release(allocation);
    }
  }

  [Symbol.dispose](): void {
    this.free();
  }
}

/**
 * A zeroed array of `length` 64-bit values inside the WebAssembly memory. Fill it through
 * `.view`, pass it to any function of this package without a copy, and `free()` it (or declare
 * it with `using`) when done.
 *
 * @throws {TypeError | RangeError} unless `length` is an integer in `0..2^32-1`;
 * {@link RangeError} when memory runs out.
 */
export function allocHashArray(length: number): HashArray {
  const array = new WasmHashArray(checkArrayLength(length));
  // dlmalloc may hand back memory that held earlier data. Bytes, not bigints: a memset.
  const view = array.view;
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength).fill(0);
  return array;
}
