//! LSD radix sort of 64-bit keys on a window of their bits.

use crate::Error;

/// Widest digit: 2^11 counters stay in L1 and scatters touch few cache lines at once.
const MAX_DIGIT_BITS: u32 = 11;

/// Sorts `keys` by bits `low .. low + bits` only (stable with respect to the other bits),
/// using `scratch` (same length) as the second buffer. `bits` is in `0..=64 - low`.
pub fn sort_by_bits(keys: &mut [u64], scratch: &mut [u64], low: u32, bits: u32) -> Result<(), Error> {
    if keys.len() != scratch.len() {
        return Err(Error::LengthMismatch);
    }
    if bits == 0 || keys.len() < 2 {
        return Ok(());
    }
    let passes = (bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
    let digit_bits = (bits + passes - 1) / passes;
    let buckets = 1usize << digit_bits;
    let mut counts = Vec::new();
    counts.try_reserve_exact(buckets * passes as usize).map_err(|_| Error::OutOfMemory)?;
    counts.resize(buckets * passes as usize, 0usize);
    let digit = |key: u64, pass: u32| -> usize {
        let shift = low + pass * digit_bits;
        let width = digit_bits.min(low + bits - shift);
        ((key >> shift) & (u64::MAX >> (64 - width))) as usize
    };
    // One read of the keys fills every pass's histogram.
    for &key in keys.iter() {
        for pass in 0..passes {
            counts[pass as usize * buckets + digit(key, pass)] += 1;
        }
    }
    let mut in_keys = true;
    for pass in 0..passes {
        let count = &mut counts[pass as usize * buckets..(pass as usize + 1) * buckets];
        // A digit shared by every key leaves the order as it is.
        if count.iter().any(|&c| c == keys.len()) {
            continue;
        }
        let mut total = 0;
        for c in count.iter_mut() {
            let here = *c;
            *c = total;
            total += here;
        }
        let (from, to): (&[u64], &mut [u64]) = if in_keys { (&*keys, &mut *scratch) } else { (&*scratch, &mut *keys) };
        for &key in from {
            let d = digit(key, pass);
            to[count[d]] = key;
            count[d] += 1;
        }
        in_keys = !in_keys;
    }
    if !in_keys {
        keys.copy_from_slice(scratch);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn sorts_windows_stably() {
        let mut rng = Rng::new(1);
        for (low, bits) in [(0, 64), (40, 24), (20, 1), (63, 1), (0, 13), (10, 33)] {
            let mut keys: Vec<u64> = (0..5000).map(|_| rng.next()).collect();
            let mut expected = keys.clone();
            let window = |k: u64| (k >> low) & (u64::MAX >> (64 - bits));
            expected.sort_by_key(|&k| window(k)); // stable
            let mut scratch = vec![0; keys.len()];
            sort_by_bits(&mut keys, &mut scratch, low, bits).unwrap();
            assert_eq!(keys, expected, "low {} bits {}", low, bits);
        }
    }
}
