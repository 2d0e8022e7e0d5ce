//! Signatures equal to those of the Python library datasketch (`MinHash(num_perm, seed,
//! scheme)`, updated with each token's bytes): k independent permutations of 32-bit token
//! hashes, keeping each permutation's minimum.
//!
//! A token's hash h is the first four bytes of its SHA-1 digest read little-endian. Permutation
//! i maps it, in the [`Scheme::Legacy`] scheme (datasketch before 2.0), to
//! `((a_i·h + b_i) mod 2^64) mod (2^61 − 1)` truncated to its low 32 bits — the product wraps
//! at 64 bits as NumPy's `uint64` arithmetic does; in the [`Scheme::Affine32`] scheme
//! (datasketch 2.0's default), to `a_i·fmix32(h) + b_i mod 2^32`. The parameters `a_i`, `b_i`
//! are NumPy's `RandomState(seed)` draws, which the caller supplies (the TypeScript layer
//! reproduces that generator).

use super::sha1::sha1;
use super::signature::fmix32;
use crate::fingerprint::check_offsets;
use crate::Error;

/// 2^61 − 1, the prime datasketch permutes modulo.
pub const MERSENNE_61: u64 = (1 << 61) - 1;

/// datasketch's hash of one token: the first four bytes of SHA-1, little-endian.
pub fn token_hash(token: &[u8]) -> u32 {
    // The digest's first word holds its first four bytes big-endian.
    sha1(token)[0].swap_bytes()
}

/// `x mod (2^61 − 1)` without division: 2^61 ≡ 1, so the high three bits add to the low 61.
#[inline]
fn mod_mersenne(x: u64) -> u64 {
    let r = (x & MERSENNE_61) + (x >> 61);
    if r >= MERSENNE_61 {
        r - MERSENNE_61
    } else {
        r
    }
}

/// How datasketch permutes token hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// `((a·h + b) mod 2^64) mod (2^61 − 1)`, low 32 bits: datasketch before 2.0.
    Legacy,
    /// `a·fmix32(h) + b mod 2^32`, with `a` and `b` below 2^32: datasketch 2.0's default.
    Affine32,
}


/// Lowers `sig` to the minima of every permutation of `hash`.
#[inline]
fn update(sig: &mut [u32], scheme: Scheme, a: &[u64], b: &[u64], hash: u32) {
    match scheme {
        Scheme::Legacy => {
            let h = u64::from(hash);
            for ((slot, &a), &b) in sig.iter_mut().zip(a).zip(b) {
                let value = mod_mersenne(a.wrapping_mul(h).wrapping_add(b)) as u32;
                if value < *slot {
                    *slot = value;
                }
            }
        }
        Scheme::Affine32 => {
            let h = fmix32(hash);
            for ((slot, &a), &b) in sig.iter_mut().zip(a).zip(b) {
                let value = (a as u32).wrapping_mul(h).wrapping_add(b as u32);
                if value < *slot {
                    *slot = value;
                }
            }
        }
    }
}

