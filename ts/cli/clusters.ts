/** Connected components of the near-duplicate graph, from the exact pair search. */

import { findAll } from '../index.js';

/**
 * `roots[i]` is the smallest position of the component holding `i`, in the graph linking
 * positions whose fingerprints differ in at most `distance` bits (union-find over `findAll`).
 *
 * @throws {RangeError} when the pairs exceed `findAll`'s `maxPairs` (very large families).
 */
export function clusterRoots(fingerprints: BigUint64Array, distance: number): Uint32Array {
  const { left, right } = findAll(fingerprints, { distance });
  const parent = Uint32Array.from({ length: fingerprints.length }, (_, i) => i);
  const find = (x: number): number => {
    let root = x;
    while (parent[root] !== root) root = parent[root] as number;
    // Path compression: later finds on this chain take one step.
    while (parent[x] !== root) {
      const next = parent[x] as number;
      parent[x] = root;
      x = next;
    }
    return root;
  };
  for (let k = 0; k < left.length; k++) {
    const a = find(left[k] as number);
    const b = find(right[k] as number);
    // Linking the larger root under the smaller keeps every root the smallest of its set.
    if (a < b) parent[b] = a;
    else if (b < a) parent[a] = b;
  }
  for (let i = 0; i < parent.length; i++) parent[i] = find(i);
  return parent;
}
