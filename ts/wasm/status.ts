/** Status codes of the WebAssembly functions, turned into errors. */

import { tooManyPairs } from '../shared/validate.js';

/**
 * Throws the error a non-zero status stands for. The arguments were validated before the call,
 * so only running out of memory or pairs is expected here; the others mean a bug.
 */
export function throwIfFailed(status: number, operation: string, maxPairs = 0): void {
  switch (status) {
    case 0:
      return;
    case 2:
      throw new RangeError(`simhash-wasm: ${operation} ran out of WebAssembly memory`);
    case 3:
      throw tooManyPairs(maxPairs);
    case 1:
      throw new RangeError(`simhash-wasm: ${operation} refused its parameters`);
    case 4:
      throw new RangeError(`simhash-wasm: ${operation} was given lengths or offsets that do not fit together`);
    default:
      throw new Error(`simhash-wasm: ${operation} returned unknown status ${status}`);
  }
}
