//! How a batch search looks for pairs.

/// How [`find_all`](super::find_all) and [`find_clusters`](super::find_clusters) look for pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Compare every pair: cheapest for a few dozen fingerprints, and the only way at
    /// distance 64.
    Direct,
    /// Search the permuted tables of a layout with this many blocks.
    Blocks(u32),
}
