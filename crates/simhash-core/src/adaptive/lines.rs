//! Candidates for pairs judged as lines (specification v3): pairs in which a text has fewer
//! than [`LINE_WORDS`] distinct words.
//!
//! Such a pair holds the same heavy words but for one typo (when they share [`TYPO_CONTEXT`]
//! heavy words besides), and each side holds at most
//! `a = min(LIGHT_CHANGES, heavy words shared)` light words the other lacks. So a kept text is
//! listed under keys made of its heavy words and of what is left of its light words when at most
//! `a` of them are taken out, and a text probes the same keys of its own heavy words and of each
//! variant of them one typo away that a word no text took before can make. A typo that exactly
//! one text taken before holds pairs with a word taken before; such words are indexed by typo
//! key and by the heavy words their text holds besides, so a probe finds only texts whose other
//! heavy words are its own (or its own but the word the typo replaces). A key is the sum of its
//! words' unit hashes, so a variant costs one addition. Two kept texts under one key would be
//! near-duplicates of each other but for their shapes (the later would not have been kept), so a
//! key lists at most `SHAPES_PER_WORD_SET` kept texts of one word set, more only when sums
//! collide: the work per text is bounded by its own words and their typos, whatever the rest of
//! the input holds.
//!
//! Most heavy word sets are held by one kept text, and a text has some ten keys: while fewer
//! than [`LISTED_BY_HEAVY_WORDS`] kept texts hold a heavy word set, they are listed under the
//! set alone, and a probe of it meets them all whatever their light words (the judge tells them
//! apart); the kept text that crowds the set lists each of them under its keys. Either way a
//! probe finds every kept text a key would, so the decisions do not depend on it.
//!
//! A text of more than [`KEYED_WORDS`] distinct words is in no such pair: the other text has
//! fewer than [`LINE_WORDS`], and one typo and `LIGHT_CHANGES` light words are all a line
//! may gain.

use super::mix_map::MixMap;
use super::vocabulary::Vocabulary;
use super::{extend, LIGHT_CHANGES, LINE_WORDS, TYPO_CONTEXT};
use crate::Error;

/// The most distinct words a text in a pair judged as lines may have.
pub(super) const KEYED_WORDS: usize = LINE_WORDS - 1 + LIGHT_CHANGES + 1;

/// Kept texts are listed under their heavy words alone until this many hold the same ones; then
/// each of them (those before too) under its keys. Most heavy word sets are one line's, and a
/// line has many keys (some ten on real lines): one entry each holds their memory to a tenth,
/// and a probe of a sparse set meets fewer than this many texts, whatever their light words.
pub(super) const LISTED_BY_HEAVY_WORDS: u32 = 8;

/// The end of a chain of links.
const END: u32 = u32::MAX;
/// The end of a chain as a map keeps it (a map holds no `u32::MAX`).
const EMPTY: u32 = u32::MAX - 1;
/// The entry of a heavy word set that [`LISTED_BY_HEAVY_WORDS`] kept texts hold (above every
/// link).
const CROWDED: u32 = 1 << 31;

// A line compares shapes while fewer than `SHAPES_PER_WORD_SET` kept lines hold its heavy words,
// which the chains count up to `LISTED_BY_HEAVY_WORDS`.
const _: () = assert!(super::SHAPES_PER_WORD_SET <= LISTED_BY_HEAVY_WORDS);

/// The last link of `key`'s chain in `heads`.
fn head(heads: &MixMap, key: u64) -> u32 {
    match heads.get(key) {
        Some(EMPTY) | None => END,
        Some(link) => link,
    }
}

/// Puts `value` at the end of `key`'s chain: `heads` holds each key's last link in `links`.
fn append(heads: &mut MixMap, links: &mut Vec<(u32, u32)>, key: u64, value: u32) -> Result<(), Error> {
    // (A key left `EMPTY` by a failed push is an empty chain.)
    let last = heads.entry(key, EMPTY)?;
    push(links, (value, if *last == EMPTY { END } else { *last }))?;
    *last = links.len() as u32 - 1;
    Ok(())
}

/// The values of `key`'s chain, last first, into `found`.
fn collect(heads: &MixMap, links: &[(u32, u32)], key: u64, found: &mut Vec<u32>) -> Result<(), Error> {
    collect_from(links, head(heads, key), found)
}

/// The values of the chain whose last link is `link`, last first, into `found`.
fn collect_from(links: &[(u32, u32)], mut link: u32, found: &mut Vec<u32>) -> Result<(), Error> {
    while link != END {
        push(found, links[link as usize].0)?;
        link = links[link as usize].1;
    }
    Ok(())
}

