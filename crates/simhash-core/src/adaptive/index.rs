//! The default rule as an index of kept texts: texts decided as they come, one batch at a time,
//! with the same decisions as [`TextSketches::decide_with`] over the whole stream in that order
//! (both take texts through one [`Decider`]). Every text decided stays sketched (its word set,
//! shape or signature): the counts of words that decide typos are counts over every text taken.

use super::best::Best;
use super::decide::{Decider, Taken};
use super::format::{decode, encode};
use super::mix_map::MixMap;
use super::sketch::TextSketches;
use super::Rule;
use crate::Error;

/// The states of a text taken, as the format stores them: removed as a near-duplicate, kept,
/// or kept then removed.
const DUPLICATE: u8 = 0;
const KEPT: u8 = 1;
const REMOVED: u8 = 2;

/// Kept texts under caller ids, deciding each new text against them by the default rule
/// (specification v3; template siblings kept unless `templates`).
pub struct TextIndex {
    pub(super) sketches: TextSketches,
    decider: Decider,
    /// Per text taken (by rank): its id, and its state: [`DUPLICATE`], [`KEPT`] or [`REMOVED`].
    ids: Vec<u32>,
    states: Vec<u8>,
    /// Id → the rank of the kept text holding it.
    by_id: MixMap,
    size: usize,
    /// An allocation failed while a batch was being decided: the index is unusable.
    broken: bool,
}

fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<(), Error> {
    v.try_reserve(additional).map_err(|_| Error::OutOfMemory)
}

impl TextIndex {
    /// An empty index deciding by specification v3, removing template siblings too when
    /// `templates`.
    pub fn new(templates: bool) -> TextIndex {
        TextIndex::with_sketches(TextSketches::new(), templates).unwrap_or_else(|_| unreachable!("an empty decider allocates nothing"))
    }

    fn with_sketches(sketches: TextSketches, templates: bool) -> Result<TextIndex, Error> {
        let rule = Rule::V3 { templates };
        Ok(TextIndex {
            decider: Decider::new(rule, sketches.vocabulary.len(), sketches.len())?,
            sketches,
            ids: Vec::new(),
            states: Vec::new(),
            by_id: MixMap::default(),
            size: 0,
            broken: false,
        })
    }

    /// Whether template siblings are removed too.
    pub fn templates(&self) -> bool {
        self.decider.rule() == Rule::V3 { templates: true }
    }

    /// Number of kept texts.
    pub fn len(&self) -> usize {
        self.size
    }

    /// Whether no text is kept.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Number of texts decided (kept or not): each holds memory.
    pub fn taken(&self) -> usize {
        self.ids.len()
    }

    fn rank_of(&self, id: u32) -> Option<u32> {
        self.by_id.get(u64::from(id))
    }

    /// Whether a kept text holds `id`.
    pub fn contains(&self, id: u32) -> bool {
        self.rank_of(id).is_some()
    }

    /// Removes the kept text `id`: no text is removed for it from now on. What it taught the
    /// index of its words (how many texts hold each, which decides typos) stays. Returns whether
    /// a kept text held `id`.
    pub fn remove(&mut self, id: u32) -> bool {
        match self.rank_of(id) {
            Some(rank) => {
                self.decider.remove(rank);
                self.states[rank as usize] = REMOVED;
                self.by_id.remove(u64::from(id));
                self.size -= 1;
                true
            }
            None => false,
        }
    }

    /// Decides texts in order (text q is `texts[offsets[q]..offsets[q + 1]]`, normalised and
    /// lowered as for [`TextSketches::add`], under id `ids[q]`): each is removed for the most
    /// similar kept text (ties to the one kept first), or kept and added. `representative[q]`
    /// gets the id of that kept text or `ids[q]`, `similarity[q]` the similarity or 1. Any split
    /// of a stream into batches decides as [`TextSketches::decide_with`] over the whole stream.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless there are as many ids, texts and slots;
    /// [`Error::IdInUse`] for an id a kept text holds or that comes twice in `ids` (nothing
    /// decided); errors of [`TextSketches::add`] (nothing decided); [`Error::OutOfMemory`] while
    /// deciding, after which the index refuses every call.
    pub fn decide_many(&mut self, ids: &[u32], texts: &[u8], offsets: &[u32], representative: &mut [u32], similarity: &mut [f64]) -> Result<(), Error> {
        let count = offsets.len().saturating_sub(1);
        if representative.len() != count || similarity.len() != count {
            return Err(Error::LengthMismatch);
        }
        let before = self.sketch_new(ids, texts, offsets)?;
        for q in 0..count {
            let rank = (before + q) as u32;
            match self.take(rank, ids[q], true) {
                Ok((s, kept)) => {
                    representative[q] = self.ids[kept as usize];
                    similarity[q] = s;
                }
                Err(error) => {
                    self.broken = true;
                    return Err(error);
                }
            }
        }
        Ok(())
    }

