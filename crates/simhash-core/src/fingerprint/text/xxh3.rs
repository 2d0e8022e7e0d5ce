//! XXH3-64 with a seed, specialised for the two kinds of input the text pipeline hashes: short
//! units (a word or a character, usually at most 16 bytes) and shingles, which are `k` unit
//! hashes laid end to end (`8 k` bytes, a multiple of 8). The results are those of
//! `xxhash_rust::xxh3::xxh3_64_with_seed` bit for bit (the tests check it); only the work is
//! arranged differently:
//!
//! - the secret words, with the seed already added or subtracted, are prepared once per call
//!   instead of once per hash;
//! - a shingle is read as whole `u64`s, with its length known in units: shingles of 1 to 4
//!   units (the default sizes are 3 for words and 4 for characters) each have a path of their
//!   own;
//! - the 64 × 64 → 128-bit product is formed from 32-bit halves: WebAssembly has no wide
//!   multiply, and the generic `u128` product is a call into a runtime routine.
//!
//! Longer inputs go to the crate's general function (more paths would not fit the module's
//! size budget).

use xxhash_rust::xxh3::xxh3_64_with_seed;

/// The first 64 bytes of XXH3's default secret as little-endian words: all that the paths
/// here read.
const SECRET: [u64; 8] = [
    0xbe4b_a423_396c_feb8,
    0x1cad_21f7_2c81_017c,
    0xdb97_9083_e96d_d4de,
    0x1f67_b3b7_a4a4_4072,
    0x78e5_c0cc_4ee6_79cb,
    0x2172_ffcc_7dd0_5a82,
    0x8e24_43f7_7446_08b8,
    0x4c26_3a81_e690_35e0,
];

const PRIME64_1: u64 = 0x9E37_79B1_85EB_CA87;
const PRIME64_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const PRIME64_3: u64 = 0x1656_67B1_9E37_79F9;
const PRIME_MX1: u64 = 0x1656_6791_9E37_79F9;
const PRIME_MX2: u64 = 0x9FB2_1C65_1E98_DF25;

/// XXH3-64 under one seed.
#[derive(Clone, Copy, Debug)]
pub struct Xxh3 {
    seed: u64,
    /// `mix[2 i] = SECRET[2 i] + seed`, `mix[2 i + 1] = SECRET[2 i + 1] - seed`: the keys of the
    /// 16-byte mixing step for the first two lanes, all that inputs of up to 32 bytes use.
    mix: [u64; 4],
    /// Keys of the 1–3, 4–8 and 9–16 byte paths.
    flip_1to3: u64,
    flip_4to8: u64,
    flip_9to16: (u64, u64),
}

impl Xxh3 {
    /// Prepares the keys for `seed`.
    pub fn new(seed: u64) -> Xxh3 {
        let mut mix = [0u64; 4];
        for (i, slot) in mix.iter_mut().enumerate() {
            *slot = if i % 2 == 0 { SECRET[i].wrapping_add(seed) } else { SECRET[i].wrapping_sub(seed) };
        }
        let seed_4to8 = seed ^ (u64::from((seed as u32).swap_bytes()) << 32);
        Xxh3 {
            seed,
            mix,
            flip_1to3: u64::from((SECRET[0] as u32) ^ ((SECRET[0] >> 32) as u32)).wrapping_add(seed),
            flip_4to8: (SECRET[1] ^ SECRET[2]).wrapping_sub(seed_4to8),
            flip_9to16: ((SECRET[3] ^ SECRET[4]).wrapping_add(seed), (SECRET[5] ^ SECRET[6]).wrapping_sub(seed)),
        }
    }

    /// The hash of `bytes`, as `xxh3_64_with_seed(bytes, seed)`.
    #[inline]
    pub fn bytes(&self, bytes: &[u8]) -> u64 {
        let len = bytes.len();
        match len {
            0 => xxh3_64_with_seed(bytes, self.seed),
            1..=3 => {
                let combined = u32::from(bytes[0]) << 16 | u32::from(bytes[len >> 1]) << 24 | u32::from(bytes[len - 1]) | (len as u32) << 8;
                xxh64_avalanche(u64::from(combined) ^ self.flip_1to3)
            }
            4..=8 => {
                let first = u64::from(read32(bytes, 0));
                let last = u64::from(read32(bytes, len - 4));
                self.four_to_eight(last.wrapping_add(first << 32), len as u64)
            }
            9..=16 => self.nine_to_sixteen(read64(bytes, 0), read64(bytes, len - 8), len as u64),
            _ => xxh3_64_with_seed(bytes, self.seed),
        }
    }

    /// The hash of the little-endian bytes of `units` back to back, as `xxh3_64_with_seed` of
    /// those `8 units.len()` bytes.
    #[inline]
    pub fn units(&self, units: &[u64]) -> u64 {
        let n = units.len();
        let len = 8 * n as u64;
        match n {
            // Eight bytes: the first four read as the low half of the unit, the last four as
            // its high half.
            1 => self.four_to_eight((units[0] >> 32).wrapping_add(units[0] << 32), len),
            2 => self.nine_to_sixteen(units[0], units[1], len),
            3 => self.units3(&[units[0], units[1], units[2]]),
            4 => self.units4(&[units[0], units[1], units[2], units[3]]),
            _ => {
                // Shingles are at most 64 units: through a stack buffer to the general function.
                let mut buffer = [0u8; 8 * 64];
                if n <= 64 {
                    for (chunk, unit) in buffer.chunks_exact_mut(8).zip(units) {
                        chunk.copy_from_slice(&unit.to_le_bytes());
                    }
                    xxh3_64_with_seed(&buffer[..8 * n], self.seed)
                } else {
                    let bytes: Vec<u8> = units.iter().flat_map(|unit| unit.to_le_bytes()).collect();
                    xxh3_64_with_seed(&bytes, self.seed)
                }
            }
        }
    }

