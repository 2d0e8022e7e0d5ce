//! How the 64 bits are split into blocks and which permuted tables the search visits.
//!
//! The split and the table order are simhash-cpp's, so tables can be compared with it bit for
//! bit: block `i` covers bits `floor(64 i / blocks) ..= floor(64 (i + 1) / blocks) - 1` (block 0
//! holds the least significant bits), and there is one table per `(blocks - distance)`-subset of
//! blocks, in lexicographic order. A table places its subset (its *leading* blocks) at the top
//! of the permuted value, then the other blocks, each group in increasing block order.
//!
//! Two fingerprints within `distance` bits differ in at most `distance` blocks, so they agree on
//! every leading block of at least one table: the first such table, in this order, is the one
//! whose leading blocks are the first `blocks - distance` blocks on which they agree.

use crate::Error;

/// Most tables a layout may have. Each table costs a pass over the input (and, in an index, a
/// directory) whatever the input's size, so this bounds the work a layout read from untrusted
/// bytes can cause; the planner never chooses more.
pub const MAX_TABLES: u64 = 1 << 12;

/// One block's place in a permuted value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Lowest bit of the block in the original value.
    pub low: u32,
    /// Number of bits in the block.
    pub width: u32,
    /// Lowest bit of the block in the permuted value.
    pub target: u32,
}

impl Placement {
    #[inline(always)]
    fn apply(self, value: u64) -> u64 {
        ((value >> self.low) & width_mask(self.width)) << self.target
    }
}

/// One permuted table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermutedTable {
    /// `order[k]` is the block placed k-th from the top of the permuted value.
    pub order: Vec<u8>,
    /// Total width of the leading blocks: the prefix that colliding fingerprints share.
    pub prefix_bits: u32,
    /// Where each block goes, leading blocks first.
    placements: Vec<Placement>,
    /// Number of leading blocks.
    leading: usize,
    /// The leading blocks' bits, in original positions.
    leading_mask: u64,
    /// Masks (original positions) of the blocks that precede the last leading block but are
    /// not leading. A pair colliding here was already found by an earlier table unless it
    /// differs in every one of them.
    skipped_masks: Vec<u64>,
}

impl PermutedTable {
    /// `value` with its blocks rearranged in this table's order.
    pub fn permute(&self, value: u64) -> u64 {
        self.placements.iter().fold(0, |acc, p| acc | p.apply(value))
    }

    /// The leading blocks of `value` in their permuted positions, all other bits clear: the
    /// top `prefix_bits` bits of [`PermutedTable::permute`].
    #[inline]
    pub fn prefix(&self, value: u64) -> u64 {
        self.placements[..self.leading].iter().fold(0, |acc, p| acc | p.apply(value))
    }

    /// Whether two fingerprints whose xor is `difference` agree on every leading block of this
    /// table and on no leading set of an earlier table: so that each pair is reported by
    /// exactly one table.
    #[inline]
    pub fn first_to_collide(&self, difference: u64) -> bool {
        difference & self.leading_mask == 0 && self.skipped_masks.iter().all(|&m| difference & m != 0)
    }
}

/// The block split and tables for one `(blocks, distance)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    blocks: u32,
    distance: u32,
    tables: Vec<PermutedTable>,
}

impl Layout {
    /// The layout with `blocks` blocks for pairs within `distance` bits.
    ///
    /// # Errors
    /// [`Error::DistanceTooLarge`] if `distance > 64`; [`Error::TooManyBlocks`] if
    /// `blocks > 64`; [`Error::BlocksNotAboveDistance`] unless `distance < blocks`;
    /// [`Error::TooManyTables`] if the layout would have more than [`MAX_TABLES`] tables.
    pub fn new(blocks: u32, distance: u32) -> Result<Layout, Error> {
        if distance > 64 {
            return Err(Error::DistanceTooLarge { distance });
        }
        if blocks > 64 {
            return Err(Error::TooManyBlocks { blocks });
        }
        if blocks <= distance {
            return Err(Error::BlocksNotAboveDistance { blocks, distance });
        }
        let table_count = binomial(u64::from(blocks), u64::from(distance));
        if table_count > MAX_TABLES {
            return Err(Error::TooManyTables { blocks, distance });
        }
        let ranges: Vec<(u32, u32)> =
            (0..blocks).map(|i| (64 * i / blocks, 64 * (i + 1) / blocks - (64 * i / blocks))).collect();
        let leading = (blocks - distance) as usize;
        let mut tables = Vec::with_capacity(table_count as usize);
        let mut subset: Vec<u8> = (0..leading as u8).collect();
        loop {
            tables.push(Self::table(&ranges, &subset));
            if !next_combination(&mut subset, blocks as u8) {
                break;
            }
        }
        Ok(Layout { blocks, distance, tables })
    }

