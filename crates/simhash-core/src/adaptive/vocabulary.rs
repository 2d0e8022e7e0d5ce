//! The words of the sketched texts, each with an id: its hash, its weight under specification v3,
//! the words it is a typo of, and the word it is without signs.
//!
//! A word is a token of the text specification v1 with the `+` and `#` signs that follow it, so
//! that `c`, `c++` and `c#` are three words; specification v2 judges by tokens alone, so each
//! word also names its *base*, the word without its signs.
//!
//! A word is *light* when it is one of [`COMMON_WORDS`], a number (ASCII digits, `v` and
//! digits — a version —, or digits and an English ordinal suffix: `2nd`; bare, or a release's,
//! see `numbers`); any other word is *heavy*: a letter alone (`C`, `X`: the language, the
//! window system), names with digits (`arm64`, `id3`) and a name's parts (`8859-1`, whose `1`
//! is its token and a mark) among them. Two
//! words without ASCII digits or signs, of at least [`TYPO_CHARS`] code points, heavy or common,
//! are *typos* of each other when removing at most one code point from each makes them equal: a
//! letter changed, added, dropped, or two swapped. Two names with digits, of at least
//! [`TYPO_CHARS`] code points and without signs, are typos when they differ in one digit alone
//! (`vmxnet2`, `vmxnet3`; `fc7598a`, `fc7599a`): a version edited inside a name. Whether a typo
//! pairs two texts' words is decided by how many texts hold them (see `short`), so two
//! established names one digit apart stay two names. A common word has typos so that `witg` can
//! be forgiven for `with`; two common words are never paired. Each such word is listed under its
//! *typo keys* (for a word without digits, its own hash and the hashes of its one-deletion
//! variants; for a name with digits, the hash of each form with one digit replaced by a byte no
//! UTF-8 text holds), so the words sharing a key with a new word are its typos, found as it
//! arrives. A key lists at most [`TYPO_KEY_WORDS`] words, the first to come: a word arriving
//! when its key is full does not take it, and is no typo of the words listed there through it.
//! (Real vocabularies list up to some fifty words under a key, `set` under its deletion
//! variants; words made to share one variant by the thousand, `q…rst` with every letter of
//! Unicode, would otherwise link pairwise: time and memory quadratic in the input.)

use super::common_words::COMMON_WORDS;
use super::mix_map::MixMap;
use super::numbers::{self, NOT_A_NUMBER, RELEASE_MARK};
use crate::fingerprint::text::{sequence_length, ShingleHasher};
use crate::error::{Error, FormatError};

/// The fewest code points a heavy word needs to be a typo of another. Shorter words change
/// meaning with one letter (`bug`, `big`), and a shared key must be a word of three letters.
pub const TYPO_CHARS: usize = 3;

/// The most words a typo key lists (see the module's documentation): a new word's work is at
/// most this many links for each of its keys, whatever the vocabulary holds.
pub const TYPO_KEY_WORDS: usize = 64;

/// The end of a chain of links.
const END: u32 = u32::MAX;
/// Set in a key's chain where its first word stands in place of a link: `INLINE | word` (most
/// keys list one word, and then no link at all).
const INLINE: u32 = 1 << 31;
/// Word ids stay below this, so that `INLINE | word` is never [`END`].
const MOST_WORDS: u32 = INLINE - 1;
/// What stands for the digit a name's typo key leaves out: a byte no UTF-8 text holds, so these
/// keys never meet the one-deletion keys of words without digits.
const DIGIT_MARK: u8 = 0xFF;

/// The size of a vocabulary at some moment, to return to.
pub(super) struct Mark {
    words: usize,
    key_links: usize,
    neighbour_links: usize,
}

