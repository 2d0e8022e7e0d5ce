import type { HashArray } from './types.js';
import { checkLength, checkU64ListLength, copyBigints } from './validate.js';

/**
 * Any `HashArray`, including one from the WebAssembly entry: only its public surface is used,
 * so arrays can be handed from one entry to the other.
 */
function isHashArray(value: unknown): value is HashArray {
  return (
    typeof value === 'object' &&
    value !== null &&
    !ArrayBuffer.isView(value) &&
    'freed' in value &&
    typeof value.freed === 'boolean' &&
    'view' in value
  );
}

/**
 * Checks a `U64Input` argument named `name` and returns its values as a `BigUint64Array`: the
 * array itself or a `HashArray`'s view when possible, a checked copy of an array of `bigint`.
 *
 * @throws {TypeError} for a value of another kind, a freed `HashArray` or a non-`bigint` element.
 * @throws {RangeError} for an element outside `0..2^64-1` or more than 2^32-1 elements.
 */
export function toU64Array(value: unknown, name: string): BigUint64Array {
  if (isHashArray(value)) {
    if (value.freed) throw new TypeError(`${name} has been freed`);
    const view: unknown = value.view;
    if (view instanceof BigUint64Array) {
      checkLength(view.length, name);
      return view;
    }
  }
  const length = checkU64ListLength(value, name);
  if (value instanceof BigUint64Array) return value;
  const copy = new BigUint64Array(length);
  copyBigints(value as readonly unknown[], name, copy);
  return copy;
}
