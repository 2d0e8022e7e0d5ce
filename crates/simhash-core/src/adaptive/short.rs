//! The short-text rule of specification v3: words weighed by what they say, lines judged by the
//! words they hold, typos forgiven (`docs/adaptive.md`).
//!
//! Two short texts x and y are compared by their word sets. Each word is heavy or light (see
//! [`super::vocabulary`]). A heavy word of one text and a typo of it in the other *pair* when
//! one of the two is held by no other short text taken before: a misspelling is rare, and two
//! words of a corpus one letter apart (`clang`, `flang`) are two names.
//!
//! - *Lines*: when either text has fewer than [`LINE_WORDS`] distinct words, the two
//!   hold the same heavy words, but for one typo (a pair, or one word too many that is a typo of
//!   a word the other holds) when they share [`TYPO_CONTEXT`] heavy words besides, and each
//!   holds at most `min(LIGHT_CHANGES, heavy words shared)` light words the other lacks, the
//!   bare numbers each holds alone are one edit from the other's (the `numbers` module), and
//!   their shapes do not clash (the `shape` module). A line that names another item, adds a word
//!   that says more (`- documentation`, `(flake8)`) or reverses its words (`English-Czech`,
//!   `Czech-English`) is a different line.
//! - *Sentences*: otherwise, with each word weighing [`HEAVY_WEIGHT`] or [`LIGHT_WEIGHT`], the
//!   words both hold shared, and the heavy words only one holds paired with their typos on the
//!   other side (a maximum matching, each pair sharing [`TYPO_SHARED`] of its weight), the
//!   weighted Jaccard similarity `M / (W(x) + W(y) − M)` reaches [`THRESHOLD`], and each text
//!   holds at most one unpaired heavy word the other lacks per [`SUBSTITUTION_SPAN`] distinct
//!   words of the smaller.
//! - With template siblings removed, every pair is judged by the similarity alone, against
//!   [`TEMPLATES_THRESHOLD`].
//!
//! The similarity reported for a pair is its weighted Jaccard similarity. The counts of texts
//! taken before are the only state, so this is a function of the texts and their order.
//!
//! Candidates of line pairs come from keys (the `lines` module). Those of sentences (and of
//! every pair when template siblings are removed) come from lists of kept texts per word, with
//! guarantees that make them complete whatever the words' frequencies, so the lists may be
//! probed cheapest first:
//! - *by weight*: the shared weight is at least the threshold times x's weight, so probing
//!   x's words until the weight left unprobed is below that meets every near-duplicate;
//! - *by substitution*: at most `b` heavy words of x go unpaired (the rule bounds both sides),
//!   so any `b + 1` heavy words of x hold a shared or paired one, and any `b + 2` two: probing
//!   x's cheapest `b + 1` meets every near-duplicate once, and its cheapest `b + 2` twice.
//!   The cheapest plan is taken.
//! A typo of a probed word is probed with it. Each candidate is judged once.
//!
//! Two sentences are compared only through a word fewer than [`SENTENCES_PER_WORD`] kept
//! sentences hold, so a list stops growing there and is never probed: a plan that would probe
//! such a list gives way to probing every shorter list of the text's words, which meets every pair
//! the rule compares. A sentence's work is then bounded by its own words, whatever the lists hold.
//! Sentences of the same words are always compared: they are found through a list per word set.

use super::best::Best;
use super::lines::{light_changes, LineKeys, KEYED_WORDS};
use super::shape::{clash, Shaped, SHAPES_PER_WORD_SET};
use super::vocabulary::Vocabulary;
use super::mix_map::MixMap;
use super::numbers::{self, NOT_A_NUMBER};
use super::{extend, insertion_sort, set_hash, HEAVY_WEIGHT, LIGHT_WEIGHT, LINE_WORDS, SENTENCES_PER_WORD, SUBSTITUTION_SPAN, TEMPLATES_THRESHOLD, THRESHOLD, TYPO_CONTEXT, TYPO_SHARED, TYPO_SIBLINGS};
use crate::Error;

/// A list entry: a kept text's rank and weight.
fn pack(rank: u32, weight: u32) -> u64 {
    u64::from(rank) | u64::from(weight) << 32
}

fn unpack(entry: u64) -> (u32, u32) {
    (entry as u32, (entry >> 32) as u32)
}

/// What judging a candidate costs against meeting a list entry, for choosing how to probe.
const JUDGE_COST: usize = 8;