/// The number of links of the chain whose last link is `link`.
fn chain_len(links: &[(u32, u32)], mut link: u32) -> u32 {
    let mut count = 0;
    while link != END {
        count += 1;
        link = links[link as usize].1;
    }
    count
}

/// The light words a pair judged as lines may hold on one side only, each way: as many as the
/// heavy words the two share, and no more than [`LIGHT_CHANGES`]. (Two lines of function words
/// and numbers alone, `the 1` and `the 2`, name nothing in common.)
pub(super) fn light_changes(shared_heavy: usize) -> usize {
    shared_heavy.min(LIGHT_CHANGES)
}

/// Kept texts by key, and the words exactly one text taken so far holds, by typo key.
#[derive(Default)]
pub(super) struct LineKeys {
    /// Key → its last link in `links`, a `(rank, previous link)` chain: the kept texts of
    /// crowded heavy word sets.
    heads: MixMap,
    links: Vec<(u32, u32)>,
    /// The sum of a kept text's heavy words → the kept texts that hold those heavy words: while
    /// fewer than [`LISTED_BY_HEAVY_WORDS`] do, the last link of their `(rank, previous link)`
    /// chain in `sparse_links`; from then on [`CROWDED`], and each is listed under its keys.
    word_sets: MixMap,
    sparse_links: Vec<(u32, u32)>,
    /// Every sum of the other heavy words of a text beside a word with typo keys it alone held
    /// when taken (a probe looks for typos under a sum only when some text has it) → how many
    /// kept texts held such a heavy word beside those heavy words: the lines that fill that
    /// slot with a word of their own (see [`super::TYPO_SIBLINGS`]).
    single_rests: MixMap,
    /// Per word, the first text taken that holds it, and (for a word with typo keys) the sum of
    /// that text's other heavy words. A word exactly one text holds is found through the
    /// vocabulary's lists of its typo keys, so it costs no entry of its own under each key.
    holder: Vec<u32>,
    rest: Vec<u64>,
    /// Per word, whether its first holder was kept and, a heavy word with typo keys, filled the
    /// slot `rest` with it (counted in `single_rests`).
    filled: Vec<bool>,
    /// The unit hashes of the light words of the text being listed or probing.
    light: Vec<u64>,
    /// The keys of heavy words a probe tries, each with its `a`.
    variants: Vec<(u64, usize)>,
}

/// Calls `f` with `sum` less every choice of at most `left` of `hashes` (in increasing order).
fn less_at_most(sum: u64, hashes: &[u64], left: usize, f: &mut dyn FnMut(u64)) {
    f(sum);
    if left == 0 {
        return;
    }
    for (i, &hash) in hashes.iter().enumerate() {
        less_at_most(sum.wrapping_sub(hash), &hashes[i + 1..], left - 1, f);
    }
}

fn push<T>(list: &mut Vec<T>, value: T) -> Result<(), Error> {
    list.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
    list.push(value);
    Ok(())
}

