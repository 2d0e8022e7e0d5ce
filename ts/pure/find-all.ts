import { permutationLayout } from '../layout.js';
import { chooseBlocks } from '../plan.js';
import type { FindAllOptions, PairResult, PermutationLayout, U64Input } from '../types.js';
import {
  DEFAULT_MAX_PAIRS,
  checkBlocks,
  checkDistance,
  checkMaxPairs,
  checkOptions,
} from '../validate.js';
import { popcount32 } from './hamming.js';
import { toU64Array } from './input.js';
import { PairCollector } from './pairs.js';
import { KeySorter, type SortedKeys } from './radix-sort.js';
import { toWords } from './words.js';

/**
 * Every pair of positions `i < j` whose fingerprints differ in at most `options.distance`
 * bits, each pair once (equal fingerprints at different positions included), sorted by
 * `(left, right)`. Exact for every valid `blocks`, which only changes the speed.
 *
 * @throws {TypeError | RangeError} for an invalid `fingerprints` or option.
 * @throws {RangeError} when the result would hold more than `options.maxPairs` pairs.
 */
export function findAll(fingerprints: U64Input, options: FindAllOptions): PairResult {
  const values = toU64Array(fingerprints, 'fingerprints');
  const checked = checkOptions(options);
  const distance = checkDistance(checked.distance);
  const blocks =
    checked.blocks === undefined
      ? chooseBlocks(values.length, distance)
      : checkBlocks(checked.blocks, distance);
  const maxPairs =
    checked.maxPairs === undefined ? DEFAULT_MAX_PAIRS : checkMaxPairs(checked.maxPairs);
  const words = toWords(values);
  const pairs = new PairCollector(maxPairs);
  if (values.length >= 2) {
    if (blocks === 0) {
      compareAllPairs(words, distance, pairs);
    } else {
      searchTables(words, permutationLayout(blocks, distance), pairs);
    }
  }
  return pairs.toResult(words);
}

/** The direct search, for inputs too small (or distances too large) for tables to pay off. */
function compareAllPairs(words: Uint32Array, distance: number, pairs: PairCollector): void {
  const n = words.length / 2;
  for (let i = 0; i < n; i++) {
    const low = words[2 * i]!;
    const high = words[2 * i + 1]!;
    for (let j = i + 1; j < n; j++) {
      const lowBits = popcount32(low ^ words[2 * j]!);
      if (lowBits <= distance && lowBits + popcount32(high ^ words[2 * j + 1]!) <= distance) {
        pairs.add(i, j);
      }
    }
  }
}

/**
 * What one permuted table needs, over 32-bit halves. The sort key is the table's leading
 * blocks packed together rather than the permuted value's prefix: any key that is equal exactly
 * when the leading blocks agree groups the same candidates, and packing runs of adjacent blocks
 * takes fewer shifts than simhash-cpp's block-by-block permutation.
 */
interface TablePlan {
  /** Width of the key: the table's `prefixBits`. */
  readonly keyBits: number;
  /**
   * Five numbers per piece of the key: source half, shift right, mask, key half, shift left.
   * No piece crosses a half of the source or of the key.
   */
  readonly pieces: Int32Array;
  /**
   * Masks (low, high) of the blocks before the last leading block that are not leading. A pair
   * that agrees on all leading blocks collides first in this table, in layout order, iff it
   * differs on each of these (see {@link searchTables}).
   */
  readonly earlierBlocks: Int32Array;
}

/**
 * The permuted-table search of Manku, Jain and Das Sarma. Two fingerprints within `distance`
 * bits differ in at most `distance` blocks, so they agree on the leading blocks of some table:
 * sorting each table's keys and comparing within runs of equal keys finds every pair.
 *
 * Each pair is reported by exactly one table, the first in layout order where it collides,
 * so no set of reported pairs is needed. Tables are the `(blocks - distance)`-subsets of blocks
 * in lexicographic order, so the first subset contained in the set of blocks a pair agrees on
 * is that set's `blocks - distance` smallest members: a table is the pair's first exactly when
 * every non-leading block below its last leading block differs.
 */
function searchTables(words: Uint32Array, layout: PermutationLayout, pairs: PairCollector): void {
  const wide = layout.tables.some((table) => table.prefixBits > 32);
  const sorter = new KeySorter(words.length / 2, wide);
  const run = new RunBuffer();
  for (let t = 0; t < layout.tables.length; t++) {
    const plan = planTable(layout, t);
    computeKeys(words, plan.pieces, sorter.low, sorter.high);
    const sorted = sorter.sort(plan.keyBits);
    scanRuns(words, sorted, plan.keyBits > 32, plan.earlierBlocks, layout.distance, run, pairs);
  }
}

