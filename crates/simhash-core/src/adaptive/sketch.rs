//! What the rule keeps of each text: its kind, its word set when short, its shape when it may
//! be judged as a line, its word-pair signature when it may meet a long text. One tokenisation
//! serves words and pairs.

use super::lines::KEYED_WORDS;
use super::numbers::{self, NAME_MARK, RELEASE_MARK};
use super::shape::{shape, Token};
use super::vocabulary::Vocabulary;
use super::{insertion_sort, Kind, NUM_PERM, PAIRS_TO_MEET_LONG, SHAPE_ENTRIES, SHORT_WORDS};
use crate::fingerprint::check_offsets;
use crate::fingerprint::text::{for_each_token, word_units, Scratch, ShingleHasher};
use crate::minhash::Sketch;
use crate::Error;

/// The xxh3 and MinHash seed of the specification.
const SEED: u64 = 0;

/// The sketches of the texts added so far, in the order they were added.
#[derive(Default)]
pub struct TextSketches {
    /// [`Kind`] codes, one per text.
    pub(super) kinds: Vec<u8>,
    /// Text i's word ids are `words[word_end[i - 1]..word_end[i]]` (from 0 for i = 0), distinct,
    /// sorted; empty unless the text is short.
    pub(super) word_end: Vec<u32>,
    pub(super) words: Vec<u32>,
    /// Text i's shape is `shapes[shape_end[i - 1]..shape_end[i]]`; empty unless the text has at
    /// most [`KEYED_WORDS`] distinct words.
    pub(super) shape_end: Vec<u32>,
    pub(super) shapes: Vec<u16>,
    /// The words of the short texts.
    pub(super) vocabulary: Vocabulary,
    /// Per text, the number of its word-pair signature in `signatures`, or [`NO_SIGNATURE`].
    pub(super) signature_of: Vec<u32>,
    pub(super) signatures: Vec<u32>,
    scratch: Scratch,
    /// The word id of each token of the text being added, and whether a hyphen alone comes before it.
    sequence: Vec<(u32, bool)>,
    tokens: Vec<Token>,
    distinct: Vec<u64>,
    pairs: Vec<u64>,
    bins: Vec<u64>,
    /// A release's number's or a name's part's word, its token and [`RELEASE_MARK`] or [`NAME_MARK`].
    word: Vec<u8>,
    /// The byte ranges of the tokens of the text being added.
    spans: Vec<(usize, usize)>,
}

/// A short text's tokens, to be made words: each keeps the `+` and `#` signs right after it, a
/// number in a release is its token and [`RELEASE_MARK`], and a name's part (a number a single
/// hyphen joins to the token before it, or a common word that begins a compound: one joins it
/// to the token after it and none to the one before) its token and [`NAME_MARK`] (`numbers`).
struct Marked<'a> {
    text: &'a [u8],
    /// The unit hash of each token.
    units: &'a [u64],
    hasher: &'a ShingleHasher,
    spans: &'a [(usize, usize)],
    /// Whether a dot stands beside a digit somewhere in the text, as in every release.
    dotted: bool,
}

