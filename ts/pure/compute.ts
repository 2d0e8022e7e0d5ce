import type { U64Input, WeightInput } from '../shared/types.js';
import { checkOffsets, checkWeights } from '../shared/validate.js';
import { addSignedWeights, countSetBits } from './bit-counts.js';
import { toU64Array } from '../shared/u64-input.js';
import { fromWords, toBigint, toWords } from './words.js';

/**
 * The SimHash fingerprint of `hashes`: bit `i` is set iff strictly more hashes have bit `i`
 * set than clear (ties and empty input give 0).
 *
 * @throws {TypeError | RangeError} for an invalid `hashes`.
 */
export function compute(hashes: U64Input): bigint {
  const words = toWords(toU64Array(hashes, 'hashes'));
  const out = new Uint32Array(2);
  majority(words, 0, words.length / 2, new Int32Array(64), out, 0);
  return toBigint(out[0]!, out[1]!);
}

/**
 * The weighted SimHash fingerprint: for each bit `i`, starting from 0 and in input order, add
 * `weights[k]` when hash `k` has bit `i` set and subtract it otherwise, in f64; bit `i` is set
 * iff the sum is greater than 0. The order of additions is part of the contract, so results are
 * identical across implementations.
 *
 * @throws {TypeError | RangeError} for an invalid `hashes`, or `weights` that are not one finite
 * non-negative number per hash.
 */
export function computeWeighted(hashes: U64Input, weights: WeightInput): bigint {
  const words = toWords(toU64Array(hashes, 'hashes'));
  const checked = checkWeights(weights, words.length / 2);
  const out = new Uint32Array(2);
  weightedMajority(words, checked, 0, words.length / 2, new Float64Array(64), out, 0);
  return toBigint(out[0]!, out[1]!);
}

/**
 * One {@link compute} per document: document `d` owns `hashes[offsets[d] .. offsets[d + 1])`,
 * so `offsets.length - 1` fingerprints are returned (none for empty `offsets`).
 *
 * @throws {TypeError | RangeError} for an invalid `hashes`, or `offsets` that are not a
 * non-decreasing `Uint32Array` within `hashes`.
 */
export function computeMany(hashes: U64Input, offsets: Uint32Array): BigUint64Array {
  const words = toWords(toU64Array(hashes, 'hashes'));
  const bounds = checkOffsets(offsets, words.length / 2);
  const out = new Uint32Array(2 * documentCount(bounds));
  const counts = new Int32Array(64);
  for (let d = 0; 2 * d < out.length; d++) {
    majority(words, bounds[d]!, bounds[d + 1]!, counts, out, 2 * d);
  }
  return fromWords(out);
}

/**
 * One {@link computeWeighted} per document, with documents delimited as in
 * {@link computeMany} and one weight per hash (`weights.length === hashes.length`).
 *
 * @throws {TypeError | RangeError} for an invalid `hashes`, `weights` or `offsets`.
 */
export function computeManyWeighted(
  hashes: U64Input,
  weights: WeightInput,
  offsets: Uint32Array,
): BigUint64Array {
  const words = toWords(toU64Array(hashes, 'hashes'));
  const checked = checkWeights(weights, words.length / 2);
  const bounds = checkOffsets(offsets, words.length / 2);
  const out = new Uint32Array(2 * documentCount(bounds));
  const sums = new Float64Array(64);
  for (let d = 0; 2 * d < out.length; d++) {
    weightedMajority(words, checked, bounds[d]!, bounds[d + 1]!, sums, out, 2 * d);
  }
  return fromWords(out);
}

function documentCount(offsets: Uint32Array): number {
  return Math.max(0, offsets.length - 1);
}

/** Writes the fingerprint of hashes `[start, end)` to `out[at]` (low) and `out[at + 1]` (high). */
function majority(
  words: Uint32Array,
  start: number,
  end: number,
  counts: Int32Array,
  out: Uint32Array,
  at: number,
): void {
  counts.fill(0);
  countSetBits(words, start, end, 0, counts, 0);
  countSetBits(words, start, end, 1, counts, 32);
  const n = end - start;
  let low = 0;
  let high = 0;
  for (let b = 0; b < 32; b++) {
    if (2 * counts[b]! > n) low |= 1 << b;
    if (2 * counts[32 + b]! > n) high |= 1 << b;
  }
  out[at] = low;
  out[at + 1] = high;
}

/** Weighted form of {@link majority}. */
function weightedMajority(
  words: Uint32Array,
  weights: Float64Array,
  start: number,
  end: number,
  sums: Float64Array,
  out: Uint32Array,
  at: number,
): void {
  sums.fill(0);
  addSignedWeights(words, weights, start, end, 0, sums, 0);
  addSignedWeights(words, weights, start, end, 1, sums, 32);
  let low = 0;
  let high = 0;
  for (let b = 0; b < 32; b++) {
    if (sums[b]! > 0) low |= 1 << b;
    if (sums[32 + b]! > 0) high |= 1 << b;
  }
  out[at] = low;
  out[at + 1] = high;
}
