import type { U64Input } from '../shared/types.js';
import { checkU64 } from '../shared/validate.js';
import { toU64Array } from '../shared/u64-input.js';
import { popcount64 } from '../shared/popcount.js';
import { highWord, lowWord, toWords } from './words.js';

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
