//! A set of 64-bit hashes for telling first occurrences from repeats: open addressing with
//! linear probing, sized to the document, emptied between documents.

use crate::Error;

/// Slots per expected value, at least: the table is at most half full.
const LOAD: usize = 2;
/// Tables of fewer slots are not worth their set-up.
const MIN_SLOTS: usize = 16;

/// Distinct values among those inserted since the last [`DistinctSet::reset`].
///
/// The values are hashes, so their low bits already spread them over the slots. Zero marks an
/// empty slot; the value 0 itself is tracked apart.
#[derive(Default)]
pub struct DistinctSet {
    slots: Vec<u64>,
    mask: usize,
    has_zero: bool,
}

impl DistinctSet {
    /// Empties the set and makes room for up to `count` distinct values.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] if the table does not fit.
    pub fn reset(&mut self, count: usize) -> Result<(), Error> {
        let wanted = count.checked_mul(LOAD).and_then(usize::checked_next_power_of_two).ok_or(Error::OutOfMemory)?.max(MIN_SLOTS);
        self.slots.clear();
        if self.slots.capacity() < wanted {
            self.slots.try_reserve_exact(wanted).map_err(|_| Error::OutOfMemory)?;
        }
        self.slots.resize(wanted, 0);
        self.mask = wanted - 1;
        self.has_zero = false;
        Ok(())
    }

    /// Adds `value`; true iff it was not in the set yet. At most the `count` given to
    /// [`DistinctSet::reset`] distinct values may be inserted.
    #[inline]
    pub fn insert(&mut self, value: u64) -> bool {
        if value == 0 {
            return !core::mem::replace(&mut self.has_zero, true);
        }
        let mut at = value as usize & self.mask;
        loop {
            // `at` is masked, and `reset` made `mask + 1` slots.
            let slot = &mut self.slots[at];
            if *slot == value {
                return false;
            }
            if *slot == 0 {
                *slot = value;
                return true;
            }
            at = (at + 1) & self.mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn first_occurrences_are_the_distinct_values() {
        let mut rng = Rng::new(11);
        let mut set = DistinctSet::default();
        for round in 0..300 {
            let n = rng.below(2_000) as usize;
            // Few distinct values (many repeats), or many; zero and colliding low bits too.
            let spread = if round % 2 == 0 { 1 + rng.below(50) } else { u64::MAX };
            let values: Vec<u64> = (0..n)
                .map(|_| match rng.below(10) {
                    0 => 0,
                    1 => rng.below(4) << 40,
                    _ => rng.next() % spread,
                })
                .collect();
            set.reset(n).unwrap();
            let mut firsts: Vec<u64> = values.iter().copied().filter(|&v| set.insert(v)).collect();
            let mut expected = values.clone();
            expected.sort_unstable();
            expected.dedup();
            firsts.sort_unstable();
            assert_eq!(firsts, expected);
        }
    }

    #[test]
    fn huge_counts_are_refused() {
        let mut set = DistinctSet::default();
        assert_eq!(set.reset(usize::MAX / 2 + 1), Err(Error::OutOfMemory));
        set.reset(0).unwrap();
        assert!(set.insert(5) && !set.insert(5));
    }
}