/// Every word seen, by id (ids in order of first appearance).
#[derive(Default)]
pub(super) struct Vocabulary {
    ids: MixMap,
    /// Each word's unit hash.
    pub(super) hash: Vec<u64>,
    /// Each word's base: the word without the signs after it (itself when it has none).
    pub(super) base: Vec<u32>,
    /// Whether each word is light.
    pub(super) light: Vec<bool>,
    /// Each bare number's packed digits, [`NOT_A_NUMBER`] for any other word (`numbers`).
    pub(super) number: Vec<u64>,
    /// The hashes of [`COMMON_WORDS`], made at the first word.
    common: MixMap,
    common_made: bool,
    /// Typo key → the last word listed under it: `INLINE | word` for the first (the key lists
    /// only it), else its link in `key_links`, a `(word, previous)` chain ending at the first.
    keys: MixMap,
    key_links: Vec<(u32, u32)>,
    /// Per word, its last link in `neighbour_links`, a `(typo, previous link)` chain.
    neighbour_head: Vec<u32>,
    /// Per word, the word being linked when this one became its typo, while it is linked, else
    /// `END`: a word meets another under two keys at most once.
    linked_to: Vec<u32>,
    neighbour_links: Vec<(u32, u32)>,
    /// Each word's typo keys: `typo_keys[typo_key_ends[id - 1]..typo_key_ends[id]]`.
    pub(super) typo_keys: Vec<u64>,
    pub(super) typo_key_ends: Vec<u32>,
    variant: Vec<u8>,
    variants: Vec<u64>,
}

/// The word a key's chain holds at `at` (its head, or a link's previous) and what comes after
/// it, or `None` at the chain's end.
fn step(key_links: &[(u32, u32)], at: u32) -> Option<(u32, u32)> {
    match at {
        END => None,
        _ if at & INLINE != 0 => Some((at & !INLINE, END)),
        _ => Some(key_links[at as usize]),
    }
}

/// How many words the chain ending at `last` lists, counted up to [`TYPO_KEY_WORDS`].
fn listed_under(key_links: &[(u32, u32)], last: u32) -> usize {
    let (mut link, mut count) = (last, 0);
    while let Some((_, previous)) = step(key_links, link) {
        if count == TYPO_KEY_WORDS {
            break;
        }
        link = previous;
        count += 1;
    }
    count
}

/// Makes `typo` a neighbour of `word`.
fn add_neighbour(neighbour_links: &mut Vec<(u32, u32)>, neighbour_head: &mut [u32], word: u32, typo: u32) -> Result<(), Error> {
    push(neighbour_links, (typo, neighbour_head[word as usize]))?;
    neighbour_head[word as usize] = neighbour_links.len() as u32 - 1;
    Ok(())
}

fn push<T>(v: &mut Vec<T>, value: T) -> Result<(), Error> {
    v.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
    v.push(value);
    Ok(())
}

impl Vocabulary {
    /// The id of the word with this hash, if it was seen.
    pub(super) fn id(&self, hash: u64) -> Option<u32> {
        self.ids.get(hash)
    }

    /// What [`Vocabulary::roll_back`] returns to.
    pub(super) fn mark(&self) -> Mark {
        Mark { words: self.len(), key_links: self.key_links.len(), neighbour_links: self.neighbour_links.len() }
    }

    /// Forgets the words added since `mark`, as if they had never come: a query's words, which
    /// must not make the vocabulary grow with every text asked about.
    pub(super) fn roll_back(&mut self, mark: Mark) {
        // Typo links come in pairs, a new word's and its older typo's; undone newest first, each
        // gives its word back the head it had.
        while self.neighbour_links.len() >= mark.neighbour_links + 2 {
            let at = self.neighbour_links.len() - 2;
            let ((older, head_of_new), (new, head_of_older)) = (self.neighbour_links[at], self.neighbour_links[at + 1]);
            self.neighbour_head[older as usize] = head_of_older;
            self.neighbour_head[new as usize] = head_of_new;
            self.neighbour_links.truncate(at);
        }
        // Each new word's keys, newest first: it was the head of each.
        for id in (mark.words..self.len()).rev() {
            let start = if id == 0 { 0 } else { self.typo_key_ends[id - 1] as usize };
            for k in (start..self.typo_key_ends[id] as usize).rev() {
                let key = self.typo_keys[k];
                if self.keys.get(key).map_or(true, |head| head & INLINE != 0) {
                    self.keys.remove(key);
                } else {
                    let (_, previous) = self.key_links.pop().unwrap_or((0, END));
                    self.keys.set(key, previous);
                }
            }
            self.ids.remove(self.hash[id]);
        }
        debug_assert_eq!(self.key_links.len(), mark.key_links);
        let keys = if mark.words == 0 { 0 } else { self.typo_key_ends[mark.words - 1] as usize };
        self.typo_keys.truncate(keys);
        for column in [&mut self.base, &mut self.neighbour_head, &mut self.linked_to, &mut self.typo_key_ends] {
            column.truncate(mark.words);
        }
        self.hash.truncate(mark.words);
        self.light.truncate(mark.words);
        self.number.truncate(mark.words);
    }

