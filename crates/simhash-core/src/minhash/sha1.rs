//! SHA-1 (FIPS 180-4), which datasketch hashes tokens with. Not for security: only to reproduce
//! those token hashes.

const H0: [u32; 5] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0];

fn compress(state: &mut [u32; 5], block: &[u8]) {
    let mut w = [0u32; 80];
    for (slot, word) in w.iter_mut().zip(block.chunks_exact(4)) {
        *slot = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
    }
    for i in 16..80 {
        w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
    }
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    // Four runs of twenty rounds, one per round function, so no round decides which it uses.
    macro_rules! rounds {
        ($range:expr, $k:expr, |$b:ident, $c:ident, $d:ident| $f:expr) => {
            for &wi in &w[$range] {
                let ($b, $c, $d) = (b, c, d);
                let t = a.rotate_left(5).wrapping_add($f).wrapping_add(e).wrapping_add($k).wrapping_add(wi);
                e = d;
                d = c;
                c = b.rotate_left(30);
                b = a;
                a = t;
            }
        };
    }
    rounds!(0..20, 0x5A82_7999, |b, c, d| (b & c) | (!b & d));
    rounds!(20..40, 0x6ED9_EBA1, |b, c, d| b ^ c ^ d);
    rounds!(40..60, 0x8F1B_BCDC, |b, c, d| (b & c) | (b & d) | (c & d));
    rounds!(60..80, 0xCA62_C1D6, |b, c, d| b ^ c ^ d);
    for (s, v) in state.iter_mut().zip([a, b, c, d, e]) {
        *s = s.wrapping_add(v);
    }
}

/// The SHA-1 digest of `bytes`, as five big-endian words.
pub fn sha1(bytes: &[u8]) -> [u32; 5] {
    let mut state = H0;
    let mut blocks = bytes.chunks_exact(64);
    for block in &mut blocks {
        compress(&mut state, block);
    }
    let rest = blocks.remainder();
    // The tail, 0x80, zeros and the length in bits fill one or two final blocks.
    let mut tail = [0u8; 128];
    tail[..rest.len()].copy_from_slice(rest);
    tail[rest.len()] = 0x80;
    let end = if rest.len() < 56 { 64 } else { 128 };
    tail[end - 8..end].copy_from_slice(&((bytes.len() as u64).wrapping_mul(8)).to_be_bytes());
    for block in tail[..end].chunks_exact(64) {
        compress(&mut state, block);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(words: [u32; 5]) -> String {
        words.iter().map(|w| format!("{:08x}", w)).collect()
    }

    #[test]
    fn known_digests() {
        assert_eq!(hex(sha1(b"")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(hex(sha1(b"abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(
            hex(sha1(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
        assert_eq!(hex(sha1(&[b'a'; 1000])), "291e9a6c66994949b57ba5e650361e98fc36b1ba");
        // 55 bytes leave room for the length in the last block, 56 do not, 64 fill a block.
        assert_eq!(hex(sha1(&[b'a'; 55])), "c1c8bbdc22796e28c0e15163d20899b65621d65a");
        assert_eq!(hex(sha1(&[b'a'; 56])), "c2db330f6083854c99d4b5bfb6e8f29f201be699");
        assert_eq!(hex(sha1(&[b'a'; 64])), "0098ba824b5c16427bd7a1122a5a442a25ec644d");
    }
}
