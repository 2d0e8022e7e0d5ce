/** The options of `findClusters`, checked alike by both entries. */

import { explicitFilter } from './filter.js';
import { chooseFilter } from './plan.js';
import { FIND_CLUSTERS_OPTIONS, type FindClustersOptions } from './types.js';
import { checkDistance, checkOptions } from './validate.js';

/**
 * Checks `options` and settles the filter for `n` fingerprints (a code of `filter.ts`): the
 * `blocks` or `parts` given, or the batch planner's choice.
 *
 * @throws {TypeError | RangeError} naming the invalid option.
 */
export function checkClustersOptions(options: FindClustersOptions, n: number, where = 'findClusters'): { distance: number; filter: number } {
  const opts = checkOptions(options, FIND_CLUSTERS_OPTIONS, where);
  const distance = checkDistance(opts.distance);
  return { distance, filter: explicitFilter(opts, distance) ?? chooseFilter(n, distance, 'batch') };
}
