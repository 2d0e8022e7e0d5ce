//! Splitting UTF-8 text into tokens (specification v1, steps 3 and 4).

use super::classes::{MARK, RUN_STARTS, SEPARATOR, UNSEGMENTED, WORD};

/// The class of a code point: [`WORD`], [`UNSEGMENTED`], [`MARK`] or [`SEPARATOR`].
pub fn class_of(code_point: u32) -> u8 {
    Classifier::default().class_of(code_point)
}

/// Classifies code points, remembering the last run it found: text outside ASCII mostly stays
/// within one script's run (a CJK text within the 20,992 ideographs of U+4E00..U+9FFF), so
/// most look-ups skip the binary search.
#[derive(Clone, Copy)]
pub struct Classifier {
    /// The last run found: `start..end` has class `class`.
    start: u32,
    end: u32,
    class: u8,
}

impl Default for Classifier {
    fn default() -> Self {
        // An empty run: the first non-ASCII look-up searches.
        Classifier { start: 1, end: 0, class: SEPARATOR }
    }
}

impl Classifier {
    /// The class of `code_point`, as [`class_of`].
    #[inline]
    pub fn class_of(&mut self, code_point: u32) -> u8 {
        if code_point < 0x80 {
            return ASCII[code_point as usize];
        }
        if code_point >= self.start && code_point < self.end {
            return self.class;
        }
        // The last run starting at or before the code point.
        let key = code_point << 2 | 3;
        let index = RUN_STARTS.partition_point(|&start| start <= key).max(1);
        let run = RUN_STARTS[index - 1];
        self.start = run >> 2;
        self.end = RUN_STARTS.get(index).map_or(0x11_0000, |&next| next >> 2);
        self.class = (run & 3) as u8;
        self.class
    }
}

/// ASCII letters and digits are words; the rest of ASCII separates.
static ASCII: [u8; 128] = {
    let mut table = [SEPARATOR; 128];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() {
            table[c] = WORD;
        }
        c += 1;
    }
    table
};

/// The class of a byte that is ASCII, and [`NOT_ASCII`] for the bytes of longer sequences: the
/// tokeniser's fast path over ASCII text looks a byte up without testing its range first.
static BYTES: [u8; 256] = {
    let mut table = [NOT_ASCII; 256];
    let mut c = 0;
    while c < 128 {
        table[c] = ASCII[c];
        c += 1;
    }
    table
};

/// Not a class: marks the bytes of [`BYTES`] that start or continue a multi-byte sequence.
const NOT_ASCII: u8 = 0xFF;

/// Lowers the ASCII capitals `A`–`Z` of `text` to `a`–`z` and leaves every other byte as it is.
///
/// On text whose every character is ASCII this is exactly JavaScript's `toLowerCase()`, and
/// such text is already in NFKC: the caller may skip step 1 for it and lower it here.
pub fn lowercase_ascii(text: &mut [u8]) {
    // A form the compiler turns into vector code: no branch per byte.
    for b in text.iter_mut() {
        *b |= u8::from(b.wrapping_sub(b'A') < 26) << 5;
    }
}

/// The length of the code point starting at `bytes[i]`, as [`decode`] finds it.
#[inline]
pub fn sequence_length(bytes: &[u8], i: usize) -> usize {
    if bytes[i] < 0x80 {
        1
    } else {
        decode(bytes, i).1
    }
}

/// Decodes the code point starting at `bytes[i]`: `(code point, length)`. A byte that does not
/// start a well-formed sequence decodes as U+FFFD of length 1 (a separator), so malformed input
/// is never an error; `TextEncoder` output is always well-formed.
#[inline]
pub fn decode(bytes: &[u8], i: usize) -> (u32, usize) {
    let b0 = bytes[i];
    if b0 < 0x80 {
        return (u32::from(b0), 1);
    }
    let continuation = |k: usize| bytes.get(i + k).copied().filter(|&b| b & 0xC0 == 0x80).map(|b| u32::from(b & 0x3F));
    let (length, initial, minimum) = match b0 {
        0xC2..=0xDF => (2, u32::from(b0 & 0x1F), 0x80),
        0xE0..=0xEF => (3, u32::from(b0 & 0x0F), 0x800),
        0xF0..=0xF4 => (4, u32::from(b0 & 0x07), 0x1_0000),
        _ => return (0xFFFD, 1),
    };
    let mut code_point = initial;
    for k in 1..length {
        match continuation(k) {
            Some(bits) => code_point = code_point << 6 | bits,
            None => return (0xFFFD, 1),
        }
    }
    if code_point < minimum || code_point > 0x10_FFFF || (0xD800..=0xDFFF).contains(&code_point) {
        return (0xFFFD, 1);
    }
    (code_point, length)
}

