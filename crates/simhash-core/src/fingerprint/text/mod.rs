//! From text to fingerprint: the text fingerprint specification, version 1 (README), from step 3
//! on. Normalisation (NFKC, lower case) and UTF-8 encoding happen before: this module takes the
//! encoded bytes.

mod classes;
mod tokens;

pub use classes::{MARK, SEPARATOR, UNICODE_VERSION, UNSEGMENTED, WORD};
pub use tokens::{class_of, for_each_token};

use crate::fingerprint::compute::{compute, Fold};
use crate::Error;
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// The version of the specification this module implements.
pub const TEXT_FINGERPRINT_VERSION: u32 = 1;

/// What a shingle is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Tokens.
    Word,
    /// Code points of the tokens, with nothing between tokens.
    Char,
}

/// How shingles count towards the fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighting {
    /// Every occurrence counts.
    TermFrequency,
    /// Each distinct shingle hash counts once.
    Binary,
}

/// The parameters of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextOptions {
    pub unit: Unit,
    /// Units per shingle, in `1..=64`.
    pub size: u32,
    pub weighting: Weighting,
    /// The xxh3 seed.
    pub seed: u64,
}

impl TextOptions {
    fn check(&self) -> Result<(), Error> {
        if self.size == 0 || self.size > 64 {
            return Err(Error::InvalidShingleSize { size: self.size });
        }
        Ok(())
    }
}

/// Buffers reused from one text to the next.
#[derive(Default)]
pub struct Scratch {
    /// The unit hashes of the current text, little-endian, back to back: a shingle is a window.
    units: Vec<u8>,
    /// Shingle hashes, when they must be kept.
    shingles: Vec<u64>,
    /// The hash of every one-byte unit (ASCII letters and digits), for the seed it was made
    /// with: character units and one-letter words then cost a load instead of a hash.
    ascii: Option<(u64, [u64; 128])>,
}

impl Scratch {
    /// The hash of `unit` with `seed`.
    #[inline]
    fn unit_hash(&mut self, unit: &[u8], seed: u64) -> u64 {
        if let [byte] = *unit {
            let table = match self.ascii {
                Some((made_with, ref table)) if made_with == seed => table,
                _ => {
                    let mut table = [0u64; 128];
                    for (b, slot) in table.iter_mut().enumerate() {
                        *slot = xxh3_64_with_seed(&[b as u8], seed);
                    }
                    &self.ascii.insert((seed, table)).1
                }
            };
            // A one-byte UTF-8 unit is ASCII.
            return table[usize::from(byte & 0x7F)];
        }
        xxh3_64_with_seed(unit, seed)
    }
}

/// The shingle hashes of `text` (step 7): in order with repeats for
/// [`Weighting::TermFrequency`], sorted and distinct for [`Weighting::Binary`].
///
/// # Errors
/// [`Error::InvalidShingleSize`] unless `options.size` is in `1..=64`; [`Error::OutOfMemory`]
/// if the unit or shingle hashes do not fit in memory.
pub fn features(text: &[u8], options: &TextOptions) -> Result<Vec<u64>, Error> {
    options.check()?;
    let mut scratch = Scratch::default();
    let mut out = Vec::new();
    unit_hashes(text, options, &mut scratch)?;
    out.try_reserve_exact(shingle_count(&scratch.units, options)).map_err(|_| Error::OutOfMemory)?;
    for_each_shingle(&scratch.units, options, |hash| out.push(hash));
    if options.weighting == Weighting::Binary {
        out.sort_unstable();
        out.dedup();
    }
    Ok(out)
}

/// Calls `feature` with every shingle hash of `text` (step 7) in order, with repeats: the
/// features of [`features`] for a consumer that needs neither order nor distinctness (MinHash),
/// without sorting or keeping them.
///
/// # Errors
/// As [`features`].
pub fn for_each_feature(text: &[u8], options: &TextOptions, scratch: &mut Scratch, feature: impl FnMut(u64)) -> Result<(), Error> {
    options.check()?;
    unit_hashes(text, options, scratch)?;
    for_each_shingle(&scratch.units, options, feature);
    Ok(())
}