    /// Number of words seen.
    pub(super) fn len(&self) -> usize {
        self.light.len()
    }

    /// Adds the word `word` (its UTF-8 bytes, `hash` their unit hash; its first `token` bytes the
    /// token, the rest signs) and returns its id.
    pub(super) fn insert(&mut self, hash: u64, word: &[u8], token: usize, hasher: &ShingleHasher) -> Result<u32, Error> {
        if let Some(id) = self.ids.get(hash) {
            return Ok(id);
        }
        let base = if token < word.len() { Some(self.insert(hasher.unit(&word[..token]), &word[..token], token, hasher)?) } else { None };
        self.make_common(hasher)?;
        let id = self.next_id()?;
        // A release's number is its token and the mark (`numbers`).
        let release = word[token..] == [RELEASE_MARK];
        let number = numbers::digits(word).map_or(NOT_A_NUMBER, numbers::pack);
        let light = number != NOT_A_NUMBER || release || self.common.get(hash).is_some();
        let common = self.common.get(hash).is_some();
        push(&mut self.hash, hash)?;
        push(&mut self.base, base.unwrap_or(id))?;
        push(&mut self.light, light)?;
        push(&mut self.number, number)?;
        push(&mut self.neighbour_head, END)?;
        push(&mut self.linked_to, END)?;
        self.ids.get_or_insert(hash, id)?;
        if (common || !light) && base.is_none() {
            self.link_typos(id, hash, word, hasher)?;
        }
        push(&mut self.typo_key_ends, self.typo_keys.len() as u32)?;
        Ok(id)
    }

    /// Whether the token of unit hash `hash` is one of [`COMMON_WORDS`].
    pub(super) fn is_common(&mut self, hash: u64, hasher: &ShingleHasher) -> Result<bool, Error> {
        self.make_common(hasher)?;
        Ok(self.common.get(hash).is_some())
    }

    /// Lists the hashes of [`COMMON_WORDS`], once.
    fn make_common(&mut self, hasher: &ShingleHasher) -> Result<(), Error> {
        if !self.common_made {
            for word in COMMON_WORDS.split(' ') {
                self.common.get_or_insert(hasher.unit(word.as_bytes()), 0)?;
            }
            self.common_made = true;
        }
        Ok(())
    }

    /// The words of a saved index, each with its unit hash, base, lightness, packed number and
    /// typo keys (its keys `typo_keys[typo_key_ends[id - 1]..typo_key_ends[id]]`), checked by
    /// the caller: the links between typos are made again, in the order the words came.
    pub(super) fn from_parts(hash: Vec<u64>, base: Vec<u32>, light: Vec<bool>, number: Vec<u64>, typo_key_ends: Vec<u32>, typo_keys: Vec<u64>) -> Result<Vocabulary, Error> {
        let mut vocabulary = Vocabulary::default();
        // Laid out once for the words and keys to come (a key shared by typos counts twice).
        vocabulary.ids.reserve(hash.len())?;
        vocabulary.keys.reserve(typo_keys.len())?;
        for id in 0..hash.len() {
            let start = if id == 0 { 0 } else { typo_key_ends[id - 1] as usize };
            let keys = &typo_keys[start..typo_key_ends[id] as usize];
            // As sketching makes them: each key once.
            if keys.iter().enumerate().any(|(k, key)| keys[..k].contains(key)) {
                return Err(Error::Format(FormatError::Contents));
            }
            let added = vocabulary.insert_parts(hash[id], base[id], light[id], number[id], keys)?;
            if added != id as u32 {
                return Err(Error::Format(FormatError::Contents));
            }
        }
        Ok(vocabulary)
    }

