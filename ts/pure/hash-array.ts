/// <reference lib="esnext.disposable" preserve="true" />
import type { HashArray } from '../shared/types.js';
import { checkArrayLength } from '../shared/validate.js';

/** A `HashArray` over an ordinary `BigUint64Array`: the garbage collector owns the memory. */
class PureHashArray implements HashArray {
  readonly length: number;
  #values: BigUint64Array | null;

  constructor(length: number) {
    this.length = length;
    this.#values = new BigUint64Array(length);
  }

  get view(): BigUint64Array {
    if (this.#values === null) throw new TypeError('this HashArray has been freed');
    return this.#values;
  }

  get freed(): boolean {
    return this.#values === null;
  }

  free(): void {
    // Dropping the reference is the whole release; it also makes later use fail loudly, as it
    // must on the WebAssembly entry, so code tested here is right there.
    this.#values = null;
  }

  [Symbol.dispose](): void {
    this.free();
  }
}

/**
 * A zero-filled {@link HashArray} of `length` elements. In the pure entry it wraps a new
 * `BigUint64Array`; `free()` only marks it freed, after which reading `view` throws.
 *
 * @throws {TypeError} unless `length` is a number.
 * @throws {RangeError} unless `length` is an integer in `0..2^32-1`.
 */
export function allocHashArray(length: number): HashArray {
  return new PureHashArray(checkArrayLength(length));
}
