//! Numbers in short lines under specification v3: a number in a release is a version, a number
//! a hyphen joins to the token before it is part of a name, any other number counts or names
//! something (`docs/adaptive.md`, rules 2 and 4).
//!
//! A number token (ASCII digits, `v` and digits, or digits and an English ordinal suffix) stands
//! in a *release* when a `.` stands between it and a digit (`5.14.2`, `v6.1`, `python3.11`), or
//! a `-` or `~` joins it to a release before it (`6.1.0-47`, `1.2~3`). Such a number is a word
//! of its own, the token and [`RELEASE_MARK`], light like any number: two lines that differ in a
//! release differ in a version. A number that a single `-` joins to the token before it, and
//! that is no release's, is a *name's* (`ISO 8859-1`, `SHA-2`, `base-10`, `CVE-2024-45490`): a
//! word of its own, the token and [`NAME_MARK`], heavy, so that two lines differing in one name
//! two items. Any other number is *bare*: it may be a bug's number, a count or an item's number
//! (`#44890`, `42 files`, `75 dpi`). Two lines that each hold bare numbers the other lacks are
//! the same line only when at most one number is replaced, by one *one edit* from it: one apart
//! (`9`/`10`, `2023`/`2024`), or of as many digits with one changed (`5`/`8`, `2019`/`2049`);
//! numbers added or dropped besides are versions. A digit added or dropped (`1`/`15`, `43`/`3`)
//! makes another number: small counts are one removal apart far too often.
//!
//! A bare number is kept as its digits packed in a `u64`: four bits each, up to
//! [`PACKED_DIGITS`] of them, and their count in the top four bits. A longer number packs to
//! [`LONG_NUMBER`], one edit from none.

/// What follows a number's token to make it a release's word. No word holds it otherwise (a word
/// is a token and the `+` and `#` signs after it).
pub(super) const RELEASE_MARK: u8 = b'.';

/// What follows the token of a name's part (a number after a hyphen, a common word that begins
/// a compound) to make it a word of its own. No word holds it otherwise (tokens hold no `-`).
pub(super) const NAME_MARK: u8 = b'-';

/// A word that is no bare number.
pub(super) const NOT_A_NUMBER: u64 = u64::MAX;

/// A bare number of more than [`PACKED_DIGITS`] digits: one edit from no other number.
pub(super) const LONG_NUMBER: u64 = u64::MAX - 1;

/// The most digits a packed number holds.
pub(super) const PACKED_DIGITS: usize = 15;

/// The digits of a number token (ASCII digits, `v` and digits, or digits and `st`, `nd`, `rd`
/// or `th`), or `None` for any other token.
pub(super) fn digits(token: &[u8]) -> Option<&[u8]> {
    let ordinal = [b"st", b"nd", b"rd", b"th"].iter().find_map(|suffix| token.strip_suffix(&suffix[..]));
    let digits = ordinal.or_else(|| token.strip_prefix(b"v")).unwrap_or(token);
    (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit)).then(|| digits)
}

/// The packed digits of a bare number (see the module's documentation).
pub(super) fn pack(digits: &[u8]) -> u64 {
    if digits.len() > PACKED_DIGITS {
        return LONG_NUMBER;
    }
    digits.iter().fold(0, |packed, &d| packed << 4 | u64::from(d - b'0')) | (digits.len() as u64) << 60
}

/// Whether `packed` is what [`pack`] makes of some digits.
pub(super) fn packs_a_number(packed: u64) -> bool {
    let len = (packed >> 60) as usize;
    packed == LONG_NUMBER || ((1..=PACKED_DIGITS).contains(&len) && (packed & ((1 << 60) - 1)) >> (4 * len) == 0 && (0..len).all(|i| packed >> (4 * i) & 0xF <= 9))
}

/// The digits of a packed number, into `out`; their count.
fn unpack(packed: u64, out: &mut [u8; PACKED_DIGITS]) -> usize {
    let len = (packed >> 60) as usize;
    for (i, digit) in out[..len].iter_mut().enumerate() {
        *digit = (packed >> (4 * (len - 1 - i)) & 0xF) as u8;
    }
    len
}

/// Whether two packed bare numbers are one edit apart (see the module's documentation).
pub(super) fn one_edit(a: u64, b: u64) -> bool {
    if a == LONG_NUMBER || b == LONG_NUMBER || a == NOT_A_NUMBER || b == NOT_A_NUMBER {
        return false;
    }
    let (mut da, mut db) = ([0; PACKED_DIGITS], [0; PACKED_DIGITS]);
    let (la, lb) = (unpack(a, &mut da), unpack(b, &mut db));
    let value = |d: &[u8]| d.iter().fold(0u64, |v, &x| v * 10 + u64::from(x));
    let changed = da[..la].iter().zip(&db[..lb]).filter(|(x, y)| x != y).count();
    value(&da[..la]).abs_diff(value(&db[..lb])) <= 1 || (la == lb && changed <= 1)
}