impl Marked<'_> {
    /// Appends the text's distinct word ids to `words` (its own from `first`), and each token's
    /// word and whether a hyphen alone comes before it to `sequence` when given. A word that fails
    /// to be added fails the call.
    fn words(&self, vocabulary: &mut Vocabulary, word: &mut Vec<u8>, words: &mut Vec<u32>, first: usize, mut sequence: Option<&mut Vec<(u32, bool)>>) -> Result<(), Error> {
        let text = self.text;
        let mut previous_release = None;
        let mut previous_end: Option<usize> = None;
        for (k, &(start, end)) in self.spans.iter().enumerate() {
            let signed = end + text[end..].iter().take_while(|&&b| b == b'+' || b == b'#').count();
            let hyphen = previous_end.map_or(false, |e| &text[e..start] == b"-");
            previous_end = Some(signed);
            let joins_next = signed == end && text.get(end) == Some(&b'-') && self.spans.get(k + 1).map_or(false, |&(next, _)| next == end + 1);
            let number = signed == end && numbers::digits(&text[start..end]).is_some();
            let release = self.dotted && number && numbers::in_release(text, start, end, previous_release);
            let named = !release && ((hyphen && number) || (joins_next && !hyphen && !number && vocabulary.is_common(self.units[k], self.hasher)?));
            previous_release = if release { Some(end) } else { None };
            if release || named {
                word.clear();
                word.extend_from_slice(&text[start..end]);
                word.push(if release { RELEASE_MARK } else { NAME_MARK });
            }
            let bytes = if release || named { &word[..] } else { &text[start..signed] };
            let hash = if signed == end && !release && !named { self.units[k] } else { self.hasher.unit(bytes) };
            let id = match vocabulary.id(hash) {
                Some(id) => id,
                None => vocabulary.insert(hash, bytes, end - start, self.hasher)?,
            };
            if !words[first..].contains(&id) {
                words.push(id);
            }
            if let Some(sequence) = sequence.as_mut() {
                sequence.push((id, hyphen));
            }
        }
        Ok(())
    }
}

/// A text without a word-pair signature.
pub(super) const NO_SIGNATURE: u32 = u32::MAX;

/// The distinct unit hashes of a text's tokens into `distinct`, up to one past the short limit:
/// that one says the text is long.
fn distinct_up_to_long(units: &[u64], distinct: &mut Vec<u64>) {
    distinct.clear();
    for &unit in units {
        if !distinct.contains(&unit) {
            distinct.push(unit);
            if distinct.len() > SHORT_WORDS {
                break;
            }
        }
    }
}

/// Appends the shape of a text of at most [`KEYED_WORDS`] words, `set` (sorted), whose tokens'
/// words in order are `sequence` (with whether a hyphen alone comes before each).
fn push_shape(set: &[u32], sequence: &[(u32, bool)], vocabulary: &Vocabulary, tokens: &mut Vec<Token>, shapes: &mut Vec<u16>) -> Result<(), Error> {
    tokens.clear();
    reserve(tokens, sequence.len())?;
    for &(id, hyphen) in sequence {
        let position = set.binary_search(&id).map_err(|_| Error::OutOfMemory)? as u8;
        tokens.push(Token { position, heavy: vocabulary.heavy(id), hyphen });
    }
    reserve(shapes, SHAPE_ENTRIES + 1)?;
    shape(tokens, shapes);
    Ok(())
}

/// Appends the MinHash signature of `features` to `signatures` and its number to `signature_of`.
fn sign(signatures: &mut Vec<u32>, bins: &mut Vec<u64>, signature_of: &mut Vec<u32>, features: &[u64]) -> Result<(), Error> {
    let at = signatures.len();
    reserve(signatures, NUM_PERM)?;
    signatures.resize(at + NUM_PERM, 0);
    let mut sketch = Sketch::new(SEED, &mut signatures[at..], bins);
    features.iter().for_each(|&feature| sketch.push(feature));
    sketch.finish();
    signature_of.push((at / NUM_PERM) as u32);
    Ok(())
}

/// The word-pair shingles of `units` into `pairs`; a text of one word has one "pair", the
/// shingle of that word alone, as in the text specification.
fn word_pairs(units: &[u64], hasher: &ShingleHasher, pairs: &mut Vec<u64>) -> Result<(), Error> {
    pairs.clear();
    reserve(pairs, units.len())?;
    if units.len() < 2 {
        pairs.extend(units.first().map(|_| hasher.shingle(units)));
    } else {
        pairs.extend(units.windows(2).map(|w| hasher.shingle(w)));
    }
    Ok(())
}

fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<(), Error> {
    v.try_reserve(additional).map_err(|_| Error::OutOfMemory)
}

impl TextSketches {
    /// No texts yet.
    pub fn new() -> TextSketches {
        TextSketches::default()
    }

