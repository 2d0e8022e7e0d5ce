//! Connected components of the "within distance" graph: one label per fingerprint, in memory
//! linear in n however many pairs the graph has.

use crate::search::strategy::Strategy;
use crate::search::filter::Unit;
use crate::search::slice::Slice;
use crate::search::table_scan::{near_pairs, scan, Member, RunVisitor};
use crate::search::union_find::UnionFind;
use crate::Error;

/// Writes to `labels[i]`, for every position `i`, the smallest position of its connected
/// component in the graph joining every two positions whose fingerprints differ in at most
/// `distance` bits. Exact: the same components as checking every pair, for any `strategy`.
///
/// The scan is [`crate::find_all`]'s, and within each run of colliding fingerprints the pairs
/// are not all checked: a run of m mutual near-duplicates would cost m²/2 checks per table.
/// Instead the run is covered by *groups*, each a leader and the members within `distance` of
/// it, with the largest member distance as its radius. A new fingerprint x joins the component
/// of every leader within `distance`; a group whose leader is farther than radius + `distance`
/// cannot hold a neighbour of x (triangle inequality), nor can one already in x's component
/// add anything; only the remaining groups have their members checked one by one. A family of
/// near-duplicates then costs one check per member and table.
///
/// # Errors
/// [`Error::LengthMismatch`] unless `labels` has one element per fingerprint;
/// [`Error::TooManyElements`] beyond `u32::MAX` fingerprints; [`Error::DistanceTooLarge`] and
/// the other layout errors for a bad `(blocks, distance)`; [`Error::OutOfMemory`].
pub fn find_clusters(fingerprints: &[u64], distance: u32, strategy: Strategy, labels: &mut [u32]) -> Result<(), Error> {
    find_clusters_slice(fingerprints, distance, strategy, Slice::WHOLE, labels)
}

/// [`find_clusters`] over the tables of `slice` only: writes to `labels[i]` the smallest position
/// of `i`'s component in the graph of the pairs within `distance` that share a run in those
/// tables. Every pair within `distance` shares a run in some table, so joining the labels of the
/// slices `0..count` of one search (union `i` with `labels[i]` for each slice, then take each
/// set's smallest position) gives [`find_clusters`]' labels.
///
/// # Errors
/// As [`find_clusters`].
pub fn find_clusters_slice(
    fingerprints: &[u64],
    distance: u32,
    strategy: Strategy,
    slice: Slice,
    labels: &mut [u32],
) -> Result<(), Error> {
    if fingerprints.len() > u32::MAX as usize {
        return Err(Error::TooManyElements);
    }
    if labels.len() != fingerprints.len() {
        return Err(Error::LengthMismatch);
    }
    if distance > 64 {
        return Err(Error::DistanceTooLarge { distance });
    }
    let mut visitor = GroupVisitor { components: UnionFind::new(labels), distance, groups: Vec::new(), next: Vec::new() };
    scan(fingerprints, distance, strategy, slice, &mut visitor)?;
    visitor.components.into_labels();
    Ok(())
}

/// A leader of a run and the members that joined it (a list threaded through `next`).
struct Group {
    leader: Member,
    /// Largest distance of a member from the leader.
    radius: u32,
    /// Index in the run of the latest member to join (the leader's when none did).
    last: u32,
}

/// No further member.
const NONE: u32 = u32::MAX;

struct GroupVisitor<'a> {
    components: UnionFind<'a>,
    distance: u32,
    /// Groups of the current run, reused from run to run.
    groups: Vec<Group>,
    /// `next[k]`: the index in the run of the member that joined the same group before the
    /// k-th fingerprint, or [`NONE`].
    next: Vec<u32>,
}

