/**
 * Arguments checked on the calling thread (so that errors name the caller's arguments, as the
 * synchronous API does) and copied once into memory every worker can read.
 */

import type { HashArray } from '../shared/types.js';
import { checkLength, checkU64ListLength, copyBigints } from '../shared/validate.js';

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

function isHashArray(value: unknown): value is HashArray {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && 'freed' in value && 'view' in value;
}

/**
 * Checks a `U64Input` named `name` and returns its values as a `BigUint64Array` of its own
 * (never a view of the caller's memory, which may change while workers read it), in shared
 * memory when `shared`.
 *
 * @throws {TypeError | RangeError} as the synchronous API does for the same argument.
 */
export function copyU64Input(value: unknown, name: string, shared: boolean): BigUint64Array {
  let source: BigUint64Array | undefined;
  if (isHashArray(value)) {
    if (value.freed) throw new TypeError(`${name} has been freed`);
    if (value.view instanceof BigUint64Array) source = value.view;
  }
  const length = source?.length ?? checkU64ListLength(value, name);
  checkLength(length, name);
  const copy = new BigUint64Array(shareableBuffer(8 * length, shared));
  if (source !== undefined) copy.set(source);
  else if (value instanceof BigUint64Array) copy.set(value);
  else copyBigints(value as readonly unknown[], name, copy);
  return copy;
}
