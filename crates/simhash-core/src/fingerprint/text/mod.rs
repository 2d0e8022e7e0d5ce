//! From text to fingerprint: the text fingerprint specification, version 1 (README), from step 3
//! on. Normalisation (NFKC, lower case) and UTF-8 encoding happen before: this module takes the
//! encoded bytes.

mod classes;
mod distinct;
mod tokens;
mod xxh3;

pub use classes::{MARK, SEPARATOR, UNICODE_VERSION, UNSEGMENTED, WORD};
pub use tokens::{class_of, for_each_token, lowercase_ascii, sequence_length};

use crate::fingerprint::compute::compute;
use crate::Error;
use distinct::DistinctSet;
use xxh3::Xxh3;

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
    /// The unit hashes of the current text: a shingle is a window of them.
    units: Vec<u64>,
    /// Shingle hashes, when they must be kept.
    shingles: Vec<u64>,
    /// The distinct shingle hashes of binary weighting.
    distinct: DistinctSet,
    /// The hash of every one-byte unit (ASCII letters and digits), for the seed it was made
    /// with: character units and one-letter words then cost a load instead of a hash.
    ascii: Option<(u64, [u64; 128])>,
}

impl Scratch {
    /// The table of one-byte unit hashes for `hasher`'s seed.
    fn ascii_table(&mut self, hasher: &Xxh3, seed: u64) -> &[u64; 128] {
        if !matches!(self.ascii, Some((made_with, _)) if made_with == seed) {
            let mut table = [0u64; 128];
            for (b, slot) in table.iter_mut().enumerate() {
                *slot = hasher.bytes(&[b as u8]);
            }
            self.ascii = Some((seed, table));
        }
        match &self.ascii {
            Some((_, table)) => table,
            None => unreachable!("filled above"),
        }
    }
}

/// The hash of `unit`: from `ascii` when it is one byte (a one-byte UTF-8 unit is ASCII).
#[inline(always)]
fn unit_hash(unit: &[u8], hasher: &Xxh3, ascii: &[u64; 128]) -> u64 {
    if let [byte] = *unit {
        return ascii[usize::from(byte & 0x7F)];
    }
    hasher.bytes(unit)
}

/// The shingle hashes of `text` (step 7): in order with repeats for
/// [`Weighting::TermFrequency`], sorted and distinct for [`Weighting::Binary`].
///
/// # Errors
/// [`Error::InvalidShingleSize`] unless `options.size` is in `1..=64`; [`Error::OutOfMemory`]
/// if the unit or shingle hashes do not fit in memory.
pub fn features(text: &[u8], options: &TextOptions) -> Result<Vec<u64>, Error> {
    options.check()?;
    let hasher = Xxh3::new(options.seed);
    let mut scratch = Scratch::default();
    let mut out = Vec::new();
    unit_hashes(text, options, &hasher, &mut scratch)?;
    out.try_reserve_exact(shingle_count(scratch.units.len(), options)).map_err(|_| Error::OutOfMemory)?;
    push_shingles(&scratch.units, options, &hasher, &mut out);
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
    let hasher = Xxh3::new(options.seed);
    unit_hashes(text, options, &hasher, scratch)?;
    let shingles = &mut scratch.shingles;
    shingles.clear();
    shingles.try_reserve(shingle_count(scratch.units.len(), options)).map_err(|_| Error::OutOfMemory)?;
    push_shingles(&scratch.units, options, &hasher, shingles);
    shingles.iter().copied().for_each(feature);
    Ok(())
}

/// The word unit hashes of `text` (steps 5 and 6 with word units), in text order with
/// repeats, and the hasher that makes shingles of them: one tokenisation for a consumer that
/// needs shingles of several sizes (the adaptive decision takes words and word pairs).
///
/// # Errors
/// [`Error::OutOfMemory`] if the unit hashes do not fit in memory.
pub fn word_units<'a>(text: &[u8], seed: u64, scratch: &'a mut Scratch) -> Result<(&'a [u64], ShingleHasher), Error> {
    let options = TextOptions { unit: Unit::Word, size: 1, weighting: Weighting::TermFrequency, seed };
    let hasher = Xxh3::new(seed);
    unit_hashes(text, &options, &hasher, scratch)?;
    Ok((&scratch.units, ShingleHasher(hasher)))
}

/// Hashes windows of unit hashes as step 7 does, for [`word_units`].
pub struct ShingleHasher(Xxh3);

