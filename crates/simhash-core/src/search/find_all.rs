//! Every pair of positions whose fingerprints lie within a Hamming distance.

use crate::fingerprint::bits_differ;
use crate::memory::zeroed;
use crate::search::filter::Unit;
use crate::search::radix::sort_by_bits;
use crate::search::slice::Slice;
use crate::search::strategy::Strategy;
use crate::search::table_scan::{near_pairs, next_near, position_bits, scan, Member, RunVisitor};
use crate::Error;

/// Pairs of positions as parallel arrays, sorted by `(left, right)`, `left[k] < right[k]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    pub left: Vec<u32>,
    pub right: Vec<u32>,
    /// Bits in which the pair differs.
    pub distance: Vec<u8>,
}

/// Every pair of positions `i < j` with `bits_differ(fingerprints[i], fingerprints[j]) <=
/// distance`: each exactly once, equal fingerprints at different positions included, sorted by
/// `(i, j)`. The result does not depend on `strategy`; only the speed does.
///
/// With [`Strategy::Blocks`], each table is the fingerprints' leading-block prefixes radix-sorted
/// (carrying the position in the low bits of the same key), scanned for runs of equal prefix. A
/// pair is reported only by the first table in which it collides, so no set of seen pairs is
/// kept and the tables are independent of one another.
///
/// Memory stays bounded when the result would be too large: pairs are stored only up to
/// 2^22 of them (32 MiB); beyond that they are only counted, and failing as soon as the
/// count passes `max_pairs` costs no memory at all. A result larger than that bound but within
/// `max_pairs` is found by a second scan into storage of exactly the right size.
///
/// # Errors
/// [`Error::TooManyElements`] beyond `u32::MAX` fingerprints; the [`Layout::new`] errors for a
/// bad `(blocks, distance)`; [`Error::DistanceTooLarge`] for `distance > 64`;
/// [`Error::TooManyPairs`] as soon as more than `max_pairs` pairs are found;
/// [`Error::OutOfMemory`] if a buffer cannot be allocated.
///
/// [`Layout::new`]: crate::Layout::new
pub fn find_all(fingerprints: &[u64], distance: u32, strategy: Strategy, max_pairs: usize) -> Result<Pairs, Error> {
    find_all_slice(fingerprints, distance, strategy, max_pairs, Slice::WHOLE)
}

/// The pairs of [`find_all`] that the tables of `slice` report, sorted by `(left, right)`:
/// those whose first colliding table belongs to the slice. The results of the slices `0..count`
/// of one search are disjoint and together make the whole result, so workers can each run one
/// and the caller merges them by a sort. `max_pairs` bounds this slice's pairs only.
///
/// # Errors
/// As [`find_all`].
pub fn find_all_slice(
    fingerprints: &[u64],
    distance: u32,
    strategy: Strategy,
    max_pairs: usize,
    slice: Slice,
) -> Result<Pairs, Error> {
    find_all_storing(fingerprints, distance, strategy, max_pairs, slice, STORED_BEFORE_COUNTING)
}

/// [`find_all_slice`] storing at most `store_limit` pairs before it only counts them.
fn find_all_storing(
    fingerprints: &[u64],
    distance: u32,
    strategy: Strategy,
    max_pairs: usize,
    slice: Slice,
    store_limit: usize,
) -> Result<Pairs, Error> {
    if fingerprints.len() > u32::MAX as usize {
        return Err(Error::TooManyElements);
    }
    if distance > 64 {
        return Err(Error::DistanceTooLarge { distance });
    }
    let position_bits = position_bits(fingerprints.len());
    let mut sink = PairSink::new(max_pairs, store_limit.min(max_pairs), position_bits);
    scan(fingerprints, distance, strategy, slice, &mut PairVisitor { sink: &mut sink, distance })?;
    if !sink.storing {
        // Every pair fits under max_pairs but not under the storage bound: find them again, now
        // that their number is known.
        let count = sink.count as usize;
        sink = PairSink::new(count, count, position_bits);
        sink.packed.try_reserve_exact(count).map_err(|_| Error::OutOfMemory)?;
        scan(fingerprints, distance, strategy, slice, &mut PairVisitor { sink: &mut sink, distance })?;
    }
    sink.finish(fingerprints)
}

/// Pairs stored before [`find_all`] switches to counting them.
const STORED_BEFORE_COUNTING: usize = 1 << 22;

