//! What a line says that its word set does not (specification v3): a heavy word said more than
//! once, and the order of two heavy words joined by a hyphen or by one light word.
//!
//! `secure POP3/IMAP server - POP3 daemon` and `… - IMAP daemon` hold the same words, as do
//! `English-Czech dictionary` and `Czech-English dictionary`, or `convert JSON to YAML` and
//! `convert YAML to JSON`: each pair names two things. Two lines the words call near-duplicates
//! are not when their shapes *clash*:
//! - each says a word both hold more often than the other does (a repeated word replaced; a
//!   word repeated, or said once less, on one side alone is no clash; repeats are counted up to
//!   1,023), or
//! - one joins heavy words `a` and `b` as `a L b` (`L` one light word) and the other as `b L a`,
//!   each of `a` and `b` said once in each, or
//! - a heavy word said once in each stands before a hyphen joining it to a heavy word, and
//!   after none, in one, and after one, and before none, in the other: `english-czech` /
//!   `czech-english`, `english-modern greek` / `modern greek-english`, a compound turned round
//!   it (`ipa-x-sampa`, whose `x` stands on both sides, is no such word).
//!
//! Words swapped or moved elsewhere are no clash.
//!
//! A text's shape is a short list of entries over the positions of its words in its sorted word
//! set, kept for texts of at most [`KEYED_WORDS`] distinct words (no other text is in a pair
//! judged as lines). Two lines with the same words can clash, so kept lines of one word set can
//! be many: while fewer than [`SHAPES_PER_WORD_SET`] kept lines hold a line's heavy words,
//! shapes are compared; past that, words alone decide. That bounds the work a family of lines
//! of one word set can cause, and no real corpus comes near it.

use super::insertion_sort;
use super::lines::KEYED_WORDS;
pub(super) use super::{SHAPES_PER_WORD_SET, SHAPE_ENTRIES};

/// The tag of an entry that says a word is repeated; other entries are joints.
pub(super) const REPEAT: u16 = 1 << 15;
/// The joint of two words joined by a hyphen alone (a position no text reaches).
pub(super) const HYPHEN: u16 = 31;
/// The shape of a text that says more than [`SHAPE_ENTRIES`] entries.
pub(super) const OVERFLOW: u16 = u16::MAX;
/// The most repeats an entry counts.
const MOST_REPEATS: u16 = (1 << 10) - 1;

const _: () = assert!(KEYED_WORDS < HYPHEN as usize, "positions must fit in five bits below HYPHEN");

/// One word of a text, in text order, for [`shape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Token {
    /// The word's position in the text's sorted word set.
    pub position: u8,
    /// Whether the word is heavy.
    pub heavy: bool,
    /// Whether a hyphen alone separates it from the word before.
    pub hyphen: bool,
}

/// Appends to `out` the shape of a text of at most [`KEYED_WORDS`] distinct words whose words, in
/// text order, are `tokens`: its entries sorted, each once, or past [`SHAPE_ENTRIES`] the one
/// entry that clashes with none. The caller reserves room for `SHAPE_ENTRIES + 1` entries.
pub(super) fn shape(tokens: &[Token], out: &mut Vec<u16>) {
    let from = out.len();
    let mut counts = [0usize; KEYED_WORDS];
    for token in tokens.iter().filter(|t| t.heavy) {
        counts[usize::from(token.position)] += 1;
    }
    for (position, &count) in counts.iter().enumerate().filter(|(_, &c)| c > 1) {
        out.push(REPEAT | (position as u16) << 10 | count.min(usize::from(MOST_REPEATS)) as u16);
    }
    let joint = |a: u8, j: u16, b: u8| u16::from(a) << 10 | j << 5 | u16::from(b);
    let add = |entry: u16, out: &mut Vec<u16>| {
        if !out[from..].contains(&entry) {
            out.push(entry);
        }
        out.len() - from <= SHAPE_ENTRIES
    };
    let mut within = out.len() - from <= SHAPE_ENTRIES;
    for (k, pair) in tokens.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        if within && a.heavy && b.heavy && b.hyphen && a.position != b.position {
            within = add(joint(a.position, HYPHEN, b.position), out);
        }
        if let Some(&c) = tokens.get(k + 2) {
            if within && a.heavy && !b.heavy && c.heavy && a.position != c.position {
                within = add(joint(a.position, u16::from(b.position), c.position), out);
            }
        }
        if !within {
            out.truncate(from);
            out.push(OVERFLOW);
            return;
        }
    }
    insertion_sort(&mut out[from..]);
}

/// A text's words and shape, as a comparison needs them.
#[derive(Clone, Copy)]
pub(super) struct Shaped<'a> {
    /// The sorted word set.
    pub words: &'a [u32],
    /// Its shape.
    pub shape: &'a [u16],
}

