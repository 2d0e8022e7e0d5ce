/** Connected components of near-duplicates, found in WebAssembly. */

import { checkClustersOptions } from '../shared/clusters-options.js';
import { memoryViews, withInstance } from './loader.js';
import { CallScope } from './marshal.js';
import { throwIfFailed } from './status.js';
import type { FindClustersOptions, U64Input } from '../shared/types.js';
import { WHOLE_SEARCH, checkWorkSlice, type WorkSlice } from '../shared/work-slice.js';

/**
 * For each position, the smallest position of its connected component in the graph joining
 * every two fingerprints that differ in at most `options.distance` bits: one label per
 * fingerprint, exact, in memory linear in n even when thousands of fingerprints are all
 * near-duplicates of one another (where `findAll` would return millions of pairs).
 *
 * @example
 * const labels = findClusters(fingerprints, { distance: 3 });
 * // Keep one document per group: those that are their own label.
 * const representatives = labels.filter((label, i) => label === i);
 * @throws {TypeError | RangeError} for bad fingerprints or options.
 */
export function findClusters(fingerprints: U64Input, options: FindClustersOptions): Uint32Array {
  return findClustersSlice(fingerprints, options, WHOLE_SEARCH);
}

/**
 * {@link findClusters} over the pairs that work slice `slice` finds: for each position, the
 * smallest position of its component among those pairs. `joinSliceLabels` of the slices
 * `0..count` gives the labels of `findClusters`. Internal: the worker pool runs one slice per
 * worker.
 *
 * @throws as {@link findClusters}, and a `RangeError` for an invalid slice.
 */
export function findClustersSlice(fingerprints: U64Input, options: FindClustersOptions, slice: WorkSlice): Uint32Array {
  return withInstance((exports) => {
    const scope = new CallScope(exports);
    try {
      const input = scope.u64(fingerprints, 'fingerprints');
      const { distance, filter } = checkClustersOptions(options, input.length);
      const { index: sliceIndex, count: sliceCount } = checkWorkSlice(slice);
      const labels = scope.alloc(input.length * 4);
      throwIfFailed(
        exports.sh_find_clusters(input.ptr, input.length, distance, filter, sliceIndex, sliceCount, labels),
        'findClusters',
      );
      return memoryViews(exports).u32.slice(labels / 4, labels / 4 + input.length);
    } finally {
      scope.release();
    }
  });
}