    /// The id of the word with unit hash `hash`, adding it (with its base id `base`, below its
    /// own, its lightness, its packed number and its typo keys, as another vocabulary made them)
    /// if it is new.
    pub(super) fn insert_parts(&mut self, hash: u64, base: u32, light: bool, number: u64, typo_keys: &[u64]) -> Result<u32, Error> {
        let id = self.next_id()?;
        let known = self.ids.get_or_insert(hash, id)?;
        if known != id {
            return Ok(known);
        }
        push(&mut self.hash, hash)?;
        push(&mut self.base, if base == u32::MAX { id } else { base })?;
        push(&mut self.light, light)?;
        push(&mut self.number, number)?;
        push(&mut self.neighbour_head, END)?;
        push(&mut self.linked_to, END)?;
        let first = self.typo_keys.len();
        self.typo_keys.try_reserve(typo_keys.len()).map_err(|_| Error::OutOfMemory)?;
        self.typo_keys.extend_from_slice(typo_keys);
        self.link(id, first)?;
        push(&mut self.typo_key_ends, self.typo_keys.len() as u32)?;
        Ok(id)
    }

    /// The id a new word gets.
    fn next_id(&self) -> Result<u32, Error> {
        match u32::try_from(self.light.len()) {
            Ok(id) if id < MOST_WORDS => Ok(id),
            _ => Err(Error::TooManyElements),
        }
    }

    /// Finds the typos of the new word `id` through its keys, then lists it under them.
    fn link_typos(&mut self, id: u32, hash: u64, token: &[u8], hasher: &ShingleHasher) -> Result<(), Error> {
        let mut starts = Vec::new();
        let mut i = 0;
        while i < token.len() {
            starts.push(i);
            i += sequence_length(token, i).max(1);
        }
        if starts.len() < TYPO_CHARS {
            return Ok(());
        }
        self.variants.clear();
        if token.iter().any(u8::is_ascii_digit) {
            for at in (0..token.len()).filter(|&at| token[at].is_ascii_digit()) {
                self.variant.clear();
                self.variant.extend_from_slice(token);
                self.variant[at] = DIGIT_MARK;
                let key = hasher.unit(&self.variant);
                if !self.variants.contains(&key) {
                    self.variants.push(key);
                }
            }
        } else {
            self.variants.push(hash);
            if starts.len() > TYPO_CHARS {
                for (k, &start) in starts.iter().enumerate() {
                    let end = starts.get(k + 1).copied().unwrap_or(token.len());
                    self.variant.clear();
                    self.variant.extend_from_slice(&token[..start]);
                    self.variant.extend_from_slice(&token[end..]);
                    let key = hasher.unit(&self.variant);
                    if !self.variants.contains(&key) {
                        self.variants.push(key);
                    }
                }
            }
        }
        self.typo_keys.try_reserve(self.variants.len()).map_err(|_| Error::OutOfMemory)?;
        let first = self.typo_keys.len();
        self.typo_keys.extend_from_slice(&self.variants);
        self.link(id, first)
    }

    /// Lists the new word `id` under its typo keys, `typo_keys[first..]`, linking it to the
    /// words listed there before; a key that lists [`TYPO_KEY_WORDS`] words already leaves the
    /// word's keys.
    fn link(&mut self, id: u32, first: usize) -> Result<(), Error> {
        let mut taken = first;
        let mut result: Result<bool, Error> = Ok(true);
        for k in first..self.typo_keys.len() {
            result = self.link_under(id, self.typo_keys[k]);
            match result {
                Ok(true) => {
                    self.typo_keys[taken] = self.typo_keys[k];
                    taken += 1;
                }
                Ok(false) => {}
                Err(_) => break,
            }
        }
        // Only the keys taken stay the word's (a failed key's link is not pushed), and the marks
        // go, so that a word rolled back and its id given again finds them clear.
        self.typo_keys.truncate(taken);
        let mut at = self.neighbour_head[id as usize];
        while at != END {
            let (other, previous) = self.neighbour_links[at as usize];
            self.linked_to[other as usize] = END;
            at = previous;
        }
        result.map(|_| ())
    }

