import { checkClustersOptions } from '../shared/clusters-options.js';
import type { FindClustersOptions, U64Input } from '../shared/types.js';
import { popcount64 } from '../shared/popcount.js';
import { toU64Array } from '../shared/u64-input.js';
import { scanRuns, type RunBuffer, type RunVisitor } from './table-scan.js';
import { toWords } from './words.js';
import { WHOLE_SEARCH, checkWorkSlice, type WorkSlice } from '../shared/work-slice.js';
import { find, flattenToRoots, union } from '../shared/union-find.js';

/**
 * For each position, the smallest position of its connected component in the graph joining
 * every two fingerprints within `options.distance` bits: one label per fingerprint, in memory
 * linear in n however many pairs there are. Exact for every valid `blocks`.
 *
 * @throws {TypeError | RangeError} for an invalid `fingerprints` or option.
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
  const values = toU64Array(fingerprints, 'fingerprints');
  const { distance, filter } = checkClustersOptions(options, values.length);
  checkWorkSlice(slice);
  const words = toWords(values);
  const labels = new Uint32Array(values.length);
  for (let i = 0; i < labels.length; i++) labels[i] = i;
  scanRuns(words, distance, filter, slice, groupRuns(labels, distance));
  flattenToRoots(labels);
  return labels;
}

/** No further member. */
const NONE = -1;

/**
 * Joins the components of every pair of a run within `distance`, without checking every pair:
 * the run is covered by groups, each a leader and the members within `distance` of it, with the
 * largest member distance as its radius. A fingerprint joins every leader within `distance`;
 * a group whose leader is farther than radius + `distance` cannot hold a neighbour (triangle
 * inequality), nor can one already in the same component add anything; only the others have
 * their members checked. A family of near-duplicates costs one check per member and table.
 * (The Rust core does the same, see crates/simhash-core/src/clusters.rs.)
 */
function groupRuns(parent: Uint32Array, distance: number): RunVisitor {
  // Per group: its leader's index in the run, radius, and latest member; per member: the one
  // that joined the same group before it.
  let leaders = new Int32Array(16);
  let radii = new Int32Array(16);
  let lasts = new Int32Array(16);
  let next = new Int32Array(64);
  const visitRun = (run: RunBuffer, length: number): void => {
    const { positions, low, high } = run;
    if (next.length < length) next = new Int32Array(Math.max(length, 2 * next.length));
    let groups = 0;
    for (let k = 0; k < length; k++) {
      const kLow = low[k]!;
      const kHigh = high[k]!;
      const position = positions[k]!;
      let home = NONE;
      let homeDistance = 0;
      for (let g = 0; g < groups; g++) {
        const leader = leaders[g]!;
        const toLeader = popcount64(kLow ^ low[leader]!, kHigh ^ high[leader]!);
        if (toLeader <= distance) {
          union(parent, position, positions[leader]!);
          if (home === NONE) {
            home = g;
            homeDistance = toLeader;
          }
        } else if (toLeader <= radii[g]! + distance && find(parent, position) !== find(parent, positions[leader]!)) {
          for (let member = lasts[g]!; member !== NONE; member = next[member]!) {
            if (popcount64(kLow ^ low[member]!, kHigh ^ high[member]!) <= distance) {
              // The rest of the group is in that component too.
              union(parent, position, positions[member]!);
              break;
            }
          }
        }
      }
      if (home !== NONE) {
        if (homeDistance > radii[home]!) radii[home] = homeDistance;
        next[k] = lasts[home]!;
        lasts[home] = k;
      } else {
        if (groups === leaders.length) {
          leaders = grow(leaders);
          radii = grow(radii);
          lasts = grow(lasts);
        }
        leaders[groups] = k;
        radii[groups] = 0;
        lasts[groups] = k;
        next[k] = NONE;
        groups++;
      }
    }
  };
  return {
    run: visitRun,
    // Two buckets of a part are mostly far apart: every pair is checked.
    cross(a, aLength, b, bLength) {
      for (let i = 0; i < aLength; i++) {
        for (let j = 0; j < bLength; j++) {
          if (popcount64(a.low[i]! ^ b.low[j]!, a.high[i]! ^ b.high[j]!) <= distance) {
            union(parent, a.positions[i]!, b.positions[j]!);
          }
        }
      }
    },
  };
}

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(2 * array.length);
  bigger.set(array);
  return bigger;
}