/// The fingerprint of `text` (step 8); 0 for a text without shingles.
///
/// # Errors
/// As [`features`].
pub fn fingerprint(text: &[u8], options: &TextOptions, scratch: &mut Scratch) -> Result<u64, Error> {
    options.check()?;
    unit_hashes(text, options, scratch)?;
    Ok(match options.weighting {
        Weighting::TermFrequency => {
            let mut fold = Fold::default();
            for_each_shingle(&scratch.units, options, |hash| fold.push(hash));
            fold.finish()
        }
        Weighting::Binary => {
            let shingles = &mut scratch.shingles;
            shingles.clear();
            shingles.try_reserve(shingle_count(&scratch.units, options)).map_err(|_| Error::OutOfMemory)?;
            for_each_shingle(&scratch.units, options, |hash| shingles.push(hash));
            shingles.sort_unstable();
            shingles.dedup();
            compute(shingles)
        }
    })
}

/// One fingerprint per text: text `d` is `texts[offsets[d]..offsets[d + 1]]`, so
/// `offsets.len() - 1` fingerprints (none for empty `offsets`) are written to `out`.
///
/// # Errors
/// As [`features`]; [`Error::InvalidOffsets`] if `offsets` decreases or points past `texts`;
/// [`Error::LengthMismatch`] unless `out` has one slot per text.
pub fn fingerprint_many(texts: &[u8], offsets: &[u32], options: &TextOptions, out: &mut [u64]) -> Result<(), Error> {
    options.check()?;
    if out.len() != offsets.len().saturating_sub(1) {
        return Err(Error::LengthMismatch);
    }
    let mut previous = 0usize;
    for &offset in offsets {
        let offset = offset as usize;
        if offset < previous || offset > texts.len() {
            return Err(Error::InvalidOffsets);
        }
        previous = offset;
    }
    let mut scratch = Scratch::default();
    for (slot, window) in out.iter_mut().zip(offsets.windows(2)) {
        *slot = fingerprint(&texts[window[0] as usize..window[1] as usize], options, &mut scratch)?;
    }
    Ok(())
}

/// Steps 5 and 6: the hash of every unit, written little-endian into `scratch.units`.
///
/// Room for the units is reserved fallibly: a text of hundreds of megabytes must give
/// [`Error::OutOfMemory`], never an allocation failure (which aborts).
fn unit_hashes(text: &[u8], options: &TextOptions, scratch: &mut Scratch) -> Result<(), Error> {
    let mut units = core::mem::take(&mut scratch.units);
    units.clear();
    let seed = options.seed;
    let mut out_of_memory = false;
    let mut push = |units: &mut Vec<u8>, hash: u64| {
        if units.len() == units.capacity() && units.try_reserve(units.len().max(64)).is_err() {
            out_of_memory = true;
            return;
        }
        units.extend_from_slice(&hash.to_le_bytes());
    };
    match options.unit {
        Unit::Word => for_each_token(text, |start, end| {
            let hash = scratch.unit_hash(&text[start..end], seed);
            push(&mut units, hash);
        }),
        Unit::Char => for_each_token(text, |start, end| {
            let mut i = start;
            while i < end {
                let (_, length) = tokens::decode(text, i);
                let hash = scratch.unit_hash(&text[i..i + length], seed);
                push(&mut units, hash);
                i += length;
            }
        }),
    }
    scratch.units = units;
    if out_of_memory {
        return Err(Error::OutOfMemory);
    }
    Ok(())
}

/// How many shingles [`for_each_shingle`] makes of `units`.
fn shingle_count(units: &[u8], options: &TextOptions) -> usize {
    let count = units.len() / 8;
    match count {
        0 => 0,
        _ if count < options.size as usize => 1,
        _ => count - options.size as usize + 1,
    }
}

