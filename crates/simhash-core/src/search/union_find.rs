//! Disjoint sets over positions `0..n`, stored in a caller's `u32` slice, whose roots are the
//! smallest position of their set: the labels [`crate::find_clusters`] returns fall out of the
//! structure itself, with no second array.

/// Union-find linking the larger root under the smaller, with path halving.
///
/// Every parent is at most its child (links go to smaller roots, halving to grandparents), so
/// a single increasing pass turns parents into roots ([`UnionFind::into_labels`]). Without union
/// by rank the amortised cost per operation is O(log n) rather than near-constant, which the
/// scans that drive it never come close to noticing.
pub(crate) struct UnionFind<'a> {
    parent: &'a mut [u32],
}

impl<'a> UnionFind<'a> {
    /// Singletons over `parent.len()` positions (at most `u32::MAX`), overwriting `parent`.
    pub(crate) fn new(parent: &'a mut [u32]) -> Self {
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u32;
        }
        UnionFind { parent }
    }

    /// The root (smallest position) of `x`'s set; halves the path on the way.
    #[inline]
    pub(crate) fn find(&mut self, mut x: u32) -> u32 {
        loop {
            let p = self.parent[x as usize];
            if p == x {
                return x;
            }
            let grandparent = self.parent[p as usize];
            self.parent[x as usize] = grandparent;
            x = grandparent;
        }
    }

    /// Merges the sets of `a` and `b`.
    #[inline]
    pub(crate) fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra < rb {
            self.parent[rb as usize] = ra;
        } else if rb < ra {
            self.parent[ra as usize] = rb;
        }
    }

    /// Leaves in the slice, for each position, the smallest position of its set.
    pub(crate) fn into_labels(self) {
        for i in 0..self.parent.len() {
            let p = self.parent[i] as usize;
            // `p <= i`, and every position below `i` already holds its root.
            self.parent[i] = self.parent[p];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn labels_are_smallest_members() {
        let mut rng = Rng::new(3);
        for n in [1usize, 2, 10, 500] {
            let mut parent = vec![0u32; n];
            let mut naive: Vec<u32> = (0..n as u32).collect();
            let mut uf = UnionFind::new(&mut parent);
            for _ in 0..n / 2 {
                let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
                uf.union(a, b);
                let (la, lb) = (naive[a as usize], naive[b as usize]);
                let (keep, drop) = (la.min(lb), la.max(lb));
                for l in naive.iter_mut() {
                    if *l == drop {
                        *l = keep;
                    }
                }
            }
            uf.into_labels();
            assert_eq!(parent, naive, "n {}", n);
        }
    }
}