function planTable(layout: PermutationLayout, table: number): TablePlan {
  const { blocks, distance, blockBitRanges, tables } = layout;
  const leading = tables[table]!.order.slice(0, blocks - distance);
  const pieces: number[] = [];
  let keyBits = 0;
  // Adjacent leading blocks form one contiguous bit range, moved into the key as a unit.
  for (let r = 0; r < leading.length; ) {
    let s = r + 1;
    while (s < leading.length && leading[s] === leading[s - 1]! + 1) s++;
    const low = blockBitRanges[leading[r]!]![0];
    const high = blockBitRanges[leading[s - 1]!]![1];
    for (const [from, to] of splitAt32(low, high)) {
      for (const [keyFrom, keyTo] of splitAt32(keyBits, keyBits + to - from)) {
        const width = keyTo - keyFrom + 1;
        const source = from + keyFrom - keyBits;
        pieces.push(source >> 5, source & 31, 0xffff_ffff >>> (32 - width), keyFrom >> 5, keyFrom & 31);
      }
      keyBits += to - from + 1;
    }
    r = s;
  }
  const earlierBlocks: number[] = [];
  for (let block = 0; block < leading[leading.length - 1]!; block++) {
    if (leading.includes(block)) continue;
    const [low, high] = blockBitRanges[block]!;
    earlierBlocks.push(halfMask(low, high, 0), halfMask(low, high, 1));
  }
  return {
    keyBits,
    pieces: Int32Array.from(pieces),
    earlierBlocks: Int32Array.from(earlierBlocks),
  };
}

/** Bit range `[low, high]` of 64 cut where it crosses into the high half. */
function splitAt32(low: number, high: number): [number, number][] {
  return low < 32 && high >= 32 ? [[low, 31], [32, high]] : [[low, high]];
}

/** The bits of `[low, high]` that fall in half `half` (0 low, 1 high), as a 32-bit mask. */
function halfMask(low: number, high: number, half: number): number {
  const from = Math.max(low, 32 * half);
  const to = Math.min(high, 32 * half + 31);
  if (from > to) return 0;
  return ((0xffff_ffff >>> (31 - (to - from))) << (from - 32 * half)) | 0;
}

/** Writes every fingerprint's key: one tight loop per piece rather than a loop over pieces. */
function computeKeys(words: Uint32Array, pieces: Int32Array, keyLow: Uint32Array, keyHigh: Uint32Array): void {
  const n = keyLow.length;
  for (let k = 0; k < pieces.length; k += 5) {
    const source = pieces[k]!;
    const shift = pieces[k + 1]!;
    const mask = pieces[k + 2]!;
    const key = pieces[k + 3] === 0 ? keyLow : keyHigh;
    const keyShift = pieces[k + 4]!;
    // Pieces come in key order, so the one at the bottom of a key half is the first to write it.
    if (keyShift === 0) {
      for (let p = 0; p < n; p++) key[p] = (words[2 * p + source]! >>> shift) & mask;
    } else {
      for (let p = 0; p < n; p++) key[p] = key[p]! | (((words[2 * p + source]! >>> shift) & mask) << keyShift);
    }
  }
}

/** Fingerprints of one run of equal keys, copied together so verifying them reads no further. */
class RunBuffer {
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

/** Verifies every pair within each run of equal keys, reporting those this table owns. */
function scanRuns(
  words: Uint32Array,
  sorted: SortedKeys,
  wide: boolean,
  earlierBlocks: Int32Array,
  distance: number,
  run: RunBuffer,
  pairs: PairCollector,
): void {
  const { positions: order, low: keyLow, high: keyHigh } = sorted;
  const n = order.length;
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && keyLow[i] === keyLow[start] && (!wide || keyHigh[i] === keyHigh[start])) continue;
    const length = i - start;
    if (length > 1) {
      run.reserve(length);
      const { positions, low, high } = run;
      for (let k = 0; k < length; k++) {
        const p = order[start + k]!;
        positions[k] = p;
        low[k] = words[2 * p]!;
        high[k] = words[2 * p + 1]!;
      }
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
    }
    start = i;
  }
}

/** Whether the pair with halves of difference `x` and `y` differs on every earlier block. */
function collidesFirstHere(x: number, y: number, earlierBlocks: Int32Array): boolean {
  for (let k = 0; k < earlierBlocks.length; k += 2) {
    if (((x & earlierBlocks[k]!) | (y & earlierBlocks[k + 1]!)) === 0) return false;
  }
  return true;
}