/// Step 7: calls `shingle` with the hash of every window of `size` units (or of all units when
/// there are fewer).
fn for_each_shingle(units: &[u8], options: &TextOptions, mut shingle: impl FnMut(u64)) {
    let count = units.len() / 8;
    let size = options.size as usize;
    if count == 0 {
        return;
    }
    if count < size {
        shingle(xxh3_64_with_seed(units, options.seed));
        return;
    }
    for start in 0..=count - size {
        shingle(xxh3_64_with_seed(&units[8 * start..8 * (start + size)], options.seed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: TextOptions = TextOptions { unit: Unit::Word, size: 3, weighting: Weighting::TermFrequency, seed: 0 };

    fn unit(s: &str, seed: u64) -> [u8; 8] {
        xxh3_64_with_seed(s.as_bytes(), seed).to_le_bytes()
    }

    #[test]
    fn shingles_follow_the_specification() {
        let got = features(b"The cat, the CAT sat", &WORDS).unwrap();
        let units: Vec<[u8; 8]> = ["The", "cat", "the", "CAT", "sat"].iter().map(|w| unit(w, 0)).collect();
        let expected: Vec<u64> = (0..3).map(|j| xxh3_64_with_seed(&units[j..j + 3].concat(), 0)).collect();
        assert_eq!(got, expected);
        // Fewer units than the size: one shingle over all of them.
        assert_eq!(features(b"two words", &WORDS).unwrap(), vec![xxh3_64_with_seed(&[unit("two", 0), unit("words", 0)].concat(), 0)]);
        assert_eq!(features(b" ... ", &WORDS).unwrap(), Vec::<u64>::new());
    }

    #[test]
    fn char_units_skip_separators() {
        let options = TextOptions { unit: Unit::Char, size: 2, ..WORDS };
        assert_eq!(features(b"a b", &options).unwrap(), features(b"ab", &options).unwrap());
        let expected = xxh3_64_with_seed(&[unit("a", 7), unit("\u{e9}", 7)].concat(), 7);
        assert_eq!(features("a\u{e9}".as_bytes(), &TextOptions { seed: 7, ..options }).unwrap(), vec![expected]);
    }

    #[test]
    fn fingerprints_fold_shingles() {
        let text = b"one two three two three two three four";
        let all = features(text, &WORDS).unwrap();
        let mut scratch = Scratch::default();
        assert_eq!(fingerprint(text, &WORDS, &mut scratch).unwrap(), compute(&all));
        let binary = TextOptions { weighting: Weighting::Binary, ..WORDS };
        let mut distinct = all.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(features(text, &binary).unwrap(), distinct);
        assert_eq!(fingerprint(text, &binary, &mut scratch).unwrap(), compute(&distinct));
        assert_eq!(fingerprint(b"", &WORDS, &mut scratch).unwrap(), 0);
    }

    #[test]
    fn many_matches_one_by_one() {
        let texts = ["first text here", "", "second text, here!", "中文字"];
        let joined: Vec<u8> = texts.concat().into_bytes();
        let mut offsets = vec![0u32];
        for t in &texts {
            offsets.push(offsets.last().unwrap() + t.len() as u32);
        }
        let mut out = vec![0; texts.len()];
        fingerprint_many(&joined, &offsets, &WORDS, &mut out).unwrap();
        let mut scratch = Scratch::default();
        for (t, f) in texts.iter().zip(&out) {
            assert_eq!(*f, fingerprint(t.as_bytes(), &WORDS, &mut scratch).unwrap());
        }
        assert_eq!(fingerprint_many(&joined, &[0, 99], &WORDS, &mut [0]), Err(Error::InvalidOffsets));
        let bad = TextOptions { size: 0, ..WORDS };
        assert_eq!(features(b"x", &bad), Err(Error::InvalidShingleSize { size: 0 }));
    }
}