impl RunVisitor for GroupVisitor<'_> {
    fn visit(&mut self, run: &[Member], _unit: Option<Unit<'_>>) -> Result<(), Error> {
        let distance = self.distance;
        self.groups.clear();
        self.next.clear();
        self.next.try_reserve(run.len()).map_err(|_| Error::OutOfMemory)?;
        for (k, &(value, position)) in run.iter().enumerate() {
            let position = position as u32;
            let mut home: Option<(usize, u32)> = None;
            for (g, group) in self.groups.iter().enumerate() {
                let (leader_value, leader_position) = group.leader;
                let to_leader = (value ^ leader_value).count_ones();
                if to_leader <= distance {
                    self.components.union(position, leader_position as u32);
                    if home.is_none() {
                        home = Some((g, to_leader));
                    }
                } else if to_leader <= group.radius + distance
                    && self.components.find(position) != self.components.find(leader_position as u32)
                {
                    let mut member = group.last;
                    while member != NONE {
                        let (member_value, member_position) = run[member as usize];
                        if (value ^ member_value).count_ones() <= distance {
                            // The rest of the group is in that component too.
                            self.components.union(position, member_position as u32);
                            break;
                        }
                        member = self.next[member as usize];
                    }
                }
            }
            match home {
                Some((g, to_leader)) => {
                    let group = &mut self.groups[g];
                    group.radius = group.radius.max(to_leader);
                    self.next.push(group.last);
                    group.last = k as u32;
                }
                None => {
                    self.groups.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
                    self.groups.push(Group { leader: (value, u64::from(position)), radius: 0, last: k as u32 });
                    self.next.push(NONE);
                }
            }
        }
        Ok(())
    }

    /// Two buckets of a part are mostly far apart: every pair is checked, and each near pair
    /// joins its components.
    fn visit_cross(&mut self, a: &[Member], b: &[Member], _unit: Unit<'_>) -> Result<(), Error> {
        let components = &mut self.components;
        near_pairs(a, b, self.distance, |(_, position_a), (_, position_b)| {
            components.union(position_a as u32, position_b as u32);
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::bits_differ;
    use crate::test_rng::Rng;

    /// Labels by checking every pair and relabelling naively.
    fn brute(fingerprints: &[u64], distance: u32) -> Vec<u32> {
        let mut labels: Vec<u32> = (0..fingerprints.len() as u32).collect();
        for i in 0..fingerprints.len() {
            for j in i + 1..fingerprints.len() {
                if bits_differ(fingerprints[i], fingerprints[j]) <= distance {
                    let (a, b) = (labels[i], labels[j]);
                    let (keep, drop) = (a.min(b), a.max(b));
                    for l in labels.iter_mut() {
                        if *l == drop {
                            *l = keep;
                        }
                    }
                }
            }
        }
        labels
    }

    fn clusters(v: &[u64], distance: u32, strategy: Strategy) -> Vec<u32> {
        let mut labels = vec![0; v.len()];
        find_clusters(v, distance, strategy, &mut labels).unwrap();
        labels
    }

    /// Chains and families: near copies of earlier values at 0..=distance+2 bits (so many
    /// groups have radius > 0 and neighbours just outside a leader's reach), duplicates, and
    /// fresh values.
    fn chained(rng: &mut Rng, n: usize, distance: u32) -> Vec<u64> {
        let mut v: Vec<u64> = Vec::with_capacity(n);
        while v.len() < n {
            if v.is_empty() || rng.below(4) == 0 {
                v.push(rng.next());
            } else {
                let mut x = v[rng.below(v.len() as u64) as usize];
                for _ in 0..rng.below(u64::from(distance) + 3) {
                    x ^= 1 << rng.below(64);
                }
                v.push(x);
            }
        }
        v
    }

    #[test]
    fn matches_brute_force() {
        let mut rng = Rng::new(11);
        for (blocks, distance) in [(1, 0), (2, 1), (4, 3), (5, 3), (6, 3), (7, 2), (9, 4), (10, 6), (64, 1), (64, 63)] {
            for n in [0, 1, 2, 3, 60, 500] {
                let v = chained(&mut rng, n, distance);
                let expected = brute(&v, distance);
                assert_eq!(clusters(&v, distance, Strategy::Blocks(blocks)), expected, "blocks {} distance {} n {}", blocks, distance, n);
                assert_eq!(clusters(&v, distance, Strategy::Direct), expected);
            }
        }
        for distance in 0..=64 {
            let v = chained(&mut rng, 150, distance);
            let expected = brute(&v, distance);
            for parts in [1, 3, 4, 7, 64] {
                assert_eq!(clusters(&v, distance, Strategy::Parts(parts)), expected, "parts {} distance {}", parts, distance);
            }
        }
        let v = chained(&mut rng, 300, 64);
        assert_eq!(clusters(&v, 64, Strategy::Direct), vec![0; 300]);
    }

    #[test]
    fn a_family_is_one_component_among_singletons() {
        let mut rng = Rng::new(12);
        let base = rng.next();
        let mut v: Vec<u64> = (0..3000).map(|_| rng.next()).collect();
        for k in 0..2000 {
            let bit = rng.below(65);
            let member = if bit < 64 { base ^ (1 << bit) } else { base };
            v.insert((k * 7) % v.len(), member);
        }
        let labels = clusters(&v, 3, Strategy::Blocks(5));
        let first = v.iter().position(|&x| bits_differ(x, base) <= 1).unwrap() as u32;
        for (i, &x) in v.iter().enumerate() {
            if bits_differ(x, base) <= 1 {
                assert_eq!(labels[i], first);
            }
        }
        assert_eq!(labels, brute(&v, 3));
    }

    #[test]
    fn rejects_bad_arguments() {
        let v = [1u64, 2, 3];
        let mut short = [0u32; 2];
        assert_eq!(find_clusters(&v, 3, Strategy::Direct, &mut short), Err(Error::LengthMismatch));
        let mut labels = [0u32; 3];
        assert_eq!(find_clusters(&v, 65, Strategy::Direct, &mut labels), Err(Error::DistanceTooLarge { distance: 65 }));
        assert_eq!(
            find_clusters(&v, 3, Strategy::Blocks(3), &mut labels),
            Err(Error::BlocksNotAboveDistance { blocks: 3, distance: 3 })
        );
    }

    #[test]
    fn joined_slice_labels_make_the_whole() {
        let mut rng = Rng::new(13);
        for (strategy, distance) in [(Strategy::Blocks(5), 3), (Strategy::Blocks(12), 10), (Strategy::Blocks(2), 1), (Strategy::Direct, 2), (Strategy::Parts(4), 10), (Strategy::Parts(6), 16)] {
            let tables = match strategy {
                Strategy::Blocks(blocks) => crate::Layout::new(blocks, distance).unwrap().tables().len() as u32,
                Strategy::Parts(parts) => parts,
                Strategy::Direct => 1,
            };
            for v in [chained(&mut rng, 700, distance), (0..700).map(|_| rng.next()).collect::<Vec<u64>>()] {
                let whole = clusters(&v, distance, strategy);
                for count in [1, 2, 3, 5, tables, tables + 2] {
                    let mut joined = vec![0u32; v.len()];
                    let mut components = UnionFind::new(&mut joined);
                    for index in 0..count {
                        let mut labels = vec![0u32; v.len()];
                        find_clusters_slice(&v, distance, strategy, Slice::new(index, count).unwrap(), &mut labels).unwrap();
                        for (i, &label) in labels.iter().enumerate() {
                            assert!(label as usize <= i);
                            components.union(i as u32, label);
                        }
                    }
                    components.into_labels();
                    assert_eq!(joined, whole, "{:?} count {}", strategy, count);
                }
            }
        }
    }
}
