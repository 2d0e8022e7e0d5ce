import type { U64Input } from '../shared/types.js';
import { checkU64 } from '../shared/validate.js';
import { toU64Array } from '../shared/u64-input.js';
import { highWord, lowWord, toWords } from './words.js';

/** Number of set bits of a 32-bit value: the SWAR bit count. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x5555_5555;
  x = (x & 0x3333_3333) + ((x >>> 2) & 0x3333_3333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f_0f0f, 0x0101_0101) >>> 24;
}

/**
 * Number of set bits of the 64-bit value with halves `low` and `high`: {@link popcount32} with
 * the halves merged once their per-byte counts fit a byte together (at most 16).
 */
export function popcount64(low: number, high: number): number {
  low -= (low >>> 1) & 0x5555_5555;
  high -= (high >>> 1) & 0x5555_5555;
  low = (low & 0x3333_3333) + ((low >>> 2) & 0x3333_3333);
  high = (high & 0x3333_3333) + ((high >>> 2) & 0x3333_3333);
  const bytes = ((low + (low >>> 4)) & 0x0f0f_0f0f) + ((high + (high >>> 4)) & 0x0f0f_0f0f);
  return Math.imul(bytes, 0x0101_0101) >>> 24;
}

/**
 * Number of bits in which `a` and `b` differ: the popcount of `a ^ b`.
 *
 * @throws {TypeError | RangeError} unless both are `bigint`s in `0..2^64-1`.
 */
export function numDifferingBits(a: bigint, b: bigint): number {
  const x = checkU64(a, 'a') ^ checkU64(b, 'b');
  return popcount64(lowWord(x), highWord(x));
}

/**
 * The number of bits in which `query` differs from each fingerprint, in input order.
 *
 * @throws {TypeError | RangeError} for an invalid `query` or `fingerprints`.
 */
export function hammingDistances(query: bigint, fingerprints: U64Input): Uint8Array {
  const q = checkU64(query, 'query');
  const words = toWords(toU64Array(fingerprints, 'fingerprints'));
  const low = lowWord(q);
  const high = highWord(q);
  const distances = new Uint8Array(words.length / 2);
  for (let i = 0; i < distances.length; i++) {
    distances[i] = popcount64(words[2 * i]! ^ low, words[2 * i + 1]! ^ high);
  }
  return distances;
}
