//! Hamming distance between fingerprints.

/// Number of bit positions in which `a` and `b` differ.
#[inline]
pub fn bits_differ(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// Writes `bits_differ(query, fingerprints[i])` to `out[i]` for every `i`.
///
/// # Errors
/// [`crate::Error::LengthMismatch`] unless `out` has one slot per fingerprint.
pub fn hamming_distances(query: u64, fingerprints: &[u64], out: &mut [u8]) -> Result<(), crate::Error> {
    if out.len() != fingerprints.len() {
        return Err(crate::Error::LengthMismatch);
    }
    for (slot, &fingerprint) in out.iter_mut().zip(fingerprints) {
        // At most 64, so it fits.
        *slot = bits_differ(query, fingerprint) as u8;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(bits_differ(0, u64::MAX), 64);
        assert_eq!(bits_differ(0b1011, 0b0110), 3);
        let mut out = [0u8; 3];
        hamming_distances(0xFF, &[0xFF, 0, u64::MAX], &mut out).unwrap();
        assert_eq!(out, [0, 8, 56]);
        assert!(hamming_distances(0, &[1], &mut []).is_err());
    }
}