/// How a sentence's lists are probed (see [`Matcher::choose`]).
#[derive(Clone, Copy)]
enum Probe {
    /// The first this many words of the plan, each meeting judged.
    ByWeight(usize),
    /// The first `b` + this many heavy words, a text judged when met this many times.
    Substitution(u32),
    /// Every list that is not full.
    Open,
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

/// Notes a light word's packed number, if it is a bare number.
fn push_number(numbers: &mut Vec<u64>, number: u64) {
    if number != NOT_A_NUMBER {
        numbers.push(number);
    }
}

/// The lists of kept short texts and the scratch of one decision.
pub(super) struct Matcher {
    templates: bool,
    threshold: (u32, u32),
    /// Word → the kept texts listed under it: every one when template siblings are removed,
    /// else the first [`SENTENCES_PER_WORD`] sentences (a full list).
    all: Vec<Vec<u64>>,
    /// The hash of a word set → its list in `same_lists` of the kept sentences with it, by rank.
    same: MixMap,
    same_lists: Vec<Vec<u32>>,
    /// Per kept text (by rank): the visit whose meetings `hits` counts, and that count.
    round_of: Vec<u32>,
    hits: Vec<u32>,
    /// Per kept text (by rank): the visit that last judged it.
    judged: Vec<u32>,
    /// Per text (by rank): whether it is kept (and not removed since).
    kept: Vec<bool>,
    /// Kept texts of at most [`KEYED_WORDS`] words by key, and the ones a probe found.
    lines: LineKeys,
    /// Whether the line being decided compares shapes: fewer than [`SHAPES_PER_WORD_SET`] kept
    /// lines hold its heavy words.
    shaped: bool,
    found: Vec<u32>,
    /// Per word: `marks` is the visit of the text being decided when it holds the word; `seen`
    /// the judgement that last saw it in a candidate; `unpaired` when it was an unpaired heavy
    /// word of the candidate there, with its place in `uy`.
    marks: Vec<u32>,
    seen: Vec<u32>,
    unpaired: Vec<u32>,
    place: Vec<u32>,
    /// Per word, how many short texts taken so far hold it.
    held: Vec<u32>,
    judgement: u32,
    /// The text's words with what probing each costs, and its lists that are not full.
    plan: Vec<(usize, u32, usize)>,
    ux: Vec<u32>,
    uy: Vec<u32>,
    /// The bare numbers (packed) only x holds, and only y.
    nx: Vec<u64>,
    ny: Vec<u64>,
    partner: Vec<u32>,
    visited: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// Whether the text's word `a` and a kept text's typo of it `b` pair, given how many short texts
/// taken so far hold each word (the kept text among them).
fn pairable(held: &[u32], a: u32, b: u32) -> bool {
    held[a as usize] == 0 || held[b as usize] <= 1
}


fn push<T>(list: &mut Vec<T>, value: T) -> Result<(), Error> {
    list.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
    list.push(value);
    Ok(())
}

/// One short text being decided or queried.
pub(super) struct Text<'a> {
    words: &'a [u32],
    shape: &'a [u16],
    /// A number no other text decided or queried since the matcher's marks were last cleared
    /// had: the marks it leaves are its own.
    visit: u32,
    weight: u32,
    heavy: usize,
}

impl<'a> Text<'a> {
    /// The text of `words` (distinct, sorted) and `shape`, marking what it meets with `visit`
    /// (below `u32::MAX`; see [`Matcher::clear_marks`]).
    pub(super) fn new(vocabulary: &Vocabulary, words: &'a [u32], shape: &'a [u16], visit: u32) -> Text<'a> {
        let (weight, heavy) = weigh(vocabulary, words);
        Text { words, shape, visit, weight, heavy }
    }
}

impl Matcher {
    /// Lists for `texts` texts over `words` words.
    pub(super) fn new(words: usize, texts: usize, templates: bool) -> Result<Matcher, Error> {
        let mut matcher = Matcher {
            templates,
            threshold: if templates { TEMPLATES_THRESHOLD } else { THRESHOLD },
            all: Vec::new(),
            same: MixMap::default(),
            same_lists: Vec::new(),
            round_of: Vec::new(),
            hits: Vec::new(),
            judged: Vec::new(),
            kept: Vec::new(),
            lines: LineKeys::default(),
            shaped: false,
            found: Vec::new(),
            marks: Vec::new(),
            seen: Vec::new(),
            unpaired: Vec::new(),
            held: Vec::new(),
            place: Vec::new(),
            judgement: 0,
            plan: Vec::new(),
            ux: Vec::new(),
            uy: Vec::new(),
            nx: Vec::new(),
            ny: Vec::new(),
            partner: Vec::new(),
            visited: Vec::new(),
        };
        matcher.grow(words, texts)?;
        Ok(matcher)
    }

