//! Every pair of positions whose fingerprints lie within a Hamming distance.

use crate::hamming::bits_differ;
use crate::layout::{Layout, PermutedTable};
use crate::radix::{sort_by_bits, RadixSort};
use crate::Error;

/// Pairs of positions as parallel arrays, sorted by `(left, right)`, `left[k] < right[k]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    pub left: Vec<u32>,
    pub right: Vec<u32>,
    /// Bits in which the pair differs.
    pub distance: Vec<u8>,
}

/// How [`find_all`] looks for pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Compare every pair: cheapest for a few dozen fingerprints, and the only way at
    /// distance 64.
    Direct,
    /// Search the permuted tables of a layout with this many blocks.
    Blocks(u32),
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
/// # Errors
/// [`Error::TooManyElements`] beyond `u32::MAX` fingerprints; the [`Layout::new`] errors for a
/// bad `(blocks, distance)`; [`Error::DistanceTooLarge`] for `distance > 64`;
/// [`Error::TooManyPairs`] as soon as more than `max_pairs` pairs are found;
/// [`Error::OutOfMemory`] if a buffer cannot be allocated.
pub fn find_all(fingerprints: &[u64], distance: u32, strategy: Strategy, max_pairs: usize) -> Result<Pairs, Error> {
    if fingerprints.len() > u32::MAX as usize {
        return Err(Error::TooManyElements);
    }
    if distance > 64 {
        return Err(Error::DistanceTooLarge { distance });
    }
    let mut sink = PairSink::new(max_pairs, fingerprints.len());
    match strategy {
        Strategy::Direct => direct(fingerprints, distance, &mut sink)?,
        Strategy::Blocks(blocks) => {
            let layout = Layout::new(blocks, distance)?;
            tables(fingerprints, &layout, &mut sink)?;
        }
    }
    sink.finish(fingerprints)
}

fn direct(fingerprints: &[u64], distance: u32, sink: &mut PairSink) -> Result<(), Error> {
    for (i, &a) in fingerprints.iter().enumerate() {
        for (j, &b) in fingerprints.iter().enumerate().skip(i + 1) {
            if bits_differ(a, b) <= distance {
                sink.push(i as u64, j as u64)?;
            }
        }
    }
    Ok(())
}

fn tables(fingerprints: &[u64], layout: &Layout, sink: &mut PairSink) -> Result<(), Error> {
    let n = fingerprints.len();
    if n < 2 {
        return Ok(());
    }
    let position_bits = sink.position_bits;
    let mut keys = zeroed(n)?;
    let mut scratch = zeroed(n)?;
    let mut run = Vec::new();
    for table in layout.tables() {
        // A key is the table's prefix on top and the position below. Only the top `sorted_bits`
        // of the prefix are sorted on: enough that runs of equal sorted bits hold few
        // fingerprints that differ further down the prefix (about n / 8 extra candidates for
        // uniform data, each rejected by `first_to_collide`); sorting the rest would cost more
        // passes than it saves. They also leave room for the position.
        let sorted_bits = table
            .prefix_bits
            .min(64 - position_bits)
            .min(n_bits(n) + EXTRA_SORTED_BITS);
        let run_mask = !(u64::MAX >> sorted_bits);
        let mut sort = RadixSort::new(64 - sorted_bits, sorted_bits)?;
        for (i, (key, &fingerprint)) in keys.iter_mut().zip(fingerprints).enumerate() {
            *key = (table.prefix(fingerprint) & run_mask) | i as u64;
            sort.count(*key);
        }
        sort.sort(&mut keys, &mut scratch)?;
        scan_runs(&keys, run_mask, fingerprints, table, layout.distance(), &mut run, sink)?;
    }
    Ok(())
}

/// Sorted prefix bits beyond log2(n): each one halves the expected spurious candidates.
const EXTRA_SORTED_BITS: u32 = 2;

/// Bits needed to count to `n`: `ceil(log2(n))` for n >= 2.
fn n_bits(n: usize) -> u32 {
    64 - (n as u64 - 1).leading_zeros()
}

/// Checks every pair inside each run of keys with equal sorted bits.
fn scan_runs(
    keys: &[u64],
    run_mask: u64,
    fingerprints: &[u64],
    table: &PermutedTable,
    distance: u32,
    run: &mut Vec<(u64, u64)>,
    sink: &mut PairSink,
) -> Result<(), Error> {
    let position_mask = !run_mask;
    let mut start = 0;
    while start < keys.len() {
        let head = keys[start] & run_mask;
        let mut end = start + 1;
        while end < keys.len() && keys[end] & run_mask == head {
            end += 1;
        }
        if end - start > 1 {
            run.clear();
            run.extend(keys[start..end].iter().map(|&k| {
                let position = k & position_mask;
                (fingerprints[position as usize], position)
            }));
            for (a, &(value_a, position_a)) in run.iter().enumerate() {
                for &(value_b, position_b) in &run[a + 1..] {
                    let difference = value_a ^ value_b;
                    if difference.count_ones() <= distance && table.first_to_collide(difference) {
                        sink.push(position_a.min(position_b), position_a.max(position_b))?;
                    }
                }
            }
        }
        start = end;
    }
    Ok(())
}

/// Collects pairs packed as `left << position_bits | right`, bounded by `max_pairs`.
struct PairSink {
    packed: Vec<u64>,
    max_pairs: usize,
    position_bits: u32,
}

impl PairSink {
    fn new(max_pairs: usize, n: usize) -> Self {
        // Positions are below n, so this many bits hold one (at least 1, at most 32).
        let position_bits = (64 - (n.max(2) as u64 - 1).leading_zeros()).max(1);
        PairSink { packed: Vec::new(), max_pairs, position_bits }
    }

    #[inline]
    fn push(&mut self, left: u64, right: u64) -> Result<(), Error> {
        if self.packed.len() >= self.max_pairs {
            return Err(Error::TooManyPairs { max_pairs: self.max_pairs as u64 });
        }
        if self.packed.len() == self.packed.capacity() {
            let more = self.packed.len().max(1024).min(self.max_pairs - self.packed.len());
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

fn zeroed(len: usize) -> Result<Vec<u64>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory)?;
    v.resize(len, 0);
    Ok(v)
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
}
