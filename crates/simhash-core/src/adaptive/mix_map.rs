//! A map from `u64` keys that are hashes already (word hashes, band keys) to `u32` values:
//! open addressing with linear probing, smaller in WebAssembly than `std`'s `HashMap` and
//! as fast on keys that need no further mixing.

use crate::Error;

/// A slot no key holds: no value equals it.
const VACANT: u32 = u32::MAX;

/// `u64` → `u32`, every value below `u32::MAX`.
#[derive(Default)]
pub(super) struct MixMap {
    keys: Vec<u64>,
    values: Vec<u32>,
    len: usize,
}

impl MixMap {
    fn home(&self, key: u64) -> usize {
        // The high bits of a multiplicative hash; `keys.len()` is a power of two.
        let bits = self.keys.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// The value of `key`.
    pub(super) fn get(&self, key: u64) -> Option<u32> {
        if self.keys.is_empty() {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        while self.values[i] != VACANT {
            if self.keys[i] == key {
                return Some(self.values[i]);
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// The value of `key`, which gets `value` (below `u32::MAX`) if it had none.
    pub(super) fn get_or_insert(&mut self, key: u64, value: u32) -> Result<u32, Error> {
        self.entry(key, value).map(|slot| *slot)
    }

    /// The value of `key`, given `value` first if it had none, to read and write in place with
    /// one probe: what is written must stay below `u32::MAX`.
    pub(super) fn entry(&mut self, key: u64, value: u32) -> Result<&mut u32, Error> {
        if (self.len + 1) * 4 > self.keys.len() * 3 {
            self.grow(self.len + 1)?;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        while self.values[i] != VACANT {
            if self.keys[i] == key {
                return Ok(&mut self.values[i]);
            }
            i = (i + 1) & mask;
        }
        self.keys[i] = key;
        self.values[i] = value;
        self.len += 1;
        Ok(&mut self.values[i])
    }

    /// Gives `key` the value `value` (below `u32::MAX`) and returns the one it had.
    pub(super) fn replace(&mut self, key: u64, value: u32) -> Result<Option<u32>, Error> {
        let had = core::mem::replace(self.entry(key, value)?, value);
        Ok(if had == value { None } else { Some(had) })
    }

    /// Makes room for `additional` more keys at once, so that a map filled to a size known
    /// beforehand is laid out once rather than at each doubling.
    pub(super) fn reserve(&mut self, additional: usize) -> Result<(), Error> {
        let wanted = self.len.checked_add(additional).ok_or(Error::OutOfMemory)?;
        if wanted.saturating_mul(4) > self.keys.len() * 3 {
            self.grow(wanted)?;
        }
        Ok(())
    }

    /// Gives `key`, which the map holds, the value `value` (below `u32::MAX`) without growing:
    /// whether it held `key`.
    pub(super) fn set(&mut self, key: u64, value: u32) -> bool {
        if self.keys.is_empty() {
            return false;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        while self.values[i] != VACANT {
            if self.keys[i] == key {
                self.values[i] = value;
                return true;
            }
            i = (i + 1) & mask;
        }
        false
    }

    /// Removes `key` and its value, if present: later keys of its run move back into the hole
    /// (backward-shift deletion), so lookups stay as they were without tombstones.
    pub(super) fn remove(&mut self, key: u64) {
        if self.keys.is_empty() {
            return;
        }
        let mask = self.keys.len() - 1;
        let mut hole = self.home(key);
        while self.keys[hole] != key || self.values[hole] == VACANT {
            if self.values[hole] == VACANT {
                return;
            }
            hole = (hole + 1) & mask;
        }
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            if self.values[j] == VACANT {
                break;
            }
            // The key at j stays unless the hole lies between its home and j (cyclically).
            let home = self.home(self.keys[j]);
            let stays = if hole <= j { hole < home && home <= j } else { hole < home || home <= j };
            if !stays {
                self.keys[hole] = self.keys[j];
                self.values[hole] = self.values[j];
                hole = j;
            }
        }
        self.values[hole] = VACANT;
        self.len -= 1;
    }

    /// Lays the keys out again in a table that holds `wanted` keys within the load limit.
    #[inline(never)]
    fn grow(&mut self, wanted: usize) -> Result<(), Error> {
        let mut size = (self.keys.len() * 2).max(16);
        while wanted.saturating_mul(4) > size * 3 {
            size = size.checked_mul(2).ok_or(Error::OutOfMemory)?;
        }
        let mut keys = Vec::new();
        let mut values = Vec::new();
        keys.try_reserve_exact(size).map_err(|_| Error::OutOfMemory)?;
        values.try_reserve_exact(size).map_err(|_| Error::OutOfMemory)?;
        keys.resize(size, 0);
        values.resize(size, VACANT);
        let old = core::mem::replace(self, MixMap { keys, values, len: 0 });
        for (key, value) in old.keys.into_iter().zip(old.values) {
            if value != VACANT {
                let mask = self.keys.len() - 1;
                let mut i = self.home(key);
                while self.values[i] != VACANT {
                    i = (i + 1) & mask;
                }
                self.keys[i] = key;
                self.values[i] = value;
                self.len += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use std::collections::HashMap;

    #[test]
    fn agrees_with_a_hash_map() {
        let mut rng = Rng::new(3);
        let mut map = MixMap::default();
        let mut model = HashMap::new();
        for i in 0..20_000u32 {
            // Few distinct keys, some of them 0 (the value marks a vacant slot, not the key).
            let key = rng.below(5_000) * if i % 7 == 0 { 0 } else { 1 << 40 };
            assert_eq!(map.get(key), model.get(&key).copied());
            match i % 4 {
                0 => assert_eq!(map.get_or_insert(key, i).unwrap(), *model.entry(key).or_insert(i)),
                1 => {
                    let slot = map.entry(key, 7).unwrap();
                    let want = model.entry(key).or_insert(7);
                    assert_eq!(*slot, *want);
                    *slot += i;
                    *want += i;
                }
                2 => assert_eq!(map.replace(key, i).unwrap(), model.insert(key, i).filter(|&had| had != i)),
                _ => map.reserve(rng.below(50) as usize).unwrap(),
            }
            if i % 3 == 0 {
                let gone = rng.below(5_000) * if i % 2 == 0 { 1 << 40 } else { 1 };
                map.remove(gone);
                model.remove(&gone);
            }
        }
        for key in 0..5_000u64 {
            for key in [key, key << 40] {
                assert_eq!(map.get(key), model.get(&key).copied());
            }
        }
        assert_eq!(map.len, model.len());
    }
}
