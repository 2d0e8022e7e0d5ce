/**
 * Arguments checked on the calling thread (so that errors name the caller's arguments, as the
 * synchronous API does) and copied once into memory every worker can read.
 */

import { toU64Array } from '../shared/u64-input.js';

/**
 * Whether workers can share memory with this thread: always in Node, and in browsers only on
 * cross-origin isolated pages (elsewhere `SharedArrayBuffer` is missing or unusable).
 */
export function canShareMemory(): boolean {
  const scope = globalThis as { crossOriginIsolated?: boolean };
  return typeof SharedArrayBuffer === 'function' && scope.crossOriginIsolated !== false;
}

/** A fresh buffer of `bytes`, shared with workers when the platform allows it. */
export function shareableBuffer(bytes: number, shared: boolean): ArrayBuffer | SharedArrayBuffer {
  return shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

/**
 * Checks a `U64Input` named `name` and returns its values as a `BigUint64Array` of its own
 * (never a view of the caller's memory, which may change while workers read it), in shared
 * memory when `shared`.
 *
 * @throws {TypeError | RangeError} as the synchronous API does for the same argument.
 */
export function copyU64Input(value: unknown, name: string, shared: boolean): BigUint64Array {
  const source = toU64Array(value, name);
  const copy = new BigUint64Array(shareableBuffer(8 * source.length, shared));
  copy.set(source);
  return copy;
}
