//! Shares of a batch search's work that separate workers can run independently.

use crate::Error;

/// A share of the filter units of a batch search: the units `u` with `u % count == index`.
///
/// For the permuted-table layouts a unit is one table; the direct strategy is a single unit
/// (unit 0). A pair is reported only by the first unit, in the fixed table order, in which it
/// collides, so the slices `0..count` of one search together report each pair exactly once:
/// their union is the whole result, whatever `count` (beyond the number of units, the extra
/// slices are simply empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    index: u32,
    count: u32,
}

impl Slice {
    /// Every unit: the whole search.
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

    /// Whether unit `unit` (a table's position in the layout's order) belongs to this slice.
    #[inline]
    pub fn includes(self, unit: usize) -> bool {
        unit % self.count as usize == self.index as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_partition_the_units() {
        for count in 1..9u32 {
            for unit in 0..40usize {
                let owners = (0..count).filter(|&i| Slice::new(i, count).unwrap().includes(unit)).count();
                assert_eq!(owners, 1);
            }
        }
        assert!(Slice::WHOLE.includes(0) && Slice::WHOLE.includes(17));
        assert_eq!(Slice::new(2, 2), Err(Error::InvalidSlice { index: 2, count: 2 }));
        assert_eq!(Slice::new(0, 0), Err(Error::InvalidSlice { index: 0, count: 0 }));
    }
}
