//! The short-text rule of specification v3: words weighed by what they say, substituted words
//! refused, typos forgiven (`docs/adaptive.md`).
//!
//! Two short texts x and y are compared by their word sets. Each word weighs
//! [`HEAVY_WEIGHT`] or [`LIGHT_WEIGHT`] (see [`super::vocabulary`]); the words both hold are
//! shared; then heavy words that only one holds are paired with their typos on the other side
//! when one of the two is held by no other short text taken before (a maximum matching), and
//! each such pair shares [`TYPO_SHARED`] of its weight. With `M` the
//! weight shared and `W(·)` a text's total weight, the similarity is `M / (W(x) + W(y) − M)`,
//! a weighted Jaccard similarity. The pair is near-duplicate when the similarity reaches the
//! threshold and, unless template siblings are to be removed, when at most one in
//! [`SUBSTITUTION_SPAN`] of the smaller text's words is a heavy word replaced by another
//! (unpaired heavy words on both sides), and as few unpaired heavy words with no typo on the
//! other side are held by [`FREQUENT_KEPT`] other texts taken before: those name a variant of the line
//! (`- documentation`). Those texts are the ones taken before, so this too is a function of
//! the texts and their order only.
//!
//! Candidates come from lists of kept texts per word, with guarantees that make them complete
//! whatever the words' frequencies, so the lists may be probed cheapest first:
//! - *by weight*: the shared weight is at least the threshold times x's weight, so probing
//!   x's words until the weight left unprobed is below that meets every near-duplicate;
//! - *by substitution*: at most `b` heavy words go unpaired on one side. If on x's side, any
//!   `b + 1` heavy words of x hold a shared or paired one; if on y's side, y was listed under
//!   `b + 1` of its heavy words (its rarest when kept) in a second set of lists, and x's words
//!   meet one of them. A template's fixed words stay out of that second set, so a family of
//!   lines on one template costs each line the lists of the item it names.
//! A typo of a probed word is probed with it. Each candidate is judged once.

use super::best::Best;
use super::vocabulary::Vocabulary;
use super::{FREQUENT_KEPT, HEAVY_WEIGHT, LIGHT_WEIGHT, SUBSTITUTION_SPAN, TEMPLATES_THRESHOLD, THRESHOLD, TYPO_SHARED};
use crate::Error;

/// A list entry: a kept text's rank and weight.
fn pack(rank: u32, weight: u32) -> u64 {
    u64::from(rank) | u64::from(weight) << 32
}

fn unpack(entry: u64) -> (u32, u32) {
    (entry as u32, (entry >> 32) as u32)
}

/// Heavy words a text of `words` distinct words may have replaced.
fn substitutions_allowed(words: usize) -> usize {
    words / SUBSTITUTION_SPAN
}

/// The weight of a word.
fn weight_of(vocabulary: &Vocabulary, word: u32) -> u32 {
    if vocabulary.heavy(word) {
        HEAVY_WEIGHT
    } else {
        LIGHT_WEIGHT
    }
}

/// The weight of a text and its number of heavy words.
fn weigh(vocabulary: &Vocabulary, words: &[u32]) -> (u32, usize) {
    words.iter().fold((0, 0), |(w, h), &word| (w + weight_of(vocabulary, word), h + usize::from(vocabulary.heavy(word))))
}

/// Whether weight `shared` of texts weighing `wx` and `wy` reaches `(num, den)`.
fn reaches((num, den): (u32, u32), shared: u32, wx: u32, wy: u32) -> bool {
    u64::from(shared) * u64::from(den) >= u64::from(num) * u64::from(wx + wy - shared)
}

