/** Fingerprints from feature hashes, computed in WebAssembly. */

import { withInstance } from './loader.js';
import { CallScope } from './marshal.js';
import { throwIfFailed } from './status.js';
import type { U64Input, WeightInput } from '../shared/types.js';
import { checkOffsets, checkWeights } from '../shared/validate.js';

/**
 * The SimHash fingerprint of `hashes`: bit `i` is set iff strictly more hashes have bit `i` set
 * than clear. Ties and an empty input give clear bits (so `compute([]) === 0n`), exactly as
 * simhash-cpp's `compute`.
 *
 * @example
 * compute([0xabcdn, 0xbcden, 0xcdefn]); // 0xadcfn
 * @throws {TypeError | RangeError} for an element that is not a bigint in `0..2^64-1`.
 */
export function compute(hashes: U64Input): bigint {
  return withInstance((exports) => {
    const scope = new CallScope(exports);
    try {
      const input = scope.u64(hashes, 'hashes');
      return BigInt.asUintN(64, exports.sh_compute(input.ptr, input.length));
    } finally {
      scope.release();
    }
  });
}

/**
 * The weighted fingerprint: for each bit `i`, `s = 0`, then for each hash in input order
 * `s += bit set ? weight : -weight`; bit `i` is set iff `s > 0`. With all weights 1 it equals
 * {@link compute}.
 *
 * @param weights one finite, non-negative weight per hash.
 * @throws {TypeError | RangeError} for bad hashes, or weights of the wrong length, negative,
 * NaN or infinite.
 */
export function computeWeighted(hashes: U64Input, weights: WeightInput): bigint {
  return withInstance((exports) => {
    const scope = new CallScope(exports);
    try {
      const input = scope.u64(hashes, 'hashes');
      const w = scope.f64(checkWeights(weights, input.length), 'weights');
      return BigInt.asUintN(64, exports.sh_compute_weighted(input.ptr, w.ptr, input.length));
    } finally {
      scope.release();
    }
  });
}

/**
 * One fingerprint per document, in one call: document `d` owns
 * `hashes[offsets[d] .. offsets[d + 1])`, so `offsets` holds one more entry than there are
 * documents (an empty `offsets` describes none).
 *
 * @example
 * // two documents: hashes 0..2 and 2..5
 * computeMany(hashes, Uint32Array.of(0, 2, 5)); // BigUint64Array of 2 fingerprints
 * @throws {TypeError | RangeError} for bad hashes, or offsets that decrease or point past the
 * hashes.
 */
export function computeMany(hashes: U64Input, offsets: Uint32Array): BigUint64Array {
  return many(hashes, undefined, offsets);
}

/**
 * {@link computeWeighted} for each document of {@link computeMany}'s layout.
 *
 * @param weights one finite, non-negative weight per hash (not per document).
 */
export function computeManyWeighted(hashes: U64Input, weights: WeightInput, offsets: Uint32Array): BigUint64Array {
  return many(hashes, weights, offsets);
}

function many(hashes: U64Input, weights: WeightInput | undefined, offsets: Uint32Array): BigUint64Array {
  return withInstance((exports) => {
    const scope = new CallScope(exports);
    try {
      const input = scope.u64(hashes, 'hashes');
      const w = weights === undefined ? undefined : scope.f64(checkWeights(weights, input.length), 'weights');
      const docs = scope.u32(checkOffsets(offsets, input.length), 'offsets');
      const count = Math.max(0, docs.length - 1);
      const out = scope.alloc(count * 8);
      const status =
        w === undefined
          ? exports.sh_compute_many(input.ptr, input.length, docs.ptr, docs.length, out)
          : exports.sh_compute_many_weighted(input.ptr, w.ptr, input.length, docs.ptr, docs.length, out);
      throwIfFailed(status, 'computeMany');
      return new BigUint64Array(exports.memory.buffer, out, count).slice();
    } finally {
      scope.release();
    }
  });
}
