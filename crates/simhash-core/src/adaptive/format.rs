//! The byte format of a saved text index, version 3. All integers little-endian; columns follow
//! a 36-byte header and a CRC-32 (zlib's) of every byte before it ends the file:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `89 53 48 54 58 54 0D 0A` (`\x89SHTXT\r\n`) |
//! | 2 | format version, 3 |
//! | 1 | rule: 0 specification v3, 1 v3 removing template siblings |
//! | 1 | 0 |
//! | 4 each | V words, K typo keys, n texts, W words of texts, S shape entries, G signatures |
//! | 8 V, 4 V, V, 4 V | per word: unit hash, base, kind (0 heavy, 1 light, 2 a bare number), end of its keys |
//! | 8 K | keys: a word's typo keys, a bare number's one key its packed digits |
//! | 4 n, n, n | per text: id, state (0 removed as a near-duplicate, 1 kept, 2 kept then removed), kind |
//! | 4 n, 4 W | per text: end of its words; word ids (distinct, ascending per text) |
//! | 4 n, 2 S | per text: end of its shape; shape entries |
//! | 4 n, 512 G | per text: its signature's number or `0xFFFFFFFF`; signatures (128 values each) |
//!
//! Texts are in the order they were taken. Only what the texts are is stored, never the lists
//! built over them: loading takes the texts again, so the bytes cannot make the index answer
//! differently from the one saved, and every field the checksum cannot vouch for is checked.

use super::lines::KEYED_WORDS;
use super::shape::{HYPHEN, OVERFLOW, REPEAT};
use super::sketch::{TextSketches, NO_SIGNATURE};
use super::numbers::{self, NOT_A_NUMBER};
use super::vocabulary::Vocabulary;
use super::{insertion_sort, Kind, NUM_PERM, SHORT_WORDS};
use crate::crc32::crc32;
use crate::error::{Error, FormatError};

/// The first 8 bytes, made as the SimHash index's are.
const MAGIC: [u8; 8] = [0x89, b'S', b'H', b'T', b'X', b'T', b'\r', b'\n'];
const VERSION: u16 = 3;
/// A word's kind in the file: a bare number, whose one key is its packed digits.
const NUMBER: u8 = 2;
const HEADER_BYTES: usize = 36;

/// A saved index, decoded.
pub(super) struct Decoded {
    pub(super) sketches: TextSketches,
    pub(super) templates: bool,
    pub(super) ids: Vec<u32>,
    pub(super) states: Vec<u8>,
}

fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<(), Error> {
    v.try_reserve(additional).map_err(|_| Error::OutOfMemory)
}

#[inline(never)]
fn put<const N: usize, T: Copy>(out: &mut Vec<u8>, values: &[T], bytes: fn(T) -> [u8; N]) {
    values.iter().for_each(|&v| out.extend_from_slice(&bytes(v)));
}

/// `sketches` and, per text, its id and state, as bytes.
pub(super) fn encode(sketches: &TextSketches, templates: bool, ids: &[u32], states: &[u8]) -> Result<Vec<u8>, Error> {
    let v = &sketches.vocabulary;
    let n = sketches.len();
    let words = v.len() as u64;
    let numbered = |id: usize| v.number[id] != NOT_A_NUMBER;
    let keys = v.typo_keys.len() + (0..v.len()).filter(|&id| numbered(id)).count();
    let length = HEADER_BYTES as u64 + 17 * words + 8 * keys as u64 + 18 * n as u64 + 4 * sketches.words.len() as u64 + 2 * sketches.shapes.len() as u64 + 4 * sketches.signatures.len() as u64 + 4;
    let mut out = Vec::new();
    reserve(&mut out, usize::try_from(length).map_err(|_| Error::OutOfMemory)?)?;
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[u8::from(templates), 0]);
    let counts = [v.len(), keys, n, sketches.words.len(), sketches.shapes.len(), sketches.signatures.len() / NUM_PERM];
    counts.iter().for_each(|&c| out.extend_from_slice(&(c as u32).to_le_bytes()));
    put(&mut out, &v.hash, u64::to_le_bytes);
    put(&mut out, &v.base, u32::to_le_bytes);
    out.extend((0..v.len()).map(|id| if numbered(id) { NUMBER } else { u8::from(v.light[id]) }));
    let mut end = 0u32;
    for id in 0..v.len() {
        end += v.typo_keys(id as u32).len() as u32 + u32::from(numbered(id));
        out.extend_from_slice(&end.to_le_bytes());
    }
    for id in 0..v.len() {
        if numbered(id) {
            out.extend_from_slice(&v.number[id].to_le_bytes());
        } else {
            put(&mut out, v.typo_keys(id as u32), u64::to_le_bytes);
        }
    }
    put(&mut out, ids, u32::to_le_bytes);
    out.extend_from_slice(states);
    out.extend_from_slice(&sketches.kinds);
    put(&mut out, &sketches.word_end, u32::to_le_bytes);
    put(&mut out, &sketches.words, u32::to_le_bytes);
    put(&mut out, &sketches.shape_end, u32::to_le_bytes);
    put(&mut out, &sketches.shapes, u16::to_le_bytes);
    put(&mut out, &sketches.signature_of, u32::to_le_bytes);
    put(&mut out, &sketches.signatures, u32::to_le_bytes);
    let checksum = crc32(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    Ok(out)
}

