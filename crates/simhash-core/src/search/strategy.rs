//! How a batch search looks for pairs, and the one-number code that names it across the
//! WebAssembly boundary and in saved indexes.

/// Codes at or above this name [`Strategy::Parts`]: `PARTS_CODE + parts`.
pub const PARTS_CODE: u32 = 0x80;

/// How [`find_all`](super::find_all) and [`find_clusters`](super::find_clusters) look for pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Compare every pair: cheapest for a few dozen fingerprints, and the only way at
    /// distance 64.
    Direct,
    /// Search the permuted tables of a layout with this many blocks.
    Blocks(u32),
    /// Probe the tables of this many parts (multi-index hashing, [`super::PartLayout`]).
    Parts(u32),
}

impl Strategy {
    /// The strategy a code names: 0 direct, `1..PARTS_CODE` blocks, `PARTS_CODE + m` parts.
    /// Codes naming impossible layouts are refused when the layout is made.
    pub fn from_code(code: u32) -> Strategy {
        match code {
            0 => Strategy::Direct,
            c if c >= PARTS_CODE => Strategy::Parts(c - PARTS_CODE),
            c => Strategy::Blocks(c),
        }
    }

    /// The code of [`Strategy::from_code`].
    pub fn code(self) -> u32 {
        match self {
            Strategy::Direct => 0,
            Strategy::Blocks(blocks) => blocks,
            Strategy::Parts(parts) => PARTS_CODE + parts,
        }
    }
}
