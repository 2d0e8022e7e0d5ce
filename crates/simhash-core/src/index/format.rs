//! The byte format of a saved index, versions 1 and 2. All integers little-endian:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `89 53 48 49 44 58 0D 0A` (`\x89SHIDX\r\n`) |
//! | 8 | 2 | format version, 1 or 2 |
//! | 10 | 1 | distance the index answers queries for, `0..=64` |
//! | 11 | 1 | filter: 0 when chosen by the planner, else blocks (`distance < blocks <= 64`), or, in version 2 only, `0x80 + parts` (`1 <= parts <= 64`) |
//! | 12 | 4 | n, the number of entries |
//! | 16 | 8 n | fingerprints, in the order of the ids |
//! | 16 + 8 n | 4 n | ids, strictly increasing |
//! | 16 + 12 n | 4 | CRC-32 (zlib's) of every byte before it |
//!
//! Version 2 differs only in allowing a fixed part layout; an index without one is written as
//! version 1, which earlier releases read. Only the entries are stored, never the tables: loading rebuilds them, so bytes cannot make
//! an index answer wrongly, and the format does not change with the tables' internals. Sorting
//! by id makes the bytes canonical: equal contents give equal bytes, whichever implementation
//! wrote them.

use crate::crc32::crc32;
use crate::error::FormatError;
use crate::search::layout::{binomial, MAX_TABLES};
use crate::search::strategy::PARTS_CODE;
use crate::Error;

/// The first 8 bytes: a high byte (caught by 7-bit channels), a name, and CR LF (caught by
/// line-ending conversion), as PNG does.
const MAGIC: [u8; 8] = [0x89, b'S', b'H', b'I', b'D', b'X', b'\r', b'\n'];

/// The version written for a fixed part layout; [`PLAIN_VERSION`] otherwise. Both are read.
const VERSION: u16 = 2;
/// The version of an index without a fixed part layout.
const PLAIN_VERSION: u16 = 1;

/// Bytes before the fingerprints.
const HEADER_BYTES: usize = 16;

/// Bytes of an index of `n` entries.
fn encoded_len(n: usize) -> u64 {
    HEADER_BYTES as u64 + 12 * n as u64 + 4
}

/// A decoded index: its parameters and entries, read in place.
pub(crate) struct Decoded<'a> {
    pub(crate) distance: u32,
    /// The filter code; 0 when the planner chooses.
    pub(crate) filter: u32,
    fingerprints: &'a [u8],
    ids: &'a [u8],
}

impl Decoded<'_> {
    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.ids.len() / 4
    }

    /// The entries as `(id, fingerprint)`, in increasing id order.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.ids.chunks_exact(4).zip(self.fingerprints.chunks_exact(8)).map(|(id, fingerprint)| {
            (
                u32::from_le_bytes([id[0], id[1], id[2], id[3]]),
                u64::from_le_bytes([
                    fingerprint[0],
                    fingerprint[1],
                    fingerprint[2],
                    fingerprint[3],
                    fingerprint[4],
                    fingerprint[5],
                    fingerprint[6],
                    fingerprint[7],
                ]),
            )
        })
    }
}

/// Checks and decodes `bytes`, in the order that gives the most telling error: magic,
/// version, length, checksum, then the fields the checksum cannot vouch for.
///
/// # Errors
/// [`Error::Format`] with the first problem found.
pub(crate) fn decode(bytes: &[u8]) -> Result<Decoded<'_>, Error> {
    let fail = |problem| Err(Error::Format(problem));
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return fail(FormatError::Magic);
    }
    if bytes.len() < HEADER_BYTES {
        return fail(FormatError::Length);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION && version != PLAIN_VERSION {
        return fail(FormatError::Version);
    }
    let n = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
    if bytes.len() as u64 != encoded_len(n) {
        return fail(FormatError::Length);
    }
    let (body, stored) = bytes.split_at(bytes.len() - 4);
    if crc32(body) != u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]) {
        return fail(FormatError::Checksum);
    }
    let distance = u32::from(bytes[10]);
    let mut filter = u32::from(bytes[11]);
    // Releases before the cap wrote layouts of up to 2^16 tables: such an index loads with the
    // layout the host plans (the same answers), and no table of the one named is ever built.
    if filter <= PARTS_CODE && distance < filter && filter <= 64 {
        let tables = binomial(u64::from(filter), u64::from(distance));
        if tables > MAX_TABLES && tables <= LEGACY_MAX_TABLES {
            filter = 0;
        }
    }
    let valid_filter = match filter {
        0 => true,
        f if f > PARTS_CODE => version == VERSION && f <= PARTS_CODE + 64,
        blocks => valid_blocks(blocks, distance),
    };
    if distance > 64 || !valid_filter {
        return fail(FormatError::Header);
    }
    let (fingerprints, ids) = body[HEADER_BYTES..].split_at(8 * n);
    let decoded = Decoded { distance, filter, fingerprints, ids };
    let mut previous: Option<u32> = None;
    for (id, _) in decoded.entries() {
        if previous.map_or(false, |p| id <= p) {
            return fail(FormatError::Ids);
        }
        previous = Some(id);
    }
    Ok(decoded)
}

/// The most tables a layout saved by an earlier release may name.
const LEGACY_MAX_TABLES: u64 = 1 << 16;

fn valid_blocks(blocks: u32, distance: u32) -> bool {
    distance < blocks && blocks <= 64 && binomial(u64::from(blocks), u64::from(distance)) <= MAX_TABLES
}