/// The lists of kept short texts and the scratch of one decision.
pub(super) struct Matcher {
    templates: bool,
    threshold: (u32, u32),
    /// Word → every kept text holding it.
    all: Vec<Vec<u64>>,
    /// Word → the kept texts listed under it for the substitution guarantee on their side.
    some: Vec<Vec<u64>>,
    /// Per kept text (by rank): the rank of the last text that judged it.
    judged: Vec<u32>,
    /// Per word: `marks` is the rank of the text being decided when it holds the word; `seen`
    /// the judgement that last saw it in a candidate; `unpaired` (`unpaired_x`) when it was an
    /// unpaired heavy word of the candidate (of the text) there, with its place in `uy`.
    marks: Vec<u32>,
    seen: Vec<u32>,
    unpaired: Vec<u32>,
    unpaired_x: Vec<u32>,
    place: Vec<u32>,
    /// Per word, how many short texts taken so far hold it.
    held: Vec<u32>,
    judgement: u32,
    plan: Vec<(usize, u32)>,
    ux: Vec<u32>,
    uy: Vec<u32>,
    partner: Vec<u32>,
    visited: Vec<u32>,
}

const NONE: u32 = u32::MAX;

fn filled<T: Clone>(len: usize, value: T) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory)?;
    v.resize(len, value);
    Ok(v)
}

fn push<T>(list: &mut Vec<T>, value: T) -> Result<(), Error> {
    list.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
    list.push(value);
    Ok(())
}

/// One short text being decided.
pub(super) struct Text<'a> {
    words: &'a [u32],
    rank: u32,
    weight: u32,
    heavy: usize,
}

impl<'a> Text<'a> {
    /// The text of `words` (distinct) taken `rank`-th.
    pub(super) fn new(vocabulary: &Vocabulary, words: &'a [u32], rank: u32) -> Text<'a> {
        let (weight, heavy) = weigh(vocabulary, words);
        Text { words, rank, weight, heavy }
    }
}

impl Matcher {
    /// Lists for `texts` texts over `words` words.
    pub(super) fn new(words: usize, texts: usize, templates: bool) -> Result<Matcher, Error> {
        let mut all = Vec::new();
        all.try_reserve_exact(words).map_err(|_| Error::OutOfMemory)?;
        all.resize_with(words, Vec::new);
        let mut some = Vec::new();
        if !templates {
            some.try_reserve_exact(words).map_err(|_| Error::OutOfMemory)?;
            some.resize_with(words, Vec::new);
        }
        Ok(Matcher {
            templates,
            threshold: if templates { TEMPLATES_THRESHOLD } else { THRESHOLD },
            all,
            some,
            judged: filled(texts, NONE)?,
            marks: filled(words, NONE)?,
            seen: filled(words, NONE)?,
            unpaired: filled(words, NONE)?,
            unpaired_x: filled(words, NONE)?,
            held: filled(words, 0)?,
            place: filled(words, 0)?,
            judgement: 0,
            plan: Vec::new(),
            ux: Vec::new(),
            uy: Vec::new(),
            partner: Vec::new(),
            visited: Vec::new(),
        })
    }

    /// What probing `word` in `lists` costs: its entries and its typos'.
    fn cost(&self, vocabulary: &Vocabulary, lists: &[Vec<u64>], word: u32) -> usize {
        let own = lists[word as usize].len();
        if vocabulary.heavy(word) {
            own + vocabulary.neighbours(word).map(|n| lists[n as usize].len()).sum::<usize>()
        } else {
            own
        }
    }