    /// Room for `words` words and `texts` texts in all, as an index grows.
    pub(super) fn grow(&mut self, words: usize, texts: usize) -> Result<(), Error> {
        if self.all.len() < words {
            self.all.try_reserve(words - self.all.len()).map_err(|_| Error::OutOfMemory)?;
            self.all.resize_with(words, Vec::new);
        }
        for per_word in [&mut self.marks, &mut self.seen, &mut self.unpaired] {
            extend(per_word, words, NONE)?;
        }
        extend(&mut self.held, words, 0)?;
        extend(&mut self.place, words, 0)?;
        for per_text in [&mut self.round_of, &mut self.judged] {
            extend(per_text, texts, NONE)?;
        }
        extend(&mut self.hits, texts, 0)?;
        extend(&mut self.kept, texts, false)
    }

    /// Forgets every visit's and judgement's marks, so that numbering may start again.
    pub(super) fn clear_marks(&mut self) {
        for marks in [&mut self.marks, &mut self.seen, &mut self.unpaired, &mut self.round_of, &mut self.judged] {
            marks.fill(NONE);
        }
        self.judgement = 0;
    }

    /// Whether the judgements' numbering is about to run out (see [`Matcher::clear_marks`]).
    pub(super) fn marks_run_out(&self) -> bool {
        self.judgement >= u32::MAX / 2
    }

    /// The kept text taken `rank`-th is no longer kept: no text is judged against it again.
    pub(super) fn remove(&mut self, rank: u32) {
        self.kept[rank as usize] = false;
    }

