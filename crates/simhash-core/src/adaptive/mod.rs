//! The length-adaptive decision over texts (text decision specification v3, `docs/adaptive.md`):
//! which texts to keep and which to remove as near-duplicates of a kept one, with features and
//! threshold chosen from each text's length.
//!
//! A text of at most [`SHORT_WORDS`] distinct words is short. Two short texts are compared by
//! their word sets, each word weighed by what it says ([`Rule::V3`], the `short` module), or, by
//! specification v2 ([`Rule::V2`]), by the exact Jaccard similarity of their word sets against
//! 2/5. Any other pair is near-duplicate when the estimated Jaccard similarity of their sets of
//! word pairs (128-position MinHash, specification v1) reaches [`LONG_EQUAL`]/128. Candidates of
//! the short rules come from lists of kept texts that miss no pair; those of the long rule from
//! LSH bands of the pair signatures. Texts are taken in a given order; each is removed for the
//! most similar kept text, ties to the one taken first, or kept.
//!
//! [`TextSketches`] holds what the rules need of each text, made one batch of texts at a time,
//! so that texts need not outlive their batch.

mod best;
mod common_words;
mod decide;
mod format;
mod index;
mod lines;
mod mix_map;
mod numbers;
mod shape;
mod short;
mod sketch;
mod vocabulary;

pub use common_words::COMMON_WORDS;
pub use index::TextIndex;
pub use sketch::TextSketches;
pub use vocabulary::TYPO_CHARS;

/// Lengthens `v` to `len` with `value`s (a vector of one slot per word or text, as they come).
#[inline(never)]
fn extend<T: Clone>(v: &mut Vec<T>, len: usize, value: T) -> Result<(), crate::Error> {
    if v.len() < len {
        v.try_reserve(len - v.len()).map_err(|_| crate::Error::OutOfMemory)?;
        v.resize(len, value);
    }
    Ok(())
}