/// Calls `token(start, end)` with the byte range of every token of `text`, in order.
///
/// A token is a maximal run of word code points, or one unsegmented code point; marks right
/// after a token's last code point extend it, other marks separate.
pub fn for_each_token(text: &[u8], mut token: impl FnMut(usize, usize)) {
    // `open` is the kind of the token being built (WORD or UNSEGMENTED), or SEPARATOR.
    let mut open = SEPARATOR;
    let mut classifier = Classifier::default();
    let mut start = 0;
    let mut i = 0;
    while i < text.len() {
        if let Some(chunk) = ascii_chunk(text, i) {
            // Eight ASCII bytes at once: only words and separators, and a branch per token
            // boundary instead of one per byte (the per-byte loop mispredicts at about every
            // boundary, which was most of its time on prose).
            if open == UNSEGMENTED {
                token(start, i);
                open = SEPARATOR;
            }
            let words = word_bytes(chunk);
            // Bit j is set iff byte j is a word byte and byte j - 1 (the byte before the
            // chunk for j = 0) is not, and the other way round.
            let before = words << 1 | u32::from(open == WORD);
            let mut starts = words & !before;
            let mut ends = !words & before & 0xFF;
            while starts | ends != 0 {
                let j = (starts | ends).trailing_zeros();
                let at = i + j as usize;
                if starts >> j & 1 == 1 {
                    start = at;
                    starts &= starts - 1;
                } else {
                    token(start, at);
                    ends &= ends - 1;
                }
            }
            open = if words & 0x80 != 0 { WORD } else { SEPARATOR };
            i += 8;
            continue;
        }
        let byte_class = BYTES[usize::from(text[i])];
        if byte_class == WORD {
            // An ASCII letter or digit: run to the end of the ASCII part of the word at once.
            if open != WORD {
                if open != SEPARATOR {
                    token(start, i);
                }
                open = WORD;
                start = i;
            }
            i += 1;
            while i < text.len() && BYTES[usize::from(text[i])] == WORD {
                i += 1;
            }
            continue;
        }
        if byte_class == SEPARATOR {
            if open != SEPARATOR {
                token(start, i);
                open = SEPARATOR;
            }
            i += 1;
            continue;
        }
        let (code_point, length) = decode(text, i);
        let class = classifier.class_of(code_point);
        let joins = match class {
            WORD => open == WORD,
            MARK => open != SEPARATOR,
            _ => false,
        };
        if !joins {
            if open != SEPARATOR {
                token(start, i);
            }
            open = if class == MARK { SEPARATOR } else { class };
            start = i;
        }
        i += length;
    }
    if open != SEPARATOR {
        token(start, text.len());
    }
}

/// The eight bytes at `i` as a little-endian word, if there are eight and all are ASCII.
#[inline(always)]
fn ascii_chunk(text: &[u8], i: usize) -> Option<u64> {
    let bytes: [u8; 8] = text.get(i..i + 8)?.try_into().ok()?;
    let chunk = u64::from_le_bytes(bytes);
    (chunk & HIGH_BITS == 0).then(|| chunk)
}

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
const ONES: u64 = 0x0101_0101_0101_0101;

