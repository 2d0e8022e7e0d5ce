//! SimHash over plain slices: fingerprints from feature hashes, Hamming distances, and the
//! exact permuted-table search for every pair of near-duplicate fingerprints (Manku, Jain and
//! Das Sarma, 2007), the connected components of those pairs ([`find_clusters`]), and a mutable
//! index answering queries, with a versioned byte format ([`Index`]).
//!
//! Nothing here knows about WebAssembly or JavaScript; the `simhash-wasm` crate exposes these
//! functions across an `extern "C"` boundary. Every function takes slices, returns `Result` for
//! input it cannot serve, and never panics on what it is handed.

mod clusters;
mod compute;
mod crc32;
mod error;
mod find_all;
mod hamming;
mod id_map;
mod index;
mod index_format;
mod layout;
mod radix;
mod table_scan;
pub mod text;
#[cfg(test)]
mod test_rng;
mod union_find;

pub use clusters::find_clusters;
pub use compute::{compute, compute_many, compute_many_weighted, compute_weighted, Fold};
pub use error::Error;
pub use find_all::{find_all, Pairs, Strategy};
pub use hamming::{bits_differ, hamming_distances};
pub use index::{Index, Matches};
pub use index_format::FormatError;
pub use layout::{binomial, Layout, PermutedTable, Placement, MAX_TABLES};