impl LineKeys {
    /// Lists the kept text of `words` (distinct), taken `rank`-th: under its heavy words alone
    /// while fewer than [`LISTED_BY_HEAVY_WORDS`] kept texts hold them, else under its keys.
    /// `words_of(k)` are the words of the text taken `k`-th, for listing again under their keys
    /// the texts of a word set that becomes crowded.
    pub(super) fn keep<'w>(&mut self, vocabulary: &Vocabulary, words: &[u32], rank: u32, words_of: &dyn Fn(u32) -> &'w [u32]) -> Result<(), Error> {
        // A heavy word with typo keys this text was the first to hold fills its slot.
        for &word in words {
            if vocabulary.heavy(word) && self.holder.get(word as usize) == Some(&rank) && !vocabulary.typo_keys(word).is_empty() {
                let slot = self.single_rests.entry(self.rest[word as usize], 0)?;
                *slot = slot.saturating_add(1).min(EMPTY);
                self.filled[word as usize] = true;
            }
        }
        let (heavy, _) = self.split(vocabulary, words);
        let last = self.word_sets.get(heavy).unwrap_or(END);
        if last == CROWDED {
            return self.list_keys(vocabulary, words, rank);
        }
        if chain_len(&self.sparse_links, last) + 1 < LISTED_BY_HEAVY_WORDS {
            if self.sparse_links.len() >= CROWDED as usize {
                return Err(Error::TooManyElements);
            }
            // Room first, so that the set never names a link that failed to be pushed.
            self.sparse_links.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
            self.word_sets.replace(heavy, self.sparse_links.len() as u32)?;
            self.sparse_links.push((rank, last));
            return Ok(());
        }
        let mut link = last;
        while link != END {
            let (earlier, next) = self.sparse_links[link as usize];
            self.list_keys(vocabulary, words_of(earlier), earlier)?;
            link = next;
        }
        self.word_sets.replace(heavy, CROWDED)?;
        self.list_keys(vocabulary, words, rank)
    }

    /// Lists the text of `words`, taken `rank`-th, under its keys.
    fn list_keys(&mut self, vocabulary: &Vocabulary, words: &[u32], rank: u32) -> Result<(), Error> {
        let (heavy, count) = self.split(vocabulary, words);
        let light = core::mem::take(&mut self.light);
        let mut result = Ok(());
        less_at_most(heavy.wrapping_add(light.iter().fold(0, |s: u64, &h| s.wrapping_add(h))), &light, light_changes(count), &mut |key| {
            if result.is_ok() {
                result = append(&mut self.heads, &mut self.links, key, rank);
            }
        });
        self.light = light;
        result
    }

    /// How many kept texts hold the heavy words of the text of `words`, and no other, counted
    /// up to [`LISTED_BY_HEAVY_WORDS`].
    pub(super) fn kept_with_heavy_words_of(&mut self, vocabulary: &Vocabulary, words: &[u32]) -> u32 {
        let (heavy, _) = self.split(vocabulary, words);
        match self.word_sets.get(heavy) {
            None => 0,
            Some(CROWDED) => LISTED_BY_HEAVY_WORDS,
            Some(last) => chain_len(&self.sparse_links, last),
        }
    }

    /// How many kept texts of at most [`KEYED_WORDS`] words hold the heavy words whose hashes
    /// sum to `shared` and one heavy word more with typo keys that no text taken before held.
    pub(super) fn slot_fillers(&self, shared: u64) -> u32 {
        self.single_rests.get(shared).unwrap_or(0)
    }

    /// Whether `word`'s first holder is one of the [`LineKeys::slot_fillers`] of `shared`, by
    /// that word.
    pub(super) fn fills_with(&self, word: u32, shared: u64) -> bool {
        self.filled.get(word as usize) == Some(&true) && self.rest[word as usize] == shared
    }

    /// Notes that the text of `words`, taken `rank`-th, holds them: `held` counts the texts
    /// taken so far that hold each word, this one among them.
    pub(super) fn count(&mut self, vocabulary: &Vocabulary, words: &[u32], rank: u32, held: &[u32]) -> Result<(), Error> {
        extend(&mut self.holder, vocabulary.len(), END)?;
        extend(&mut self.rest, vocabulary.len(), 0)?;
        extend(&mut self.filled, vocabulary.len(), false)?;
        let (heavy, _) = self.split(vocabulary, words);
        for &word in words.iter().filter(|&&w| held[w as usize] == 1) {
            self.holder[word as usize] = rank;
            if !vocabulary.typo_keys(word).is_empty() {
                let rest = if vocabulary.heavy(word) { heavy.wrapping_sub(vocabulary.hash[word as usize]) } else { heavy };
                self.single_rests.get_or_insert(rest, 0)?;
                self.rest[word as usize] = rest;
            }
        }
        Ok(())
    }

    /// The holders of the words sharing a typo key with `word` that exactly one text taken so
    /// far holds, in a text whose other heavy words sum to `rest`, into `found`. A key lists at
    /// most [`super::vocabulary::TYPO_KEY_WORDS`] words, so this is bounded by `word`'s keys.
    fn single_typos(&self, vocabulary: &Vocabulary, word: u32, rest: u64, held: &[u32], found: &mut Vec<u32>) -> Result<(), Error> {
        if self.single_rests.get(rest).is_none() {
            return Ok(());
        }
        for &typo in vocabulary.typo_keys(word) {
            for other in vocabulary.words_under(typo) {
                // (Words of the text being decided may be newer than the counts.)
                if other != word && held.get(other as usize) == Some(&1) && self.rest.get(other as usize) == Some(&rest) && self.holder[other as usize] != END {
                    push(found, self.holder[other as usize])?;
                }
            }
        }
        Ok(())
    }

    /// The sum of the heavy words' hashes and their number; the light words' hashes into `light`.
    fn split(&mut self, vocabulary: &Vocabulary, words: &[u32]) -> (u64, usize) {
        self.light.clear();
        let (mut heavy, mut count) = (0u64, 0);
        for &word in words {
            let hash = vocabulary.hash[word as usize];
            if vocabulary.heavy(word) {
                heavy = heavy.wrapping_add(hash);
                count += 1;
            } else {
                self.light.push(hash);
            }
        }
        (heavy, count)
    }

    /// Every kept text that may be a near-duplicate of the text of `words` judged as lines, and
    /// some other texts taken before, into `found` (a text may come more than once). `holds(w)`
    /// says whether the text holds word `w`; `held` counts the texts taken before holding each
    /// word.
    ///
    /// A typo pairs two words when one is held by no other text taken before. A word of this
    /// text that no text taken before holds may pair with any typo a kept text holds: its
    /// variants (the word replaced by the typo, dropped, or the typo added) are probed by key.
    /// A word taken before pairs only with a typo exactly one text taken before holds: that
    /// text is the candidate when its other heavy words are this text's (the typo added), or
    /// this text's but the word (the typo replacing it, or a light typo beside it), or when it
    /// holds a word of this text no other text holds (this text's word is one too many).
    pub(super) fn probe(&mut self, vocabulary: &Vocabulary, words: &[u32], holds: &dyn Fn(u32) -> bool, held: &[u32], found: &mut Vec<u32>) -> Result<(), Error> {
        let (heavy, count) = self.split(vocabulary, words);
        found.clear();
        self.variants.clear();
        self.variants.push((heavy, light_changes(count)));
        let fewer = light_changes(count.saturating_sub(1));
        if count >= TYPO_CONTEXT {
            for &u in words {
                if held[u as usize] > 0 {
                    // (A word held by a text too long to be a line has no holder.)
                    let holder = self.holder.get(u as usize).copied().unwrap_or(END);
                    if held[u as usize] == 1 && holder != END {
                        push(found, holder)?;
                    }
                    self.single_typos(vocabulary, u, heavy, held, found)?;
                    if vocabulary.heavy(u) {
                        self.single_typos(vocabulary, u, heavy.wrapping_sub(vocabulary.hash[u as usize]), held, found)?;
                    }
                    continue;
                }
                let replaceable = vocabulary.heavy(u) && count > TYPO_CONTEXT;
                let less = heavy.wrapping_sub(vocabulary.hash[u as usize]);
                // A typo of a word the other text holds too, or of a light one: u is one too many.
                let mut extra = false;
                for n in vocabulary.neighbours(u).filter(|&n| held[n as usize] > 0) {
                    if vocabulary.heavy(n) && !holds(n) {
                        let hash = vocabulary.hash[n as usize];
                        if replaceable {
                            push(&mut self.variants, (less.wrapping_add(hash), fewer))?;
                        }
                        // The kept text holds one word more: a typo of u.
                        push(&mut self.variants, (heavy.wrapping_add(hash), light_changes(count)))?;
                    } else {
                        extra = true;
                    }
                }
                if extra && replaceable {
                    push(&mut self.variants, (less, fewer))?;
                }
            }
        }
        let light_sum = self.light.iter().fold(0, |s: u64, &h| s.wrapping_add(h));
        let (heads, links) = (&self.heads, &self.links);
        let mut result = Ok(());
        for &(heavy, a) in &self.variants {
            // A kept text found under a key holds the heavy words of its variant.
            match self.word_sets.get(heavy) {
                None => continue,
                Some(CROWDED) => less_at_most(heavy.wrapping_add(light_sum), &self.light, a, &mut |key| {
                    if result.is_ok() {
                        result = collect(heads, links, key, found);
                    }
                }),
                Some(last) => collect_from(&self.sparse_links, last, found)?,
            }
            result?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_less_at_most_two_are_each_tried_once() {
        let hashes = [1u64, 10, 100, 1000];
        let mut seen = Vec::new();
        less_at_most(1111, &hashes, 2, &mut |s| seen.push(s));
        seen.sort_unstable();
        let mut want = vec![1111, 1110, 1101, 1011, 111, 1100, 1010, 110, 1001, 101, 11];
        want.sort_unstable();
        assert_eq!(seen, want);
        let mut none = Vec::new();
        less_at_most(5, &[], 2, &mut |s| none.push(s));
        assert_eq!(none, [5]);
    }

    #[test]
    fn light_changes_follow_the_shared_heavy_words() {
        assert_eq!((0..6).map(light_changes).collect::<Vec<_>>(), [0, 1, 2, 3, 3, 3]);
    }
}
