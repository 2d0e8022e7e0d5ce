//! The rule over sketched texts. Short texts find their candidates by prefix filtering over a
//! global order of words, rarest first (Chaudhuri et al. 2006; Bayardo et al. 2007): two sets
//! with Jaccard similarity ≥ t share a word among the first |x| − ⌈t·|x|⌉ + 1 of the larger's
//! and the first |y| − ⌈2t/(1+t)·|y|⌉ + 1 of the smaller's, so no pair is missed and common
//! words rarely enter a prefix; a candidate whose remaining words cannot make up the overlap is
//! passed over unread, and one that can is counted against marks of this text's words. Texts with word-pair signatures find theirs in LSH bands. Only kept
//! texts are indexed, and a short text whose very word set was kept finds it by hash, so a
//! family of identical texts costs each member one lookup (short) or one look per band (long).

use super::mix_map::MixMap;
use super::sketch::TextSketches;
use super::{Kind, LONG_BANDS, LONG_EQUAL, LONG_ROWS, NUM_PERM, SHORT_DENOMINATOR, SHORT_NUMERATOR};
use crate::Error;

/// ⌈t·s⌉ for t = 2/5: the fewest common words a set of `s` words needs with a set no larger
/// to reach the threshold.
fn ceil_threshold(s: usize) -> usize {
    (SHORT_NUMERATOR as usize * s + SHORT_DENOMINATOR as usize - 1) / SHORT_DENOMINATOR as usize
}

/// ⌈2t/(1+t)·s⌉ for t = 2/5, i.e. ⌈4s/7⌉: the fewest common words a set of `s` words needs with
/// a set at least as large to reach the threshold.
fn ceil_smaller(s: usize) -> usize {
    let (n, d) = (2 * SHORT_NUMERATOR as usize, (SHORT_NUMERATOR + SHORT_DENOMINATOR) as usize);
    (n * s + d - 1) / d
}

/// The prefix a set of `s` words is probed with, as the larger of a pair.
fn probe_prefix(s: usize) -> usize {
    s - ceil_threshold(s) + 1
}

/// The prefix a set of `s` words is indexed under, as the smaller of a pair.
fn index_prefix(s: usize) -> usize {
    s - ceil_smaller(s) + 1
}

/// The key of band `band` of a signature.
#[inline(never)]
fn band_key(signature: &[u32], band: usize) -> u32 {
    let mut h = (band as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &row in &signature[band * LONG_ROWS..(band + 1) * LONG_ROWS] {
        h = (h ^ u64::from(row)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 29;
    }
    (h ^ (h >> 32)) as u32
}

/// Positions where two signatures agree.
#[inline(never)]
fn equal_positions(x: &[u32], y: &[u32]) -> u32 {
    x.iter().zip(y).filter(|(a, b)| a == b).count() as u32
}

fn band_equal(x: &[u32], y: &[u32], band: usize) -> bool {
    let rows = band * LONG_ROWS..(band + 1) * LONG_ROWS;
    x[rows.clone()] == y[rows]
}

/// The best candidate so far: the highest similarity, ties to the lowest rank.
struct Best(Option<(f64, u32)>);

impl Best {
    fn consider(&mut self, similarity: f64, rank: u32) {
        if self.0.map_or(true, |(s, r)| similarity > s || (similarity == s && rank < r)) {
            self.0 = Some((similarity, rank));
        }
    }
}

fn empty_lists(len: usize) -> Result<Vec<Vec<u64>>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory)?;
    v.resize_with(len, Vec::new);
    Ok(v)
}

fn zeroed<T: Clone>(len: usize, value: T) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory)?;
    v.resize(len, value);
    Ok(v)
}

