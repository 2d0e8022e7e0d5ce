//! Folding feature hashes into one fingerprint.
//!
//! Bit `i` of a fingerprint is set iff strictly more of the hashes have bit `i` set than clear
//! (the weighted form: iff the weights of the hashes with the bit set outweigh the others).
//! Ties, and an empty input, give a clear bit.

use crate::Error;

/// The SimHash fingerprint of `hashes`: bit `i` is set iff more than half of the hashes have
/// bit `i` set. An empty slice gives 0.
///
/// Cost is a handful of word operations per hash: the 64 per-bit counters are kept bit-sliced
/// (plane `j` holds bit `j` of all 64 counters), fed by a carry-save adder tree that folds 16
/// hashes into one carry word, and compared against `len / 2` without ever being unpacked.
pub fn compute(hashes: &[u64]) -> u64 {
    let mut counter = SlicedCounter::default();
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let hashes_left = paired::add(hashes, &mut counter);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    let hashes_left = hashes;
    let mut chunks = hashes_left.chunks_exact(16);
    for chunk in &mut chunks {
        let mut block = [0u64; 16];
        block.copy_from_slice(chunk);
        counter.add16(&block);
    }
    counter.add_tail(chunks.remainder());
    counter.majority(hashes.len() as u64)
}

/// Below this many leftover hashes, adding them one by one beats a padded 16-hash step.
const PAD_THRESHOLD: usize = 6;

/// The weighted SimHash fingerprint: for each bit `i`, `s_i` starts at `0.0` and, for each hash
/// in input order, gains `+w` if the hash has bit `i` set and `-w` otherwise; bit `i` of the
/// result is set iff `s_i > 0`.
///
/// The order of the additions is part of the contract (floating-point addition is not
/// associative): any implementation following it gets the same bits.
///
/// Weights are expected to be finite and non-negative; callers validate them.
///
/// # Errors
/// [`Error::LengthMismatch`] unless `weights` has one entry per hash.
pub fn compute_weighted(hashes: &[u64], weights: &[f64]) -> Result<u64, Error> {
    if hashes.len() != weights.len() {
        return Err(Error::LengthMismatch);
    }
    let mut sums = [0.0f64; 64];
    // Chunks keep a chunk's hashes and weights in L1 while the bits are visited a group at a
    // time: each bit's sum still sees exactly the contract's sequence of additions.
    for (hashes, weights) in hashes.chunks(WEIGHTED_CHUNK).zip(weights.chunks(WEIGHTED_CHUNK)) {
        weighted::add_signed(hashes, weights, &mut sums);
    }
    let mut fingerprint = 0u64;
    for (bit, &sum) in sums.iter().enumerate() {
        if sum > 0.0 {
            fingerprint |= 1 << bit;
        }
    }
    Ok(fingerprint)
}

