//! MinHash signatures by one-permutation hashing with optimal densification (Shrivastava,
//! 2017): specification v1 in the README. Each feature is mixed once; its high bits choose one
//! of k bins and its low 32 bits compete for that bin's minimum, so a set of n features costs
//! O(n + k) instead of the O(n·k) of k independent permutations. Bins no feature fell into
//! borrow the minimum of a filled bin found by a probe sequence that depends only on the bin
//! and the seed, so two similar sets borrow alike and the estimator keeps the accuracy of
//! independent permutations.

use crate::fingerprint::check_offsets;
use crate::fingerprint::text::{for_each_feature, Scratch, TextOptions};
use crate::Error;

/// The version of the signature specification implemented here.
pub const MINHASH_VERSION: u32 = 1;

/// The value of every position of the signature of a set without features.
pub const EMPTY: u32 = u32::MAX;

/// The largest number of positions (permutations) a signature may have. Densifying a set of
/// one feature costs about k² probes; this bound keeps that under a few milliseconds.
pub const MAX_PERMUTATIONS: usize = 4096;

/// The murmur3 64-bit finaliser: a bijection whose every output bit depends on every input bit.
#[inline]
fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

/// The murmur3 32-bit finaliser (datasketch's [`Scheme::Affine32`](super::datasketch::Scheme)
/// pre-mixes token hashes with it too).
#[inline]
pub(super) fn fmix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x85EB_CA6B);
    x ^= x >> 13;
    x = x.wrapping_mul(0xC2B2_AE35);
    x ^ (x >> 16)
}

/// The key every feature is mixed with, derived from the seed.
#[inline]
fn seed_key(seed: u64) -> u64 {
    fmix64(seed ^ 0x9E37_79B9_7F4A_7C15)
}

/// `x * k / 2^32`: a value below 2^32 scaled to a bin below `k` without division.
#[inline]
fn scale(x: u32, k: usize) -> usize {
    ((u64::from(x) * k as u64) >> 32) as usize
}

/// A bin no feature fell into: above every feature's 32-bit value.
const UNFILLED: u64 = u64::MAX;

/// Builds one signature from features pushed one at a time.
pub(crate) struct Sketch<'a> {
    key: u64,
    out: &'a mut [u32],
    /// Each bin's minimum so far, widened to 64 bits so that [`UNFILLED`] can mark an empty
    /// bin (a bin's minimum may legitimately be `u32::MAX`) and the update is a plain `min`,
    /// without a branch on whether the bin was filled.
    bins: &'a mut Vec<u64>,
}

impl<'a> Sketch<'a> {
    /// A sketch writing to `out` (its length is k), with `bins` as scratch.
    pub(crate) fn new(seed: u64, out: &'a mut [u32], bins: &'a mut Vec<u64>) -> Self {
        bins.clear();
        bins.resize(out.len(), UNFILLED);
        Sketch { key: seed_key(seed), out, bins }
    }

    /// Adds a feature.
    #[inline]
    pub(crate) fn push(&mut self, feature: u64) {
        let x = fmix64(feature ^ self.key);
        let bin = scale((x >> 32) as u32, self.bins.len());
        // `bin < bins.len()` by construction of `scale`.
        if let Some(slot) = self.bins.get_mut(bin) {
            *slot = (*slot).min(x & 0xFFFF_FFFF);
        }
    }

    /// Writes the signature: a filled bin its minimum; an empty bin i the minimum of the first
    /// filled bin among `scale(fmix32(key32 ^ i·φ ^ a·c), k)` for a = 1, 2, … up to 8k
    /// attempts, or, should all attempts miss (probability below e⁻⁸ per bin), of the next
    /// filled bin after i, cyclically. A set without features gets [`EMPTY`] everywhere.
    pub(crate) fn finish(self) {
        let k = self.bins.len();
        let bins = &*self.bins;
        if bins.iter().all(|&b| b == UNFILLED) {
            self.out.fill(EMPTY);
            return;
        }
        let key = self.key as u32;
        for (i, slot) in self.out.iter_mut().enumerate() {
            if bins[i] != UNFILLED {
                *slot = bins[i] as u32;
                continue;
            }
            let base = key ^ (i as u32).wrapping_mul(0x9E37_79B1);
            let probed = (1..=(8 * k as u32)).map(|attempt| scale(fmix32(base ^ attempt.wrapping_mul(0x85EB_CA77)), k)).find(|&j| bins[j] != UNFILLED);
            let j = probed.or_else(|| (1..k).map(|step| (i + step) % k).find(|&j| bins[j] != UNFILLED)).unwrap_or(i);
            *slot = bins[j] as u32;
        }
    }
}

fn check_permutations(k: usize) -> Result<(), Error> {
    if k == 0 || k > MAX_PERMUTATIONS {
        return Err(Error::InvalidPermutations { permutations: k as u32 });
    }
    Ok(())
}