/// One signature per document. Token t is `tokens[token_offsets[t]..token_offsets[t + 1]]`;
/// document d is tokens `documents[d]..documents[d + 1]`; its signature is
/// `out[d·k..(d + 1)·k]` with `k = a.len()`; for [`Scheme::Affine32`] only the low 32 bits
/// of `a` and `b` count. A document without tokens gets `u32::MAX`
/// everywhere, as datasketch's fresh `MinHash` has.
///
/// # Errors
/// [`Error::InvalidPermutations`] unless `a` and `b` have the same length in `1..=4096`;
/// [`Error::InvalidOffsets`] if either offset array decreases or points past what it indexes;
/// [`Error::LengthMismatch`] unless `out` has k positions per document.
pub fn signature_many(
    tokens: &[u8],
    token_offsets: &[u32],
    documents: &[u32],
    scheme: Scheme,
    a: &[u64],
    b: &[u64],
    out: &mut [u32],
) -> Result<(), Error> {
    let k = a.len();
    if k == 0 || k > super::MAX_PERMUTATIONS || b.len() != k {
        return Err(Error::InvalidPermutations { permutations: k as u32 });
    }
    check_offsets(token_offsets, tokens.len())?;
    check_offsets(documents, token_offsets.len().saturating_sub(1))?;
    if out.len() != documents.len().saturating_sub(1) * k {
        return Err(Error::LengthMismatch);
    }
    for (window, sig) in documents.windows(2).zip(out.chunks_exact_mut(k)) {
        sig.fill(u32::MAX);
        for t in window[0] as usize..window[1] as usize {
            let token = &tokens[token_offsets[t] as usize..token_offsets[t + 1] as usize];
            update(sig, scheme, a, b, token_hash(token));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn the_reduction_is_the_remainder() {
        let mut rng = Rng::new(5);
        let edges = [0, 1, MERSENNE_61 - 1, MERSENNE_61, MERSENNE_61 + 1, 2 * MERSENNE_61, u64::MAX, u64::MAX - 7];
        for x in edges.iter().copied().chain((0..10_000).map(|_| rng.next())) {
            assert_eq!(mod_mersenne(x), x % MERSENNE_61, "{}", x);
        }
    }

    #[test]
    fn token_hashes_are_the_digest_prefix() {
        // sha1("hello") = aaf4c61d…: bytes aa f4 c6 1d read little-endian.
        assert_eq!(token_hash(b"hello"), 0x1DC6_F4AA);
    }

    #[test]
    fn signatures_are_minima_of_each_permutation() {
        let mut rng = Rng::new(6);
        let a: Vec<u64> = (0..16).map(|_| 1 + rng.below(MERSENNE_61 - 1)).collect();
        let b: Vec<u64> = (0..16).map(|_| rng.below(MERSENNE_61)).collect();
        let words: [&[u8]; 4] = [b"alpha", b"beta", b"", "\u{e9}t\u{e9}".as_bytes()];
        let tokens: Vec<u8> = words.concat();
        let mut token_offsets = vec![0u32];
        for w in &words {
            token_offsets.push(token_offsets.last().unwrap() + w.len() as u32);
        }
        let documents = [0u32, 4, 4, 1];
        assert_eq!(signature_many(&tokens, &token_offsets, &documents, Scheme::Legacy, &a, &b, &mut [0; 48]), Err(Error::InvalidOffsets));
        let documents = [0u32, 4, 4, 4];
        let mut out = vec![0; 48];
        signature_many(&tokens, &token_offsets, &documents, Scheme::Legacy, &a, &b, &mut out).unwrap();
        for i in 0..16 {
            let expected = words
                .iter()
                .map(|w| ((u128::from(a[i]) * u128::from(token_hash(w)) + u128::from(b[i])) % (1u128 << 64) % u128::from(MERSENNE_61)) as u32)
                .min()
                .unwrap();
            assert_eq!(out[i], expected);
        }
        assert!(out[16..].iter().all(|&v| v == u32::MAX));
        signature_many(&tokens, &token_offsets, &documents, Scheme::Affine32, &a, &b, &mut out).unwrap();
        for i in 0..16 {
            let expected = words
                .iter()
                .map(|w| (u64::from(a[i] as u32) * u64::from(fmix32(token_hash(w))) + (b[i] & 0xFFFF_FFFF)) as u32)
                .min()
                .unwrap();
            assert_eq!(out[i], expected);
        }
        assert_eq!(signature_many(&tokens, &token_offsets, &documents, Scheme::Legacy, &a, &b[1..], &mut out), Err(Error::InvalidPermutations { permutations: 16 }));
        assert_eq!(signature_many(&tokens, &token_offsets, &documents, Scheme::Legacy, &a, &b, &mut out[1..]), Err(Error::LengthMismatch));
    }
}
