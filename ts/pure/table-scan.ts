/**
 * The scan that findAll and findClusters share: for each permuted table, sort the fingerprints
 * by their leading blocks and hand every run of equal keys to a visitor; for each part of a
 * multi-index layout, bucket the fingerprints by the part and hand every bucket, and every two
 * buckets whose keys lie within the part's radius, to it. The visitor decides what they mean
 * (pairs, or unions of components).
 */

import { PARTS_CODE } from '../shared/filter.js';
import { permutationLayout } from '../shared/layout.js';
import { ballVolume, partKeyBits } from '../shared/plan.js';
import { KeySorter } from './radix-sort.js';
import { computeKeys, keyLowOf, tableWords } from './tables.js';
import { Ball, filterUnits, partUnits, type Unit } from './units.js';
import { sliceOwns, type WorkSlice } from '../shared/work-slice.js';

/** Fingerprints of one run, copied together so that visiting them reads no further. */
export class RunBuffer {
  /** Positions of the run's fingerprints. */
  positions = new Uint32Array(64);
  /** Low halves of the run's fingerprints. */
  low = new Uint32Array(64);
  /** High halves of the run's fingerprints. */
  high = new Uint32Array(64);

  /** Makes room for a run of `length` fingerprints. */
  reserve(length: number): void {
    if (length <= this.positions.length) return;
    const capacity = Math.max(length, 2 * this.positions.length);
    this.positions = new Uint32Array(capacity);
    this.low = new Uint32Array(capacity);
    this.high = new Uint32Array(capacity);
  }
}

/** What a scan hands its runs to. */
export interface RunVisitor {
  /**
   * Called once per run of at least two fingerprints that may lie within the distance of one
   * another: the first `length` entries of `run`, from `unit`, or from no unit (`null`) when
   * the run is the whole input.
   */
  run(run: RunBuffer, length: number, unit: Unit | null): void;
  /**
   * Called for two buckets of a part whose keys lie within its radius: every pair of one
   * member of `a` (its first `aLength`) and one of `b` may lie within the distance.
   */
  cross(a: RunBuffer, aLength: number, b: RunBuffer, bLength: number, unit: Unit): void;
}

/**
/**
 * Visits the runs of a scan over `words` (fingerprints as 32-bit halves) with the filter of
 * code `filter` (see `filter.ts`) that `slice` owns: with 0, one run of everything, in position
 * order (slice 0's); with blocks, the runs of equal keys of each table, owned by the low
 * {@link SHARE_BITS} bits of their key; with parts, the buckets of each part and the pairs of
 * buckets from them, owned by the lower bucket, shared out by {@link partShares}.
 * Over the whole search, every pair within `distance` bits is visited at least once.
 */
export function scanRuns(words: Uint32Array, distance: number, filter: number, slice: WorkSlice, visit: RunVisitor): void {
  const n = words.length / 2;
  if (n < 2) return;
  const run = new RunBuffer();
  if (filter === 0) {
    if (slice.index !== 0) return;
    run.reserve(n);
    for (let p = 0; p < n; p++) {
      run.positions[p] = p;
      run.low[p] = words[2 * p]!;
      run.high[p] = words[2 * p + 1]!;
    }
    visit.run(run, n, null);
    return;
  }
  if (filter >= PARTS_CODE) {
    joinParts(words, partUnits(filter - PARTS_CODE, distance), slice, visit);
    return;
  }
  const layout = permutationLayout(filter, distance);
  const units = filterUnits(filter, distance);
  const wide = layout.tables.some((table) => table.prefixBits > 32);
  const sorter = new KeySorter(n, wide);
  const whole = slice.count === 1;
  for (let t = 0; t < layout.tables.length; t++) {
    const table = tableWords(layout, t);
    computeKeys(words, table.pieces, sorter.low, sorter.high);
    const { positions: order, low: keyLow, high: keyHigh } = sorter.sort(table.keyBits);
    const wideKeys = table.keyBits > 32;
    const shareBits = Math.min(SHARE_BITS, table.keyBits);
    let start = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && keyLow[i] === keyLow[start] && (!wideKeys || keyHigh[i] === keyHigh[start])) continue;
      const length = i - start;
      if (length > 1 && (whole || sliceOwns(slice, keyLow[start]! & (2 ** shareBits - 1), shareBits))) {
        run.reserve(length);
        const { positions, low, high } = run;
        for (let k = 0; k < length; k++) {
          const p = order[start + k]!;
          positions[k] = p;
          low[k] = words[2 * p]!;
          high[k] = words[2 * p + 1]!;
        }
        visit.run(run, length, units[t]!);
      }
      start = i;
    }
  }
}

/** Bits of a table's key that decide which slice owns its run. */
const SHARE_BITS = 16;

/** Copies the fingerprints at `order[start .. end)` into `run`. */
function fill(run: RunBuffer, words: Uint32Array, order: Uint32Array, start: number, end: number): void {
  run.reserve(end - start);
  const { positions, low, high } = run;
  for (let k = 0; k < end - start; k++) {
    const p = order[start + k]!;
    positions[k] = p;
    low[k] = words[2 * p]!;
    high[k] = words[2 * p + 1]!;
  }
}

/**
 * For each searched part: counts the fingerprints into buckets by the low
 * {@link partKeyBits} bits of the part, then visits every bucket and every pair of buckets
 * whose keys lie within the part's radius (each pair once, from the lower key): those buckets
 * `slice` owns (see {@link partShares}).
 */