    /// Judges against `x` every kept short text the rule may call its near-duplicate, into
    /// `best`. `kept_words(k)` are the words of the kept text taken `k`-th.
    pub(super) fn find<'w>(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, kept_words: &dyn Fn(u32) -> &'w [u32], best: &mut Best) {
        for &word in x.words {
            self.marks[word as usize] = x.rank;
        }
        self.plan.clear();
        for &word in x.words {
            let cost = self.cost(vocabulary, &self.all, word);
            self.plan.push((cost, word));
        }
        self.plan.sort_unstable();
        // By weight: the cheapest words until what is left weighs less than the threshold's share.
        let (num, den) = self.threshold;
        let (mut probed, mut by_weight, mut weight_cost) = (0u32, 0usize, 0usize);
        while u64::from(probed) * u64::from(den) <= u64::from(den - num) * u64::from(x.weight) {
            let (cost, word) = self.plan[by_weight];
            probed += weight_of(vocabulary, word);
            weight_cost += cost;
            by_weight += 1;
        }
        // By substitution: the b + 1 cheapest heavy words in `all`, every word in `some`.
        let b = substitutions_allowed(x.words.len());
        if !self.templates && x.heavy > b {
            let heavy_cost: usize = self.plan.iter().filter(|&&(_, w)| vocabulary.heavy(w)).take(b + 1).map(|&(c, _)| c).sum();
            let some_cost: usize = x.words.iter().map(|&w| self.cost(vocabulary, &self.some, w)).sum();
            if heavy_cost + some_cost < weight_cost {
                let mut taken = 0;
                for at in 0..self.plan.len() {
                    let word = self.plan[at].1;
                    if taken <= b && vocabulary.heavy(word) {
                        taken += 1;
                        self.meet(vocabulary, x, word, false, kept_words, best);
                    }
                }
                for &word in x.words {
                    self.meet(vocabulary, x, word, true, kept_words, best);
                }
                return;
            }
        }
        for at in 0..by_weight {
            let word = self.plan[at].1;
            self.meet(vocabulary, x, word, false, kept_words, best);
        }
    }