impl Shaped<'_> {
    /// The word at position `p` of the set.
    fn word(&self, p: u16) -> u32 {
        self.words[usize::from(p & 31)]
    }

    /// How often the line says `word`, a word it holds (at least once; repeats of light words
    /// are not counted).
    fn says(&self, word: u32) -> u16 {
        for &e in self.shape {
            if e & REPEAT != 0 && self.word(e >> 10) == word {
                return e & MOST_REPEATS;
            }
        }
        1
    }

    /// Whether the line joins `word` by a hyphen to a heavy word after it, and to one before it,
    /// with `v` read as `u`.
    fn hyphen_sides(&self, word: u32, (u, v): (u32, u32)) -> (bool, bool) {
        let read = |w: u32| if w == v { u } else { w };
        let hyphens = || self.shape.iter().filter(|&&e| e & REPEAT == 0 && e >> 5 & 31 == HYPHEN);
        (hyphens().any(|&e| read(self.word(e >> 10)) == word), hyphens().any(|&e| read(self.word(e)) == word))
    }

    /// Whether the line joins `a` to `b` by `joint` (a word, or `None` for a hyphen), with `v`
    /// read as `u`.
    fn joins(&self, a: u32, joint: Option<u32>, b: u32, (u, v): (u32, u32)) -> bool {
        let read = |w: u32| if w == v { u } else { w };
        for &e in self.shape {
            let j = e >> 5 & 31;
            if e & REPEAT == 0 && read(self.word(e >> 10)) == a && read(self.word(e)) == b && (j != HYPHEN).then(|| self.word(j)) == joint {
                return true;
            }
        }
        false
    }
}

