//! A mutable index answering "which ids lie within k bits of this fingerprint?" ([`Index`]):
//! sorted permuted tables with a small unsorted delta, tombstones, an id map, and a versioned,
//! checksummed byte format.
//!
//! Builds on the layouts and radix sort of [`crate::search`]; nothing in the crate depends on it.

mod format;
mod id_map;
mod table_index;

pub use crate::error::FormatError;
pub use table_index::{Index, Matches};