    /// Judges the kept texts listed under `word` and its typos, in `some` or `all`, each once.
    fn meet<'w>(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, word: u32, in_some: bool, kept_words: &dyn Fn(u32) -> &'w [u32], best: &mut Best) {
        let mut typos = if vocabulary.heavy(word) { Some(vocabulary.neighbours(word)) } else { None };
        let mut next = Some(word);
        while let Some(listed) = next {
            let len = if in_some { self.some[listed as usize].len() } else { self.all[listed as usize].len() };
            for e in 0..len {
                let entry = if in_some { self.some[listed as usize][e] } else { self.all[listed as usize][e] };
                let kept = unpack(entry).0 as usize;
                if self.judged[kept] != x.rank {
                    self.judged[kept] = x.rank;
                    self.consider(vocabulary, x, entry, kept_words, best);
                }
            }
            next = typos.as_mut().and_then(Iterator::next);
        }
    }

    fn consider<'w>(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, entry: u64, kept_words: &dyn Fn(u32) -> &'w [u32], best: &mut Best) {
        let (kept, wy) = unpack(entry);
        let wx = x.weight;
        let (num, den) = self.threshold;
        // Sizes first: the shared weight is at most the lighter text's.
        if u64::from(wx.max(wy)) * u64::from(num) > u64::from(wx.min(wy)) * u64::from(den) {
            return;
        }
        if let Some(similarity) = self.judge(vocabulary, x, kept_words(kept)) {
            best.consider(similarity, kept);
        }
    }

    /// The similarity of `x` and `y` if the rule calls them near-duplicate.
    pub(super) fn judge(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, y: &[u32]) -> Option<f64> {
        self.judgement = self.judgement.wrapping_add(1);
        let round = self.judgement;
        let wx = x.weight;
        let mut wy = 0;
        let mut shared = 0;
        self.uy.clear();
        for &word in y {
            let weight = weight_of(vocabulary, word);
            wy += weight;
            self.seen[word as usize] = round;
            if self.marks[word as usize] == x.rank {
                shared += weight;
            } else if weight == HEAVY_WEIGHT {
                self.unpaired[word as usize] = round;
                self.place[word as usize] = self.uy.len() as u32;
                self.uy.push(word);
            }
        }
        self.ux.clear();
        for &word in x.words {
            if self.seen[word as usize] != round && vocabulary.heavy(word) {
                self.unpaired_x[word as usize] = round;
                self.ux.push(word);
            }
        }
        let most = self.ux.len().min(self.uy.len()) as u32;
        if !reaches(self.threshold, shared + TYPO_SHARED * most, wx, wy) {
            return None;
        }
        let paired = if most == 0 { 0 } else { self.typo_pairs(vocabulary, round) };
        if !self.templates {
            let allowed = substitutions_allowed(x.words.len().min(y.len()));
            if self.ux.len().min(self.uy.len()) - paired > allowed || self.variants(vocabulary, round) > allowed {
                return None;
            }
        }
        let shared = shared + TYPO_SHARED * paired as u32;
        reaches(self.threshold, shared, wx, wy).then(|| f64::from(shared) / f64::from(wx + wy - shared))
    }

    /// The unpaired heavy words of either side that name a variant: held by [`FREQUENT_KEPT`]
    /// other texts taken before or more, with no typo they pair with among the other side's
    /// unpaired words.
    fn variants(&self, vocabulary: &Vocabulary, round: u32) -> usize {
        // The candidate was taken and holds its own words: other texts are one fewer.
        let x = self.ux.iter().filter(|&&a| self.held[a as usize] >= FREQUENT_KEPT && !vocabulary.neighbours(a).any(|b| self.unpaired[b as usize] == round && self.pairable(a, b))).count();
        x + self.uy.iter().filter(|&&b| self.held[b as usize] > FREQUENT_KEPT && !vocabulary.neighbours(b).any(|a| self.unpaired_x[a as usize] == round && self.pairable(a, b))).count()
    }

    /// Whether the text's word `a` and the candidate's typo of it `b` pair: when one of them is
    /// held by no other text taken before. A misspelling is rare; two words of a corpus one
    /// letter apart (`clang`, `flang`) are two names.
    fn pairable(&self, a: u32, b: u32) -> bool {
        self.held[a as usize] == 0 || self.held[b as usize] <= 1
    }

    /// Counts the words of a short text taken, kept or not.
    pub(super) fn count(&mut self, x: &[u32]) {
        for &word in x {
            self.held[word as usize] += 1;
        }
    }

    /// The size of a maximum matching of `ux` to `uy` by typos (augmenting paths).
    fn typo_pairs(&mut self, vocabulary: &Vocabulary, round: u32) -> usize {
        self.partner.clear();
        self.partner.resize(self.uy.len(), NONE);
        self.visited.clear();
        self.visited.resize(self.uy.len(), NONE);
        let mut pairs = 0;
        for i in 0..self.ux.len() {
            if self.augment(vocabulary, round, i, i as u32) {
                pairs += 1;
            }
        }
        pairs
    }

    fn augment(&mut self, vocabulary: &Vocabulary, round: u32, i: usize, visit: u32) -> bool {
        let mut typos = vocabulary.neighbours(self.ux[i]);
        while let Some(typo) = typos.next() {
            if self.unpaired[typo as usize] != round || !self.pairable(self.ux[i], typo) {
                continue;
            }
            let j = self.place[typo as usize] as usize;
            if self.visited[j] == visit {
                continue;
            }
            self.visited[j] = visit;
            let holder = self.partner[j];
            if holder == NONE || self.augment(vocabulary, round, holder as usize, visit) {
                self.partner[j] = i as u32;
                return true;
            }
        }
        false
    }

    /// Lists the kept text `y`, taken `rank`-th: in `all` under every word; in `some` under its
    /// b + 1 rarest heavy words so far (any would do), or every word if it has no more.
    pub(super) fn keep(&mut self, vocabulary: &Vocabulary, y: &[u32], rank: u32) -> Result<(), Error> {
        let (wy, hy) = weigh(vocabulary, y);
        let entry = pack(rank, wy);
        for &word in y {
            push(&mut self.all[word as usize], entry)?;
        }
        if self.templates {
            return Ok(());
        }
        let b = substitutions_allowed(y.len());
        if hy > b {
            self.plan.clear();
            for &word in y.iter().filter(|&&w| vocabulary.heavy(w)) {
                self.plan.push((self.all[word as usize].len(), word));
            }
            self.plan.sort_unstable();
            for at in 0..=b {
                push(&mut self.some[self.plan[at].1 as usize], entry)?;
            }
        } else {
            for &word in y {
                push(&mut self.some[word as usize], entry)?;
            }
        }
        Ok(())
    }
}