impl TextSketches {
    /// Decides every text: `order[r]` is the text taken r-th. A text kept gets itself as its
    /// representative and similarity 1; a text removed, the kept text it is most similar to
    /// (ties to the one taken first) and that similarity (word sets: exact Jaccard; word pairs:
    /// the share of equal signature positions). Wordless texts are kept and never compared.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless `order`, `representative` and `similarity` have one slot
    /// per text; [`Error::InvalidOrder`] unless `order` is a permutation of the texts;
    /// [`Error::OutOfMemory`].
    pub fn decide(&self, order: &[u32], representative: &mut [u32], similarity: &mut [f64]) -> Result<(), Error> {
        let n = self.len();
        if order.len() != n || representative.len() != n || similarity.len() != n {
            return Err(Error::LengthMismatch);
        }
        let mut stamp = zeroed(n, u32::MAX)?;
        for (rank, &position) in order.iter().enumerate() {
            match stamp.get_mut(position as usize) {
                Some(slot) if *slot == u32::MAX => *slot = rank as u32,
                _ => return Err(Error::InvalidOrder),
            }
        }
        stamp.fill(u32::MAX);
        let ranked = self.ranked_words()?;
        let vocabulary = self.word_hashes.len();
        // Word rank → kept texts (by their rank in `order`) indexed or probed under it.
        // The hash of a kept short text's word set → the text.
        let mut kept_sets = MixMap::default();
        let mut marks = zeroed(vocabulary, u32::MAX)?;
        let mut indexed = empty_lists(vocabulary)?;
        let mut probed = empty_lists(vocabulary)?;
        // Band key → its list of kept texts in `bucket_lists`.
        let mut buckets = MixMap::default();
        let mut bucket_lists: Vec<Vec<u32>> = Vec::new();
        let mut keys = [0u32; LONG_BANDS];
        let words_of = |position: usize| &ranked[self.word_range(position)];
        for (rank, &position) in order.iter().enumerate() {
            let rank = rank as u32;
            let p = position as usize;
            let kind = Kind::from_code(self.kinds[p]).unwrap_or(Kind::Wordless);
            if kind == Kind::Wordless {
                representative[p] = position;
                similarity[p] = 1.0;
                continue;
            }
            let mut best = Best(None);
            let x = words_of(p);
            let short = kind != Kind::Long;
            // A kept text of the same words is the best a short text can find among short
            // ones (similarity 1, and no other kept text has these words), so a family of
            // identical word sets costs each member one lookup.
            let twin = if short { kept_sets.get(set_hash(x)).filter(|&kept| words_of(order[kept as usize] as usize) == x) } else { None };
            if let Some(kept) = twin {
                best.consider(1.0, kept);
            } else if short {
                // Kept sets no larger, indexed under their short prefix, against this one's long
                // prefix; then kept sets larger, probed under their long prefix, against this
                // one's short prefix. The sizes part the two, so no text is looked at twice.
                // This text's words are marked with its rank: a candidate's overlap is a count
                // of its marked words, without a merge's unpredictable branches.
                for &word in x {
                    marks[word as usize] = rank;
                }
                let look = Look { sketches: self, ranked: &ranked, order, x, rank, marks: &marks };
                look.among(&x[..probe_prefix(x.len())], &indexed, false, &mut stamp, &mut best);
                look.among(&x[..index_prefix(x.len())], &probed, true, &mut stamp, &mut best);
            }
            let signature = self.signature(p);
            if let Some(signature) = signature {
                for (band, key) in keys.iter_mut().enumerate() {
                    *key = band_key(signature, band);
                    let bucket = match buckets.get(u64::from(*key)) {
                        Some(list) => &bucket_lists[list as usize],
                        None => continue,
                    };
                    for &kept in bucket {
                        let other = order[kept as usize] as usize;
                        let theirs = match self.signature(other) {
                            Some(theirs) => theirs,
                            None => continue,
                        };
                        if stamp[kept as usize] == rank || !band_equal(signature, theirs, band) {
                            continue;
                        }
                        stamp[kept as usize] = rank;
                        // Two short texts are judged by their words alone.
                        if short && self.kinds[other] != Kind::Long as u8 {
                            continue;
                        }
                        let equal = equal_positions(signature, theirs);
                        if equal >= LONG_EQUAL {
                            best.consider(f64::from(equal) / NUM_PERM as f64, kept);
                        }
                    }
                }
            }
            match best.0 {
                Some((s, kept)) => {
                    representative[p] = order[kept as usize];
                    similarity[p] = s;
                }
                None => {
                    representative[p] = position;
                    similarity[p] = 1.0;
                    if short {
                        kept_sets.get_or_insert(set_hash(x), rank)?;
                        for (j, &word) in x[..index_prefix(x.len())].iter().enumerate() {
                            push(&mut indexed[word as usize], pack(rank, x.len(), j))?;
                        }
                        for (j, &word) in x[..probe_prefix(x.len())].iter().enumerate() {
                            push(&mut probed[word as usize], pack(rank, x.len(), j))?;
                        }
                    }
                    if signature.is_some() {
                        for &key in &keys {
                            let list = buckets.get_or_insert(u64::from(key), bucket_lists.len() as u32)? as usize;
                            if list == bucket_lists.len() {
                                push(&mut bucket_lists, Vec::new())?;
                            }
                            let bucket = &mut bucket_lists[list];
                            if bucket.last() != Some(&rank) {
                                push(bucket, rank)?;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Every short text's words as ranks in the order of rarity (fewest short texts holding
    /// the word first, ties by first appearance), ascending, laid out as `words`. Any order
    /// finds every pair; this one keeps common words out of prefixes.
    fn ranked_words(&self) -> Result<Vec<u32>, Error> {
        let mut by_rarity = zeroed(self.word_hashes.len(), 0u64)?;
        by_rarity.iter_mut().enumerate().for_each(|(id, slot)| *slot = u64::from(self.frequency[id]) << 32 | id as u64);
        by_rarity.sort_unstable();
        let mut rank_of = zeroed(self.word_hashes.len(), 0u32)?;
        for (rank, &key) in by_rarity.iter().enumerate() {
            rank_of[key as u32 as usize] = rank as u32;
        }
        drop(by_rarity);
        let mut ranked = zeroed(self.words.len(), 0u32)?;
        for (slot, &id) in ranked.iter_mut().zip(&self.words) {
            *slot = rank_of[id as usize];
        }
        for i in 0..self.len() {
            insertion_sort(&mut ranked[self.word_range(i)]);
        }
        Ok(ranked)
    }
}

/// One short text (`x`, taken `rank`-th) looking for its most similar kept short text.
struct Look<'a> {
    sketches: &'a TextSketches,
    ranked: &'a [u32],
    order: &'a [u32],
    x: &'a [u32],
    rank: u32,
    /// `marks[word] == rank` for the words of `x`.
    marks: &'a [u32],
}

impl Look<'_> {
    /// Looks at the kept texts listed under `words` (the first words of this text) in `lists`:
    /// those larger than this one if `larger`, else those no larger. A kept text is met first
    /// under the first word the two share (both are in rank order, and each word before it in
    /// the other text lies within that text's listed prefix), so the words after it bound
    /// their overlap: one that cannot reach the threshold is passed over (PPJoin's positional
    /// filter, Xiao et al. 2008) without reading its words.
    #[inline(never)]
    fn among(&self, words: &[u32], lists: &[Vec<u64>], larger: bool, stamp: &mut [u32], best: &mut Best) {
        let sx = self.x.len();
        for (i, &word) in words.iter().enumerate() {
            for &entry in &lists[word as usize] {
                let (kept, sy, j) = unpack(entry);
                // Bounds only shrink at later meetings, so a text passed over here is passed
                // over there too, and needs no stamp.
                if (sy > sx) != larger || !reachable(sx, sy, 1 + (sx - i - 1).min(sy - j - 1)) || stamp[kept as usize] == self.rank {
                    continue;
                }
                stamp[kept as usize] = self.rank;
                let y = &self.ranked[self.sketches.word_range(self.order[kept as usize] as usize)];
                // Nothing before the first shared word is shared.
                let c = 1 + y[j + 1..].iter().filter(|&&w| self.marks[w as usize] == self.rank).count();
                let union = sx + sy - c;
                if c * SHORT_DENOMINATOR as usize >= union * SHORT_NUMERATOR as usize {
                    best.consider(c as f64 / union as f64, kept);
                }
            }
        }
    }
}

/// A hash of a set of words in rank order.
fn set_hash(words: &[u32]) -> u64 {
    words.iter().fold(words.len() as u64, |h, &w| (h ^ u64::from(w)).wrapping_mul(0xFF51_AFD7_ED55_8CCD).rotate_left(29))
}

/// A list entry: a kept text's rank, its number of words and the position of the word listed.
fn pack(rank: u32, size: usize, position: usize) -> u64 {
    u64::from(rank) | (size as u64) << 32 | (position as u64) << 40
}

fn unpack(entry: u64) -> (u32, usize, usize) {
    (entry as u32, (entry >> 32) as u8 as usize, (entry >> 40) as u8 as usize)
}

/// Whether sets of `sx` and `sy` words with at most `overlap` in common can reach the
/// threshold: sizes within the threshold's ratio, and `overlap ≥ t/(1+t)·(sx + sy)`.
fn reachable(sx: usize, sy: usize, overlap: usize) -> bool {
    let (n, d) = (SHORT_NUMERATOR as usize, SHORT_DENOMINATOR as usize);
    sx.min(sy) * d >= sx.max(sy) * n && overlap * (n + d) >= n * (sx + sy)
}

/// Sorts a short text's words (at most 40) without another instance of the general sort.
fn insertion_sort(words: &mut [u32]) {
    for i in 1..words.len() {
        let mut j = i;
        while j > 0 && words[j - 1] > words[j] {
            words.swap(j - 1, j);
            j -= 1;
        }
    }
}

fn push<T>(list: &mut Vec<T>, value: T) -> Result<(), Error> {
    list.try_reserve(1).map_err(|_| Error::OutOfMemory)?;
    list.push(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::text::{TextOptions, Unit, Weighting};
    use crate::minhash::text_signature_many;
    use crate::test_rng::Rng;

    fn sketch(texts: &[String]) -> TextSketches {
        let mut bytes = Vec::new();
        let mut offsets = vec![0u32];
        for text in texts {
            bytes.extend_from_slice(text.as_bytes());
            offsets.push(bytes.len() as u32);
        }
        let mut sketches = TextSketches::new();
        // Two batches, to show a batch boundary changes nothing.
        let half = texts.len() / 2;
        sketches.add(&bytes, &offsets[..=half]).unwrap();
        let rest: Vec<u32> = offsets[half..].iter().map(|o| o - offsets[half]).collect();
        sketches.add(&bytes[offsets[half] as usize..], &rest).unwrap();
        sketches
    }

    /// The rule by brute force: every kept text is looked at, in the order taken; a pair judged
    /// by word pairs must also share a band, as candidates must.
    fn oracle(s: &TextSketches, order: &[u32]) -> (Vec<u32>, Vec<f64>) {
        let n = s.len();
        let (mut rep, mut sim) = (vec![0; n], vec![0.0; n]);
        let mut kept: Vec<u32> = Vec::new();
        let set = |i: usize| {
            let mut w = s.words[s.word_range(i)].to_vec();
            w.sort_unstable();
            w
        };
        for &p in order {
            let p = p as usize;
            let mut best: Option<(f64, usize)> = None;
            if s.kinds[p] != Kind::Wordless as u8 {
                for (at, &k) in kept.iter().enumerate() {
                    let k = k as usize;
                    if s.kinds[k] == Kind::Wordless as u8 {
                        continue;
                    }
                    let both_short = s.kinds[p] != Kind::Long as u8 && s.kinds[k] != Kind::Long as u8;
                    let value = if both_short {
                        let (x, y) = (set(p), set(k));
                        let c = x.iter().filter(|w| y.contains(w)).count();
                        let u = x.len() + y.len() - c;
                        (5 * c >= 2 * u).then(|| c as f64 / u as f64)
                    } else {
                        match (s.signature(p), s.signature(k)) {
                            (Some(a), Some(b)) if (0..LONG_BANDS).any(|band| band_equal(a, b, band)) => {
                                let e = a.iter().zip(b).filter(|(x, y)| x == y).count();
                                (e >= LONG_EQUAL as usize).then(|| e as f64 / 128.0)
                            }
                            _ => None,
                        }
                    };
                    if let Some(v) = value {
                        if best.map_or(true, |(b, _)| v > b) {
                            best = Some((v, at));
                        }
                    }
                }
            }
            match best {
                Some((v, at)) => {
                    rep[p] = kept[at];
                    sim[p] = v;
                }
                None => {
                    rep[p] = p as u32;
                    sim[p] = 1.0;
                    kept.push(p as u32);
                }
            }
        }
        (rep, sim)
    }

    /// Texts over a small vocabulary, so that short ones meet: originals of 0–70 words, edited
    /// copies (substitutions, insertions, deletions) and exact copies.
    fn texts(rng: &mut Rng, count: usize) -> Vec<String> {
        let vocabulary: Vec<String> = (0..120).map(|i| format!("w{}", i * 7919 % 1000)).collect();
        let mut out: Vec<Vec<String>> = Vec::new();
        while out.len() < count {
            if !out.is_empty() && rng.below(2) == 0 {
                let mut copy = out[rng.below(out.len() as u64) as usize].clone();
                for _ in 0..rng.below(4) {
                    let at = rng.below(copy.len() as u64 + 1) as usize;
                    let word = vocabulary[rng.below(120) as usize].clone();
                    match rng.below(3) {
                        0 if at < copy.len() => copy[at] = word,
                        1 if at < copy.len() => {
                            copy.remove(at);
                        }
                        _ => copy.insert(at, word),
                    }
                }
                out.push(copy);
            } else {
                let len = [0, 1, 2, 5, 9, 20, 30, 45, 70][rng.below(9) as usize];
                out.push((0..len).map(|_| vocabulary[rng.below(120) as usize].clone()).collect());
            }
        }
        out.into_iter().map(|words| words.join(" ")).collect()
    }

    #[test]
    fn decisions_equal_the_rule_by_brute_force() {
        let mut rng = Rng::new(7);
        for round in 0..30 {
            let texts = texts(&mut rng, 20 + round * 10);
            let s = sketch(&texts);
            let n = texts.len() as u32;
            let mut order: Vec<u32> = (0..n).collect();
            if round % 2 == 1 {
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i as u64 + 1) as usize);
                }
            }
            let (mut rep, mut sim) = (vec![0; texts.len()], vec![0.0; texts.len()]);
            s.decide(&order, &mut rep, &mut sim).unwrap();
            assert_eq!((rep, sim), oracle(&s, &order), "round {}", round);
        }
    }

    #[test]
    fn sketches_follow_the_specification() {
        let words = |n: usize| (0..n).map(|i| format!("w{}", i)).collect::<Vec<_>>().join(" ");
        let texts = vec![String::new(), " ... ".into(), "one".into(), words(24) + " w0", words(26), words(40) + " w1 w2", words(41), words(300)];
        let s = sketch(&texts);
        use Kind::*;
        let expected = [Wordless, Wordless, Short, Short, ShortWithPairs, ShortWithPairs, Long, Long];
        assert_eq!(s.kinds(), &expected.map(|k| k as u8)[..]);
        // 24 distinct words and a repeat make 24 distinct pairs: too few to meet a long text.
        assert_eq!(s.word_range(3).len(), 24);
        // The pair signature is the specification v1 signature of word 2-shingles.
        let options = TextOptions { unit: Unit::Word, size: 2, weighting: Weighting::Binary, seed: 0 };
        for i in [4, 5, 6, 7] {
            let mut expected = vec![0u32; NUM_PERM];
            text_signature_many(texts[i].as_bytes(), &[0, texts[i].len() as u32], &options, 0, &mut expected).unwrap();
            assert_eq!(s.signature(i).unwrap(), &expected[..], "text {}", i);
        }
    }

    #[test]
    fn edits_are_found_at_both_lengths() {
        let long: Vec<String> = (0..200).map(|i| format!("w{}", i % 150)).collect();
        let mut edited = long.clone();
        edited[100] = "changed".into();
        let texts = vec![
            "fix a crash when the configuration file is missing".to_string(),
            "fix a hang when the configuration file is missing".to_string(),
            "update the brazilian portuguese translation".to_string(),
            long.join(" "),
            edited.join(" "),
        ];
        let s = sketch(&texts);
        let (mut rep, mut sim) = (vec![0; 5], vec![0.0; 5]);
        s.decide(&[0, 1, 2, 3, 4], &mut rep, &mut sim).unwrap();
        assert_eq!(rep, [0, 0, 2, 3, 3]);
        assert_eq!(sim[1], 0.8);
        assert!(sim[4] > 0.9 && sim[4] < 1.0);
        // Taken the other way round, the edited copies are kept.
        s.decide(&[4, 3, 2, 1, 0], &mut rep, &mut sim).unwrap();
        assert_eq!(rep, [1, 1, 2, 4, 4]);
    }

    #[test]
    fn identical_families_cost_one_look_each() {
        let texts: Vec<String> = (0..20_000).map(|i| if i % 2 == 0 { "the same short line".into() } else { format!("{} {}", "a long text of many words", (0..60).map(|j| format!("x{}", j)).collect::<Vec<_>>().join(" ")) }).collect();
        let s = sketch(&texts);
        let order: Vec<u32> = (0..texts.len() as u32).collect();
        let (mut rep, mut sim) = (vec![0; texts.len()], vec![0.0; texts.len()]);
        s.decide(&order, &mut rep, &mut sim).unwrap();
        assert!(rep.iter().enumerate().all(|(i, &r)| r == (i % 2) as u32));
    }

    #[test]
    fn truncating_forgets_the_texts_after() {
        let mut rng = Rng::new(11);
        let all = texts(&mut rng, 120);
        let whole = sketch(&all);
        let mut cut = sketch(&all);
        let more = sketch(&[all.clone(), all[..30].to_vec()].concat());
        let mut longer = more;
        longer.truncate(all.len());
        cut.truncate(all.len() + 5);
        let order: Vec<u32> = (0..all.len() as u32).collect();
        let decide = |s: &TextSketches| {
            let (mut rep, mut sim) = (vec![0; all.len()], vec![0.0; all.len()]);
            s.decide(&order, &mut rep, &mut sim).unwrap();
            (rep, sim)
        };
        assert_eq!(decide(&longer), decide(&whole));
        assert_eq!(decide(&cut), decide(&whole));
        assert_eq!(longer.frequency, whole.frequency);
        assert_eq!(longer.signatures, whole.signatures);
        longer.truncate(0);
        assert!(longer.is_empty() && longer.words.is_empty() && longer.signatures.is_empty());
    }

    #[test]
    fn bad_orders_are_refused() {
        let s = sketch(&["a b".to_string(), "c d".to_string()]);
        let (mut rep, mut sim) = (vec![0; 2], vec![0.0; 2]);
        assert_eq!(s.decide(&[0, 0], &mut rep, &mut sim), Err(Error::InvalidOrder));
        assert_eq!(s.decide(&[0, 2], &mut rep, &mut sim), Err(Error::InvalidOrder));
        assert_eq!(s.decide(&[0], &mut rep, &mut sim), Err(Error::LengthMismatch));
        let mut t = TextSketches::new();
        assert_eq!(t.add(b"ab", &[0, 3]), Err(Error::InvalidOffsets));
        assert_eq!(t.add(b"ab", &[1, 0]), Err(Error::InvalidOffsets));
        assert!(t.is_empty());
    }

    #[test]
    fn prefixes_never_miss_a_pair() {
        // For every pair of sizes that can reach the threshold, the overlap it needs leaves a
        // common word within the prefixes: |x| - o + 1 ≤ probe prefix and |y| - o + 1 ≤ index
        // prefix for the smaller y, o the fewest common words.
        for x in 1..=40usize {
            for y in 1..=x {
                if 5 * y < 2 * x {
                    continue;
                }
                let o = (1..=y).find(|&c| 5 * c >= 2 * (x + y - c)).unwrap();
                assert!(x - o + 1 <= probe_prefix(x) && y - o + 1 <= index_prefix(y), "{} {}", x, y);
            }
        }
    }
}
