/** The exact search for every pair of near-duplicate fingerprints, run in WebAssembly. */

import { memoryViews, withInstance } from './loader.js';
import { CallScope } from './marshal.js';
import { explicitFilter } from '../shared/filter.js';
import { chooseFilter } from '../shared/plan.js';
import { throwIfFailed } from './status.js';
import { FIND_ALL_OPTIONS, type FindAllOptions, type PairResult, type U64Input } from '../shared/types.js';
import { DEFAULT_MAX_PAIRS, checkDistance, checkMaxPairs, checkOptions } from '../shared/validate.js';
import { WHOLE_SEARCH, checkWorkSlice, type WorkSlice } from '../shared/work-slice.js';

/**
 * Every pair of positions `left[k] < right[k]` whose fingerprints differ in at most
 * `options.distance` bits: exact (no pair missed, none extra), each pair once, sorted by
 * `(left, right)`. Equal fingerprints at different positions are pairs at distance 0 (unlike
 * simhash-cpp, which works on a de-duplicated set and returns values rather than positions).
 *
 * @example
 * const { left, right, distance } = findAll(fingerprints, { distance: 3 });
 * for (let k = 0; k < left.length; k++) console.log(left[k], right[k], distance[k]);
 * @throws {TypeError | RangeError} for bad fingerprints or options, and a `RangeError` when the
 * result would exceed `options.maxPairs`.
 */
export function findAll(fingerprints: U64Input, options: FindAllOptions): PairResult {
  return findAllSlice(fingerprints, options, WHOLE_SEARCH);
}

/**
 * The pairs of {@link findAll} that work slice `slice` reports, sorted by `(left, right)`; the
 * slices `0..count` are disjoint and make the whole result. `options.maxPairs` bounds this
 * slice's pairs. Internal: the worker pool runs one slice per worker.
 *
 * @throws as {@link findAll}, and a `RangeError` for an invalid slice.
 */
export function findAllSlice(fingerprints: U64Input, options: FindAllOptions, slice: WorkSlice): PairResult {
  return withInstance((exports) => {
    const scope = new CallScope(exports);
    try {
      // The input is checked first, as in every other function and in the pure entry.
      const input = scope.u64(fingerprints, 'fingerprints');
      const opts = checkOptions(options, FIND_ALL_OPTIONS, 'findAll');
      const distance = checkDistance(opts.distance);
      const filter = explicitFilter(opts, distance);
      const maxPairs = opts.maxPairs === undefined ? DEFAULT_MAX_PAIRS : checkMaxPairs(opts.maxPairs);
      const { index: sliceIndex, count: sliceCount } = checkWorkSlice(slice);
      const result = scope.alloc(16);
      const status = exports.sh_find_all(
        input.ptr,
        input.length,
        distance,
        filter ?? chooseFilter(input.length, distance, 'batch'),
        maxPairs,
        sliceIndex,
        sliceCount,
        result,
      );
      throwIfFailed(status, 'findAll', maxPairs);
      const u32 = memoryViews(exports).u32;
      const [leftPtr, rightPtr, distancePtr, count] = [0, 1, 2, 3].map((k) => u32[result / 4 + k]! >>> 0) as [
        number,
        number,
        number,
        number,
      ];
      try {
        const u8 = memoryViews(exports).u8;
        return {
          left: u32.slice(leftPtr / 4, leftPtr / 4 + count),
          right: u32.slice(rightPtr / 4, rightPtr / 4 + count),
          distance: u8.slice(distancePtr, distancePtr + count),
        };
      } finally {
        exports.sh_pairs_free(result);
      }
    } finally {
      scope.release();
    }
  });
}
