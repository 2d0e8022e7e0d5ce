//! Multi-index hashing (Norouzi, Punjani and Fleet) with the thresholds of the generalised
//! pigeonhole principle (Qin et al.): the second filter family, built for the larger
//! distances where permuted tables need thousands of tables.
//!
//! The 64 bits are split into `m` contiguous *parts*, as blocks are (part `i` covers bits
//! `floor(64 i / m) ..= floor(64 (i + 1) / m) - 1`). Each part gets a *slack* `s_i >= 0`, with
//! `sum s_i = distance + 1`: the `distance + 1` are shared out as evenly as possible, the
//! remainder going to the last (widest) parts. Two fingerprints within `distance` bits differ in
//! fewer than `s_i` bits of at least one part `i` (were they to differ in `s_i` or more bits of
//! every part, they would differ in at least `distance + 1`). A part with slack 0 is never
//! searched; one with slack `s` is searched by probing its table with every key within `s - 1`
//! bits of the query's key (a Hamming ball).
//!
//! A pair is reported by the first part, in part order, in which it qualifies (differs in fewer
//! than the slack), so each pair is found once and the parts are independent of one another.

use crate::Error;

/// Widest key a part's table is bucketed on: 2^24 bucket starts cost 64 MiB.
pub const MAX_KEY_BITS: u32 = 24;

/// One part: a contiguous range of bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// Lowest bit of the part.
    pub low: u32,
    /// Number of bits, `1..=64`.
    pub width: u32,
    mask: u64,
}

/// Per part, how many differing bits a pair may have there and still qualify, plus one:
/// a pair qualifies in part `i` when it differs there in fewer than `slack[i]` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slack {
    values: [u8; 64],
}

impl Slack {
    /// `distance + 1` shared out over `parts` parts: `q` each, one more for the last `r`, where
    /// `distance + 1 = q parts + r`.
    #[inline(never)]
    pub fn new(parts: u32, distance: u32) -> Slack {
        let mut values = [0u8; 64];
        let total = distance + 1;
        let (q, r) = (total / parts, total % parts);
        for (i, v) in values.iter_mut().enumerate().take(parts as usize) {
            *v = (q + u32::from(i as u32 >= parts - r)) as u8;
        }
        Slack { values }
    }

    /// The slack of part `part`.
    #[inline]
    pub fn of(&self, part: usize) -> u32 {
        u32::from(self.values[part])
    }
}

/// The parts and slacks for one `(parts, distance)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartLayout {
    distance: u32,
    parts: Vec<Part>,
    slack: Slack,
}

impl PartLayout {
    /// The layout of `parts` parts for pairs within `distance` bits.
    ///
    /// # Errors
    /// [`Error::DistanceTooLarge`] if `distance > 64`; [`Error::InvalidParts`] unless
    /// `1 <= parts <= 64`.
    pub fn new(parts: u32, distance: u32) -> Result<PartLayout, Error> {
        if distance > 64 {
            return Err(Error::DistanceTooLarge { distance });
        }
        if parts == 0 || parts > 64 {
            return Err(Error::InvalidParts { parts });
        }
        let list = (0..parts)
            .map(|i| {
                let low = 64 * i / parts;
                let width = 64 * (i + 1) / parts - low;
                Part { low, width, mask: (u64::MAX >> (64 - width)) << low }
            })
            .collect();
        Ok(PartLayout { distance, parts: list, slack: Slack::new(parts, distance) })
    }

    /// Number of parts.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether there are no parts (never: a layout has at least one).
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The parts, lowest bits first.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// Largest distance the layout finds every pair for.
    pub fn distance(&self) -> u32 {
        self.distance
    }

    /// The slacks for pairs within the layout's distance.
    pub fn slack(&self) -> &Slack {
        &self.slack
    }

    /// Part `part` of `value`, moved to the top bits (the rest clear).
    #[inline]
    pub fn key(&self, part: usize, value: u64) -> u64 {
        let p = self.parts[part];
        ((value & p.mask) >> p.low) << (64 - p.width)
    }

    /// Whether a pair whose xor is `difference` qualifies in part `part` under `slack` and in
    /// no earlier part: so that each pair is reported by exactly one part.
    #[inline]
    pub fn first_to_qualify(&self, part: usize, difference: u64, slack: &Slack) -> bool {
        let qualifies = |i: usize| (difference & self.parts[i].mask).count_ones() < slack.of(i);
        qualifies(part) && !(0..part).any(qualifies)
    }
}

/// Bits a part's table is bucketed on for `n` fingerprints: the part's width, but no more than
/// log2(n) (a bucket then holds about one fingerprint, and wider keys only add probes) nor
/// [`MAX_KEY_BITS`].
pub fn key_bits(width: u32, n: usize) -> u32 {
    let log2 = usize::BITS - 1 - n.max(2).leading_zeros();
    width.min(log2).min(MAX_KEY_BITS)
}