    /// Links the new word `id` to the words listed under `key` and lists it there, unless `key`
    /// lists [`TYPO_KEY_WORDS`] words already: whether it did.
    fn link_under(&mut self, id: u32, key: u64) -> Result<bool, Error> {
        // Fields apart, so that the key's entry is read and written with one probe.
        let Vocabulary { keys, key_links, light, linked_to, neighbour_head, neighbour_links, .. } = self;
        let head = keys.entry(key, INLINE | id)?;
        let last = *head;
        if last == INLINE | id {
            // The key's first word: no word to link it to.
            return Ok(true);
        }
        if listed_under(key_links, last) == TYPO_KEY_WORDS {
            return Ok(false);
        }
        let mut link = last;
        while let Some((other, previous)) = step(key_links, link) {
            let both_light = light[id as usize] && light[other as usize];
            if !both_light && linked_to[other as usize] != id {
                add_neighbour(neighbour_links, neighbour_head, id, other)?;
                // Marked once on the word's own list, where the marks are cleared from.
                linked_to[other as usize] = id;
                add_neighbour(neighbour_links, neighbour_head, other, id)?;
            }
            link = previous;
        }
        // Room first, so that the key never names a link that failed to be pushed, nor a link
        // is pushed that the key does not name.
        key_links.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
        *head = key_links.len() as u32;
        key_links.push((id, last));
        Ok(true)
    }

    /// The typos of `word`, heavy or common.
    pub(super) fn neighbours(&self, word: u32) -> Neighbours<'_> {
        Neighbours { links: &self.neighbour_links, at: self.neighbour_head[word as usize] }
    }

    /// The typo keys of `word`: two words are typos when they share one (empty for a word that
    /// can be no typo).
    pub(super) fn typo_keys(&self, word: u32) -> &[u64] {
        let end = self.typo_key_ends[word as usize] as usize;
        let start = if word == 0 { 0 } else { self.typo_key_ends[word as usize - 1] as usize };
        &self.typo_keys[start..end]
    }

    /// The words listed under typo key `key`, the last listed first.
    pub(super) fn words_under(&self, key: u64) -> impl Iterator<Item = u32> + '_ {
        let mut link = self.keys.get(key).unwrap_or(END);
        core::iter::from_fn(move || {
            let (word, previous) = step(&self.key_links, link)?;
            link = previous;
            Some(word)
        })
    }

    /// The heavy typos of `word`.
    pub(super) fn heavy_neighbours(&self, word: u32) -> impl Iterator<Item = u32> + '_ {
        self.neighbours(word).filter(move |&n| self.heavy(n))
    }

    /// The packed digits of `word` if it is a bare number, else [`NOT_A_NUMBER`].
    #[inline]
    pub(super) fn number(&self, word: u32) -> u64 {
        self.number[word as usize]
    }

    /// Whether `word` is heavy.
    #[inline]
    pub(super) fn heavy(&self, word: u32) -> bool {
        !self.light[word as usize]
    }
}

/// The typos of a word, newest first.
pub(super) struct Neighbours<'a> {
    links: &'a [(u32, u32)],
    at: u32,
}

