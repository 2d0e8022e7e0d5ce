//! LSD radix sort of 64-bit keys on a window of their bits.

use crate::Error;

/// Widest digit: 2^11 counters stay in L1 and scatters touch few cache lines at once.
const MAX_DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << MAX_DIGIT_BITS;
/// 64 bits in digits of at most 11 bits.
const MAX_PASSES: usize = 6;

/// Sorts keys by bits `low .. low + bits` (stable with respect to the other bits). Fill the
/// histograms with [`RadixSort::count`] for every key, then call [`RadixSort::sort`].
pub struct RadixSort {
    shifts: [u32; MAX_PASSES],
    masks: [u64; MAX_PASSES],
    passes: usize,
    counts: Vec<[u32; BUCKETS]>,
}

impl RadixSort {
    /// A sort on bits `low .. low + bits`; `low + bits <= 64`.
    pub fn new(low: u32, bits: u32) -> Result<RadixSort, Error> {
        let passes = ((bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS) as usize;
        let digit_bits = if passes == 0 { 0 } else { (bits + passes as u32 - 1) / passes as u32 };
        let mut shifts = [0; MAX_PASSES];
        let mut masks = [0; MAX_PASSES];
        for pass in 0..passes {
            let shift = low + pass as u32 * digit_bits;
            let width = digit_bits.min(low + bits - shift);
            shifts[pass] = shift;
            masks[pass] = u64::MAX >> (64 - width);
        }
        let mut counts = Vec::new();
        counts.try_reserve_exact(passes).map_err(|_| Error::OutOfMemory)?;
        counts.resize(passes, [0; BUCKETS]);
        Ok(RadixSort { shifts, masks, passes, counts })
    }

    #[inline(always)]
    fn digit(&self, key: u64, pass: usize) -> usize {
        // The mask keeps the digit below BUCKETS; saying so lets the compiler drop bounds checks.
        ((key >> self.shifts[pass]) & self.masks[pass]) as usize & (BUCKETS - 1)
    }

    /// Adds `key` to every pass's histogram.
    #[inline(always)]
    pub fn count(&mut self, key: u64) {
        for pass in 0..self.passes {
            let d = self.digit(key, pass);
            self.counts[pass][d] += 1;
        }
    }

    /// Sorts `keys`, whose every element went through [`RadixSort::count`] once, using
    /// `scratch` (same length) as the second buffer. Clears the histograms for reuse.
    pub fn sort(&mut self, keys: &mut [u64], scratch: &mut [u64]) -> Result<(), Error> {
        if keys.len() != scratch.len() || keys.len() > u32::MAX as usize {
            return Err(Error::LengthMismatch);
        }
        let mut in_keys = true;
        for pass in 0..self.passes {
            let mut count = core::mem::replace(&mut self.counts[pass], [0; BUCKETS]);
            // A digit shared by every key leaves the order as it is.
            if count.iter().any(|&c| c as usize == keys.len()) {
                continue;
            }
            let mut total = 0u32;
            for c in count.iter_mut() {
                let here = *c;
                *c = total;
                total = total.wrapping_add(here);
            }
            let (from, to): (&[u64], &mut [u64]) = if in_keys { (&*keys, &mut *scratch) } else { (&*scratch, &mut *keys) };
            for &key in from {
                let d = self.digit(key, pass);
                let position = count[d];
                count[d] = position + 1;
                to[position as usize] = key;
            }
            in_keys = !in_keys;
        }
        if !in_keys {
            keys.copy_from_slice(scratch);
        }
        Ok(())
    }
}

/// Sorts `keys` by bits `low .. low + bits` only, with `scratch` (same length) as the second
/// buffer.
pub fn sort_by_bits(keys: &mut [u64], scratch: &mut [u64], low: u32, bits: u32) -> Result<(), Error> {
    let mut sort = RadixSort::new(low, bits)?;
    for &key in keys.iter() {
        sort.count(key);
    }
    sort.sort(keys, scratch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn sorts_windows_stably() {
        let mut rng = Rng::new(1);
        for (low, bits) in [(0, 64), (40, 24), (20, 1), (63, 1), (0, 13), (10, 33), (5, 0)] {
            let mut keys: Vec<u64> = (0..5000).map(|_| rng.next()).collect();
            let mut expected = keys.clone();
            let window = |k: u64| if bits == 0 { 0 } else { (k >> low) & (u64::MAX >> (64 - bits)) };
            expected.sort_by_key(|&k| window(k)); // stable
            let mut scratch = vec![0; keys.len()];
            sort_by_bits(&mut keys, &mut scratch, low, bits).unwrap();
            assert_eq!(keys, expected, "low {} bits {}", low, bits);
        }
    }

    #[test]
    fn reuses_histograms() {
        let mut rng = Rng::new(2);
        let mut sort = RadixSort::new(32, 32).unwrap();
        for _ in 0..3 {
            let mut keys: Vec<u64> = (0..1000).map(|_| rng.next()).collect();
            for &k in &keys {
                sort.count(k);
            }
            let mut scratch = vec![0; keys.len()];
            sort.sort(&mut keys, &mut scratch).unwrap();
            assert!(keys.windows(2).all(|w| w[0] >> 32 <= w[1] >> 32));
        }
    }
}
