/** How the members of a group compare with its kept document (its first), for each method. */

import { estimateJaccard, numDifferingBits } from 'simhash-wasm/slim';
import { count } from './count.js';
import { MINHASH_PERMUTATIONS as K } from './settings.js';
import type { GroupMeasure } from './view.js';

/** A fingerprint as 16 hex digits, the form the export uses too. */
export const hex = (fingerprint: bigint): string => fingerprint.toString(16).padStart(16, '0');

/** SimHash: each member's distance in bits from the kept document, and every fingerprint. */
export function bitsFromKept(group: readonly number[], fingerprints: BigUint64Array): GroupMeasure {
  const first = fingerprints[group[0]!]!;
  const distances = group.map((position) => numDifferingBits(first, fingerprints[position]!));
  return {
    badges: distances.map((distance, i) => (i === 0 ? 'kept' : count(distance, 'bit'))),
    summary: `remove ${count(group.length - 1, 'document')}, up to ${count(Math.max(...distances), 'bit')} from the kept one`,
    codes: group.map((position) => hex(fingerprints[position]!)),
  };
}

/** A similarity as the page writes it: two decimals (a signature's estimates step by 1/128). */
export const similarityText = (similarity: number): string => similarity.toFixed(2);

/** MinHash: each member's estimated Jaccard similarity with the kept document. */
export function jaccardWithKept(group: readonly number[], signatures: Uint32Array): GroupMeasure {
  const signature = (position: number): Uint32Array => signatures.subarray(position * K, (position + 1) * K);
  const first = signature(group[0]!);
  const similarities = group.map((position) => estimateJaccard(first, signature(position)));
  return {
    badges: similarities.map((similarity, i) => (i === 0 ? 'kept' : `J ≈ ${similarityText(similarity)}`)),
    summary: `remove ${count(group.length - 1, 'document')}, estimated Jaccard ≥ ${similarityText(Math.min(...similarities.slice(1)))} with the kept one`,
    codes: null,
  };
}

/** Adaptive: each member's similarity with the kept document (word sets or word pairs, as their lengths call for). */
export function similarityToKept(group: readonly number[], similarity: Float64Array): GroupMeasure {
  const values = group.map((position) => similarity[position]!);
  return {
    badges: values.map((value, i) => (i === 0 ? 'kept' : `J ${similarityText(value)}`)),
    summary: `remove ${count(group.length - 1, 'document')}, similarity ≥ ${similarityText(Math.min(...values.slice(1)))} with the kept one`,
    codes: null,
  };
}