/// Writes the signature of the set of `features` (repeats and order do not matter) to `out`,
/// whose length is the number of permutations k, in `1..=MAX_PERMUTATIONS`. A set without
/// features gets [`EMPTY`] everywhere.
///
/// # Errors
/// [`Error::InvalidPermutations`] for a length of `out` outside `1..=MAX_PERMUTATIONS`.
pub fn signature(features: &[u64], seed: u64, out: &mut [u32]) -> Result<(), Error> {
    check_permutations(out.len())?;
    let mut bins = Vec::new();
    let mut sketch = Sketch::new(seed, out, &mut bins);
    for &feature in features {
        sketch.push(feature);
    }
    sketch.finish();
    Ok(())
}

/// Checks that `offsets` never decrease nor exceed `len`, and that `out` holds k positions for
/// each of their `offsets.len() - 1` documents; returns k.
fn check_many(len: usize, offsets: &[u32], out_len: usize) -> Result<usize, Error> {
    let documents = offsets.len().saturating_sub(1);
    check_offsets(offsets, len)?;
    if documents == 0 {
        return if out_len == 0 { Ok(0) } else { Err(Error::LengthMismatch) };
    }
    if out_len % documents != 0 {
        return Err(Error::LengthMismatch);
    }
    let k = out_len / documents;
    check_permutations(k)?;
    Ok(k)
}

/// One signature per document: document `d` is `features[offsets[d]..offsets[d + 1]]`, and its
/// signature is `out[d·k..(d + 1)·k]`, where `k = out.len() / (offsets.len() - 1)`.
///
/// # Errors
/// [`Error::InvalidOffsets`] if `offsets` decreases or points past `features`;
/// [`Error::LengthMismatch`] unless `out` has the same number of positions for every document;
/// [`Error::InvalidPermutations`] for k outside `1..=MAX_PERMUTATIONS`.
pub fn signature_many(features: &[u64], offsets: &[u32], seed: u64, out: &mut [u32]) -> Result<(), Error> {
    let k = check_many(features.len(), offsets, out.len())?;
    if k == 0 {
        return Ok(());
    }
    let mut bins = Vec::new();
    for (window, slot) in offsets.windows(2).zip(out.chunks_exact_mut(k)) {
        let mut sketch = Sketch::new(seed, slot, &mut bins);
        for &feature in &features[window[0] as usize..window[1] as usize] {
            sketch.push(feature);
        }
        sketch.finish();
    }
    Ok(())
}

