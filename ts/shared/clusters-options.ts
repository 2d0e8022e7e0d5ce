/** The options of `findClusters`, checked alike by both entries. */

import { chooseBlocks } from './plan.js';
import type { FindClustersOptions } from './types.js';
import { checkBlocks, checkDistance, checkOptions } from './validate.js';

/**
 * Checks `options` and settles `blocks` for `n` fingerprints: the given one, or the batch
 * planner's (0: compare directly).
 *
 * @throws {TypeError | RangeError} naming the invalid option.
 */
export function checkClustersOptions(options: FindClustersOptions, n: number): { distance: number; blocks: number } {
  const opts = checkOptions(options);
  const distance = checkDistance(opts.distance);
  const blocks = opts.blocks === undefined ? chooseBlocks(n, distance) : checkBlocks(opts.blocks, distance);
  return { distance, blocks };
}