/// Reads columns off the bytes after the header.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> &'a [u8] {
        let (head, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        head
    }

    #[inline(never)]
    fn column<const N: usize, T>(&mut self, count: usize, from: fn([u8; N]) -> T) -> Result<Vec<T>, Error> {
        let mut out = Vec::new();
        reserve(&mut out, count)?;
        out.extend(self.take(N * count).chunks_exact(N).map(|c| from(c.try_into().unwrap_or([0; N]))));
        Ok(out)
    }
}

impl TextSketches {
    /// The sketches as bytes (the text index format, every text under id 0 in state 0), for
    /// [`TextSketches::append`] in another instance: how workers hand what they sketched to the
    /// one thread that decides.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`].
    pub fn export(&self) -> Result<Vec<u8>, Error> {
        let (mut ids, mut states) = (Vec::new(), Vec::new());
        reserve(&mut ids, self.len())?;
        reserve(&mut states, self.len())?;
        ids.resize(self.len(), 0u32);
        states.resize(self.len(), 0u8);
        encode(self, false, &ids, &states)
    }

    /// Appends the texts of sketches [`TextSketches::export`] made, after those added before:
    /// appending the exports of a stream's pieces in order gives what adding the stream gives.
    ///
    /// # Errors
    /// [`Error::Format`] for bytes that are not exported sketches; [`Error::TooManyElements`];
    /// [`Error::OutOfMemory`]. A call that fails adds no text.
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), Error> {
        append(self, bytes)
    }

}

/// Appends to `sketches` the texts of `bytes` (saved sketches, as [`TextSketches::export`] makes
/// them): their words join the vocabulary in the order they came, each word set is renumbered
/// and sorted again, and each shape renumbered with it, so that sketching a stream in pieces and
/// appending them in order gives what sketching it whole gives.
fn append(sketches: &mut TextSketches, bytes: &[u8]) -> Result<(), Error> {
    let part = decode(bytes)?.sketches;
    let before = sketches.len();
    let result = append_decoded(sketches, &part);
    if result.is_err() {
        sketches.truncate(before);
    }
    result
}