impl Iterator for Neighbours<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.at == END {
            return None;
        }
        let (word, previous) = self.links[self.at as usize];
        self.at = previous;
        Some(word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::text::word_units;
    use crate::fingerprint::text::Scratch;

    fn vocabulary(words: &[&str]) -> (Vocabulary, Vec<u32>) {
        let mut scratch = Scratch::default();
        let (_, hasher) = word_units(b"", 0, &mut scratch).unwrap();
        let mut v = Vocabulary::default();
        let ids = words
            .iter()
            .map(|w| {
                // Signs, or a release's or a name's mark, follow the token.
                let token = w.trim_end_matches(|c| c == '+' || c == '#' || c == '.' || c == '-').len();
                v.insert(hasher.unit(w.as_bytes()), w.as_bytes(), token, &hasher).unwrap()
            })
            .collect();
        (v, ids)
    }

    /// Every word's typos (sorted), ids and lookups under each typo key.
    fn state(v: &Vocabulary) -> (Vec<Vec<u32>>, Vec<Option<u32>>, Vec<Vec<u32>>) {
        let neighbours = (0..v.len() as u32).map(|w| {
            let mut n: Vec<u32> = v.neighbours(w).collect();
            n.sort_unstable();
            n
        });
        let ids = v.hash.iter().map(|&h| v.id(h)).collect();
        let listed = v.typo_keys.iter().map(|&key| {
            v.words_under(key).collect()
        });
        (neighbours.collect(), ids, listed.collect())
    }

    #[test]
    fn rolling_back_forgets_the_words_since_the_mark() {
        let (mut v, _) = vocabulary(&["network", "netwrok", "driver", "with", "vmxnet3", "c++", "parser"]);
        let before = state(&v);
        let mark = v.mark();
        let mut scratch = Scratch::default();
        let (_, hasher) = word_units(b"", 0, &mut scratch).unwrap();
        for w in ["networks", "netwok", "drivers", "wiht", "vmxnet2", "c#", "parsers", "parsrs", "brand-new"] {
            let token = w.trim_end_matches(|c| c == '+' || c == '#').len();
            v.insert(hasher.unit(w.as_bytes()), w.as_bytes(), token, &hasher).unwrap();
        }
        assert!(v.len() > before.1.len() && v.neighbours(0).count() > before.0[0].len());
        v.roll_back(mark);
        assert_eq!(state(&v), before);
        let n = before.1.len();
        assert_eq!((v.len(), v.base.len(), v.light.len(), v.neighbour_head.len(), v.typo_key_ends.len()), (n, n, n, n, n));
        assert_eq!(v.id(hasher.unit(b"networks")), None);
        // The words come back as new.
        let again = v.insert(hasher.unit(b"netwok"), b"netwok", 6, &hasher).unwrap();
        assert_eq!(again as usize, n);
        assert!(v.neighbours(again).any(|n| n == 0));
    }

    /// Typos by their definition: some string is each word or each with one code point removed.
    fn typos(a: &str, b: &str) -> bool {
        let forms = |w: &str| {
            let chars: Vec<char> = w.chars().collect();
            let mut out = vec![w.to_string()];
            if chars.len() > TYPO_CHARS {
                out.extend((0..chars.len()).map(|i| chars.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, c)| c).collect()));
            }
            out
        };
        let signs = |w: &str| w.bytes().any(|b| b == b'+' || b == b'#');
        let digits = |w: &str| w.bytes().any(|b| b.is_ascii_digit());
        let long = |w: &str| w.chars().count() >= TYPO_CHARS && !signs(w);
        if a == b || !long(a) || !long(b) {
            return false;
        }
        if digits(a) || digits(b) {
            // One digit changed, nothing else.
            let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let apart: Vec<usize> = (0..ca.len()).filter(|&i| ca.len() == cb.len() && ca[i] != cb[i]).collect();
            return ca.len() == cb.len() && apart.len() == 1 && ca[apart[0]].is_ascii_digit() && cb[apart[0]].is_ascii_digit();
        }
        forms(a).iter().any(|f| forms(b).contains(f))
    }

    #[test]
    fn a_typo_key_lists_the_first_words_to_come_and_no_more() {
        // `qrst`, then `q…rst` with 200 letters of two UTF-8 bytes: all share the key `qrst`.
        let crowd: Vec<String> = ('\u{100}'..).filter(|c| c.is_lowercase()).take(200).map(|c| format!("q{c}rst")).collect();
        let mut words = vec!["qrst"];
        words.extend(crowd.iter().map(String::as_str));
        let (mut v, ids) = vocabulary(&words);
        let mut scratch = Scratch::default();
        let (_, hasher) = word_units(b"", 0, &mut scratch).unwrap();
        let key = hasher.unit(b"qrst");
        let listed = |v: &Vocabulary| state(v).2[v.typo_keys.iter().position(|&k| k == key).unwrap()].len();
        assert_eq!(listed(&v), TYPO_KEY_WORDS);
        // The first words to come are typos of `qrst` and of one another, the rest of none.
        let typos_of_first: Vec<u32> = v.neighbours(ids[0]).collect();
        assert_eq!(typos_of_first.len(), TYPO_KEY_WORDS - 1);
        for (i, &id) in ids.iter().enumerate().skip(1) {
            let holds_key = v.typo_keys(id).contains(&key);
            assert_eq!(holds_key, i < TYPO_KEY_WORDS, "{}", words[i]);
            assert_eq!(v.neighbours(id).count(), if i < TYPO_KEY_WORDS { TYPO_KEY_WORDS - 1 } else { 0 }, "{}", words[i]);
        }
        // A word that would crowd the key, asked about and rolled back, leaves it as it was.
        let before = state(&v);
        let mark = v.mark();
        let asked = v.insert(hasher.unit("qжrst".as_bytes()), "qжrst".as_bytes(), "qжrst".len(), &hasher).unwrap();
        assert_eq!((asked as usize, v.neighbours(asked).count()), (words.len(), 0));
        v.roll_back(mark);
        assert_eq!(state(&v), before);
        assert!(v.linked_to.iter().all(|&m| m == END));
    }

    #[test]
    fn words_are_weighed_as_specified() {
        let (v, ids) = vocabulary(&["the", "für", "в", "x", "7", "v2", "2024", "crash", "parser", "fonts", "ü", "arm64", "id3", "v", "vv2", "2nd", "c", "c++", "c#", "21st", "2x", "14.", "1-", "10-", "s", "y", "a"]);
        let light: Vec<bool> = ids.iter().map(|&id| v.light[id as usize]).collect();
        // A letter alone is heavy unless common (`s` of "it's", Spanish `y`, English `a`), as
        // "ü" and a CJK character are. A release's number is light, a name's heavy.
        let expected = [true, true, true, false, true, true, true, false, false, false, false, false, false, false, false, true, false, false, false, true, false, true, false, false, true, true, true];
        assert_eq!(light, expected);
        // A name's number is no typo of another (`8859-10`, `8859-11` name two character sets).
        let (named, _) = vocabulary(&["10-", "11-"]);
        assert!(named.neighbours(1).next().is_none());
        // c++ and c# are words of their own, with c as their base.
        assert_eq!([v.base[ids[17] as usize], v.base[ids[18] as usize]], [ids[16], ids[16]]);
        assert_ne!(ids[17], ids[16]);
    }

    #[test]
    fn typos_are_the_words_sharing_a_key() {
        let words = [
            "configuration", "configuraton", "confiugration", "configurations", "bug", "bugs", "big", "node", "code", "nodes",
            "crash", "hang", "parser", "parsre", "pasrer", "ajv", "conf", "the", "teh", "für", "fur", "straße", "strasse", "mode",
            "abcd", "bcde", "acbd", "gtk2", "gtk3", "gtk", "gtk+", "node#", "with", "witg", "wiht", "that", "than", "what",
            "thatr", "gtk23", "gtk24", "gtk33", "gt2k", "x11", "x12", "x1", "vmxnet3", "vmxnet2", "vmxne3", "fc7598a", "fc7599a",
            "fc759a", "ab1", "abc", "gtk2+",
        ];
        let (v, ids) = vocabulary(&words);
        for (i, a) in words.iter().enumerate() {
            for (j, b) in words.iter().enumerate() {
                // Common words have typos too, but not among themselves.
                let not_both_light = v.heavy(ids[i]) || v.heavy(ids[j]);
                let found = v.neighbours(ids[i]).any(|n| n == ids[j]);
                assert_eq!(found, not_both_light && typos(a, b), "{} {}", a, b);
            }
        }
        // Each typo is listed once.
        let mut listed: Vec<u32> = v.neighbours(ids[0]).collect();
        let count = listed.len();
        listed.sort_unstable();
        listed.dedup();
        assert_eq!(listed.len(), count);
    }
}