/// For eight ASCII bytes (high bits clear), bit j of the result is set iff byte j is a letter
/// or digit (class [`WORD`]).
#[inline(always)]
fn word_bytes(chunk: u64) -> u32 {
    // Each byte is below 0x80, so adding at most 0x80 to it never carries into the next byte:
    // the high bit of `byte + (0x80 - lo)` says `byte >= lo`, that of `byte + (0x7F - hi)`
    // says `byte > hi`.
    let within = |v: u64, lo: u8, hi: u8| (v + ONES * u64::from(0x80 - lo)) & !(v + ONES * u64::from(0x7F - hi)) & HIGH_BITS;
    // Setting bit 5 folds capitals onto small letters and sends nothing else into a–z.
    let letters = within(chunk | ONES * 0x20, b'a', b'z');
    let digits = within(chunk, b'0', b'9');
    // Gathers the eight high bits into the top byte: each lands on its own bit, no sums collide.
    ((((letters | digits) >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        for_each_token(text.as_bytes(), |a, b| out.push(&text[a..b]));
        out
    }

    #[test]
    fn splits_words_and_unsegmented_scripts() {
        assert_eq!(tokens("hello, wörld"), ["hello", "wörld"]);
        assert_eq!(tokens("中文字"), ["中", "文", "字"]);
        assert_eq!(tokens("コーヒー"), ["コ", "ー", "ヒ", "ー"]);
        assert_eq!(tokens("ภาษาไทย"), ["ภ", "า", "ษ", "า", "ไ", "ท", "ย"]);
        assert_eq!(tokens("  --  "), Vec::<&str>::new());
        assert_eq!(tokens(""), Vec::<&str>::new());
        assert_eq!(tokens("abc中def"), ["abc", "中", "def"]);
        assert_eq!(tokens("x1_y2"), ["x1", "y2"]);
    }

    #[test]
    fn marks_attach_to_the_token_before_them() {
        // e + combining acute, then a lone combining mark after a space.
        assert_eq!(tokens("e\u{301}t\u{e9} \u{301}x"), ["e\u{301}t\u{e9}", "x"]);
        // Thai consonant with a vowel sign (a mark) stays one token.
        assert_eq!(tokens("กิน"), ["กิ", "น"]);
    }

    #[test]
    fn malformed_bytes_separate() {
        let mut out = Vec::new();
        for_each_token(b"ab\xFFcd\xE4\xB8", |a, b| out.push((a, b)));
        assert_eq!(out, [(0, 2), (3, 5)]);
        assert_eq!(decode(b"\xED\xA0\x80", 0), (0xFFFD, 1)); // surrogate
        assert_eq!(decode(b"\xC0\x80", 0), (0xFFFD, 1)); // overlong
        assert_eq!(decode("é".as_bytes(), 0), (0xE9, 2));
        assert_eq!(decode("😀".as_bytes(), 0), (0x1F600, 4));
    }

    #[test]
    fn remembered_runs_agree_with_the_search() {
        let mut classifier = Classifier::default();
        let mut rng = crate::test_rng::Rng::new(17);
        for _ in 0..200_000 {
            // Mostly near the last code point, sometimes anywhere.
            let code_point = if rng.below(4) == 0 { rng.below(0x11_0000) as u32 } else { 0x4E00 + rng.below(0x200) as u32 };
            let expected = {
                let key = code_point << 2 | 3;
                let index = RUN_STARTS.partition_point(|&start| start <= key);
                if code_point < 0x80 { ASCII[code_point as usize] } else { (RUN_STARTS[index - 1] & 3) as u8 }
            };
            assert_eq!(classifier.class_of(code_point), expected, "{:#x}", code_point);
        }
    }

    /// The tokeniser as the specification states it: one code point at a time.
    fn naive_tokens(text: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut open = SEPARATOR;
        let mut start = 0;
        let mut i = 0;
        while i < text.len() {
            let (code_point, length) = decode(text, i);
            let class = class_of(code_point);
            let joins = match class {
                WORD => open == WORD,
                MARK => open != SEPARATOR,
                _ => false,
            };
            if !joins {
                if open != SEPARATOR {
                    out.push((start, i));
                }
                open = if class == MARK { SEPARATOR } else { class };
                start = i;
            }
            i += length;
        }
        if open != SEPARATOR {
            out.push((start, text.len()));
        }
        out
    }

    #[test]
    fn word_bytes_classify_every_ascii_byte() {
        let mut rng = crate::test_rng::Rng::new(29);
        for b in 0..0x80u8 {
            for j in 0..8 {
                let mut bytes = [0u8; 8];
                for slot in bytes.iter_mut() {
                    *slot = rng.below(0x80) as u8;
                }
                bytes[j] = b;
                let mask = word_bytes(u64::from_le_bytes(bytes));
                for (k, &byte) in bytes.iter().enumerate() {
                    assert_eq!(mask >> k & 1 == 1, byte.is_ascii_alphanumeric(), "{:?}", bytes);
                }
            }
        }
    }

    #[test]
    fn fast_paths_agree_with_the_naive_tokeniser() {
        let pieces: [&[u8]; 22] = [
            b"a", b"Z9", b" ", b",", b"\xCC\x81", "中".as_bytes(), "é".as_bytes(), b"\xFF", b"\xE4\xB8", "ー".as_bytes(), "😀".as_bytes(), "ก".as_bytes(), "ิ".as_bytes(), b"_",
            // Long ASCII words and gaps, which the eight-byte path takes, and the bytes next
            // to the letter and digit ranges (controls 0x10–0x19 become digits under | 0x20).
            b"document", b"e-mail@site", b"   \t\n", b"\x10\x19\x7F", b"@[`{/:", b"0123456789abcdef", b"AZaz09", b"x",
        ];
        let mut rng = crate::test_rng::Rng::new(23);
        for _ in 0..50_000 {
            let mut text = Vec::new();
            for _ in 0..rng.below(24) {
                text.extend_from_slice(pieces[rng.below(pieces.len() as u64) as usize]);
            }
            let mut got = Vec::new();
            for_each_token(&text, |a, b| got.push((a, b)));
            assert_eq!(got, naive_tokens(&text), "{:?}", text);
            let mut i = 0;
            while i < text.len() {
                assert_eq!(sequence_length(&text, i), decode(&text, i).1);
                i += 1;
            }
        }
    }

    #[test]
    fn lowercase_ascii_lowers_capitals_only() {
        let mut all: Vec<u8> = (0..=255).collect();
        lowercase_ascii(&mut all);
        for (b, lowered) in (0..=255u8).zip(&all) {
            assert_eq!(*lowered, b.to_ascii_lowercase());
        }
        let mut text = "ÀB Σ çD".as_bytes().to_vec();
        lowercase_ascii(&mut text);
        assert_eq!(text, "Àb Σ çd".as_bytes());
    }

    #[test]
    fn classes() {
        assert_eq!(class_of(u32::from('a')), WORD);
        assert_eq!(class_of(0x4E2D), UNSEGMENTED);
        assert_eq!(class_of(0x301), MARK);
        assert_eq!(class_of(0x1F600), SEPARATOR);
        assert_eq!(class_of(0x10_FFFF), SEPARATOR);
    }
}