fn append_decoded(sketches: &mut TextSketches, part: &TextSketches) -> Result<(), Error> {
    let v = &part.vocabulary;
    let mut global = Vec::new();
    reserve(&mut global, v.len())?;
    for id in 0..v.len() {
        let base = v.base[id] as usize;
        let base = if base == id { u32::MAX } else { global[base] };
        global.push(sketches.vocabulary.insert_parts(v.hash[id], base, v.light[id], v.number[id], v.typo_keys(id as u32))?);
    }
    let mut words: Vec<(u32, u8)> = Vec::new();
    let mut position = [0u8; KEYED_WORDS];
    let mut shape = Vec::new();
    let mut ids = Vec::new();
    for i in 0..part.len() {
        words.clear();
        words.extend(part.words[part.word_range(i)].iter().enumerate().map(|(p, &w)| (global[w as usize], p as u8)));
        insertion_sort(&mut words);
        shape.clear();
        shape.extend_from_slice(part.shape(i));
        if words.len() <= KEYED_WORDS && shape != [OVERFLOW] {
            for (new, &(_, old)) in words.iter().enumerate() {
                position[usize::from(old)] = new as u8;
            }
            let at = |p: u16| u16::from(position[usize::from(p & 0x1F)]);
            for e in shape.iter_mut() {
                *e = if *e & REPEAT != 0 {
                    REPEAT | at(*e >> 10) << 10 | (*e & 0x3FF)
                } else {
                    let j = *e >> 5 & 0x1F;
                    at(*e >> 10) << 10 | (if j == HYPHEN { HYPHEN } else { at(j) }) << 5 | at(*e)
                };
            }
            insertion_sort(&mut shape);
        }
        ids.clear();
        ids.extend(words.iter().map(|&(w, _)| w));
        sketches.push_sketch(part.kinds[i], &ids, &shape, part.signature(i))?;
    }
    Ok(())
}

/// Whether `ends` never decreases and ends at `total`.
fn ends_fit(ends: &[u32], total: usize) -> bool {
    ends.windows(2).all(|w| w[0] <= w[1]) && ends.last().map_or(0, |&e| e as usize) == total
}

/// Checks and decodes `bytes`: magic, version, length, checksum, then every field.
///
/// # Errors
/// [`Error::Format`] with the first problem found; [`Error::OutOfMemory`].
pub(super) fn decode(bytes: &[u8]) -> Result<Decoded, Error> {
    let fail = |problem| Err(Error::Format(problem));
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return fail(FormatError::Magic);
    }
    if bytes.len() < HEADER_BYTES + 4 {
        return fail(FormatError::Length);
    }
    if u16::from_le_bytes([bytes[8], bytes[9]]) != VERSION {
        return fail(FormatError::Version);
    }
    let count = |i: usize| u32::from_le_bytes([bytes[12 + 4 * i], bytes[13 + 4 * i], bytes[14 + 4 * i], bytes[15 + 4 * i]]) as usize;
    let (v, k, n, w, s, g) = (count(0), count(1), count(2), count(3), count(4), count(5));
    let length = HEADER_BYTES as u64 + 17 * v as u64 + 8 * k as u64 + 18 * n as u64 + 4 * w as u64 + 2 * s as u64 + 4 * NUM_PERM as u64 * g as u64 + 4;
    if bytes.len() as u64 != length {
        return fail(FormatError::Length);
    }
    let (body, stored) = bytes.split_at(bytes.len() - 4);
    if crc32(body) != u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]) {
        return fail(FormatError::Checksum);
    }
    if bytes[10] > 1 || bytes[11] != 0 {
        return fail(FormatError::Header);
    }
    let mut r = Reader { bytes: &body[HEADER_BYTES..] };
    let hash = r.column(v, u64::from_le_bytes)?;
    let base = r.column(v, u32::from_le_bytes)?;
    let light = r.take(v);
    let typo_key_ends = r.column(v, u32::from_le_bytes)?;
    let typo_keys = r.column(k, u64::from_le_bytes)?;
    let ids = r.column(n, u32::from_le_bytes)?;
    let states = r.take(n).to_vec();
    let kinds = r.take(n).to_vec();
    let word_end = r.column(n, u32::from_le_bytes)?;
    let words = r.column(w, u32::from_le_bytes)?;
    let shape_end = r.column(n, u32::from_le_bytes)?;
    let shapes = r.column(s, u16::from_le_bytes)?;
    let signature_of = r.column(n, u32::from_le_bytes)?;
    let signatures = r.column(g * NUM_PERM, u32::from_le_bytes)?;
    let words_fit = base.iter().enumerate().all(|(i, &b)| b as usize <= i) && light.iter().all(|&l| l <= NUMBER) && ends_fit(&typo_key_ends, k);
    let texts_fit = states.iter().all(|&s| s <= 2) && ends_fit(&word_end, w) && ends_fit(&shape_end, s) && words.iter().all(|&word| (word as usize) < v);
    if !words_fit || !texts_fit {
        return fail(FormatError::Contents);
    }
    let (number, typo_key_ends, typo_keys) = match split_numbers(light, typo_key_ends, typo_keys)? {
        Some(columns) => columns,
        None => return fail(FormatError::Contents),
    };
    let vocabulary = Vocabulary::from_parts(hash, base, light.iter().map(|&l| l >= 1).collect(), number, typo_key_ends, typo_keys)?;
    let sketches = TextSketches::from_parts(kinds, word_end, words, shape_end, shapes, vocabulary, signature_of, signatures);
    if !texts_are_sketches(&sketches, g) {
        return fail(FormatError::Contents);
    }
    Ok(Decoded { sketches, templates: bytes[10] == 1, ids, states })
}