    /// [`Xxh3::units`] of three units (24 bytes).
    #[inline(always)]
    pub fn units3(&self, units: &[u64; 3]) -> u64 {
        let mut acc = 24u64.wrapping_mul(PRIME64_1);
        acc = acc.wrapping_add(self.mix16(units[0], units[1], 0));
        acc = acc.wrapping_add(self.mix16(units[1], units[2], 1));
        avalanche(acc)
    }

    /// [`Xxh3::units`] of four units (32 bytes).
    #[inline(always)]
    pub fn units4(&self, units: &[u64; 4]) -> u64 {
        let mut acc = 32u64.wrapping_mul(PRIME64_1);
        acc = acc.wrapping_add(self.mix16(units[0], units[1], 0));
        acc = acc.wrapping_add(self.mix16(units[2], units[3], 1));
        avalanche(acc)
    }

    #[inline(always)]
    fn four_to_eight(&self, input: u64, len: u64) -> u64 {
        let mut h = input ^ self.flip_4to8;
        h ^= h.rotate_left(49) ^ h.rotate_left(24);
        h = h.wrapping_mul(PRIME_MX2);
        h ^= (h >> 35).wrapping_add(len);
        h = h.wrapping_mul(PRIME_MX2);
        h ^ (h >> 28)
    }

    #[inline(always)]
    fn nine_to_sixteen(&self, first: u64, last: u64, len: u64) -> u64 {
        let lo = first ^ self.flip_9to16.0;
        let hi = last ^ self.flip_9to16.1;
        avalanche(len.wrapping_add(lo.swap_bytes()).wrapping_add(hi).wrapping_add(fold(lo, hi)))
    }

    /// XXH3's 16-byte mixing step over `lo`, `hi` with the keys of secret lane `lane`.
    #[inline(always)]
    fn mix16(&self, lo: u64, hi: u64, lane: usize) -> u64 {
        fold(lo ^ self.mix[2 * lane], hi ^ self.mix[2 * lane + 1])
    }
}

/// The low and high halves of the 128-bit product `a × b`, exclusive-ored.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    // Four 32 × 32 → 64-bit products. `middle` gathers the cross terms' low halves with the
    // carry out of the low product; it cannot overflow (3 × (2^32 − 1) < 2^34).
    let (a_lo, a_hi) = (a & 0xFFFF_FFFF, a >> 32);
    let (b_lo, b_hi) = (b & 0xFFFF_FFFF, b >> 32);
    let lo_lo = a_lo * b_lo;
    let hi_lo = a_hi * b_lo;
    let lo_hi = a_lo * b_hi;
    let hi_hi = a_hi * b_hi;
    let middle = (lo_lo >> 32) + (hi_lo & 0xFFFF_FFFF) + (lo_hi & 0xFFFF_FFFF);
    let low = middle << 32 | (lo_lo & 0xFFFF_FFFF);
    let high = hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32);
    low ^ high
}

#[inline(always)]
fn avalanche(mut h: u64) -> u64 {
    h ^= h >> 37;
    h = h.wrapping_mul(PRIME_MX1);
    h ^ (h >> 32)
}

#[inline(always)]
fn xxh64_avalanche(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(PRIME64_2);
    h ^= h >> 29;
    h = h.wrapping_mul(PRIME64_3);
    h ^ (h >> 32)
}

#[inline(always)]
fn read32(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

#[inline(always)]
fn read64(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn fold_is_the_wide_product() {
        let mut rng = Rng::new(3);
        for _ in 0..100_000 {
            let (a, b) = (rng.next(), rng.next());
            let product = u128::from(a) * u128::from(b);
            assert_eq!(fold(a, b), product as u64 ^ (product >> 64) as u64);
        }
        assert_eq!(fold(u64::MAX, u64::MAX), {
            let p = u128::from(u64::MAX) * u128::from(u64::MAX);
            p as u64 ^ (p >> 64) as u64
        });
    }

    #[test]
    fn bytes_match_the_general_function() {
        let mut rng = Rng::new(5);
        for round in 0..20_000 {
            let seed = if round % 3 == 0 { 0 } else { rng.next() };
            let len = rng.below(40) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            assert_eq!(Xxh3::new(seed).bytes(&bytes), xxh3_64_with_seed(&bytes, seed), "len {}", len);
        }
    }

    #[test]
    fn units_match_the_general_function() {
        let mut rng = Rng::new(7);
        for round in 0..20_000 {
            let seed = if round % 3 == 0 { 0 } else { rng.next() };
            let n = 1 + rng.below(64) as usize;
            let units: Vec<u64> = (0..n).map(|_| rng.next()).collect();
            let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
            let hasher = Xxh3::new(seed);
            assert_eq!(hasher.units(&units), xxh3_64_with_seed(&bytes, seed), "{} units", n);
            if let Ok(three) = <&[u64; 3]>::try_from(&units[..]) {
                assert_eq!(hasher.units3(three), hasher.units(&units));
            }
            if let Ok(four) = <&[u64; 4]>::try_from(&units[..]) {
                assert_eq!(hasher.units4(four), hasher.units(&units));
            }
        }
    }
}