    /// Keeps texts without judging them (as for [`TextIndex::decide_many`]): each is added under
    /// its id even where a kept text is its near-duplicate, and counted as every text taken is.
    /// For seeding an index with texts that must stay.
    ///
    /// # Errors
    /// As [`TextIndex::decide_many`].
    pub fn add_many(&mut self, ids: &[u32], texts: &[u8], offsets: &[u32]) -> Result<(), Error> {
        let before = self.sketch_new(ids, texts, offsets)?;
        for (q, &id) in ids.iter().enumerate() {
            if let Err(error) = self.take((before + q) as u32, id, false) {
                self.broken = true;
                return Err(error);
            }
        }
        Ok(())
    }

    /// Checks a batch's ids and sketches its texts after the others; the rank of the first.
    fn sketch_new(&mut self, ids: &[u32], texts: &[u8], offsets: &[u32]) -> Result<usize, Error> {
        self.usable()?;
        let count = offsets.len().saturating_sub(1);
        if ids.len() != count {
            return Err(Error::LengthMismatch);
        }
        self.check_new_ids(ids)?;
        let before = self.sketches.len();
        if let Err(error) = self.sketches.add(texts, offsets) {
            // Out of memory within a word's insertion leaves the vocabulary's columns uneven.
            self.broken = error == Error::OutOfMemory;
            return Err(error);
        }
        let room = self.decider.grow(self.sketches.vocabulary.len(), self.sketches.len()).and_then(|()| {
            reserve(&mut self.ids, count)?;
            reserve(&mut self.states, count)
        });
        if let Err(error) = room {
            self.sketches.truncate(before);
            return Err(error);
        }
        Ok(before)
    }

    /// Takes the text at `rank` under `id`, found against the kept texts when `judged` (else
    /// kept): the similarity and rank of the kept text it is removed for, or 1 and its own rank.
    fn take(&mut self, rank: u32, id: u32, judged: bool) -> Result<(f64, u32), Error> {
        let taken = Taken { sketches: &self.sketches, sets: None, order: None };
        let mut best = Best::one();
        if judged {
            self.decider.find(&taken, rank, &mut best)?;
        }
        let keep = best.best.is_none();
        self.decider.take(&taken, rank, keep)?;
        self.ids.push(id);
        self.states.push(if keep { KEPT } else { DUPLICATE });
        if keep {
            self.by_id.replace(u64::from(id), rank)?;
            self.size += 1;
        }
        Ok(best.best.unwrap_or((1.0, rank)))
    }

    /// Every id of a batch is new: held by no kept text, and once in the batch.
    fn check_new_ids(&self, ids: &[u32]) -> Result<(), Error> {
        if let Some(&id) = ids.iter().find(|&&id| self.contains(id)) {
            return Err(Error::IdInUse { id });
        }
        let mut batch = MixMap::default();
        for (q, &id) in ids.iter().enumerate() {
            if batch.get_or_insert(u64::from(id), q as u32)? != q as u32 {
                return Err(Error::IdInUse { id });
            }
        }
        Ok(())
    }

    /// The kept texts the rule calls near-duplicates of `text` (as for
    /// [`TextIndex::decide_many`]), most similar first, ties to the one kept first: `(id,
    /// similarity)`. The first is the text `decide_many` would remove it for. Nothing is added
    /// and no count changes.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`]; refused after an allocation failed while deciding.
    pub fn query(&mut self, text: &[u8]) -> Result<Vec<(u32, f64)>, Error> {
        self.usable()?;
        let len = u32::try_from(text.len()).map_err(|_| Error::TooManyElements)?;
        let rank = self.sketches.len();
        let words = self.sketches.vocabulary.mark();
        if let Err(error) = self.sketches.add(text, &[0, len]) {
            // Out of memory within a word's insertion leaves nothing to roll back to.
            match error {
                Error::OutOfMemory => self.broken = true,
                _ => self.sketches.vocabulary.roll_back(words),
            }
            return Err(error);
        }
        let found = self.decider.grow(self.sketches.vocabulary.len(), rank + 1).and_then(|()| {
            let taken = Taken { sketches: &self.sketches, sets: None, order: None };
            let mut every = Best::every();
            self.decider.find(&taken, rank as u32, &mut every)?;
            every.accepted()
        });
        // Nothing of the text stays, its new words neither.
        self.sketches.truncate(rank);
        self.sketches.vocabulary.roll_back(words);
        let found = found?;
        let mut out = Vec::new();
        reserve(&mut out, found.len())?;
        out.extend(found.into_iter().map(|(s, k)| (self.ids[k as usize], s)));
        Ok(out)
    }

