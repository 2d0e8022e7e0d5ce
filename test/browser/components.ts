/**
 * The test's own way to the groups, independent of `findClusters`: union-find over the pairs
 * `findAll` returns.
 */

import type { PairResult } from '../../ts/index.js';

/** The connected components of two or more among `count` items joined by `pairs`. */
export function components(count: number, pairs: PairResult): number[][] {
  const parent = Uint32Array.from({ length: count }, (_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let p = 0; p < pairs.left.length; p++) parent[root(pairs.left[p]!)] = root(pairs.right[p]!);
  const members = new Map<number, number[]>();
  for (let i = 0; i < count; i++) members.set(root(i), [...(members.get(root(i)) ?? []), i]);
  return [...members.values()].filter((list) => list.length > 1);
}
