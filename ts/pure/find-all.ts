import { chooseBlocks } from '../shared/plan.js';
import type { FindAllOptions, PairResult, U64Input } from '../shared/types.js';
import {
  DEFAULT_MAX_PAIRS,
  checkBlocks,
  checkDistance,
  checkMaxPairs,
  checkOptions,
} from '../shared/validate.js';
import { popcount32 } from './hamming.js';
import { toU64Array } from '../shared/u64-input.js';
import { PairCollector } from './pairs.js';
import { scanRuns, type RunVisitor } from './table-scan.js';
import { collidesFirstHere } from './tables.js';
import { toWords } from './words.js';
import { WHOLE_SEARCH, checkWorkSlice, type WorkSlice } from '../shared/work-slice.js';

/**
 * Every pair of positions `i < j` whose fingerprints differ in at most `options.distance`
 * bits, each pair once (equal fingerprints at different positions included), sorted by
 * `(left, right)`. Exact for every valid `blocks`, which only changes the speed.
 *
 * @throws {TypeError | RangeError} for an invalid `fingerprints` or option.
 * @throws {RangeError} when the result would hold more than `options.maxPairs` pairs.
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
  const values = toU64Array(fingerprints, 'fingerprints');
  const checked = checkOptions(options);
  const distance = checkDistance(checked.distance);
  const blocks =
    checked.blocks === undefined
      ? chooseBlocks(values.length, distance)
      : checkBlocks(checked.blocks, distance);
  const maxPairs =
    checked.maxPairs === undefined ? DEFAULT_MAX_PAIRS : checkMaxPairs(checked.maxPairs);
  checkWorkSlice(slice);
  const words = toWords(values);
  const pairs = new PairCollector(maxPairs);
  scanRuns(words, distance, blocks, slice, pairsOfRuns(distance, pairs));
  return pairs.toResult(words);
}

/**
 * Checks every pair of each run and reports those within `distance`, each from one table only:
 * the first in layout order where it collides, so no set of reported pairs is needed. Tables are
 * the `(blocks - distance)`-subsets of blocks in lexicographic order, so the first subset
 * contained in the set of blocks a pair agrees on is that set's `blocks - distance` smallest
 * members: a table is the pair's first exactly when every non-leading block below its last
 * leading block differs. Runs group by packed key, so every pair of a run agrees on the
 * table's leading blocks.
 */
function pairsOfRuns(distance: number, pairs: PairCollector): RunVisitor {
  return (run, length, table) => {
    const { positions, low, high } = run;
    const earlierBlocks = table === null ? NO_BLOCKS : table.earlierBlocks;
    for (let a = 0; a < length - 1; a++) {
      const aLow = low[a]!;
      const aHigh = high[a]!;
      for (let b = a + 1; b < length; b++) {
        const x = aLow ^ low[b]!;
        // Most candidates are far apart: half the count usually settles it.
        const lowBits = popcount32(x);
        if (lowBits > distance) continue;
        const y = aHigh ^ high[b]!;
        if (lowBits + popcount32(y) <= distance && collidesFirstHere(x, y, earlierBlocks)) {
          pairs.add(positions[a]!, positions[b]!);
        }
      }
    }
  };
}

/** No earlier blocks: the direct search has no tables to defer to. */
const NO_BLOCKS = new Int32Array(0);