    fn usable(&self) -> Result<(), Error> {
        if self.broken {
            Err(Error::OutOfMemory)
        } else {
            Ok(())
        }
    }

    /// The index as bytes (the text index format of `docs/specifications.md`): its vocabulary
    /// and every text taken, sketched, with its id and whether it is kept.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`]; refused after an allocation failed while deciding.
    pub fn save(&self) -> Result<Vec<u8>, Error> {
        self.usable()?;
        encode(&self.sketches, self.templates(), &self.ids, &self.states)
    }

    /// The index saved in `bytes`. Its texts are taken again as they were (counted, and listed
    /// when they were kept), without being judged, so it decides as the saved one would.
    ///
    /// # Errors
    /// [`Error::Format`] naming the first rule of the format `bytes` breaks;
    /// [`Error::OutOfMemory`].
    pub fn load(bytes: &[u8]) -> Result<TextIndex, Error> {
        let decoded = decode(bytes)?;
        let mut index = TextIndex::with_sketches(decoded.sketches, decoded.templates)?;
        reserve(&mut index.ids, decoded.ids.len())?;
        index.by_id.reserve(decoded.states.iter().filter(|&&state| state == KEPT).count())?;
        for (rank, (&id, &state)) in decoded.ids.iter().zip(&decoded.states).enumerate() {
            let rank = rank as u32;
            let keep = state != DUPLICATE;
            let taken = Taken { sketches: &index.sketches, sets: None, order: None };
            index.decider.take(&taken, rank, keep)?;
            index.ids.push(id);
            if state == KEPT {
                if index.contains(id) {
                    return Err(Error::Format(crate::FormatError::Ids));
                }
                index.by_id.replace(u64::from(id), rank)?;
                index.size += 1;
            } else if state == REMOVED {
                index.decider.remove(rank);
            }
        }
        index.states = decoded.states;
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn packed(texts: &[String]) -> (Vec<u8>, Vec<u32>) {
        let mut bytes = Vec::new();
        let mut offsets = vec![0u32];
        for text in texts {
            bytes.extend_from_slice(text.as_bytes());
            offsets.push(bytes.len() as u32);
        }
        (bytes, offsets)
    }

    /// Lines over a small vocabulary with edits, typos and repeats, and some long texts, so
    /// that every kind of pair meets.
    fn stream(rng: &mut Rng, n: usize) -> Vec<String> {
        let words = ["network", "netwrok", "driver", "module", "for", "the", "qt", "5", "6", "english", "czech", "dictionary", "server", "client", "fonts", "roboto", "lato", "library", "parser", "json", "yaml", "to", "of", "a", "c++", "c#", "c", "czech-english", "vmxnet3", "vmxnet2", "server-client"];
        let mut out: Vec<String> = Vec::new();
        for i in 0..n {
            let text = if i > 0 && rng.below(3) == 0 {
                let mut t: Vec<String> = out[rng.below(i as u64) as usize].split(' ').map(String::from).collect();
                let at = rng.below(t.len() as u64) as usize;
                t[at] = words[rng.below(words.len() as u64) as usize].to_string();
                t.join(" ")
            } else if rng.below(15) == 0 {
                (0..60).map(|_| words[rng.below(words.len() as u64) as usize]).collect::<Vec<_>>().join(" ")
            } else {
                let len = 2 + rng.below(8) as usize;
                (0..len).map(|_| words[rng.below(words.len() as u64) as usize]).collect::<Vec<_>>().join(" ")
            };
            out.push(text);
        }
        out
    }

    fn batch(texts: &[String], templates: bool) -> (Vec<u32>, Vec<f64>) {
        let (bytes, offsets) = packed(texts);
        let mut s = TextSketches::new();
        s.add(&bytes, &offsets).unwrap();
        let order: Vec<u32> = (0..texts.len() as u32).collect();
        let (mut rep, mut sim) = (vec![0; texts.len()], vec![0.0; texts.len()]);
        s.decide_with(Rule::V3 { templates }, &order, &mut rep, &mut sim).unwrap();
        (rep, sim)
    }

    fn decide(index: &mut TextIndex, ids: &[u32], texts: &[String]) -> Result<(Vec<u32>, Vec<f64>), Error> {
        let (bytes, offsets) = packed(texts);
        let (mut rep, mut sim) = (vec![0; texts.len()], vec![0.0; texts.len()]);
        index.decide_many(ids, &bytes, &offsets, &mut rep, &mut sim)?;
        Ok((rep, sim))
    }

    #[test]
    fn batches_decide_as_the_whole_stream() {
        let mut rng = Rng::new(5);
        for round in 0..12 {
            let texts = stream(&mut rng, 150 + 40 * round);
            for templates in [false, true] {
                let want = batch(&texts, templates);
                let mut index = TextIndex::new(templates);
                let (mut rep, mut sim) = (Vec::new(), Vec::new());
                let mut at = 0;
                while at < texts.len() {
                    let end = (at + rng.below(40) as usize).min(texts.len());
                    // Queries between batches change nothing (not even the vocabulary, for texts
                    // never seen), and their first answer is the decision.
                    let probe = &texts[rng.below(texts.len() as u64) as usize];
                    let saved = index.save().unwrap();
                    let listed = index.query(probe.as_bytes()).unwrap();
                    index.query(format!("{} unseen{} wordz-{} c++{}", probe, at, at, at).as_bytes()).unwrap();
                    assert_eq!(index.save().unwrap(), saved);
                    assert!(listed.windows(2).all(|w| w[0].1 >= w[1].1));
                    let ids: Vec<u32> = (at as u32..end as u32).collect();
                    let (r, s) = decide(&mut index, &ids, &texts[at..end]).unwrap();
                    rep.extend(r);
                    sim.extend(s);
                    at = end;
                }
                assert_eq!((&rep, &sim), (&want.0, &want.1), "round {} templates {}", round, templates);
                assert_eq!(index.len(), rep.iter().enumerate().filter(|&(i, &r)| r == i as u32).count());
            }
        }
    }

    #[test]
    fn a_query_lists_what_a_decision_would_remove_it_for() {
        let mut rng = Rng::new(9);
        let texts = stream(&mut rng, 400);
        let mut index = TextIndex::new(false);
        decide(&mut index, &(0..300).collect::<Vec<u32>>(), &texts[..300]).unwrap();
        for (q, text) in texts[300..].iter().enumerate() {
            let listed = index.query(text.as_bytes()).unwrap();
            let saved = index.save().unwrap();
            let mut copy = TextIndex::load(&saved).unwrap();
            let (rep, sim) = decide(&mut copy, &[1000 + q as u32], &[text.clone()]).unwrap();
            match listed.first() {
                Some(&(id, s)) => assert_eq!((rep[0], sim[0]), (id, s), "{:?}", text),
                None => assert_eq!((rep[0], sim[0]), (1000 + q as u32, 1.0), "{:?}", text),
            }
        }
    }

    #[test]
    fn removed_texts_are_found_no_more() {
        let texts: Vec<String> = ["the qt 5 network module", "the qt 5 netwrok module", "roboto fonts for the server", "roboto fonts for the server"].iter().map(|t| t.to_string()).collect();
        let mut index = TextIndex::new(false);
        assert_eq!(decide(&mut index, &[10, 11], &texts[..2]).unwrap().0, vec![10, 10]);
        assert!(index.remove(10) && !index.remove(10) && !index.contains(10));
        assert!(index.query(texts[1].as_bytes()).unwrap().is_empty());
        assert_eq!(decide(&mut index, &[12, 13, 10], &[texts[1].clone(), texts[2].clone(), texts[3].clone()]).unwrap().0, vec![12, 13, 13]);
        assert_eq!(index.len(), 2);
        // A removed text's place as the first of its words goes to the next kept.
        assert!(index.remove(13));
        assert_eq!(decide(&mut index, &[14, 15], &texts[2..4]).unwrap().0, vec![14, 14]);
        let loaded = TextIndex::load(&index.save().unwrap()).unwrap();
        assert_eq!(loaded.save().unwrap(), index.save().unwrap());
        assert_eq!((loaded.len(), loaded.contains(13), loaded.contains(14), loaded.contains(12)), (2, false, true, true));
        // Lines of one word set whose shapes clash are each kept; with the first removed, a
        // line that clashes with none is removed for the one kept first, online, by query and
        // once loaded.
        let mut index = TextIndex::new(false);
        let lines = |t: &[&str]| t.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        assert_eq!(decide(&mut index, &[1, 2], &lines(&["english-czech dictionary", "czech-english dictionary"])).unwrap().0, vec![1, 2]);
        assert!(index.remove(1));
        assert_eq!(decide(&mut index, &[3], &lines(&["english-czech dictionary"])).unwrap().0, vec![3]);
        let mut loaded = TextIndex::load(&index.save().unwrap()).unwrap();
        assert_eq!(index.query(b"english czech dictionary").unwrap()[0].0, 2);
        assert_eq!(decide(&mut index, &[4], &lines(&["english czech dictionary"])).unwrap().0, vec![2]);
        assert_eq!(decide(&mut loaded, &[4], &lines(&["english czech dictionary"])).unwrap().0, vec![2]);
    }

    #[test]
    fn added_texts_are_kept_unjudged_and_found_by_later_ones() {
        let mut index = TextIndex::new(false);
        let line = |t: &str| vec![t.to_string()];
        let (bytes, offsets) = packed(&[line("the qt 5 network module"), line("the qt 5 netwrok module")].concat());
        index.add_many(&[1, 2], &bytes, &offsets).unwrap();
        assert_eq!((index.len(), index.contains(1), index.contains(2)), (2, true, true));
        assert_eq!(decide(&mut index, &[3], &line("the qt 5 network module.")).unwrap().0, vec![1]);
        assert_eq!(index.add_many(&[2], &bytes[..5], &offsets[..2]), Err(Error::IdInUse { id: 2 }));
        // Taking a text unjudged counts its words as any other: the batch that keeps it agrees.
        let saved = index.save().unwrap();
        assert_eq!(TextIndex::load(&saved).unwrap().save().unwrap(), saved);
    }

    #[test]
    fn ids_in_use_are_refused_before_anything_is_decided() {
        let mut index = TextIndex::new(false);
        let texts = vec!["a parser of json".to_string(), "a yaml parser".to_string()];
        decide(&mut index, &[1, 2], &texts).unwrap();
        assert_eq!(decide(&mut index, &[3, 1], &texts), Err(Error::IdInUse { id: 1 }));
        assert_eq!(decide(&mut index, &[4, 4], &texts), Err(Error::IdInUse { id: 4 }));
        assert_eq!(decide(&mut index, &[5], &texts), Err(Error::LengthMismatch));
        assert_eq!(index.taken(), 2);
        // The id of a text removed as a duplicate is free.
        assert_eq!(decide(&mut index, &[7], &texts[..1]).unwrap().0, vec![1]);
        assert_eq!(decide(&mut index, &[7], &["lato fonts".to_string()]).unwrap().0, vec![7]);
    }

    #[test]
    fn sketches_made_in_pieces_and_appended_are_the_whole_stream() {
        let mut rng = Rng::new(33);
        for round in 0..6 {
            let texts = stream(&mut rng, 300 + 50 * round);
            let (bytes, offsets) = packed(&texts);
            let mut whole = TextSketches::new();
            whole.add(&bytes, &offsets).unwrap();
            let mut merged = TextSketches::new();
            let mut at = 0;
            while at < texts.len() {
                let end = (at + 1 + rng.below(90) as usize).min(texts.len());
                let (b, o) = packed(&texts[at..end]);
                let mut piece = TextSketches::new();
                piece.add(&b, &o).unwrap();
                merged.append(&piece.export().unwrap()).unwrap();
                at = end;
            }
            assert_eq!(merged.export().unwrap(), whole.export().unwrap(), "round {}", round);
            let order: Vec<u32> = (0..texts.len() as u32).rev().collect();
            for rule in [Rule::V3 { templates: false }, Rule::V3 { templates: true }, Rule::V2] {
                let decide = |s: &TextSketches| {
                    let (mut rep, mut sim) = (vec![0; texts.len()], vec![0.0; texts.len()]);
                    s.decide_with(rule, &order, &mut rep, &mut sim).unwrap();
                    (rep, sim)
                };
                assert_eq!(decide(&merged), decide(&whole));
            }
        }
        let mut s = TextSketches::new();
        assert_eq!(s.append(b"not sketches"), Err(Error::Format(crate::FormatError::Magic)));
        assert!(s.is_empty());
    }

    #[test]
    fn saved_indexes_load_and_decide_alike() {
        let mut rng = Rng::new(21);
        let texts = stream(&mut rng, 600);
        for templates in [false, true] {
            let mut index = TextIndex::new(templates);
            decide(&mut index, &(0..400).collect::<Vec<u32>>(), &texts[..400]).unwrap();
            for id in (0..400).step_by(7) {
                index.remove(id);
            }
            let bytes = index.save().unwrap();
            let mut loaded = TextIndex::load(&bytes).unwrap();
            assert_eq!(loaded.save().unwrap(), bytes);
            assert_eq!(loaded.templates(), templates);
            let ids: Vec<u32> = (400..600).collect();
            assert_eq!(decide(&mut loaded, &ids, &texts[400..]).unwrap(), decide(&mut index, &ids, &texts[400..]).unwrap());
        }
    }
}
