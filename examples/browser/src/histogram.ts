/**
 * The distribution of pairwise distances (SimHash) or of agreeing signature positions
 * (MinHash), which shows where near-duplicates separate from unrelated documents.
 */

import { allocHashArray, hammingDistances } from 'simhash-wasm/slim';
import type { Histogram } from './protocol.js';

/**
 * Up to this many documents, every pair is counted (8 million pairs, well under a second);
 * beyond it, the pairs of a uniform sample of this many documents stand for all of them.
 */
export const EXACT_LIMIT = 4000;

/**
 * Up to this many signed documents, every pair is compared (half a million pairs of 128
 * positions, about a tenth of a second); beyond it, a uniform sample of this many.
 */
export const SIGNATURE_EXACT_LIMIT = 1000;

/** `count` distinct positions of `0 .. n-1`, uniformly chosen, in ascending order. */
function samplePositions(n: number, count: number, random: () => number): Uint32Array {
  const positions = Uint32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (n - i));
    [positions[i], positions[j]] = [positions[j]!, positions[i]!];
  }
  return positions.subarray(0, count).sort();
}

/**
 * The number of pairs at each distance among `fingerprints`: exact up to {@link EXACT_LIMIT}
 * fingerprints, estimated from a sample above.
 */
export function distanceHistogram(fingerprints: BigUint64Array, random: () => number = Math.random): Histogram {
  const n = fingerprints.length;
  const chosen = n > EXACT_LIMIT ? BigUint64Array.from(samplePositions(n, EXACT_LIMIT, random), (p) => fingerprints[p]!) : fingerprints;
  const m = chosen.length;
  const counts = new Float64Array(65);
  // The fingerprints live in WebAssembly memory once, instead of being copied in per query.
  const array = allocHashArray(m);
  try {
    array.view.set(chosen);
    for (let i = 0; i < m - 1; i++) {
      // `.view` is read afresh: each call may grow the memory and detach an older view.
      const distances = hammingDistances(array.view[i]!, array);
      for (let j = i + 1; j < m; j++) counts[distances[j]!] = counts[distances[j]!]! + 1;
    }
  } finally {
    array.free();
  }
  return scaled(counts, n, m);
}

/** Counts over the pairs of `m` sampled of `n` documents as a histogram of all pairs. */
function scaled(counts: Float64Array, n: number, m: number): Histogram {
  const pairs = (n * (n - 1)) / 2;
  const samplePairs = (m * (m - 1)) / 2;
  const sampled = m < n;
  if (sampled) for (let d = 0; d < counts.length; d++) counts[d] = (counts[d]! * pairs) / samplePairs;
  return { counts, sampled, pairs };
}

/**
 * The number of pairs of the documents at `positions` whose MinHash signatures (`k` values
 * each, back to back in `signatures`) agree in each number of positions, 0 to k: exact up to
 * {@link SIGNATURE_EXACT_LIMIT} documents, estimated from a sample above.
 */
export function agreementHistogram(signatures: Uint32Array, k: number, positions: readonly number[], random: () => number = Math.random): Histogram {
  const n = positions.length;
  const chosen =
    n > SIGNATURE_EXACT_LIMIT ? Array.from(samplePositions(n, SIGNATURE_EXACT_LIMIT, random), (p) => positions[p]!) : positions;
  const m = chosen.length;
  const counts = new Float64Array(k + 1);
  for (let a = 0; a < m - 1; a++) {
    const x = chosen[a]! * k;
    for (let b = a + 1; b < m; b++) {
      const y = chosen[b]! * k;
      let equal = 0;
      for (let p = 0; p < k; p++) if (signatures[x + p] === signatures[y + p]) equal++;
      counts[equal] = counts[equal]! + 1;
    }
  }
  return scaled(counts, n, m);
}
