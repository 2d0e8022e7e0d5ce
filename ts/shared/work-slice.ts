/**
 * Shares of the work of `findAll` and `findClusters` that separate workers can run
 * independently, and the merges that turn their results into the whole result. Internal: the
 * worker pool uses them; they are not part of either entry.
 */

import type { PairResult } from './types.js';
import { flattenToRoots, union } from './union-find.js';

/**
 * A share of a batch search. For permuted tables: within every table, the runs whose key falls
 * in the slice's range of keys (keys split into `count` ranges of nearly equal width by some of
 * their bits that every member of a run shares; which bits is each entry's own choice), so each
 * slice does about `1/count` of every table. For parts: a stretch of the parts' estimated
 * costs, a few whole parts and fractions of one or two. The direct search is a single run,
 * which slice 0 takes. A pair is reported only by the first unit in which it collides, and
 * there by one run (for parts, by the lower of two buckets), so the slices `0..count` of one
 * search report disjoint sets of pairs whose union is the whole result, for any `count`.
 */
export interface WorkSlice {
  /** Which slice: an integer in `0..count-1`. */
  readonly index: number;
  /** How many slices the work is split into: a positive integer below 2^32. */
  readonly count: number;
}

/** The whole search as one slice. */
export const WHOLE_SEARCH: WorkSlice = { index: 0, count: 1 };

/**
 * Checks a slice: integers with `0 <= index < count <= 2^32 - 1`.
 *
 * @throws {RangeError} naming the rule broken.
 */
export function checkWorkSlice(slice: WorkSlice): WorkSlice {
  const { index, count } = slice;
  if (!Number.isInteger(count) || count < 1 || count > 0xffff_ffff) {
    throw new RangeError(`slice.count must be an integer in 1..2^32-1, got ${count}`);
  }
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`slice.index must be an integer in 0..slice.count-1, got ${index}`);
  }
  return slice;
}

/**
 * Whether `slice` owns the run whose key has `top` in the `bits` bits that decide (`bits <= 32`,
 * `top < 2^bits`): range `floor(top * count / 2^bits)`.
 */
export function sliceOwns(slice: WorkSlice, top: number, bits: number): boolean {
  return Math.floor((top * slice.count) / 2 ** bits) === slice.index;
}

/**
 * The labels of the whole search from those of its slices: each slice's labels map every
 * position to the smallest position of its component among the pairs that slice found; the
 * components of all pairs are the unions of those, labelled again by their smallest position.
 * Every array must have the same length.
 */
export function joinSliceLabels(slices: readonly Uint32Array[]): Uint32Array {
  const n = slices[0]?.length ?? 0;
  const parent = new Uint32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  for (const labels of slices) {
    if (labels.length !== n) throw new RangeError(`slice labels must all have ${n} elements, got ${labels.length}`);
    for (let i = 0; i < n; i++) {
      const label = labels[i]!;
      if (label !== i) union(parent, i, label);
    }
  }
  flattenToRoots(parent);
  return parent;
}

/**
 * The whole `findAll` result from the disjoint, each sorted, results of its slices: one sorted
 * result by `(left, right)`.
 */
export function mergeSlicePairs(slices: readonly PairResult[]): PairResult {
  let total = 0;
  for (const part of slices) total += part.left.length;
  const left = new Uint32Array(total);
  const right = new Uint32Array(total);
  const distance = new Uint8Array(total);
  const next = new Array<number>(slices.length).fill(0);
  // Few slices (one per worker): a linear scan for the smallest head beats a heap.
  for (let k = 0; k < total; k++) {
    let best = -1;
    let bestLeft = 0;
    let bestRight = 0;
    for (let s = 0; s < slices.length; s++) {
      const part = slices[s]!;
      const at = next[s]!;
      if (at === part.left.length) continue;
      const l = part.left[at]!;
      const r = part.right[at]!;
      if (best < 0 || l < bestLeft || (l === bestLeft && r < bestRight)) {
        best = s;
        bestLeft = l;
        bestRight = r;
      }
    }
    const part = slices[best]!;
    const at = next[best]!;
    left[k] = bestLeft;
    right[k] = bestRight;
    distance[k] = part.distance[at]!;
    next[best] = at + 1;
  }
  return { left, right, distance };
}