    /// The lists `word` is probed through: its own, and those of its typos it may pair with.
    fn probed<'v>(&'v self, vocabulary: &'v Vocabulary, word: u32) -> impl Iterator<Item = &'v Vec<u64>> + 'v {
        let typos = vocabulary.heavy(word).then(|| vocabulary.heavy_neighbours(word).filter(move |&n| self.pairable(word, n)));
        core::iter::once(word).chain(typos.into_iter().flatten()).map(move |listed| &self.all[listed as usize])
    }

    /// A list this long compares no pair: [`SENTENCES_PER_WORD`] kept sentences, unless template
    /// siblings are removed (then every short text is listed, and no list is too long).
    fn full(&self) -> usize {
        if self.templates {
            usize::MAX
        } else {
            SENTENCES_PER_WORD
        }
    }

    /// What probing `word` costs (the entries of the lists it is probed through), and what
    /// probing those of them that are not full costs: the two are equal when none is full (a full
    /// list is never empty).
    fn cost(&self, vocabulary: &Vocabulary, word: u32) -> (usize, usize) {
        let full = self.full();
        self.probed(vocabulary, word).map(Vec::len).fold((0, 0), |(all, open), len| (all + len, open + if len < full { len } else { 0 }))
    }

    /// Judges against `x` every kept short text the rule may call its near-duplicate, into
    /// `best`. `kept(k)` is the kept text taken `k`-th.
    pub(super) fn find<'w>(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, kept: &dyn Fn(u32) -> Shaped<'w>, best: &mut Best) -> Result<(), Error> {
        for &word in x.words {
            self.marks[word as usize] = x.visit;
        }
        if self.templates {
            self.find_in_lists(vocabulary, x, kept, best);
            return Ok(());
        }
        if x.words.len() <= KEYED_WORDS {
            self.shaped = self.lines.kept_with_heavy_words_of(vocabulary, x.words) < SHAPES_PER_WORD_SET;
            let Matcher { lines, found, marks, held, .. } = self;
            let holds = |w: u32| marks[w as usize] == x.visit;
            lines.probe(vocabulary, x.words, &holds, held, found)?;
            let found = core::mem::take(&mut self.found);
            for &k in &found {
                if self.kept[k as usize] && self.judged[k as usize] != x.visit {
                    self.judged[k as usize] = x.visit;
                    if let Some(similarity) = self.judge(vocabulary, x, kept(k)) {
                        best.consider(similarity, k);
                    }
                }
            }
            self.found = found;
        }
        if x.words.len() >= LINE_WORDS {
            self.find_in_lists(vocabulary, x, kept, best);
        }
        Ok(())
    }

    /// Judges against `x` every kept text in the lists the rule may call its near-duplicate.
    fn find_in_lists<'w>(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, kept: &dyn Fn(u32) -> Shaped<'w>, best: &mut Best) {
        self.plan.clear();
        for &word in x.words {
            let (cost, open) = self.cost(vocabulary, word);
            self.plan.push((cost, word, open));
        }
        insertion_sort(&mut self.plan);
        if !self.templates {
            self.meet_same_words(vocabulary, x, kept, best);
        }
        let plan = self.choose(vocabulary, x);
        let b = substitutions_allowed(x.words.len());
        let mut taken = 0;
        for at in 0..self.plan.len() {
            let (_, word, _) = self.plan[at];
            match plan {
                Probe::ByWeight(words) if at < words => self.meet(vocabulary, x, word, 1, kept, best),
                Probe::Substitution(need) if taken < b + need as usize && vocabulary.heavy(word) => {
                    taken += 1;
                    self.meet(vocabulary, x, word, need, kept, best);
                }
                Probe::Open => self.meet(vocabulary, x, word, 1, kept, best),
                _ => {}
            }
        }
    }

    /// Judges the kept sentences of `x`'s words (the first still kept is the best, unless every
    /// near-duplicate is asked for), which full lists may hide.
    fn meet_same_words<'w>(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, kept: &dyn Fn(u32) -> Shaped<'w>, best: &mut Best) {
        let list = match self.same.get(set_hash(x.words)) {
            Some(list) => list as usize,
            None => return,
        };
        for at in 0..self.same_lists[list].len() {
            let k = self.same_lists[list][at];
            if !self.kept[k as usize] || self.judged[k as usize] == x.visit || kept(k).words != x.words {
                continue;
            }
            self.judged[k as usize] = x.visit;
            if let Some(similarity) = self.judge(vocabulary, x, kept(k)) {
                best.consider(similarity, k);
                if !best.lists_every() {
                    return;
                }
            }
        }
    }

    /// The cheapest way to probe the lists for `x`, whose words `plan` holds cheapest first, among
    /// those that probe no full list (each meets every pair the rule compares):
    /// - by weight: the cheapest words until what is left weighs less than the threshold's share;
    /// - by substitution: the `b + 1` cheapest heavy words, each meeting judged; or the `b + 2`
    ///   cheapest, a text judged when met twice;
    /// - every list of the text's words that is not full, each meeting judged.
    fn choose(&self, vocabulary: &Vocabulary, x: &Text<'_>) -> Probe {
        let (num, den) = self.threshold;
        let (mut probed, mut words, mut cost, mut open) = (0u32, 0usize, 0usize, true);
        while u64::from(probed) * u64::from(den) <= u64::from(den - num) * u64::from(x.weight) {
            let (c, word, o) = self.plan[words];
            probed += weight_of(vocabulary, word);
            cost += c;
            open &= c == o;
            words += 1;
        }
        let mut plan = (if open { cost * JUDGE_COST } else { usize::MAX }, Probe::ByWeight(words));
        let b = substitutions_allowed(x.words.len());
        if !self.templates && x.heavy > b {
            let heavy = |k: usize| {
                let first = self.plan.iter().filter(|&&(_, w, _)| vocabulary.heavy(w)).take(k);
                first.fold((0, true), |(cost, open), &(c, _, o)| (cost + c, open && c == o))
            };
            for need in [1, 2] {
                if x.heavy >= b + need as usize {
                    let (cost, open) = heavy(b + need as usize);
                    let cost = if need == 1 { cost * JUDGE_COST } else { cost };
                    if open && cost < plan.0 {
                        plan = (cost, Probe::Substitution(need));
                    }
                }
            }
        }
        if !self.templates {
            let cost = self.plan.iter().map(|&(_, _, open)| open).sum::<usize>() * JUDGE_COST;
            if cost < plan.0 {
                plan = (cost, Probe::Open);
            }
        }
        plan.1
    }

    /// Meets the kept texts listed under `word` and its typos in `lists` (those it may pair with:
    /// of a word other texts hold, only the typos no other text holds, whose lists are short); a
    /// text met as often as it needs is judged, once.
    fn meet<'w>(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, word: u32, need: u32, kept: &dyn Fn(u32) -> Shaped<'w>, best: &mut Best) {
        let mut typos = if vocabulary.heavy(word) { Some(vocabulary.heavy_neighbours(word)) } else { None };
        let mut next = Some(word);
        let full = self.full();
        while let Some(listed) = next {
            // A full list compares no pair.
            let len = self.all[listed as usize].len();
            for e in 0..if len < full { len } else { 0 } {
                let entry = self.all[listed as usize][e];
                let k = unpack(entry).0 as usize;
                if need > 1 {
                    if self.round_of[k] != x.visit {
                        self.round_of[k] = x.visit;
                        self.hits[k] = 0;
                    }
                    self.hits[k] += 1;
                    if self.hits[k] < need {
                        continue;
                    }
                }
                if self.judged[k] != x.visit {
                    self.judged[k] = x.visit;
                    self.consider(vocabulary, x, entry, kept, best);
                }
            }
            next = typos.as_mut().and_then(|typos| typos.find(|&n| self.pairable(word, n)));
        }
    }

    fn consider<'w>(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, entry: u64, kept: &dyn Fn(u32) -> Shaped<'w>, best: &mut Best) {
        let (k, wy) = unpack(entry);
        if !self.kept[k as usize] {
            return;
        }
        let wx = x.weight;
        let (num, den) = self.threshold;
        // Sizes first: the shared weight is at most the lighter text's.
        if u64::from(wx.max(wy)) * u64::from(num) > u64::from(wx.min(wy)) * u64::from(den) {
            return;
        }
        if let Some(similarity) = self.judge(vocabulary, x, kept(k)) {
            best.consider(similarity, k);
        }
    }

    /// The similarity of `x` and `y` if the rule calls them near-duplicate.
    pub(super) fn judge(&mut self, vocabulary: &Vocabulary, x: &Text<'_>, kept: Shaped<'_>) -> Option<f64> {
        let y = kept.words;
        self.judgement += 1;
        let round = self.judgement;
        let wx = x.weight;
        let (mut wy, mut shared, mut shared_heavy, mut light_y) = (0, 0, 0, 0);
        let mut shared_sum = 0u64;
        // Whether they share a word whose list is not full: sentences compare through no other
        // (with template siblings removed, no list is full and typos alone may join a pair).
        let (full, mut through) = (self.full(), self.templates);
        self.uy.clear();
        self.ny.clear();
        for &word in y {
            let weight = weight_of(vocabulary, word);
            wy += weight;
            self.seen[word as usize] = round;
            if self.marks[word as usize] == x.visit {
                shared += weight;
                if weight == HEAVY_WEIGHT {
                    shared_heavy += 1;
                    shared_sum = shared_sum.wrapping_add(vocabulary.hash[word as usize]);
                }
                through |= self.all[word as usize].len() < full;
            } else if weight == HEAVY_WEIGHT {
                self.unpaired[word as usize] = round;
                self.place[word as usize] = self.uy.len() as u32;
                self.uy.push(word);
            } else {
                light_y += 1;
                push_number(&mut self.ny, vocabulary.number(word));
            }
        }
        self.ux.clear();
        self.nx.clear();
        let mut light_x = 0;
        for &word in x.words {
            if self.seen[word as usize] != round {
                if vocabulary.heavy(word) {
                    self.ux.push(word);
                } else {
                    light_x += 1;
                    push_number(&mut self.nx, vocabulary.number(word));
                }
            }
        }
        if !self.templates && x.words.len().min(y.len()) < LINE_WORDS {
            let a = light_changes(shared_heavy);
            if light_x > a || light_y > a || !numbers::agree(&self.nx, &self.ny) {
                return None;
            }
            let paired = self.one_typo(vocabulary, x, round, shared_heavy, shared_sum)?;
            if self.shaped && self.clash(x, kept, paired, round) {
                return None;
            }
            let shared = shared + if paired { TYPO_SHARED } else { 0 };
            return Some(f64::from(shared) / f64::from(wx + wy - shared));
        }
        let most = self.ux.len().min(self.uy.len()) as u32;
        if !(through || (shared == wx && shared == wy)) || !reaches(self.threshold, shared + TYPO_SHARED * most, wx, wy) {
            return None;
        }
        let paired = if most == 0 { 0 } else { self.typo_pairs(vocabulary, round) };
        if !self.templates {
            let allowed = substitutions_allowed(x.words.len().min(y.len()));
            if self.ux.len() - paired > allowed || self.uy.len() - paired > allowed {
                return None;
            }
        }
        let shared = shared + TYPO_SHARED * paired as u32;
        reaches(self.threshold, shared, wx, wy).then(|| f64::from(shared) / f64::from(wx + wy - shared))
    }

    /// For a pair judged as lines, with its unpaired heavy words in `ux` and `uy`, and
    /// `shared_heavy` heavy words shared whose hashes sum to `shared_sum`: `None` unless they are
    /// no more than one typo — a pair of them, or one word that is a typo of a word the other
    /// text holds, in a pair sharing [`TYPO_CONTEXT`] heavy words whose slot fewer than
    /// [`TYPO_SIBLINGS`] kept texts fill with a third word — and then whether they are a pair.
    fn one_typo(&self, vocabulary: &Vocabulary, x: &Text<'_>, round: u32, shared_heavy: usize, shared_sum: u64) -> Option<bool> {
        let paired = match (self.ux.as_slice(), self.uy.as_slice()) {
            ([], []) => return Some(false),
            _ if shared_heavy < TYPO_CONTEXT => None,
            (&[u], &[v]) => (vocabulary.neighbours(u).any(|n| n == v) && self.pairable(u, v)).then(|| true),
            (&[u], []) => vocabulary.neighbours(u).any(|w| self.seen[w as usize] == round && self.pairable(u, w)).then(|| false),
            ([], &[v]) => vocabulary.neighbours(v).any(|w| self.marks[w as usize] == x.visit && self.pairable(w, v)).then(|| false),
            _ => None,
        }?;
        // The pair's own words fill the slot once each at most (a word has one first holder).
        let own = self.ux.iter().chain(&self.uy).filter(|&&w| self.lines.fills_with(w, shared_sum)).count() as u32;
        (self.lines.slot_fillers(shared_sum).saturating_sub(own) < TYPO_SIBLINGS).then(|| paired)
    }

    /// Whether the shapes of the lines `x` and `y`, whose words the latest judgement (`round`)
    /// compared, clash; `paired`: whether a word of each was found to be a typo of the other.
    fn clash(&self, x: &Text<'_>, y: Shaped<'_>, paired: bool, round: u32) -> bool {
        let typo = if paired { Some((self.ux[0], self.uy[0])) } else { None };
        let x_holds = |w: u32| self.marks[w as usize] == x.visit;
        let y_holds = |w: u32| self.seen[w as usize] == round || typo.map_or(false, |(u, _)| u == w);
        clash(Shaped { words: x.words, shape: x.shape }, y, typo, &x_holds, &y_holds)
    }

    /// Whether the text's word `a` and the candidate's typo of it `b` pair: when one of them is
    /// held by no other text taken before. A misspelling is rare; two words of a corpus one
    /// letter apart (`clang`, `flang`) are two names.
    fn pairable(&self, a: u32, b: u32) -> bool {
        pairable(&self.held, a, b)
    }

    /// Counts the words of the short text `x` taken `rank`-th, kept or not.
    pub(super) fn count(&mut self, vocabulary: &Vocabulary, x: &[u32], rank: u32) -> Result<(), Error> {
        for &word in x {
            self.held[word as usize] += 1;
        }
        if self.templates || x.len() > KEYED_WORDS {
            return Ok(());
        }
        self.lines.count(vocabulary, x, rank, &self.held)
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

    /// Lists the kept text `y`, taken `rank`-th: under its keys if it has at most
    /// [`KEYED_WORDS`] words; and, if it has [`LINE_WORDS`] or more (any, when template
    /// siblings are removed), in `all` under every word whose list is not full.
    pub(super) fn keep<'w>(&mut self, vocabulary: &Vocabulary, y: &[u32], rank: u32, words_of: &dyn Fn(u32) -> &'w [u32]) -> Result<(), Error> {
        self.kept[rank as usize] = true;
        if !self.templates && y.len() <= KEYED_WORDS {
            self.lines.keep(vocabulary, y, rank, words_of)?;
        }
        if !self.templates && y.len() < LINE_WORDS {
            return Ok(());
        }
        let (wy, full) = (weigh(vocabulary, y).0, self.full());
        if !self.templates {
            let list = self.same.get_or_insert(set_hash(y), self.same_lists.len() as u32)? as usize;
            if list == self.same_lists.len() {
                push(&mut self.same_lists, Vec::new())?;
            }
            push(&mut self.same_lists[list], rank)?;
        }
        for &word in y {
            let list = &mut self.all[word as usize];
            if list.len() < full {
                push(list, pack(rank, wy))?;
            }
        }
        Ok(())
    }
}