function joinParts(words: Uint32Array, units: Unit[], slice: WorkSlice, visit: RunVisitor): void {
  const n = words.length / 2;
  const here = new RunBuffer();
  const there = new RunBuffer();
  const ball = new Ball();
  const keys = new Uint32Array(n);
  const order = new Uint32Array(n);
  const shares = partShares(units, n, slice);
  for (let u = 0; u < units.length; u++) {
    const unit = units[u]!;
    const share = shares[u]!;
    // A part with no share of this slice is not even bucketed.
    if (unit.radius < 0 || share === null) continue;
    const bits = share.bits;
    const mask = 2 ** bits - 1;
    // `ends[b]`: the end of bucket b once the members are placed.
    const ends = new Uint32Array(mask + 2);
    for (let p = 0; p < n; p++) {
      const key = keyLowOf(words[2 * p]!, words[2 * p + 1]!, unit.pieces) & mask;
      keys[p] = key;
      ends[key + 1]!++;
    }
    for (let b = 1; b <= mask + 1; b++) ends[b] = ends[b]! + ends[b - 1]!;
    for (let p = 0; p < n; p++) order[ends[keys[p]!]!++] = p;
    let start = 0;
    for (let bucket = 0; bucket <= mask; bucket++) {
      const end = ends[bucket]!;
      if (end === start) continue;
      if (!partShareOwns(share, bucket)) {
        start = end;
        continue;
      }
      fill(here, words, order, start, end);
      if (end - start > 1) visit.run(here, end - start, unit);
      ball.reset(bits, unit.radius).next();
      for (let m = ball.next(); m >= 0; m = ball.next()) {
        const other = bucket ^ m;
        if (other < bucket) continue;
        const otherStart = other === 0 ? 0 : ends[other - 1]!;
        const otherEnd = ends[other]!;
        if (otherEnd === otherStart) continue;
        fill(there, words, order, otherStart, otherEnd);
        visit.cross(here, end - start, there, otherEnd - otherStart, unit);
      }
      start = end;
    }
  }
}

/**
 * The buckets of one part that a slice visits: those of the groups of `2^groupBits`
 * consecutive keys whose scattered index lies in `from..to`.
 */
interface PartShare {
  readonly bits: number;
  readonly groupBits: number;
  readonly from: number;
  readonly to: number;
}

/**
 * How the parts of a search are shared among the slices, as the Rust core's `part_share`
 * does: the parts' estimated costs laid end to end and cut into `slice.count` equal lengths,
 * so that a slice buckets and probes only the parts it has a share of; within a part, groups
 * of up to 64 consecutive buckets (at least min(1024, 2^bits) groups) scattered over the
 * shares. `null`: the slice owns no bucket of that part.
 */
function partShares(units: readonly Unit[], n: number, slice: WorkSlice): (PartShare | null)[] {
  const costs = partCosts(units, n);
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  // The costs sum to less than 2^30 and slice numbers reach 2^32: products need BigInt.
  const cut = (index: number): number => Number((BigInt(total) * BigInt(index)) / BigInt(slice.count));
  const from = cut(slice.index);
  const to = cut(slice.index + 1);
  let start = 0;
  return units.map((unit, u) => {
    const cost = costs[u]!;
    const partFrom = Math.min(Math.max(from, start), start + cost) - start;
    const partTo = Math.min(Math.max(to, start), start + cost) - start;
    start += cost;
    if (partFrom === partTo) return null;
    const bits = partKeyBits(unit.keyBits, n);
    const groupBits = Math.min(6, Math.max(0, bits - 10));
    const groups = 2 ** (bits - groupBits);
    // Group g (scattered) is owned when g · cost / groups lies in partFrom..partTo.
    const first = (at: number): number => Math.floor((at * groups + cost - 1) / cost);
    const owned = { from: first(partFrom), to: first(partTo) };
    // A stretch shorter than a group may own none: such a slice need not bucket the part.
    return owned.from === owned.to ? null : { bits, groupBits, ...owned };
  });
}

/**
 * Each part's cost relative to the others of its layout: bucketing the fingerprints, then per
 * bucket the probes of its ball, each checking the pairs of two buckets (half the ball: a pair
 * of buckets is visited from the lower one); 0 for parts never searched, else at least 1.
 * Scaled to at most 2^24 each, as the Rust core's `part_cost` and `part_share` do.
 */
function partCosts(units: readonly Unit[], n: number): number[] {
  const exact = units.map((unit) => {
    if (unit.radius < 0) return 0n;
    const bits = partKeyBits(unit.keyBits, n);
    return 4n + (BigInt(ballVolume(bits, unit.radius)) * BigInt(Math.floor(n / 2 ** bits) + 1)) / 2n;
  });
  const largest = exact.reduce((max, cost) => (cost > max ? cost : max), 0n);
  const shift = BigInt(Math.max(0, largest.toString(2).length - 24));
  return exact.map((cost) => (cost === 0n ? 0 : Math.max(1, Number(cost >> shift))));
}

/**
 * Whether `share` owns `bucket`. Groups are scattered (times an odd constant, modulo the
 * number of groups) because a bucket pairs with the buckets above it only, so low buckets do
 * more work than high ones.
 */
function partShareOwns(share: PartShare, bucket: number): boolean {
  const scattered = (Math.imul(bucket >>> share.groupBits, 0x9e3779b1) >>> 0) % 2 ** (share.bits - share.groupBits);
  return share.from <= scattered && scattered < share.to;
}