/// Whether the bare numbers `x` holds and `y` lacks (`nx`) and those `y` holds and `x` lacks
/// (`ny`), as packed numbers, leave the two lines the same line: at most one number replaced,
/// by one *one edit* from it, as a version is edited; numbers added or dropped besides are
/// versions too (`[PATCH v2]`, `C++11/14`). Lines that replace two numbers or more are other
/// records: another commit's counts (`2 files changed, 73 insertions(+), 4 deletions(-)` /
/// `6 …, 72 …, 9 …`), another day (`23 March 2016` / `27 March 2017`).
pub(super) fn agree(nx: &[u64], ny: &[u64]) -> bool {
    let (fewer, more) = if nx.len() <= ny.len() { (nx, ny) } else { (ny, nx) };
    match fewer {
        [] => true,
        [a] => more.iter().any(|&b| one_edit(*a, b)),
        _ => false,
    }
}

/// Whether the number token `text[start..end]` stands in a release: a `.` and a digit right
/// after it, a digit and a `.` right before it, or a single `-` or `~` after a release word
/// that ended at `previous_release`.
pub(super) fn in_release(text: &[u8], start: usize, end: usize, previous_release: Option<usize>) -> bool {
    let dot_after = text.get(end) == Some(&b'.') && text.get(end + 1).map_or(false, u8::is_ascii_digit);
    let dot_before = start >= 2 && text[start - 1] == b'.' && text[start - 2].is_ascii_digit();
    let joined = previous_release.map_or(false, |e| start == e + 1 && matches!(text[e], b'-' | b'~'));
    dot_after || dot_before || joined
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(n: &str) -> u64 {
        pack(digits(n.as_bytes()).unwrap())
    }

    #[test]
    fn numbers_one_edit_apart_are_a_version_edited() {
        for (a, b) in [("5", "6"), ("2023", "2024"), ("9", "10"), ("199", "200"), ("44890", "44891"), ("v5", "5"), ("2nd", "3rd"), ("07", "7"), ("3", "8"), ("2019", "2049")] {
            assert!(one_edit(packed(a), packed(b)) && one_edit(packed(b), packed(a)), "{a} {b}");
        }
        for (a, b) in [("100", "75"), ("44890", "32301"), ("11213", "1279"), ("1", "256"), ("42", "207"), ("40", "15"), ("2008", "2014"), ("303", "349"), ("1", "12"), ("43", "3"), ("12", "21")] {
            assert!(!one_edit(packed(a), packed(b)) && !one_edit(packed(b), packed(a)), "{a} {b}");
        }
    }

    #[test]
    fn a_number_too_long_to_pack_is_one_edit_from_none() {
        let long = packed("1234567890123456");
        assert_eq!(long, LONG_NUMBER);
        assert!(!one_edit(long, packed("123456789012345")) && !one_edit(long, long));
        assert!(one_edit(packed("123456789012345"), packed("123456789012346")));
    }

    #[test]
    fn packing_keeps_leading_zeros_apart() {
        assert_ne!(packed("07"), packed("7"));
        assert_ne!(packed("0"), packed("00"));
    }

    #[test]
    fn lines_agree_when_one_number_is_replaced_by_an_edit_at_most() {
        let p = |ns: &[&str]| ns.iter().map(|n| packed(n)).collect::<Vec<_>>();
        assert!(agree(&p(&["5"]), &p(&["6"])));
        assert!(agree(&p(&["3"]), &[]));
        assert!(agree(&[], &p(&["44890"])));
        assert!(agree(&[], &[]));
        assert!(!agree(&p(&["44890"]), &p(&["32301"])));
        // "2 files changed, 73 insertions, 4 deletions" / "6 …, 72 …, 9 …": each one edit from
        // another, but three numbers differ.
        assert!(!agree(&p(&["2", "73", "4"]), &p(&["6", "72", "9"])));
        assert!(agree(&p(&["5", "100"]), &p(&["6"])), "a number dropped beside one edited");
        assert!(!agree(&p(&["5", "100"]), &p(&["60"])));
        assert!(agree(&[], &p(&["3", "207"])), "two numbers added");
        assert!(!agree(&p(&["23", "2016"]), &p(&["27", "2017"])), "two replaced");
    }

    #[test]
    fn releases_are_joined_by_dots_and_a_dash_after_them() {
        let text = b"linux 6.1.0-47 and bug 44890. v5.14 x-3 7.";
        let at = |token: &str| {
            let start = text.windows(token.len()).position(|w| w == token.as_bytes()).unwrap();
            (start, start + token.len())
        };
        let (s6, e6) = at("6.");
        assert!(in_release(text, s6, e6 - 1, None));
        let (s0, e0) = at("0-47");
        assert!(in_release(text, s0, s0 + 1, None));
        assert!(in_release(text, e0 - 2, e0, Some(s0 + 1)));
        assert!(!in_release(text, e0 - 2, e0, None), "a dash joins only a release before it");
        let (sb, eb) = at("44890");
        assert!(!in_release(text, sb, eb, None), "a full stop after a number is no release");
        let (s3, e3) = at("3 ");
        assert!(!in_release(text, s3, e3 - 1, None));
        let (s14, _) = at("14");
        assert!(in_release(text, s14, s14 + 2, None));
    }
}