/// The words' packed numbers and their typo keys apart, from the keys column: a bare number's one
/// key is its packed digits. `None` when a number has other than one key or it packs no number.
#[allow(clippy::type_complexity)]
fn split_numbers(kinds: &[u8], ends: Vec<u32>, keys: Vec<u64>) -> Result<Option<(Vec<u64>, Vec<u32>, Vec<u64>)>, Error> {
    if !kinds.contains(&NUMBER) {
        let mut number = Vec::new();
        reserve(&mut number, kinds.len())?;
        number.resize(kinds.len(), NOT_A_NUMBER);
        return Ok(Some((number, ends, keys)));
    }
    let (mut number, mut typo_ends, mut typo_keys) = (Vec::new(), Vec::new(), Vec::new());
    reserve(&mut number, kinds.len())?;
    reserve(&mut typo_ends, kinds.len())?;
    reserve(&mut typo_keys, keys.len())?;
    let mut start = 0;
    for (id, &kind) in kinds.iter().enumerate() {
        let own = &keys[start..ends[id] as usize];
        start = ends[id] as usize;
        if kind == NUMBER {
            match own {
                &[packed] if numbers::packs_a_number(packed) => number.push(packed),
                _ => return Ok(None),
            }
        } else {
            number.push(NOT_A_NUMBER);
            typo_keys.extend_from_slice(own);
        }
        typo_ends.push(typo_keys.len() as u32);
    }
    Ok(Some((number, typo_ends, typo_keys)))
}

/// Whether a short text's `words` come from at most [`SHORT_WORDS`] tokens: a word with signs
/// or a mark (`c++`, `5.`, `1-`) has its token's word as its base, so a text of 40 tokens can
/// hold more words than that, never more bases.
fn few_tokens(words: &[u32], base: &[u32]) -> bool {
    if words.len() <= SHORT_WORDS {
        return true;
    }
    let base_of = |w: u32| base.get(w as usize).copied();
    // Quadratic in the words of one text, which are few: a token's variants each need a sign
    // more, so a text of L bytes holds some √L of them.
    let first_of_its_base = |(j, &w): (usize, &u32)| base_of(w).map_or(false, |b| !words[..j].iter().any(|&v| base_of(v) == Some(b)));
    words.iter().all(|&w| base_of(w).is_some()) && words.iter().enumerate().filter(|&p| first_of_its_base(p)).count() <= SHORT_WORDS
}

