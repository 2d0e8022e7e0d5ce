//! CRC-32 as zlib, PNG and gzip compute it (reflected polynomial 0xEDB88320, initial and final
//! value 0xFFFFFFFF): the checksum of the index byte formats, which any zlib binding can verify.

/// Slicing-by-4 tables (four bytes per step), computed per call (a few microseconds) rather
/// than stored: the .wasm size budget is tight, and a save or load spends far longer elsewhere.
fn tables() -> [[u32; 256]; 4] {
    let mut t = [[0u32; 256]; 4];
    for (i, entry) in t[0].iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *entry = c;
    }
    for i in 0..256 {
        for s in 1..4 {
            let previous = t[s - 1][i];
            t[s][i] = (previous >> 8) ^ t[0][(previous & 0xff) as usize];
        }
    }
    t
}

/// The CRC-32 of `bytes`.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let t = tables();
    let mut crc = !0u32;
    let mut words = bytes.chunks_exact(4);
    for word in &mut words {
        crc ^= u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        crc = t[3][(crc & 0xff) as usize] ^ t[2][(crc >> 8 & 0xff) as usize] ^ t[1][(crc >> 16 & 0xff) as usize] ^ t[0][(crc >> 24) as usize];
    }
    for &byte in words.remainder() {
        crc = (crc >> 8) ^ t[0][((crc ^ u32::from(byte)) & 0xff) as usize];
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bitwise(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 { 0xEDB8_8320 ^ (crc >> 1) } else { crc >> 1 };
            }
        }
        !crc
    }

    #[test]
    fn check_values() {
        // The standard check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        let data: Vec<u8> = (0..1000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for len in [1, 7, 8, 9, 63, 64, 1000] {
            assert_eq!(crc32(&data[..len]), bitwise(&data[..len]), "len {}", len);
        }
    }
}
