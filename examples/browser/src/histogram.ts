/** The distribution of pairwise distances, which shows where near-duplicates separate. */

import { allocHashArray, hammingDistances } from 'simhash-wasm/slim';
import type { Histogram } from './protocol.js';

/**
 * Up to this many documents, every pair is counted (8 million pairs, well under a second);
 * beyond it, the pairs of a uniform sample of this many documents stand for all of them.
 */
export const EXACT_LIMIT = 4000;

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
  const sampled = n > EXACT_LIMIT;
  const chosen = sampled
    ? BigUint64Array.from(samplePositions(n, EXACT_LIMIT, random), (p) => fingerprints[p]!)
    : fingerprints;
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
  const pairs = (n * (n - 1)) / 2;
  const samplePairs = (m * (m - 1)) / 2;
  if (sampled) for (let d = 0; d < counts.length; d++) counts[d] = (counts[d]! * pairs) / samplePairs;
  return { counts, sampled, pairs };
}
