//! The map from a caller's `u32` ids to the index's internal slots: open addressing with linear
//! probing, one `u64` per entry (id low, slot high) so a lookup touches one cache line.

use crate::Error;

/// An empty entry. No real entry equals it: slots stay below `u32::MAX`.
const EMPTY: u64 = u64::MAX;

/// Entries fill at most 3/4 of the table before it doubles.
const MAX_LOAD_NUMERATOR: usize = 3;
const MAX_LOAD_DENOMINATOR: usize = 4;

/// `u32` id → `u32` slot, every slot below `u32::MAX`.
#[derive(Clone, Debug, Default)]
pub(crate) struct IdMap {
    entries: Vec<u64>,
    len: usize,
}

impl IdMap {
    /// Number of ids.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The slot of `id`.
    pub(crate) fn get(&self, id: u32) -> Option<u32> {
        self.position(id).map(|i| (self.entries[i] >> 32) as u32)
    }

    /// Where `id`'s entry is in `entries`.
    fn position(&self, id: u32) -> Option<usize> {
        if self.entries.is_empty() {
            return None;
        }
        let mask = self.entries.len() - 1;
        let mut i = self.home(id);
        loop {
            let entry = self.entries[i];
            if entry == EMPTY {
                return None;
            }
            if entry as u32 == id {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Sets the slot of `id` (`slot < u32::MAX`), returning the one it replaces.
    pub(crate) fn insert(&mut self, id: u32, slot: u32) -> Result<Option<u32>, Error> {
        if (self.len + 1) * MAX_LOAD_DENOMINATOR > self.entries.len() * MAX_LOAD_NUMERATOR {
            self.grow(self.len + 1)?;
        }
        let mask = self.entries.len() - 1;
        let entry = u64::from(slot) << 32 | u64::from(id);
        let mut i = self.home(id);
        loop {
            let current = self.entries[i];
            if current == EMPTY {
                self.entries[i] = entry;
                self.len += 1;
                return Ok(None);
            }
            if current as u32 == id {
                self.entries[i] = entry;
                return Ok(Some((current >> 32) as u32));
            }
            i = (i + 1) & mask;
        }
    }

    /// Removes `id`, returning its slot.
    pub(crate) fn remove(&mut self, id: u32) -> Option<u32> {
        let i = self.position(id)?;
        let mask = self.entries.len() - 1;
        let slot = (self.entries[i] >> 32) as u32;
        // Backward-shift deletion: pull later entries of the probe sequence into the hole, so
        // no tombstones accumulate.
        let mut hole = i;
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let entry = self.entries[j];
            if entry == EMPTY {
                break;
            }
            let home = self.home(entry as u32);
            // The entry may move to the hole unless its home lies cyclically in (hole, j].
            if (j.wrapping_sub(home) & mask) >= (j.wrapping_sub(hole) & mask) {
                self.entries[hole] = entry;
                hole = j;
            }
        }
        self.entries[hole] = EMPTY;
        self.len -= 1;
        Some(slot)
    }

    /// Replaces every slot by `renumber(slot)`.
    pub(crate) fn renumber(&mut self, mut renumber: impl FnMut(u32) -> u32) {
        for entry in self.entries.iter_mut().filter(|e| **e != EMPTY) {
            *entry = u64::from(renumber((*entry >> 32) as u32)) << 32 | (*entry & 0xffff_ffff);
        }
    }

    /// Makes room for `len` ids without growing again.
    pub(crate) fn reserve(&mut self, len: usize) -> Result<(), Error> {
        if len * MAX_LOAD_DENOMINATOR > self.entries.len() * MAX_LOAD_NUMERATOR {
            self.grow(len)?;
        }
        Ok(())
    }

    fn grow(&mut self, len: usize) -> Result<(), Error> {
        let wanted = (len * MAX_LOAD_DENOMINATOR / MAX_LOAD_NUMERATOR + 1).max(8);
        let capacity = wanted.checked_next_power_of_two().ok_or(Error::OutOfMemory)?.max(self.entries.len() * 2);
        let mut entries = Vec::new();
        entries.try_reserve_exact(capacity).map_err(|_| Error::OutOfMemory)?;
        entries.resize(capacity, EMPTY);
        let old = core::mem::replace(&mut self.entries, entries);
        let mask = capacity - 1;
        for entry in old.into_iter().filter(|&e| e != EMPTY) {
            let mut i = self.home(entry as u32);
            while self.entries[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.entries[i] = entry;
        }
        Ok(())
    }

    /// Fibonacci hashing: the top bits of id × 2^64/φ, so sequential ids spread evenly.
    #[inline]
    fn home(&self, id: u32) -> usize {
        let bits = self.entries.len().trailing_zeros();
        (u64::from(id).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use std::collections::HashMap;

    #[test]
    fn behaves_like_a_hash_map() {
        let mut rng = Rng::new(21);
        let mut map = IdMap::default();
        let mut model: HashMap<u32, u32> = HashMap::new();
        for step in 0..20_000u32 {
            // Few distinct ids (so inserts replace and removes hit), extremes included.
            let id = match rng.below(10) {
                0 => u32::MAX,
                1 => 0,
                _ => rng.below(3000) as u32 * 7919,
            };
            match rng.below(3) {
                0 => assert_eq!(map.remove(id), model.remove(&id)),
                _ => assert_eq!(map.insert(id, step).unwrap(), model.insert(id, step)),
            }
            assert_eq!(map.len(), model.len());
            let probe = rng.below(3000) as u32 * 7919;
            assert_eq!(map.get(probe), model.get(&probe).copied());
        }
        for (&id, &slot) in &model {
            assert_eq!(map.get(id), Some(slot));
        }
        map.renumber(|s| s / 2);
        for (&id, &slot) in &model {
            assert_eq!(map.get(id), Some(slot / 2));
        }
    }
}