/// Whether the shapes of lines `x` and `y` clash (see the module's documentation). `typo` is
/// the pair of x's word and y's typo of it that the two pair, if they do; `x_holds` and
/// `y_holds` say whether a text holds a word (y's typo counting as x's word).
pub(super) fn clash(x: Shaped<'_>, y: Shaped<'_>, typo: Option<(u32, u32)>, x_holds: &dyn Fn(u32) -> bool, y_holds: &dyn Fn(u32) -> bool) -> bool {
    if x.shape == [OVERFLOW] || y.shape == [OVERFLOW] {
        return false;
    }
    // (No word is u32::MAX: a pair that reads nothing.)
    let (u, v) = typo.unwrap_or((u32::MAX, u32::MAX));
    let (mut more_x, mut more_y) = (false, false);
    for &e in x.shape.iter().filter(|&&e| e & REPEAT != 0) {
        let word = x.word(e >> 10);
        if y_holds(word) {
            let in_y = y.says(if word == u { v } else { word });
            more_x |= e & MOST_REPEATS > in_y;
            more_y |= e & MOST_REPEATS < in_y;
        }
    }
    for &e in y.shape.iter().filter(|&&e| e & REPEAT != 0) {
        let word = y.word(e >> 10);
        let word = if word == v { u } else { word };
        if x_holds(word) {
            let in_x = x.says(word);
            more_y |= e & MOST_REPEATS > in_x;
            more_x |= e & MOST_REPEATS < in_x;
        }
    }
    if more_x && more_y {
        return true;
    }
    // (Order says little of a word said twice: `attributes in thread attributes` is
    // `attributes thread in attributes` with two words swapped.)
    let once = |w: u32| x.says(w) == 1 && y.says(if w == u { v } else { w }) == 1;
    x.shape.iter().filter(|&&e| e & REPEAT == 0).any(|&e| {
        let (a, j, b) = (x.word(e >> 10), e >> 5 & 31, x.word(e));
        if j == HYPHEN {
            // A compound turned round a word: `English-Modern Greek` / `Modern Greek-English`.
            let turned = |w: u32, before: bool| once(w) && x.hyphen_sides(w, (u32::MAX, u32::MAX)) == (before, !before) && y.hyphen_sides(w, (u, v)) == (!before, before);
            turned(a, true) || turned(b, false)
        } else {
            once(a) && once(b) && y.joins(b, Some(x.word(j)), a, (u, v))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of a text given as `(position, heavy, hyphen before)` triples.
    fn of(tokens: &[(u8, bool, bool)]) -> Vec<u16> {
        let tokens: Vec<Token> = tokens.iter().map(|&(position, heavy, hyphen)| Token { position, heavy, hyphen }).collect();
        let mut out = vec![7];
        shape(&tokens, &mut out);
        out.remove(0);
        out
    }

    #[test]
    fn shapes_list_repeats_and_joints_once_each_sorted() {
        // `a-b c a x b` with x light: a said twice, b twice, a-b joined, a x b joined.
        let s = of(&[(0, true, false), (1, true, true), (2, true, false), (0, true, false), (3, false, false), (1, true, false)]);
        let mut want = vec![REPEAT | 2, REPEAT | 1 << 10 | 2, HYPHEN << 5 | 1, 3 << 5 | 1];
        want.sort_unstable();
        assert_eq!(s, want);
        // Light words repeated: nothing; a word joined to itself: a repeat, no joint.
        assert_eq!(of(&[(0, false, false), (0, false, false), (1, true, false), (1, true, true)]), vec![REPEAT | 1 << 10 | 2]);
    }

    #[test]
    fn a_shape_past_its_bound_clashes_with_none() {
        // Words 0–21 joined in a chain (21 joints), then the first `repeated` said again apart.
        let chain = |repeated: u8| of(&(0..22).map(|i| (i, true, i > 0)).chain((0..repeated).map(|i| (i, true, false))).collect::<Vec<_>>());
        assert_eq!(chain(11).len(), SHAPE_ENTRIES);
        assert_eq!(chain(12), vec![OVERFLOW]);
        let tokens: Vec<(u8, bool, bool)> = (0..400).map(|i| ((i * 7 % 22) as u8, true, true)).collect();
        assert_eq!(of(&tokens), vec![OVERFLOW]);
        // It clashes with none, not even its reverse.
        let words: &[u32] = &(0..22).collect::<Vec<u32>>();
        let reversed = of(&(0..22).rev().map(|i| (i, true, i < 21)).collect::<Vec<_>>());
        let all = |_: u32| true;
        assert!(clash(Shaped { words, shape: &chain(11) }, Shaped { words, shape: &reversed }, None, &all, &all));
        assert!(!clash(Shaped { words, shape: &chain(12) }, Shaped { words, shape: &reversed }, None, &all, &all));
    }

    #[test]
    fn reversed_joints_and_replaced_repeats_clash_other_changes_do_not() {
        let holds = |words: &'static [u32]| move |w: u32| words.contains(&w);
        // Words 10 `english`, 11 `czech`, 12 `dictionary`, 13 `to` (light).
        let x = Shaped { words: &[10, 11, 12], shape: &[HYPHEN << 5 | 1] };
        let reversed = Shaped { words: &[10, 11, 12], shape: &[1 << 10 | HYPHEN << 5] };
        let split = Shaped { words: &[10, 11, 12], shape: &[] };
        assert!(clash(x, reversed, None, &holds(&[10, 11, 12]), &holds(&[10, 11, 12])));
        assert!(!clash(x, split, None, &holds(&[10, 11, 12]), &holds(&[10, 11, 12])));
        // `a to b` and `b to a` clash; `b - a` (hyphen) does not meet `a to b`.
        let a_to_b = Shaped { words: &[10, 11, 13], shape: &[2 << 5 | 1] };
        let b_to_a = Shaped { words: &[10, 11, 13], shape: &[1 << 10 | 2 << 5] };
        assert!(clash(a_to_b, b_to_a, None, &holds(&[10, 11, 13]), &holds(&[10, 11, 13])));
        assert!(!clash(a_to_b, reversed, None, &holds(&[10, 11, 13]), &holds(&[10, 11, 12])));
        // Word 10 twice against word 11 twice: a replaced repeat.
        let ten_twice = Shaped { words: &[10, 11], shape: &[REPEAT | 2] };
        let eleven_twice = Shaped { words: &[10, 11], shape: &[REPEAT | 1 << 10 | 2] };
        let once_each = Shaped { words: &[10, 11], shape: &[] };
        assert!(clash(ten_twice, eleven_twice, None, &holds(&[10, 11]), &holds(&[10, 11])));
        assert!(!clash(ten_twice, once_each, None, &holds(&[10, 11]), &holds(&[10, 11])));
        assert!(!clash(once_each, eleven_twice, None, &holds(&[10, 11]), &holds(&[10, 11])));
        // y's typo 20 of x's word 11 counts as 11: `a-b` against `b'-a` clashes, against `a-b'`
        // it does not.
        let typo_reversed = Shaped { words: &[10, 12, 20], shape: &[2 << 10 | HYPHEN << 5] };
        assert!(clash(x, typo_reversed, Some((11, 20)), &holds(&[10, 11, 12]), &holds(&[10, 11, 12])));
        let typo_kept = Shaped { words: &[10, 12, 20], shape: &[HYPHEN << 5 | 2] };
        assert!(!clash(x, typo_kept, Some((11, 20)), &holds(&[10, 11, 12]), &holds(&[10, 11, 12])));
        // Words 10 `english`, 11 `modern`, 12 `greek`: `english-modern greek` against
        // `modern greek-english` (English turned from before a hyphen to after one) clashes, and
        // so does a hyphen moved to the next two words (`english modern-greek`: `modern` turned
        // the other way), which shapes cannot tell from a turn; a hyphen dropped does not.
        let english_first = Shaped { words: &[10, 11, 12], shape: &[HYPHEN << 5 | 1] };
        let english_last = Shaped { words: &[10, 11, 12], shape: &[2 << 10 | HYPHEN << 5] };
        let moved = Shaped { words: &[10, 11, 12], shape: &[1 << 10 | HYPHEN << 5 | 2] };
        let all = holds(&[10, 11, 12]);
        assert!(clash(english_first, english_last, None, &all, &all) && clash(english_last, english_first, None, &all, &all));
        assert!(clash(english_first, moved, None, &all, &all) && clash(moved, english_first, None, &all, &all));
        assert!(!clash(english_first, split, None, &all, &all) && !clash(split, english_last, None, &all, &all));
        // `english-modern-greek`: a word on both sides of a hyphen turns no compound.
        let chain = Shaped { words: &[10, 11, 12], shape: &[HYPHEN << 5 | 1, 1 << 10 | HYPHEN << 5 | 2] };
        assert!(!clash(chain, chain, None, &all, &all));
    }
}
