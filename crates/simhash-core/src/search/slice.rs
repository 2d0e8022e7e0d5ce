//! Shares of a batch search's work that separate workers can run independently.

use crate::Error;

/// A share of the work of a batch search.
///
/// For permuted tables: within every table, the runs whose key falls in the share's range of
/// keys. Keys are split into `count` ranges of nearly equal width by their top bits, the same in
/// every table; a slice takes range `index`, so each slice does about `1/count` of the sorting
/// and visiting of every table, whatever the number of tables (a slice of the tables would
/// leave workers idle when the tables are fewer than the workers or unequal in cost). For
/// parts: a stretch of the parts' estimated costs, so a few whole parts and fractions of one or
/// two (see `part_share` in `table_scan`). A run (fingerprints with one key) lies in one share,
/// and a pair is reported only by the first unit in which it collides, within it by one run
/// (or, for parts, by the lower of two buckets), so the slices `0..count` of one search together
/// report each pair exactly once. The direct strategy has a single run: slice 0 takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    index: u32,
    count: u32,
}

impl Slice {
    /// Every run: the whole search.
    pub const WHOLE: Slice = Slice { index: 0, count: 1 };

    /// The `index`-th of `count` slices.
    ///
    /// # Errors
    /// [`Error::InvalidSlice`] unless `index < count` (so `count >= 1`).
    pub fn new(index: u32, count: u32) -> Result<Slice, Error> {
        if index < count {
            Ok(Slice { index, count })
        } else {
            Err(Error::InvalidSlice { index, count })
        }
    }

    /// Which of the slices this is.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many slices the work is split into.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether this is the whole search.
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// Whether the run of key `top` belongs to this slice, where `top` is the key's top `bits`
    /// bits (`bits <= 32`, so `top < 2^bits`): range `floor(top · count / 2^bits)`.
    #[inline]
    pub fn owns(self, top: u64, bits: u32) -> bool {
        (top * u64::from(self.count)) >> bits == u64::from(self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_partition_the_keys_evenly() {
        for bits in [0u32, 1, 3, 16, 32] {
            for count in [1u32, 2, 3, 7, 64, u32::MAX] {
                let mut owned = vec![0u64; count.min(64) as usize];
                for top in (0..1u64 << bits).step_by(((1u64 << bits) / 4096).max(1) as usize).chain([(1u64 << bits) - 1]) {
                    let owners: Vec<u32> = (0..count.min(64)).filter(|&i| Slice::new(i, count).unwrap().owns(top, bits)).collect();
                    let beyond = count > 64 && (top * u64::from(count)) >> bits >= 64;
                    assert_eq!(owners.len(), usize::from(!beyond), "top {} bits {} count {}", top, bits, count);
                    if let Some(&i) = owners.first() {
                        owned[i as usize] += 1;
                    }
                }
                if bits == 16 && count <= 7 {
                    // Ranges of nearly equal width.
                    let (low, high) = (owned.iter().min().unwrap(), owned.iter().max().unwrap());
                    assert!(high - low <= 1 + high / 100, "{:?}", owned);
                }
            }
        }
        assert!(Slice::WHOLE.owns(0, 0) && Slice::WHOLE.owns(17, 5) && Slice::WHOLE.is_whole());
        assert_eq!(Slice::new(2, 2), Err(Error::InvalidSlice { index: 2, count: 2 }));
        assert_eq!(Slice::new(0, 0), Err(Error::InvalidSlice { index: 0, count: 0 }));
    }
}