/// Checks every pair of a run and reports those within the distance, each from one table only.
struct PairVisitor<'a> {
    sink: &'a mut PairSink,
    distance: u32,
}

impl RunVisitor for PairVisitor<'_> {
    fn visit(&mut self, run: &[Member], unit: Option<Unit<'_>>) -> Result<(), Error> {
        for (a, &(value_a, position_a)) in run.iter().enumerate() {
            let mut rest = &run[a + 1..];
            loop {
                let near = next_near(rest, value_a, self.distance);
                let (value_b, position_b) = match rest.get(near) {
                    Some(&member) => member,
                    None => break,
                };
                let difference = value_a ^ value_b;
                if unit.map_or(true, |u| u.first(difference)) {
                    self.sink.push(position_a.min(position_b), position_a.max(position_b))?;
                }
                rest = &rest[near + 1..];
            }
        }
        Ok(())
    }

    fn visit_cross(&mut self, a: &[Member], b: &[Member], unit: Unit<'_>) -> Result<(), Error> {
        let sink = &mut *self.sink;
        near_pairs(a, b, self.distance, |(value_a, position_a), (value_b, position_b)| {
            if unit.first(value_a ^ value_b) {
                sink.push(position_a.min(position_b), position_a.max(position_b))?;
            }
            Ok(())
        })
    }
}

/// Counts pairs and stores the first `store_limit` of them packed as
/// `left << position_bits | right`, failing once more than `max_pairs` arrive.
struct PairSink {
    packed: Vec<u64>,
    count: u64,
    max_pairs: usize,
    store_limit: usize,
    /// Cleared (and the storage dropped) once more than `store_limit` pairs arrived.
    storing: bool,
    position_bits: u32,
}

impl PairSink {
    fn new(max_pairs: usize, store_limit: usize, position_bits: u32) -> Self {
        PairSink { packed: Vec::new(), count: 0, max_pairs, store_limit, storing: true, position_bits }
    }

    #[inline]
    fn push(&mut self, left: u64, right: u64) -> Result<(), Error> {
        if self.count >= self.max_pairs as u64 {
            return Err(Error::TooManyPairs { max_pairs: self.max_pairs as u64 });
        }
        self.count += 1;
        if !self.storing {
            return Ok(());
        }
        if self.packed.len() == self.store_limit {
            self.storing = false;
            self.packed = Vec::new();
            return Ok(());
        }
        if self.packed.len() == self.packed.capacity() {
            let more = self.packed.len().max(1024).min(self.store_limit - self.packed.len());
            self.packed.try_reserve(more).map_err(|_| Error::OutOfMemory)?;
        }
        self.packed.push(left << self.position_bits | right);
        Ok(())
    }