/// Sorts a few values (a short text's words, a shape's entries) without another instance of the
/// general sort.
fn insertion_sort<T: Ord + Copy>(values: &mut [T]) {
    for i in 1..values.len() {
        let mut j = i;
        while j > 0 && values[j - 1] > values[j] {
            values.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// A hash of a set of words in ascending order.
fn set_hash(words: &[u32]) -> u64 {
    words.iter().fold(words.len() as u64, |h, &w| (h ^ u64::from(w)).wrapping_mul(0xFF51_AFD7_ED55_8CCD).rotate_left(29))
}

/// The version of the text decision specification implemented here (the default rule).
pub const TEXT_DECISION_VERSION: u32 = 3;

/// How short texts are judged; long texts are judged alike by every rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Specification v2: exact Jaccard similarity of word sets at least 2/5.
    V2,
    /// Specification v3: weighted word sets with typos paired. With `templates`, lines that
    /// differ in the items they name (template siblings) are near-duplicates too, at a lower
    /// threshold ([`TEMPLATES_THRESHOLD`]).
    V3 { templates: bool },
}

/// What a heavy word (any but a common word or a number) weighs in v3.
pub const HEAVY_WEIGHT: u32 = 4;
/// What a light word weighs in v3.
pub const LIGHT_WEIGHT: u32 = 1;
/// What a heavy word and its typo share of their weight in v3 (each keeps the rest apart).
pub const TYPO_SHARED: u32 = 3;
/// The weighted Jaccard similarity (numerator, denominator) that makes two short texts
/// near-duplicates in v3.
pub const THRESHOLD: (u32, u32) = (7, 10);
/// The same, when template siblings are removed too.
pub const TEMPLATES_THRESHOLD: (u32, u32) = (1, 2);
/// In v3, a pair in which a text has fewer distinct words than this is judged as lines: the
/// same heavy words but for one typo. A line of a few words that replaces one names another item;
/// a description of this many words or more may have two words edited and say the same.
pub const LINE_WORDS: usize = 20;
/// In v3, a pair of sentences (both of [`LINE_WORDS`] or more) lets each text hold one heavy word
/// the other lacks (replaced, added or dropped, with no typo to pair with) per this many distinct
/// words of the smaller text.
pub const SUBSTITUTION_SPAN: usize = 10;
/// In v3, the most light words a pair judged as lines may hold on one side only, each way (and
/// no more than the heavy words the two share): function words, a version number, an
/// annotation (`Re:`, `[PATCH v2]`) added or dropped.
pub const LIGHT_CHANGES: usize = 3;
/// In v3, the fewest heavy words a pair judged as lines must share for a typo to be forgiven:
/// beside fewer, a letter changed names another thing (`Validation for ISBN`, `… for IBAN`).
pub const TYPO_CONTEXT: usize = 2;
/// In v3, a typo is forgiven in a pair judged as lines only while fewer than this many kept
/// lines besides the one judged hold the heavy words the pair shares and one heavy word more: a
/// template whose item several kept lines replace (`explain chdir(2) errors`, `… fchdir(2) …`,
/// `… stat(2) …`) names an item with that word, and one letter apart is another item.
pub const TYPO_SIBLINGS: u32 = 1;
/// In v3, the most entries a line's shape holds (its repeated heavy words and the heavy words it
/// joins by a hyphen or one light word): a text that says more, a long run of a few words,
/// clashes with no other.
pub const SHAPE_ENTRIES: usize = 32;
/// In v3, lines of the same words are told apart by their shapes while fewer than this many kept
/// lines hold a line's heavy words; past that, words alone decide (a bound on the work a family
/// of lines of one word set can cause).
pub const SHAPES_PER_WORD_SET: u32 = 8;

/// In v3, two sentences (both of [`LINE_WORDS`] distinct words or more) are compared only when
/// they share a word fewer than this many kept sentences taken before hold: a word in that many
/// says little of a pair, and this bounds the work a sentence causes, whatever the input holds
/// (lines of a small vocabulary would otherwise each meet a share of every kept one).
pub const SENTENCES_PER_WORD: usize = 64;

/// A text with at most this many distinct words is short.
pub const SHORT_WORDS: usize = 40;

/// By specification v2, two short texts are near-duplicates when `common · DENOMINATOR ≥
/// union · NUMERATOR` for their word sets: Jaccard similarity ≥ 2/5, checked in integers.
pub const SHORT_NUMERATOR: u32 = 2;
/// See [`SHORT_NUMERATOR`].
pub const SHORT_DENOMINATOR: u32 = 5;

/// Positions of a word-pair signature.
pub const NUM_PERM: usize = 128;

/// Equal positions out of [`NUM_PERM`] that make a pair judged by word pairs near-duplicate:
/// ⌈0.62 · 128⌉.
pub const LONG_EQUAL: u32 = 80;

/// LSH bands of the word-pair signatures, and rows per band: the plan that misses about 0.3 %
/// of the area of the S-curve beyond 0.62 (`planMinHashLsh`, false negatives weighted 0.9).
pub const LONG_BANDS: usize = 25;
/// See [`LONG_BANDS`].
pub const LONG_ROWS: usize = 5;

/// The fewest distinct word pairs a short text needs to be compared with a long one: texts too
/// different in length to reach the threshold are not compared. A long text has more than
/// [`SHORT_WORDS`] distinct words, so at least 40 distinct pairs (each distinct word but the
/// first ends a pair of its own), and an exact Jaccard similarity of 0.62 needs the smaller set
/// to hold at least 0.62 of the larger: ⌈0.62 · 40⌉ = 25. (The signatures' estimate of such a
/// pair could still reach 0.62 by chance; the rule does not ask it.)
pub const PAIRS_TO_MEET_LONG: usize = 25;

/// What a text is to the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// No word: kept, never compared.
    Wordless = 0,
    /// Short, with too few word pairs to meet a long text.
    Short = 1,
    /// Short, and signed by its word pairs to meet long texts.
    ShortWithPairs = 2,
    /// More than [`SHORT_WORDS`] distinct words.
    Long = 3,
}

impl Kind {
    /// The kind with this code, as [`TextSketches::kinds`] writes it.
    pub fn from_code(code: u8) -> Option<Kind> {
        [Kind::Wordless, Kind::Short, Kind::ShortWithPairs, Kind::Long].get(usize::from(code)).copied()
    }
}