impl ShingleHasher {
    /// The shingle hash of `units` (xxh3 of their little-endian bytes back to back).
    #[inline]
    pub fn shingle(&self, units: &[u64]) -> u64 {
        self.0.units(units)
    }

    /// The unit hash of a token's UTF-8 bytes (step 6), as [`word_units`] hashes it.
    #[inline]
    pub fn unit(&self, bytes: &[u8]) -> u64 {
        self.0.bytes(bytes)
    }
}

/// The fingerprint of `text` (step 8); 0 for a text without shingles.
///
/// # Errors
/// As [`features`].
pub fn fingerprint(text: &[u8], options: &TextOptions, scratch: &mut Scratch) -> Result<u64, Error> {
    options.check()?;
    fingerprint_with(text, options, &Xxh3::new(options.seed), scratch)
}

/// [`fingerprint`] with checked options and a prepared hasher.
fn fingerprint_with(text: &[u8], options: &TextOptions, hasher: &Xxh3, scratch: &mut Scratch) -> Result<u64, Error> {
    unit_hashes(text, options, hasher, scratch)?;
    let shingles = &mut scratch.shingles;
    shingles.clear();
    shingles.try_reserve(shingle_count(scratch.units.len(), options)).map_err(|_| Error::OutOfMemory)?;
    push_shingles(&scratch.units, options, hasher, shingles);
    if options.weighting == Weighting::Binary {
        // The fold counts bits, so the order of the distinct values does not matter: a set
        // that keeps first occurrences replaces the sort.
        let distinct = &mut scratch.distinct;
        distinct.reset(shingles.len())?;
        shingles.retain(|&hash| distinct.insert(hash));
    }
    Ok(compute(shingles))
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
    crate::fingerprint::check_offsets(offsets, texts.len())?;
    let hasher = Xxh3::new(options.seed);
    let mut scratch = Scratch::default();
    for (slot, window) in out.iter_mut().zip(offsets.windows(2)) {
        *slot = fingerprint_with(&texts[window[0] as usize..window[1] as usize], options, &hasher, &mut scratch)?;
    }
    Ok(())
}

/// Steps 5 and 6: the hash of every unit, into `scratch.units`.
///
/// Room for the units is reserved fallibly, once: a text has at most one unit per byte, and a
/// text of hundreds of megabytes must give [`Error::OutOfMemory`], never an allocation failure
/// (which aborts).
fn unit_hashes(text: &[u8], options: &TextOptions, hasher: &Xxh3, scratch: &mut Scratch) -> Result<(), Error> {
    let mut units = core::mem::take(&mut scratch.units);
    units.clear();
    if units.try_reserve(text.len()).is_err() {
        return Err(Error::OutOfMemory);
    }
    let ascii = scratch.ascii_table(hasher, options.seed);
    match options.unit {
        Unit::Word => for_each_token(text, |start, end| units.push(unit_hash(&text[start..end], hasher, ascii))),
        Unit::Char => for_each_token(text, |start, end| {
            let token = &text[start..end];
            if token.is_ascii() {
                units.extend(token.iter().map(|&b| ascii[usize::from(b & 0x7F)]));
                return;
            }
            let mut i = start;
            while i < end {
                let length = tokens::sequence_length(text, i);
                units.push(unit_hash(&text[i..i + length], hasher, ascii));
                i += length;
            }
        }),
    }
    scratch.units = units;
    Ok(())
}

/// How many shingles [`push_shingles`] makes of `count` units.
fn shingle_count(count: usize, options: &TextOptions) -> usize {
    match count {
        0 => 0,
        _ if count < options.size as usize => 1,
        _ => count - options.size as usize + 1,
    }
}

/// Step 7: appends to `out` the hash of every window of `size` units (or of all units when
/// there are fewer). `out` must have room for [`shingle_count`] more.
fn push_shingles(units: &[u64], options: &TextOptions, hasher: &Xxh3, out: &mut Vec<u64>) {
    let size = options.size as usize;
    if units.is_empty() {
        return;
    }
    if units.len() < size {
        out.push(hasher.units(units));
        return;
    }
    // The default sizes get loops of their own, where the hash's length dispatch is decided
    // once (about 5 % of the time of a text).
    match size {
        3 => out.extend(units.windows(3).map(|w| hasher.units3(&[w[0], w[1], w[2]]))),
        4 => out.extend(units.windows(4).map(|w| hasher.units4(&[w[0], w[1], w[2], w[3]]))),
        _ => out.extend(units.windows(size).map(|w| hasher.units(w))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xxhash_rust::xxh3::xxh3_64_with_seed;

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