const WEIGHTED_CHUNK: usize = 512;

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod weighted {
    /// `±w` as the sign of `w` flipped when `bit` is clear: exact, and without a branch that
    /// random bits would mispredict half the time.
    #[inline(always)]
    fn signed(weight: f64, hash: u64, bit: u32) -> f64 {
        f64::from_bits(weight.to_bits() ^ ((!hash >> bit & 1) << 63))
    }

    /// Adds `±weights[k]` to `sums[bit]` for every hash `k` in order and every bit.
    pub fn add_signed(hashes: &[u64], weights: &[f64], sums: &mut [f64; 64]) {
        // Eight bits per pass: eight independent sums hide the latency of each addition and
        // still fit in registers.
        for (index, group) in sums.chunks_exact_mut(8).enumerate() {
            let base = index as u32 * 8;
            let mut acc = [0.0f64; 8];
            acc.copy_from_slice(group);
            for (&hash, &weight) in hashes.iter().zip(weights) {
                for (lane, sum) in acc.iter_mut().enumerate() {
                    *sum += signed(weight, hash, base + lane as u32);
                }
            }
            group.copy_from_slice(&acc);
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod weighted {
    use core::arch::wasm32::*;

    /// Adds `±weights[k]` to `sums[bit]` for every hash `k` in order and every bit, two bits
    /// per `f64x2` lane pair: lane 0 takes the even bit, lane 1 the odd one.
    pub fn add_signed(hashes: &[u64], weights: &[f64], sums: &mut [f64; 64]) {
        // Sixteen bits per pass: eight vector sums.
        for pass in 0..4u32 {
            let base = pass as usize * 16;
            let mut acc = [f64x2(0.0, 0.0); 8];
            for (j, a) in acc.iter_mut().enumerate() {
                *a = f64x2(sums[base + 2 * j], sums[base + 2 * j + 1]);
            }
            for (&hash, &weight) in hashes.iter().zip(weights) {
                // Lane 1 is pre-shifted by one so that one shift count serves both lanes.
                let clear = !hash >> (pass * 16);
                let bits = u64x2(clear, clear >> 1);
                let w = f64x2_splat(weight);
                for (j, a) in acc.iter_mut().enumerate() {
                    let sign = i64x2_shl(u64x2_shr(bits, 2 * j as u32), 63);
                    *a = f64x2_add(*a, v128_xor(w, sign));
                }
            }
            for (j, a) in acc.iter().enumerate() {
                sums[base + 2 * j] = f64x2_extract_lane::<0>(*a);
                sums[base + 2 * j + 1] = f64x2_extract_lane::<1>(*a);
            }
        }
    }
}

/// One fingerprint per document: document `d` owns `hashes[offsets[d]..offsets[d + 1]]`, so
/// `offsets.len() - 1` documents (none for an empty `offsets`) are written to `out`.
///
/// # Errors
/// [`Error::InvalidOffsets`] if `offsets` decreases or points past `hashes`;
/// [`Error::LengthMismatch`] if `out` does not have one slot per document.
pub fn compute_many(hashes: &[u64], offsets: &[u32], out: &mut [u64]) -> Result<(), Error> {
    for_each_document(hashes.len(), offsets, out, |range| compute(&hashes[range]))
}

/// [`compute_weighted`] for each document, laid out as in [`compute_many`]; `weights` has one
/// entry per hash.
///
/// # Errors
/// As [`compute_many`], and [`Error::LengthMismatch`] unless `weights.len() == hashes.len()`.
pub fn compute_many_weighted(
    hashes: &[u64],
    weights: &[f64],
    offsets: &[u32],
    out: &mut [u64],
) -> Result<(), Error> {
    if hashes.len() != weights.len() {
        return Err(Error::LengthMismatch);
    }
    for_each_document(hashes.len(), offsets, out, |range| {
        // Cannot fail: the range is shared by two slices of equal length.
        compute_weighted(&hashes[range.clone()], &weights[range]).unwrap_or(0)
    })
}

fn for_each_document(
    len: usize,
    offsets: &[u32],
    out: &mut [u64],
    mut fingerprint: impl FnMut(core::ops::Range<usize>) -> u64,
) -> Result<(), Error> {
    let documents = offsets.len().saturating_sub(1);
    if out.len() != documents {
        return Err(Error::LengthMismatch);
    }
    super::check_offsets(offsets, len)?;
    for (slot, window) in out.iter_mut().zip(offsets.windows(2)) {
        *slot = fingerprint(window[0] as usize..window[1] as usize);
    }
    Ok(())
}

/// [`compute`] over hashes that arrive one at a time, without keeping them: push each, then
/// [`Fold::finish`]. `Fold::default()` starts empty.
#[derive(Default)]
pub struct Fold {
    counter: SlicedCounter,
    pending: [u64; 16],
    filled: usize,
    total: u64,
}

impl Fold {
    /// Adds one hash.
    #[inline]
    pub fn push(&mut self, hash: u64) {
        self.pending[self.filled] = hash;
        self.filled += 1;
        self.total += 1;
        if self.filled == 16 {
            self.counter.add16(&self.pending);
            self.filled = 0;
        }
    }

    /// The fingerprint of every hash pushed so far (the same as [`compute`] of them); the fold
    /// starts over empty.
    pub fn finish(&mut self) -> u64 {
        let pending = self.pending;
        self.counter.add_tail(&pending[..self.filled]);
        let fingerprint = self.counter.majority(self.total);
        *self = Fold::default();
        fingerprint
    }
}

/// 64 counters, bit-sliced: `planes[j]` holds bit `j` of every counter.
///
/// 36 planes count to 2^36 - 1, beyond any slice length a 32-bit address space can hold and
/// enough for 2^36 hashes on 64-bit hosts.
struct SlicedCounter {
    planes: [u64; 36],
}

impl Default for SlicedCounter {
    fn default() -> Self {
        SlicedCounter { planes: [0; 36] }
    }
}

/// The bitwise operations the counters need, for `u64` and for SIMD vectors of them.
trait Lanes: Copy {
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
}

impl Lanes for u64 {
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
}

/// Carry-save adder: the sum of three words per bit, as (carry, sum).
#[inline(always)]
fn csa<W: Lanes>(a: W, b: W, c: W) -> (W, W) {
    let u = a.xor(b);
    (a.and(b).or(u.and(c)), u.xor(c))
}

/// Adds 16 words to the low planes `[ones, twos, fours, eights]`: returns the new low planes
/// and the carry into the sixteens (a Harley-Seal tree of 15 carry-save adders).
#[inline(always)]
fn csa_tree16<W: Lanes>(low: [W; 4], h: &[W; 16]) -> ([W; 4], W) {
    let [ones, twos, fours, eights] = low;
    let (twos_a, ones) = csa(ones, h[0], h[1]);
    let (twos_b, ones) = csa(ones, h[2], h[3]);
    let (fours_a, twos) = csa(twos, twos_a, twos_b);
    let (twos_a, ones) = csa(ones, h[4], h[5]);
    let (twos_b, ones) = csa(ones, h[6], h[7]);
    let (fours_b, twos) = csa(twos, twos_a, twos_b);
    let (eights_a, fours) = csa(fours, fours_a, fours_b);
    let (twos_a, ones) = csa(ones, h[8], h[9]);
    let (twos_b, ones) = csa(ones, h[10], h[11]);
    let (fours_a, twos) = csa(twos, twos_a, twos_b);
    let (twos_a, ones) = csa(ones, h[12], h[13]);
    let (twos_b, ones) = csa(ones, h[14], h[15]);
    let (fours_b, twos) = csa(twos, twos_a, twos_b);
    let (eights_b, fours) = csa(fours, fours_a, fours_b);
    let (sixteens, eights) = csa(eights, eights_a, eights_b);
    ([ones, twos, fours, eights], sixteens)
}

impl SlicedCounter {
    /// Adds `carry` to the counters at plane `from` and up, rippling until it dies out (after a
    /// few planes: a carry survives a plane only in lanes where that plane was already set).
    #[inline(always)]
    fn ripple(&mut self, from: usize, mut carry: u64) {
        for plane in self.planes[from..].iter_mut() {
            if carry == 0 {
                break;
            }
            let next = *plane & carry;
            *plane ^= carry;
            carry = next;
        }
    }

    #[inline(always)]
    fn add1(&mut self, hash: u64) {
        self.ripple(0, hash);
    }

    /// Adds fewer than 16 hashes.
    fn add_tail(&mut self, rest: &[u64]) {
        if rest.len() < PAD_THRESHOLD {
            for &hash in rest {
                self.add1(hash);
            }
        } else {
            // Zero hashes add nothing to the set-bit counts, so padding is free; the caller
            // passes the real count to `majority`.
            let mut block = [0u64; 16];
            block[..rest.len()].copy_from_slice(rest);
            self.add16(&block);
        }
    }

    #[inline(always)]
    fn add16(&mut self, h: &[u64; 16]) {
        let low = [self.planes[0], self.planes[1], self.planes[2], self.planes[3]];
        let (low, sixteens) = csa_tree16(low, h);
        self.planes[..4].copy_from_slice(&low);
        self.ripple(4, sixteens);
    }

    /// Adds another counter, plane by plane with a ripple-carry adder.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn add_counter(&mut self, other: &[u64; 36]) {
        let mut carry = 0u64;
        for (plane, &b) in self.planes.iter_mut().zip(other) {
            let a = *plane;
            *plane = a ^ b ^ carry;
            carry = (a & b) | (carry & (a ^ b));
        }
    }

    /// Bits whose counter `c` satisfies `2c > total`, i.e. `c > total / 2`.
    fn majority(&self, total: u64) -> u64 {
        let threshold = total / 2;
        // No counter exceeds `total`, so planes above its highest bit are clear.
        let planes = (64 - total.leading_zeros() as usize).min(self.planes.len());
        // Bit-sliced `counter > threshold`, most significant plane first: `greater` marks the
        // lanes already known to be larger, `equal` those equal so far.
        let mut greater = 0u64;
        let mut equal = u64::MAX;
        for (j, &plane) in self.planes[..planes].iter().enumerate().rev() {
            if threshold >> j & 1 == 1 {
                equal &= plane;
            } else {
                greater |= equal & plane;
                equal &= !plane;
            }
        }
        greater
    }
}

/// [`compute`]'s counting two hashes at a time, in the two 64-bit lanes of a SIMD vector.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod paired {
    use super::{csa_tree16, Lanes, SlicedCounter};
    use core::arch::wasm32::*;

    impl Lanes for v128 {
        #[inline(always)]
        fn and(self, other: Self) -> Self {
            v128_and(self, other)
        }
        #[inline(always)]
        fn or(self, other: Self) -> Self {
            v128_or(self, other)
        }
        #[inline(always)]
        fn xor(self, other: Self) -> Self {
            v128_xor(self, other)
        }
    }

    /// Below this many hashes, adding the two lanes' counters costs more than pairing saves.
    const MIN_HASHES: usize = 128;

    /// Counts the hashes of every whole block of 32 into `counter` (which must be empty) and
    /// returns the rest: lane 0 counts the even positions, lane 1 the odd ones, and the two
    /// counters are added at the end.
    pub(super) fn add<'a>(hashes: &'a [u64], counter: &mut SlicedCounter) -> &'a [u64] {
        if hashes.len() < MIN_HASHES {
            return hashes;
        }
        let mut planes = [u64x2(0, 0); 36];
        let mut blocks = hashes.chunks_exact(32);
        for block in &mut blocks {
            let mut h = [u64x2(0, 0); 16];
            for (pair, lanes) in block.chunks_exact(2).zip(h.iter_mut()) {
                *lanes = u64x2(pair[0], pair[1]);
            }
            let (low, sixteens) = csa_tree16([planes[0], planes[1], planes[2], planes[3]], &h);
            planes[..4].copy_from_slice(&low);
            let mut carry = sixteens;
            for plane in planes[4..].iter_mut() {
                if !v128_any_true(carry) {
                    break;
                }
                let next = v128_and(*plane, carry);
                *plane = v128_xor(*plane, carry);
                carry = next;
            }
        }
        let mut even = [0u64; 36];
        let mut odd = [0u64; 36];
        for (j, plane) in planes.iter().enumerate() {
            even[j] = u64x2_extract_lane::<0>(*plane);
            odd[j] = u64x2_extract_lane::<1>(*plane);
        }
        counter.add_counter(&even);
        counter.add_counter(&odd);
        blocks.remainder()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn naive(hashes: &[u64]) -> u64 {
        let mut out = 0;
        for bit in 0..64 {
            let set = hashes.iter().filter(|&&h| h >> bit & 1 == 1).count();
            if 2 * set > hashes.len() {
                out |= 1 << bit;
            }
        }
        out
    }

    #[test]
    fn reference_cases() {
        assert_eq!(compute(&[]), 0);
        assert_eq!(compute(&[0xABCD, 0xBCDE, 0xCDEF]), 0xADCF);
        assert_eq!(compute(&[0xDEADBEEF; 100]), 0xDEADBEEF);
        assert_eq!(compute(&[0xDEADBEEF, !0xDEADBEEF]), 0);
        assert_eq!(compute(&[u64::MAX]), u64::MAX);
        assert_eq!(compute(&[1 << 63, 1 << 63, 0]), 1 << 63);
    }

    #[test]
    fn matches_naive_on_random_lengths() {
        let mut rng = Rng::new(7);
        for len in (0..80).chain([255, 256, 257, 1000, 4111]) {
            for _ in 0..8 {
                // Skew bits so that majorities and ties both happen.
                let hashes: Vec<u64> = (0..len).map(|_| rng.next() & rng.next() | rng.next() & 0xF0F0).collect();
                assert_eq!(compute(&hashes), naive(&hashes), "len {}", len);
            }
        }
    }

    #[test]
    fn fold_matches_compute() {
        let mut rng = Rng::new(21);
        let mut fold = Fold::default();
        for len in [0usize, 1, 5, 6, 15, 16, 17, 100, 1000] {
            let hashes: Vec<u64> = (0..len).map(|_| rng.next() & rng.next()).collect();
            for &h in &hashes {
                fold.push(h);
            }
            assert_eq!(fold.finish(), compute(&hashes), "len {}", len);
        }
    }

    #[test]
    fn counts_past_many_planes() {
        // 70,000 copies of one value then 69,999 of its complement: every counter crosses
        // several plane boundaries, and the first value wins by one.
        let mut hashes = vec![0x0123_4567_89AB_CDEFu64; 70_000];
        hashes.extend(core::iter::repeat(!0x0123_4567_89AB_CDEFu64).take(69_999));
        assert_eq!(compute(&hashes), 0x0123_4567_89AB_CDEF);
        hashes.push(!0x0123_4567_89AB_CDEFu64);
        assert_eq!(compute(&hashes), 0);
    }

    #[test]
    fn weighted_follows_the_contract() {
        let mut rng = Rng::new(11);
        for len in 0..40 {
            let hashes: Vec<u64> = (0..len).map(|_| rng.next()).collect();
            let weights: Vec<f64> = (0..len).map(|_| (rng.next() % 1000) as f64 / 7.0).collect();
            let mut expected = 0u64;
            for bit in 0..64 {
                let mut sum = 0.0f64;
                for (h, w) in hashes.iter().zip(&weights) {
                    sum += if h >> bit & 1 == 1 { *w } else { -*w };
                }
                if sum > 0.0 {
                    expected |= 1 << bit;
                }
            }
            assert_eq!(compute_weighted(&hashes, &weights), Ok(expected));
        }
        assert_eq!(compute_weighted(&[1], &[]), Err(Error::LengthMismatch));
        // Unit weights agree with the unweighted form.
        let hashes: Vec<u64> = (0..33).map(|_| rng.next()).collect();
        assert_eq!(compute_weighted(&hashes, &[1.0; 33]), Ok(compute(&hashes)));
    }

    #[test]
    fn many_splits_documents() {
        let mut rng = Rng::new(3);
        let hashes: Vec<u64> = (0..100).map(|_| rng.next()).collect();
        let offsets = [0u32, 0, 10, 55, 55, 100];
        let mut out = [0u64; 5];
        compute_many(&hashes, &offsets, &mut out).unwrap();
        assert_eq!(out, [0, compute(&hashes[..10]), compute(&hashes[10..55]), 0, compute(&hashes[55..])]);
        let weights = vec![2.0; 100];
        compute_many_weighted(&hashes, &weights, &offsets, &mut out).unwrap();
        assert_eq!(out[2], compute(&hashes[10..55]));
        assert_eq!(compute_many(&hashes, &[0, 5, 4], &mut [0; 2]), Err(Error::InvalidOffsets));
        assert_eq!(compute_many(&hashes, &[0, 101], &mut [0; 1]), Err(Error::InvalidOffsets));
        assert_eq!(compute_many(&hashes, &[0, 1], &mut [0; 2]), Err(Error::LengthMismatch));
        assert_eq!(compute_many(&hashes, &[], &mut []), Ok(()));
    }
}
