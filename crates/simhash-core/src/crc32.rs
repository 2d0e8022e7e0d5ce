//! CRC-32 as zlib, PNG and gzip compute it (reflected polynomial 0xEDB88320, initial and final
//! value 0xFFFFFFFF): the checksum of the index byte format, which any zlib binding can verify.

/// The byte-at-a-time table, computed per call (a few microseconds) rather than stored: the
/// .wasm size budget is tight, and a save or load spends far longer elsewhere.
fn table() -> [u32; 256] {
    let mut t = [0u32; 256];
    for (i, entry) in t.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *entry = c;
    }
    t
}

/// The CRC-32 of `bytes`.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let t = table();
    !bytes.iter().fold(!0u32, |crc, &byte| (crc >> 8) ^ t[((crc ^ u32::from(byte)) & 0xff) as usize])
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