/// Every mask of `bits` bits (`bits <= 32`) with at most `radius` bits set, fewest bits first
/// (the empty mask first), in increasing order within each count.
pub struct Ball {
    bits: u32,
    radius: u32,
    /// Bits set in `next`.
    ones: u32,
    /// The mask to hand out next, or `None` when all were.
    next: Option<u64>,
}

impl Ball {
    /// The ball of `radius` around 0 in `bits`-bit keys.
    pub fn new(bits: u32, radius: u32) -> Ball {
        Ball { bits, radius: radius.min(bits), ones: 0, next: Some(0) }
    }
}

impl Iterator for Ball {
    type Item = u64;

    // Out of line: a probe costs far more than the call, and inlined copies cost .wasm size.
    #[inline(never)]
    fn next(&mut self) -> Option<u64> {
        let mask = self.next?;
        let following = if mask == 0 {
            None
        } else {
            // The next larger value with as many bits set (Gosper's hack, shifting by the
            // lowest bit's position rather than dividing by it).
            let lowest = mask & mask.wrapping_neg();
            let ripple = mask + lowest;
            Some(ripple | (((ripple ^ mask) >> 2) >> lowest.trailing_zeros())).filter(|f| f >> self.bits == 0)
        };
        self.next = match following {
            Some(f) => Some(f),
            None if self.ones < self.radius => {
                self.ones += 1;
                Some((1u64 << self.ones) - 1)
            }
            None => None,
        };
        Some(mask)
    }
}

/// Number of masks of `bits` bits with at most `radius` set, saturating.
#[cfg(test)]
fn ball_volume(bits: u32, radius: u32) -> u64 {
    (0..=radius.min(bits)).fold(0u64, |sum, r| sum.saturating_add(crate::search::layout::binomial(u64::from(bits), u64::from(r))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn slack_sums_to_distance_plus_one() {
        for parts in 1..=64 {
            for distance in 0..=64 {
                let slack = Slack::new(parts, distance);
                let total: u32 = (0..parts as usize).map(|i| slack.of(i)).sum();
                assert_eq!(total, distance + 1);
                let (low, high) = (slack.of(0), slack.of(parts as usize - 1));
                assert!(high - low <= 1);
            }
        }
        assert_eq!((0..4).map(|i| Slack::new(4, 10).of(i)).collect::<Vec<_>>(), vec![2, 3, 3, 3]);
    }

    #[test]
    fn parts_cover_the_bits_once() {
        for parts in 1..=64 {
            let layout = PartLayout::new(parts, 3).unwrap();
            let union = layout.parts().iter().fold(0u64, |acc, p| {
                assert_eq!(acc & p.mask, 0);
                acc | p.mask
            });
            assert_eq!(union, u64::MAX);
            for (i, p) in layout.parts().iter().enumerate() {
                assert_eq!(layout.key(i, u64::MAX), u64::MAX << (64 - p.width));
            }
        }
        assert_eq!(PartLayout::new(0, 3), Err(Error::InvalidParts { parts: 0 }));
        assert_eq!(PartLayout::new(65, 3), Err(Error::InvalidParts { parts: 65 }));
        assert_eq!(PartLayout::new(4, 65), Err(Error::DistanceTooLarge { distance: 65 }));
    }

    #[test]
    fn balls_hold_every_mask_once() {
        for bits in [1, 2, 5, 9] {
            for radius in 0..=bits + 1 {
                let masks: Vec<u64> = Ball::new(bits, radius).collect();
                let mut expected: Vec<u64> = (0..1u64 << bits).filter(|m| m.count_ones() <= radius).collect();
                assert_eq!(masks.len() as u64, ball_volume(bits, radius));
                expected.sort_by_key(|m| (m.count_ones(), *m));
                assert_eq!(masks, expected, "bits {} radius {}", bits, radius);
            }
        }
    }

    #[test]
    fn every_close_pair_qualifies_first_in_exactly_one_part() {
        let mut rng = Rng::new(19);
        for parts in [1, 2, 3, 4, 5, 7, 11, 64] {
            for distance in [0, 1, 3, 6, 10, 16, 40, 64] {
                let layout = PartLayout::new(parts, distance).unwrap();
                for _ in 0..200 {
                    let mut difference = 0u64;
                    for _ in 0..rng.below(u64::from(distance) + 1) {
                        difference |= 1 << rng.below(64);
                    }
                    let firsts = (0..layout.len()).filter(|&u| layout.first_to_qualify(u, difference, layout.slack())).count();
                    assert_eq!(firsts, 1, "parts {} distance {} difference {:x}", parts, distance, difference);
                }
            }
        }
    }
}