/// The bytes of an index with these parameters and the `n` entries `entry(0) .. entry(n - 1)`
/// as `(id, fingerprint)`, ids strictly increasing.
///
/// # Errors
/// [`Error::TooManyElements`] beyond `u32::MAX` entries; [`Error::OutOfMemory`].
pub(crate) fn encode(distance: u32, filter: u32, n: usize, entry: impl Fn(usize) -> (u32, u64)) -> Result<Vec<u8>, Error> {
    if n > u32::MAX as usize {
        return Err(Error::TooManyElements);
    }
    let len = usize::try_from(encoded_len(n)).map_err(|_| Error::OutOfMemory)?;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| Error::OutOfMemory)?;
    bytes.extend_from_slice(&MAGIC);
    let version = if filter > PARTS_CODE { VERSION } else { PLAIN_VERSION };
    bytes.extend_from_slice(&version.to_le_bytes());
    // Both fit a byte: the index checked them when it was made.
    bytes.push(distance as u8);
    bytes.push(filter as u8);
    bytes.extend_from_slice(&(n as u32).to_le_bytes());
    for k in 0..n {
        bytes.extend_from_slice(&entry(k).1.to_le_bytes());
    }
    for k in 0..n {
        bytes.extend_from_slice(&entry(k).0.to_le_bytes());
    }
    let checksum = crc32(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn sample(rng: &mut Rng, n: usize) -> (Vec<u32>, Vec<u64>) {
        let mut ids: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
        ids.sort_unstable();
        ids.dedup();
        let fingerprints = ids.iter().map(|_| rng.next()).collect();
        (ids, fingerprints)
    }

    fn problem(bytes: &[u8]) -> Option<FormatError> {
        match decode(bytes) {
            Ok(_) => None,
            Err(Error::Format(p)) => Some(p),
            Err(other) => panic!("unexpected error {:?}", other),
        }
    }

    #[test]
    fn round_trips() {
        let mut rng = Rng::new(31);
        for n in [0, 1, 2, 100] {
            let (ids, fingerprints) = sample(&mut rng, n);
            let bytes = encode(3, 5, ids.len(), |k| (ids[k], fingerprints[k])).unwrap();
            assert_eq!(bytes.len() as u64, encoded_len(ids.len()));
            let decoded = decode(&bytes).unwrap();
            assert_eq!((decoded.distance, decoded.filter, decoded.len()), (3, 5, ids.len()));
            assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), PLAIN_VERSION);
            let parts = encode(3, PARTS_CODE + 4, ids.len(), |k| (ids[k], fingerprints[k])).unwrap();
            assert_eq!(u16::from_le_bytes([parts[8], parts[9]]), VERSION);
            assert_eq!(decode(&parts).unwrap().filter, PARTS_CODE + 4);
            let entries: Vec<(u32, u64)> = decoded.entries().collect();
            assert_eq!(entries, ids.iter().copied().zip(fingerprints.iter().copied()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn names_each_problem() {
        let mut rng = Rng::new(32);
        let (ids, fingerprints) = sample(&mut rng, 10);
        let good = encode(3, 0, ids.len(), |k| (ids[k], fingerprints[k])).unwrap();
        assert_eq!(problem(b""), Some(FormatError::Length));
        assert_eq!(problem(&good[..5]), Some(FormatError::Length));
        assert_eq!(problem(b"PK\x03\x04 a zip file"), Some(FormatError::Magic));
        assert_eq!(problem(&good[..15]), Some(FormatError::Length));
        assert_eq!(problem(&good[..good.len() - 1]), Some(FormatError::Length));
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(problem(&longer), Some(FormatError::Length));
        let mut version = good.clone();
        version[8] = 3;
        assert_eq!(problem(&version), Some(FormatError::Version));
        for at in 10..good.len() {
            let mut flipped = good.clone();
            flipped[at] ^= 0x10;
            let p = problem(&flipped);
            // The count field changes the expected length before the checksum is looked at.
            assert!(p == Some(FormatError::Checksum) || (12..16).contains(&at) && p == Some(FormatError::Length), "byte {} gave {:?}", at, p);
        }
        let resealed = |mut bytes: Vec<u8>| {
            let end = bytes.len() - 4;
            let checksum = crc32(&bytes[..end]);
            bytes[end..].copy_from_slice(&checksum.to_le_bytes());
            bytes
        };
        let mut distance = good.clone();
        distance[10] = 65;
        assert_eq!(problem(&resealed(distance)), Some(FormatError::Header));
        let mut blocks = good.clone();
        blocks[11] = 3;
        assert_eq!(problem(&resealed(blocks)), Some(FormatError::Header));
        let mut parts_in_v1 = good.clone();
        parts_in_v1[11] = (PARTS_CODE + 4) as u8;
        assert_eq!(problem(&resealed(parts_in_v1)), Some(FormatError::Header));
        let mut parts = good.clone();
        (parts[8], parts[11]) = (2, (PARTS_CODE + 65) as u8);
        assert_eq!(problem(&resealed(parts)), Some(FormatError::Header));
        let mut tables = good.clone();
        (tables[10], tables[11]) = (32, 64);
        assert_eq!(problem(&resealed(tables)), Some(FormatError::Header));
        let mut repeated = ids.clone();
        repeated[4] = repeated[3];
        assert_eq!(problem(&encode(3, 0, repeated.len(), |k| (repeated[k], fingerprints[k])).unwrap()), Some(FormatError::Ids));
    }

    #[test]
    fn random_bytes_are_refused_without_panicking() {
        let mut rng = Rng::new(33);
        for len in 0..300 {
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            if len >= 8 && rng.below(2) == 0 {
                bytes[..8].copy_from_slice(&MAGIC);
            }
            assert!(decode(&bytes).is_err());
        }
    }
}