    fn table(ranges: &[(u32, u32)], leading: &[u8]) -> PermutedTable {
        let mut order: Vec<u8> = leading.to_vec();
        order.extend((0..ranges.len() as u8).filter(|b| !leading.contains(b)));
        let mut placements = Vec::with_capacity(order.len());
        let mut top = 64;
        for &block in &order {
            let (low, width) = ranges[block as usize];
            top -= width;
            placements.push(Placement { low, width, target: top });
        }
        let block_mask = |b: u8| {
            let (low, width) = ranges[b as usize];
            width_mask(width) << low
        };
        let last = *leading.last().unwrap_or(&0);
        PermutedTable {
            prefix_bits: leading.iter().map(|&b| ranges[b as usize].1).sum(),
            leading_mask: leading.iter().fold(0, |acc, &b| acc | block_mask(b)),
            skipped_masks: (0..last).filter(|b| !leading.contains(b)).map(block_mask).collect(),
            order,
            placements,
            leading: leading.len(),
        }
    }

    /// Number of blocks.
    pub fn blocks(&self) -> u32 {
        self.blocks
    }

    /// Largest distance the tables find every pair for.
    pub fn distance(&self) -> u32 {
        self.distance
    }

    /// The tables in search order.
    pub fn tables(&self) -> &[PermutedTable] {
        &self.tables
    }
}

/// The low `width` bits set (`width` in `1..=64`).
#[inline(always)]
fn width_mask(width: u32) -> u64 {
    u64::MAX >> (64 - width)
}

/// `n` choose `k`, saturating at `u64::MAX`.
pub fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut result: u64 = 1;
    for i in 1..=k {
        // result * (n - k + i) / i is exact at every step; u128 keeps the product from wrapping.
        let next = u128::from(result) * u128::from(n - k + i) / u128::from(i);
        if next > u128::from(u64::MAX) {
            return u64::MAX;
        }
        result = next as u64;
    }
    result
}

/// Advances `subset` (increasing, drawn from `0..n`) to the next subset in lexicographic order;
/// `false` when it was the last.
fn next_combination(subset: &mut [u8], n: u8) -> bool {
    let k = subset.len();
    let mut i = k;
    while i > 0 {
        i -= 1;
        if subset[i] < n - (k - i) as u8 {
            subset[i] += 1;
            for j in i + 1..k {
                subset[j] = subset[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn split_matches_reference() {
        let layout = Layout::new(5, 3).unwrap();
        let tables = layout.tables();
        assert_eq!(tables.len(), 10);
        assert_eq!(tables[0].order, vec![0, 1, 2, 3, 4]);
        assert_eq!(tables[1].order, vec![0, 2, 1, 3, 4]);
        assert_eq!(tables[9].order, vec![3, 4, 0, 1, 2]);
        assert_eq!(tables[0].prefix_bits, 25);
        // Block 0 (12 bits) goes to the top: bit 0 lands on bit 52.
        assert_eq!(Layout::new(5, 2).unwrap().tables()[1].permute(1), 1 << 52);
    }

    #[test]
    fn rejects_bad_parameters() {
        assert_eq!(Layout::new(3, 3), Err(Error::BlocksNotAboveDistance { blocks: 3, distance: 3 }));
        assert_eq!(Layout::new(65, 3), Err(Error::TooManyBlocks { blocks: 65 }));
        assert_eq!(Layout::new(0, 0), Err(Error::BlocksNotAboveDistance { blocks: 0, distance: 0 }));
        assert_eq!(Layout::new(64, 32), Err(Error::TooManyTables { blocks: 64, distance: 32 }));
        // Table counts that would make the set-up alone cost seconds.
        assert_eq!(Layout::new(25, 5), Err(Error::TooManyTables { blocks: 25, distance: 5 }));
        assert_eq!(Layout::new(64, 3), Err(Error::TooManyTables { blocks: 64, distance: 3 }));
        assert!(Layout::new(30, 3).is_ok(), "C(30, 3) = 4060 tables is within the bound");
        assert_eq!(Layout::new(64, 65), Err(Error::DistanceTooLarge { distance: 65 }));
    }

    #[test]
    fn permutation_is_a_bijection_of_bits() {
        let mut rng = Rng::new(5);
        for (blocks, distance) in [(1, 0), (4, 3), (7, 3), (10, 3), (64, 1), (64, 63)] {
            let layout = Layout::new(blocks, distance).unwrap();
            for table in layout.tables() {
                let value = rng.next();
                assert_eq!(table.permute(value).count_ones(), value.count_ones());
                assert_eq!(table.permute(u64::MAX), u64::MAX);
                let mask = if table.prefix_bits == 64 { u64::MAX } else { !(u64::MAX >> table.prefix_bits) };
                assert_eq!(table.prefix(value), table.permute(value) & mask);
            }
        }
    }

    #[test]
    fn every_close_pair_is_first_in_exactly_one_table() {
        let mut rng = Rng::new(9);
        for (blocks, distance) in [(4, 3), (5, 2), (6, 3), (9, 4), (64, 2)] {
            let layout = Layout::new(blocks, distance).unwrap();
            for _ in 0..300 {
                let a = rng.next();
                let mut b = a;
                for _ in 0..rng.below(u64::from(distance) + 1) {
                    b ^= 1 << rng.below(64);
                }
                let firsts = layout.tables().iter().filter(|t| t.first_to_collide(a ^ b)).count();
                assert_eq!(firsts, 1, "blocks {} distance {}", blocks, distance);
            }
        }
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(6, 3), 20);
        assert_eq!(binomial(64, 63), 64);
        assert_eq!(binomial(3, 4), 0);
        assert_eq!(binomial(200, 100), u64::MAX);
    }
}