    fn finish(mut self, fingerprints: &[u64]) -> Result<Pairs, Error> {
        let count = self.packed.len();
        let mut scratch = zeroed(count)?;
        sort_by_bits(&mut self.packed, &mut scratch, 0, 2 * self.position_bits)?;
        drop(scratch);
        let mut pairs = Pairs {
            left: Vec::new(),
            right: Vec::new(),
            distance: Vec::new(),
        };
        pairs.left.try_reserve_exact(count).map_err(|_| Error::OutOfMemory)?;
        pairs.right.try_reserve_exact(count).map_err(|_| Error::OutOfMemory)?;
        pairs.distance.try_reserve_exact(count).map_err(|_| Error::OutOfMemory)?;
        let right_mask = u64::MAX >> (64 - self.position_bits);
        for &key in &self.packed {
            let (left, right) = ((key >> self.position_bits) as usize, (key & right_mask) as usize);
            pairs.left.push(left as u32);
            pairs.right.push(right as u32);
            pairs.distance.push(bits_differ(fingerprints[left], fingerprints[right]) as u8);
        }
        Ok(pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn brute(fingerprints: &[u64], distance: u32) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for i in 0..fingerprints.len() {
            for j in i + 1..fingerprints.len() {
                if bits_differ(fingerprints[i], fingerprints[j]) <= distance {
                    out.push((i as u32, j as u32));
                }
            }
        }
        out
    }

    fn as_tuples(p: &Pairs) -> Vec<(u32, u32)> {
        p.left.iter().zip(&p.right).map(|(&l, &r)| (l, r)).collect()
    }

    /// Random bases, near copies at 0..=distance+1 bits, exact duplicates and complements.
    fn planted(rng: &mut Rng, n: usize, distance: u32) -> Vec<u64> {
        let mut v: Vec<u64> = Vec::with_capacity(n);
        while v.len() < n {
            match rng.below(5) {
                0 | 1 if !v.is_empty() => {
                    let mut x = v[rng.below(v.len() as u64) as usize];
                    for _ in 0..rng.below(u64::from(distance) + 2) {
                        x ^= 1 << rng.below(64);
                    }
                    v.push(x);
                }
                2 if !v.is_empty() => v.push(!v[rng.below(v.len() as u64) as usize]),
                _ => v.push(rng.next()),
            }
        }
        v
    }

    #[test]
    fn tables_match_brute_force() {
        let mut rng = Rng::new(42);
        for (blocks, distance) in [(1, 0), (2, 1), (4, 3), (5, 3), (6, 3), (7, 2), (10, 3), (9, 4), (64, 1), (64, 63)] {
            for n in [0, 1, 2, 3, 50, 400] {
                let v = planted(&mut rng, n, distance);
                let expected = brute(&v, distance);
                let got = find_all(&v, distance, Strategy::Blocks(blocks), usize::MAX).unwrap();
                assert_eq!(as_tuples(&got), expected, "blocks {} distance {} n {}", blocks, distance, n);
                for k in 0..got.left.len() {
                    assert_eq!(u32::from(got.distance[k]), bits_differ(v[got.left[k] as usize], v[got.right[k] as usize]));
                }
                let direct = find_all(&v, distance, Strategy::Direct, usize::MAX).unwrap();
                assert_eq!(direct, got);
            }
        }
    }

    #[test]
    fn parts_match_brute_force_at_every_distance() {
        let mut rng = Rng::new(43);
        for distance in 0..=64 {
            let v = planted(&mut rng, if distance % 8 == 0 { 300 } else { 120 }, distance);
            let expected = brute(&v, distance);
            for parts in [1, 2, 3, 4, 5, 8, distance + 1, 64] {
                if parts == 0 || parts > 64 {
                    continue;
                }
                let got = find_all(&v, distance, Strategy::Parts(parts), usize::MAX).unwrap();
                assert_eq!(as_tuples(&got), expected, "parts {} distance {}", parts, distance);
            }
        }
        // Skewed: every fingerprint shares the same low 48 bits, so the low parts' buckets are
        // all one, and duplicates.
        let mut v: Vec<u64> = (0..400).map(|_| rng.next() & 0xffff_0000_0000_0000 | 0x1234_5678_9abc).collect();
        v.extend_from_slice(&v.clone()[..50]);
        for (parts, distance) in [(4, 10), (3, 8), (6, 16)] {
            let got = find_all(&v, distance, Strategy::Parts(parts), usize::MAX).unwrap();
            assert_eq!(as_tuples(&got), brute(&v, distance));
        }
        assert_eq!(find_all(&v, 3, Strategy::Parts(0), 10), Err(Error::InvalidParts { parts: 0 }));
        assert_eq!(find_all(&v, 3, Strategy::Parts(65), 10), Err(Error::InvalidParts { parts: 65 }));
    }

    /// Enough fingerprints that a part's buckets span several tiles, in one slice and in three.
    #[test]
    fn parts_match_brute_force_across_tiles() {
        let mut rng = Rng::new(44);
        for (parts, distance) in [(4, 10), (3, 10), (2, 6), (3, 3)] {
            let v = planted(&mut rng, 20_000, distance);
            let expected = brute(&v, distance);
            let got = find_all(&v, distance, Strategy::Parts(parts), usize::MAX).unwrap();
            assert_eq!(as_tuples(&got), expected, "parts {} distance {}", parts, distance);
            let mut sliced: Vec<(u32, u32)> = (0..3)
                .flat_map(|i| as_tuples(&find_all_slice(&v, distance, Strategy::Parts(parts), usize::MAX, Slice::new(i, 3).unwrap()).unwrap()))
                .collect();
            sliced.sort_unstable();
            assert_eq!(sliced, expected, "parts {} distance {}, three slices", parts, distance);
        }
    }

    #[test]
    fn all_equal_and_distance_64() {
        let v = vec![7u64; 30];
        let got = find_all(&v, 0, Strategy::Blocks(1), usize::MAX).unwrap();
        assert_eq!(got.left.len(), 30 * 29 / 2);
        let v = [0, u64::MAX, 5];
        let got = find_all(&v, 64, Strategy::Direct, usize::MAX).unwrap();
        assert_eq!(as_tuples(&got), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(got.distance, vec![64, 2, 62]);
    }

    #[test]
    fn bucketed_and_sorted_groupings_agree() {
        // 40,000 fingerprints: blocks 4 groups its 16-bit prefixes into buckets, blocks 5 and 6
        // radix-sort theirs; all are exact, so they must agree pair for pair.
        let mut rng = Rng::new(77);
        let v = planted(&mut rng, 40_000, 3);
        let bucketed = find_all(&v, 3, Strategy::Blocks(4), usize::MAX).unwrap();
        assert!(bucketed.left.len() > 1000, "{} pairs", bucketed.left.len());
        for blocks in [5, 6] {
            assert_eq!(find_all(&v, 3, Strategy::Blocks(blocks), usize::MAX).unwrap(), bucketed);
        }
        assert!(bucketed.distance.iter().all(|&d| d <= 3));
    }

    #[test]
    fn bounded_output() {
        let v = vec![1u64; 100];
        assert_eq!(
            find_all(&v, 3, Strategy::Blocks(4), 4949),
            Err(Error::TooManyPairs { max_pairs: 4949 })
        );
        assert_eq!(find_all(&v, 3, Strategy::Blocks(4), 4950).unwrap().left.len(), 4950);
        assert_eq!(find_all(&v, 3, Strategy::Blocks(3), 10), Err(Error::BlocksNotAboveDistance { blocks: 3, distance: 3 }));
        assert_eq!(find_all(&v, 65, Strategy::Direct, 10), Err(Error::DistanceTooLarge { distance: 65 }));
    }

    #[test]
    fn counts_beyond_the_storage_bound_then_finds_again() {
        let mut rng = Rng::new(7);
        let v = planted(&mut rng, 300, 3);
        let expected = find_all(&v, 3, Strategy::Blocks(5), usize::MAX).unwrap();
        assert!(expected.left.len() > 20);
        for store_limit in [0, 1, 5, expected.left.len() - 1, expected.left.len()] {
            for strategy in [Strategy::Blocks(5), Strategy::Direct] {
                let got = find_all_storing(&v, 3, strategy, usize::MAX, Slice::WHOLE, store_limit).unwrap();
                assert_eq!(got, expected, "store limit {}", store_limit);
                let exact = find_all_storing(&v, 3, strategy, expected.left.len(), Slice::WHOLE, store_limit).unwrap();
                assert_eq!(exact, expected);
                let over = find_all_storing(&v, 3, strategy, expected.left.len() - 1, Slice::WHOLE, store_limit);
                assert_eq!(over, Err(Error::TooManyPairs { max_pairs: expected.left.len() as u64 - 1 }));
            }
        }
    }

    #[test]
    fn slices_are_disjoint_and_make_the_whole() {
        let mut rng = Rng::new(21);
        for (strategy, distance) in [(Strategy::Blocks(5), 3), (Strategy::Blocks(4), 1), (Strategy::Blocks(12), 10), (Strategy::Direct, 4), (Strategy::Parts(4), 10), (Strategy::Parts(5), 16), (Strategy::Parts(3), 3)] {
            let tables = match strategy {
                Strategy::Blocks(blocks) => crate::Layout::new(blocks, distance).unwrap().tables().len() as u32,
                Strategy::Parts(parts) => parts,
                Strategy::Direct => 1,
            };
            for v in [planted(&mut rng, 600, distance), (0..600).map(|_| rng.next()).collect::<Vec<u64>>()] {
                let whole = find_all(&v, distance, strategy, usize::MAX).unwrap();
                for count in [1, 2, 3, 7, tables, tables + 3] {
                    let mut union: Vec<(u32, u32)> = Vec::new();
                    for index in 0..count {
                        let part = find_all_slice(&v, distance, strategy, usize::MAX, Slice::new(index, count).unwrap()).unwrap();
                        assert!(as_tuples(&part).windows(2).all(|w| w[0] < w[1]));
                        union.extend(as_tuples(&part));
                    }
                    union.sort_unstable();
                    // Sorting the concatenation leaves no duplicate only if the slices were disjoint.
                    assert_eq!(union, as_tuples(&whole), "{:?} count {}", strategy, count);
                }
            }
        }
        assert_eq!(
            find_all_slice(&[1, 2], 0, Strategy::Direct, 10, Slice::new(1, 2).unwrap()).unwrap(),
            Pairs::default()
        );
    }
}