    /// Sketches made of their columns (a saved index's), checked by the caller.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn from_parts(kinds: Vec<u8>, word_end: Vec<u32>, words: Vec<u32>, shape_end: Vec<u32>, shapes: Vec<u16>, vocabulary: Vocabulary, signature_of: Vec<u32>, signatures: Vec<u32>) -> TextSketches {
        TextSketches { kinds, word_end, words, shape_end, shapes, vocabulary, signature_of, signatures, ..TextSketches::default() }
    }

    /// Appends one text's sketch: its kind, words (sorted), shape and signature.
    pub(super) fn push_sketch(&mut self, kind: u8, words: &[u32], shape: &[u16], signature: Option<&[u32]>) -> Result<(), Error> {
        if self.len() + 1 >= u32::MAX as usize || self.words.len() + words.len() >= u32::MAX as usize {
            return Err(Error::TooManyElements);
        }
        reserve(&mut self.words, words.len())?;
        reserve(&mut self.shapes, shape.len())?;
        reserve(&mut self.kinds, 1)?;
        reserve(&mut self.word_end, 1)?;
        reserve(&mut self.shape_end, 1)?;
        reserve(&mut self.signature_of, 1)?;
        match signature {
            Some(signature) => {
                reserve(&mut self.signatures, NUM_PERM)?;
                self.signature_of.push((self.signatures.len() / NUM_PERM) as u32);
                self.signatures.extend_from_slice(signature);
            }
            None => self.signature_of.push(NO_SIGNATURE),
        }
        self.words.extend_from_slice(words);
        self.shapes.extend_from_slice(shape);
        self.word_end.push(self.words.len() as u32);
        self.shape_end.push(self.shapes.len() as u32);
        self.kinds.push(kind);
        Ok(())
    }

    /// Number of texts added.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether no text was added.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The [`Kind`] code of every text, in the order they were added.
    pub fn kinds(&self) -> &[u8] {
        &self.kinds
    }

    /// The word range of text `i` in `words`.
    pub(super) fn word_range(&self, i: usize) -> core::ops::Range<usize> {
        let start = if i == 0 { 0 } else { self.word_end[i - 1] as usize };
        start..self.word_end[i] as usize
    }

    /// The shape of text `i`.
    pub(super) fn shape(&self, i: usize) -> &[u16] {
        let start = if i == 0 { 0 } else { self.shape_end[i - 1] as usize };
        &self.shapes[start..self.shape_end[i] as usize]
    }

    /// The word-pair signature of text `i`, if it has one.
    pub(super) fn signature(&self, i: usize) -> Option<&[u32]> {
        match self.signature_of[i] {
            NO_SIGNATURE => None,
            s => Some(&self.signatures[s as usize * NUM_PERM..(s as usize + 1) * NUM_PERM]),
        }
    }

    /// Sketches UTF-8 texts, which the caller has normalised and lowered as the text
    /// specification v1 says (this does neither): text `d` is `texts[offsets[d]..offsets[d + 1]]`.
    ///
    /// # Errors
    /// [`Error::InvalidOffsets`] if `offsets` decreases or points past `texts`;
    /// [`Error::TooManyElements`] beyond `u32::MAX - 1` texts or words in all;
    /// [`Error::OutOfMemory`]. A call that fails adds no text.
    pub fn add(&mut self, texts: &[u8], offsets: &[u32]) -> Result<(), Error> {
        check_offsets(offsets, texts.len())?;
        let count = offsets.len().saturating_sub(1);
        if self.kinds.len() + count >= u32::MAX as usize {
            return Err(Error::TooManyElements);
        }
        reserve(&mut self.kinds, count)?;
        reserve(&mut self.word_end, count)?;
        reserve(&mut self.shape_end, count)?;
        reserve(&mut self.signature_of, count)?;
        let before = self.len();
        for window in offsets.windows(2) {
            if let Err(error) = self.add_one(&texts[window[0] as usize..window[1] as usize]) {
                self.truncate(before);
                return Err(error);
            }
        }
        Ok(())
    }

    /// Forgets the texts after the first `len` (none if there are fewer), and what a text that
    /// failed to be added left behind. Their words stay in
    /// the vocabulary, held by no text: harmless, and no allocation that could fail.
    pub fn truncate(&mut self, len: usize) {
        // (At `len` equal to the count, what a failed text left of its words and shape goes.)
        if len > self.len() {
            return;
        }
        let words = if len == 0 { 0 } else { self.word_end[len - 1] as usize };
        let shapes = if len == 0 { 0 } else { self.shape_end[len - 1] as usize };
        // Counted over the texts that go, so that dropping a few (a query's) costs a few.
        let signatures = self.signatures.len() / NUM_PERM - self.signature_of[len..].iter().filter(|&&s| s != NO_SIGNATURE).count();
        self.kinds.truncate(len);
        self.word_end.truncate(len);
        self.shape_end.truncate(len);
        self.signature_of.truncate(len);
        self.words.truncate(words);
        self.shapes.truncate(shapes);
        self.signatures.truncate(signatures * NUM_PERM);
    }

    fn add_one(&mut self, text: &[u8]) -> Result<(), Error> {
        let TextSketches { kinds, word_end, words, shape_end, shapes, vocabulary, signature_of, signatures, scratch, sequence, tokens, distinct, pairs, bins, word, spans } = self;
        let (units, hasher) = word_units(text, SEED, scratch)?;
        distinct_up_to_long(units, distinct);
        let kind = if distinct.is_empty() {
            signature_of.push(NO_SIGNATURE);
            Kind::Wordless
        } else if distinct.len() <= SHORT_WORDS {
            if words.len() + distinct.len() >= u32::MAX as usize || shapes.len() + SHAPE_ENTRIES + 1 >= u32::MAX as usize {
                return Err(Error::TooManyElements);
            }
            // (Signs and marks can make more words than distinct unit hashes, never fewer.)
            let shaped = distinct.len() <= KEYED_WORDS;
            // A word with signs is a word of its own: up to one a token.
            reserve(words, units.len())?;
            sequence.clear();
            if shaped {
                reserve(sequence, units.len())?;
            }
            let first = words.len();
            // Words are classified from their bytes, a word keeps the `+` and `#` signs right after
            // it (`c`, `c++` and `c#` are three words), and a line's shape notes hyphens between
            // words: for each, tokenise again.
            // Numbers in a release, and the words a hyphen joins into a name, are words of their
            // own (`numbers`): a dot beside a digit, or any hyphen, asks for tokenising again too.
            let retokenise = |b: &u8| *b == b'+' || *b == b'#' || *b == b'-';
            let dotted = text.windows(2).any(|w| (w[0] == b'.' && w[1].is_ascii_digit()) || (w[0].is_ascii_digit() && w[1] == b'.'));
            if dotted || text.iter().any(retokenise) || distinct.iter().any(|&hash| vocabulary.id(hash).is_none()) {
                spans.clear();
                reserve(spans, units.len())?;
                for_each_token(text, |start, end| spans.push((start, end)));
                let marked = Marked { text, units, hasher: &hasher, spans, dotted };
                marked.words(vocabulary, word, words, first, if shaped { Some(&mut *sequence) } else { None })?;
            } else {
                for &hash in distinct.iter() {
                    words.push(vocabulary.id(hash).ok_or(Error::OutOfMemory)?);
                }
                if shaped {
                    for &unit in units {
                        sequence.push((vocabulary.id(unit).ok_or(Error::OutOfMemory)?, false));
                    }
                }
            }
            insertion_sort(&mut words[first..]);
            if words.len() - first <= KEYED_WORDS {
                push_shape(&words[first..], sequence, vocabulary, tokens, shapes)?;
            }
            word_pairs(units, &hasher, pairs)?;
            pairs.sort_unstable();
            pairs.dedup();
            if pairs.len() >= PAIRS_TO_MEET_LONG {
                sign(signatures, bins, signature_of, pairs)?;
                Kind::ShortWithPairs
            } else {
                signature_of.push(NO_SIGNATURE);
                Kind::Short
            }
        } else {
            word_pairs(units, &hasher, pairs)?;
            sign(signatures, bins, signature_of, pairs)?;
            Kind::Long
        };
        word_end.push(words.len() as u32);
        shape_end.push(shapes.len() as u32);
        kinds.push(kind as u8);
        Ok(())
    }
}