/// Whether every text is what sketching makes: words by kind, distinct and ascending, shapes
/// over their words, signatures numbered in order.
fn texts_are_sketches(s: &TextSketches, signatures: usize) -> bool {
    let mut next_signature = 0;
    (0..s.len()).all(|i| {
        let words = &s.words[s.word_range(i)];
        let shape = s.shape(i);
        let signed = match s.signature_of[i] {
            NO_SIGNATURE => false,
            number if number as usize == next_signature => {
                next_signature += 1;
                true
            }
            _ => return false,
        };
        let fits = match Kind::from_code(s.kinds[i]) {
            Some(Kind::Wordless) | Some(Kind::Long) => words.is_empty() && signed == (s.kinds[i] == Kind::Long as u8),
            Some(Kind::Short) | Some(Kind::ShortWithPairs) => !words.is_empty() && few_tokens(words, &s.vocabulary.base) && signed == (s.kinds[i] == Kind::ShortWithPairs as u8),
            None => false,
        };
        let position = |p: u16| usize::from(p & 0x1F) < words.len();
        let entry_fits = |e: u16| {
            if e & REPEAT != 0 {
                position(e >> 10)
            } else {
                position(e >> 10) && position(e) && (e >> 5 & 0x1F == HYPHEN || position(e >> 5))
            }
        };
        let shape_fits = shape.is_empty() || (words.len() <= KEYED_WORDS && (shape == [OVERFLOW] || shape.iter().all(|&e| entry_fits(e))));
        fits && shape_fits && words.windows(2).all(|p| p[0] < p[1])
    }) && next_signature == signatures
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adaptive::TextIndex;

    fn saved() -> Vec<u8> {
        let texts = "the qt 5 network module|english-czech dictionary|convert json to yaml|a very long text ".to_string() + &"with many words w".repeat(30);
        let offsets: Vec<u32> = std::iter::once(0).chain(texts.match_indices('|').map(|(i, _)| i as u32)).chain(std::iter::once(texts.len() as u32)).collect();
        // Texts split at '|', each '|' left at the start of the next (a token separator).
        let mut index = TextIndex::new(false);
        let n = offsets.len() - 1;
        let (mut rep, mut sim) = (vec![0; n], vec![0.0; n]);
        index.decide_many(&(0..n as u32).collect::<Vec<_>>(), texts.as_bytes(), &offsets, &mut rep, &mut sim).unwrap();
        index.save().unwrap()
    }

    fn problem(bytes: &[u8]) -> Option<FormatError> {
        match TextIndex::load(bytes) {
            Err(Error::Format(problem)) => Some(problem),
            _ => None,
        }
    }

    /// The bytes with `f` applied and the checksum made again.
    fn edited(bytes: &[u8], f: impl Fn(&mut Vec<u8>)) -> Vec<u8> {
        let mut b = bytes[..bytes.len() - 4].to_vec();
        f(&mut b);
        let checksum = crc32(&b);
        b.extend_from_slice(&checksum.to_le_bytes());
        b
    }

    #[test]
    fn damaged_bytes_are_named() {
        let bytes = saved();
        assert!(TextIndex::load(&bytes).is_ok());
        assert_eq!(problem(b"\x89SHIDX\r\n"), Some(FormatError::Magic));
        assert_eq!(problem(&bytes[..20]), Some(FormatError::Length));
        assert_eq!(problem(&bytes[..bytes.len() - 1]), Some(FormatError::Length));
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert_eq!(problem(&flipped), Some(FormatError::Checksum));
        // Version 1 held no bare numbers' digits, version 2 weighed letters alone and names' parts
        // by the earlier rule: their indexes cannot decide as version 3 does.
        assert_eq!(problem(&edited(&bytes, |b| b[8] = 1)), Some(FormatError::Version));
        assert_eq!(problem(&edited(&bytes, |b| b[8] = 2)), Some(FormatError::Version));
        assert_eq!(problem(&edited(&bytes, |b| b[10] = 2)), Some(FormatError::Header));
        // A word id past the vocabulary, in the first text's words.
        let v = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        let words_at = HEADER_BYTES + 17 * v + 8 * u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]) as usize + 4 * 4 + 4 + 4 + 4 * 4;
        assert_eq!(problem(&edited(&bytes, |b| b[words_at..words_at + 4].copy_from_slice(&(v as u32).to_le_bytes()))), Some(FormatError::Contents));
        // A word called a bare number whose keys are not one packed number.
        let kinds_at = HEADER_BYTES + 12 * v;
        assert_eq!(problem(&edited(&bytes, |b| b[kinds_at] = 2)), Some(FormatError::Contents));
        // A state out of range.
        let states_at = HEADER_BYTES + 17 * v + 8 * u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]) as usize + 4 * 4;
        assert_eq!(problem(&edited(&bytes, |b| b[states_at] = 3)), Some(FormatError::Contents));
        // Two kept texts of one id.
        assert_eq!(problem(&edited(&bytes, |b| b[states_at - 16..states_at - 12].copy_from_slice(&[1, 0, 0, 0]))), Some(FormatError::Ids));
    }
}
