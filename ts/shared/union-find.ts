/**
 * Union-find over positions `0..n` in a `Uint32Array` of parents, where every set's root is its
 * smallest position: the labels `findClusters` returns. Shared by the pure twin's search and by
 * the join of work slices' labels.
 */

/** The root (smallest position) of `x`'s set, halving the path on the way. */
export function find(parent: Uint32Array, x: number): number {
  for (;;) {
    const p = parent[x]!;
    if (p === x) return x;
    const grandparent = parent[p]!;
    parent[x] = grandparent;
    x = grandparent;
  }
}

/** Merges the sets of `a` and `b` under the smaller root. */
export function union(parent: Uint32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra < rb) parent[rb] = ra;
  else if (rb < ra) parent[ra] = rb;
}

/** Turns every parent into its root, in place. */
export function flattenToRoots(parent: Uint32Array): void {
  // Parents never exceed their children, so one increasing pass turns parents into roots.
  for (let i = 0; i < parent.length; i++) parent[i] = parent[parent[i]!]!;
}
