/** Hamming distances between fingerprints. */

import { withInstance } from './loader.js';
import { CallScope } from './marshal.js';
import { throwIfFailed } from './status.js';
import type { U64Input } from '../shared/types.js';
import { checkU64 } from '../shared/validate.js';

/**
 * Number of bits in which `a` and `b` differ (simhash-cpp's `num_differing_bits`).
 *
 * Computed in JavaScript: a single pair costs less than a call into WebAssembly.
 *
 * @throws {TypeError | RangeError} unless both are bigints in `0..2^64-1`.
 */
export function numDifferingBits(a: bigint, b: bigint): number {
  const x = checkU64(a, 'a') ^ checkU64(b, 'b');
  return popcount32(Number(x & 0xffff_ffffn)) + popcount32(Number(x >> 32n));
}

function popcount32(v: number): number {
  v -= (v >>> 1) & 0x5555_5555;
  v = (v & 0x3333_3333) + ((v >>> 2) & 0x3333_3333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f_0f0f, 0x0101_0101) >>> 24);
}

/**
 * The distance from `query` to each fingerprint, as a `Uint8Array` of the same length.
 *
 * @throws {TypeError | RangeError} for a bad query or fingerprints.
 */
export function hammingDistances(query: bigint, fingerprints: U64Input): Uint8Array {
  const q = checkU64(query, 'query');
  return withInstance((exports) => {
    const scope = new CallScope(exports);
    try {
      const input = scope.u64(fingerprints, 'fingerprints');
      const out = scope.alloc(input.length);
      throwIfFailed(exports.sh_hamming_distances(BigInt.asIntN(64, q), input.ptr, input.length, out), 'hammingDistances');
      return new Uint8Array(exports.memory.buffer, out, input.length).slice();
    } finally {
      scope.release();
    }
  });
}