/// One signature per UTF-8 text, over the shingle hashes of the text pipeline
/// ([`crate::fingerprint::text::features`] with `options`; the weighting does not matter to a
/// set): text `d` is `texts[offsets[d]..offsets[d + 1]]`; `out` as in [`signature_many`].
///
/// # Errors
/// As [`signature_many`], and as [`crate::fingerprint::text::features`].
pub fn text_signature_many(texts: &[u8], offsets: &[u32], options: &TextOptions, seed: u64, out: &mut [u32]) -> Result<(), Error> {
    let k = check_many(texts.len(), offsets, out.len())?;
    if k == 0 {
        return Ok(());
    }
    let mut bins = Vec::new();
    let mut scratch = Scratch::default();
    for (window, slot) in offsets.windows(2).zip(out.chunks_exact_mut(k)) {
        let mut sketch = Sketch::new(seed, slot, &mut bins);
        for_each_feature(&texts[window[0] as usize..window[1] as usize], options, &mut scratch, |f| sketch.push(f))?;
        sketch.finish();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::text::{features, Unit, Weighting};
    use crate::test_rng::Rng;

    /// The specification read literally: per bin, the minimum over features landing there,
    /// then the probe sequence, with no shared state.
    fn naive(features: &[u64], seed: u64, k: usize) -> Vec<u32> {
        let key = seed_key(seed);
        let mut bins: Vec<Option<u32>> = vec![None; k];
        for &f in features {
            let x = fmix64(f ^ key);
            let bin = (((x >> 32) * k as u64) >> 32) as usize;
            let v = x as u32;
            bins[bin] = Some(bins[bin].map_or(v, |m| m.min(v)));
        }
        if bins.iter().all(Option::is_none) {
            return vec![EMPTY; k];
        }
        (0..k)
            .map(|i| {
                if let Some(v) = bins[i] {
                    return v;
                }
                for a in 1..=(8 * k as u32) {
                    let y = fmix32((key as u32) ^ (i as u32).wrapping_mul(0x9E37_79B1) ^ a.wrapping_mul(0x85EB_CA77));
                    let j = ((u64::from(y) * k as u64) >> 32) as usize;
                    if let Some(v) = bins[j] {
                        return v;
                    }
                }
                (1..k).map(|s| bins[(i + s) % k]).find(|b| b.is_some()).flatten().unwrap()
            })
            .collect()
    }

    fn random_set(rng: &mut Rng, n: usize) -> Vec<u64> {
        (0..n).map(|_| rng.next()).collect()
    }

    fn estimate(a: &[u32], b: &[u32]) -> f64 {
        a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / a.len() as f64
    }

    #[test]
    fn matches_the_naive_reading() {
        let mut rng = Rng::new(1);
        for &(n, k) in &[(0, 16), (1, 1), (1, 128), (3, 128), (50, 128), (500, 64), (1000, 7), (20, 4096)] {
            let set = random_set(&mut rng, n);
            let seed = rng.next();
            let mut out = vec![0; k];
            signature(&set, seed, &mut out).unwrap();
            assert_eq!(out, naive(&set, seed, k), "n {} k {}", n, k);
        }
    }

    #[test]
    fn order_and_repeats_do_not_matter() {
        let mut rng = Rng::new(2);
        let set = random_set(&mut rng, 300);
        let mut shuffled: Vec<u64> = set.iter().chain(set.iter().take(50)).copied().collect();
        shuffled.reverse();
        let (mut a, mut b) = (vec![0; 128], vec![0; 128]);
        signature(&set, 5, &mut a).unwrap();
        signature(&shuffled, 5, &mut b).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn many_equals_one_at_a_time_and_checks_its_input() {
        let mut rng = Rng::new(3);
        let docs: Vec<Vec<u64>> = (0..20).map(|d| random_set(&mut rng, d * 7 % 40)).collect();
        let flat: Vec<u64> = docs.concat();
        let mut offsets = vec![0u32];
        for d in &docs {
            offsets.push(offsets.last().unwrap() + d.len() as u32);
        }
        let mut out = vec![0; 20 * 32];
        signature_many(&flat, &offsets, 9, &mut out).unwrap();
        for (d, doc) in docs.iter().enumerate() {
            let mut one = vec![0; 32];
            signature(doc, 9, &mut one).unwrap();
            assert_eq!(&out[d * 32..(d + 1) * 32], &one[..]);
        }
        assert_eq!(signature_many(&flat, &[0, 5, 3], 0, &mut [0; 4]), Err(Error::InvalidOffsets));
        assert_eq!(signature_many(&flat, &[0, 5, 6], 0, &mut [0; 5]), Err(Error::LengthMismatch));
        assert_eq!(signature_many(&flat, &[0, 5], 0, &mut []), Err(Error::InvalidPermutations { permutations: 0 }));
        assert_eq!(signature(&flat, 0, &mut vec![0; MAX_PERMUTATIONS + 1]), Err(Error::InvalidPermutations { permutations: 4097 }));
        assert_eq!(signature_many(&flat, &[], 0, &mut []), Ok(()));
    }

    #[test]
    fn text_signatures_are_signatures_of_the_features() {
        let options = TextOptions { unit: Unit::Word, size: 3, weighting: Weighting::Binary, seed: 11 };
        let texts = ["the quick brown fox jumps over the lazy dog", "", "a b", "中文字 and more words here"];
        let joined = texts.concat().into_bytes();
        let mut offsets = vec![0u32];
        for t in &texts {
            offsets.push(offsets.last().unwrap() + t.len() as u32);
        }
        let mut out = vec![0; texts.len() * 64];
        text_signature_many(&joined, &offsets, &options, 11, &mut out).unwrap();
        for (d, t) in texts.iter().enumerate() {
            let mut one = vec![0; 64];
            signature(&features(t.as_bytes(), &options).unwrap(), 11, &mut one).unwrap();
            assert_eq!(&out[d * 64..(d + 1) * 64], &one[..]);
        }
    }

    /// Pairs of sets with Jaccard similarity exactly `j = c / (2n - c)` (n features each, c in
    /// common): the mean squared error of the estimate over many pairs must stay within its
    /// bound. For sets of at least k features that is J(1 − J)/k, the variance of k independent
    /// permutations; smaller sets fill fewer bins than k, densification copies their minima,
    /// and the README documents a bound of twice that.
    #[test]
    fn estimates_are_as_accurate_as_independent_permutations() {
        let mut rng = Rng::new(4);
        let k = 128;
        for &(n, c) in &[(1000usize, 900usize), (1000, 500), (200, 150), (128, 64), (30, 20), (10, 5), (500, 0), (100, 100)] {
            let j = c as f64 / (2 * n - c) as f64;
            let trials = 400;
            let mut squared = 0.0;
            for _ in 0..trials {
                let common = random_set(&mut rng, c);
                let a: Vec<u64> = common.iter().copied().chain(random_set(&mut rng, n - c)).collect();
                let b: Vec<u64> = common.iter().copied().chain(random_set(&mut rng, n - c)).collect();
                let seed = rng.next();
                let (mut sa, mut sb) = (vec![0; k], vec![0; k]);
                signature(&a, seed, &mut sa).unwrap();
                signature(&b, seed, &mut sb).unwrap();
                squared += (estimate(&sa, &sb) - j).powi(2);
            }
            let mse = squared / trials as f64;
            let factor = if n >= k { 1.0 } else { 2.0 };
            let bound = factor * j * (1.0 - j) / k as f64;
            // The MSE over 200 trials has a sampling error of about 10 %: 1.25× leaves room for
            // it and still fails an estimator that is biased or copies too much.
            assert!(mse <= 1.25 * bound + 1e-12, "n {} c {} J {:.3}: mse {:.6} > 1.25 × {:.6}", n, c, j, mse, bound);
        }
    }
}
