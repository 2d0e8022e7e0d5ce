import { explicitFilter } from '../shared/filter.js';
import { chooseFilter } from '../shared/plan.js';
import { FIND_ALL_OPTIONS, type FindAllOptions, type PairResult, type U64Input } from '../shared/types.js';
import {
  DEFAULT_MAX_PAIRS,
  checkDistance,
  checkMaxPairs,
  checkOptions,
} from '../shared/validate.js';
import { popcount32 } from '../shared/popcount.js';
import { toU64Array } from '../shared/u64-input.js';
import { PairCollector } from './pairs.js';
import { scanRuns, type RunVisitor } from './table-scan.js';
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
  const checked = checkOptions(options, FIND_ALL_OPTIONS, 'findAll');
  const distance = checkDistance(checked.distance);
  const filter = explicitFilter(checked, distance) ?? chooseFilter(values.length, distance, 'batch');
  const maxPairs =
    checked.maxPairs === undefined ? DEFAULT_MAX_PAIRS : checkMaxPairs(checked.maxPairs);
  checkWorkSlice(slice);
  const words = toWords(values);
  const pairs = new PairCollector(maxPairs);
  scanRuns(words, distance, filter, slice, pairsOfRuns(distance, pairs));
  return pairs.toResult(words);
}

/**
 * Checks every pair of each run, and of each two buckets of a part, and reports those within
 * `distance`, each from one unit only: the first in filter order where it collides (tables)
 * or qualifies (parts), so no set of reported pairs is needed (see `units.ts`).
 */
function pairsOfRuns(distance: number, pairs: PairCollector): RunVisitor {
  return {
    run(run, length, unit) {
      const { positions, low, high } = run;
      for (let a = 0; a < length - 1; a++) {
        const aLow = low[a]!;
        const aHigh = high[a]!;
        for (let b = a + 1; b < length; b++) {
          const x = aLow ^ low[b]!;
          // Most candidates are far apart: half the count usually settles it.
          const lowBits = popcount32(x);
          if (lowBits > distance) continue;
          const y = aHigh ^ high[b]!;
          if (lowBits + popcount32(y) <= distance && (unit === null || unit.first(x, y))) {
            pairs.add(positions[a]!, positions[b]!);
          }
        }
      }
    },
    cross(a, aLength, b, bLength, unit) {
      for (let i = 0; i < aLength; i++) {
        const aLow = a.low[i]!;
        const aHigh = a.high[i]!;
        for (let j = 0; j < bLength; j++) {
          const x = aLow ^ b.low[j]!;
          const lowBits = popcount32(x);
          if (lowBits > distance) continue;
          const y = aHigh ^ b.high[j]!;
          if (lowBits + popcount32(y) <= distance && unit.first(x, y)) pairs.add(a.positions[i]!, b.positions[j]!);
        }
      }
    },
  };
}
