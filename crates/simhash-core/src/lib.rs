//! SimHash over plain slices: fingerprints from feature hashes, Hamming distances, and the
//! exact permuted-table search for every pair of near-duplicate fingerprints (Manku, Jain and
//! Das Sarma, 2007), the connected components of those pairs ([`find_clusters`]), and a mutable
//! index answering queries, with a versioned byte format ([`Index`]).
//!
//! Nothing here knows about WebAssembly or JavaScript; the `simhash-wasm` crate exposes these
//! functions across an `extern "C"` boundary. Every function takes slices, returns `Result` for
//! input it cannot serve, and never panics on what it is handed.
//!
//! The modules are layers, each using only those before it: [`fingerprint`] (features to
//! fingerprints, Hamming distance), [`minhash`], [`adaptive`] (the length-adaptive decision
//! over texts), [`search`] (batch search over a slice), [`index`] (the
//! mutable index and its byte format). A test (`layering`) keeps it so.

pub mod adaptive;
mod crc32;
mod error;
pub mod fingerprint;
pub mod index;
mod memory;
pub mod minhash;
pub mod search;
#[cfg(test)]
mod layering;
#[cfg(test)]
mod test_rng;

pub use error::Error;
pub use fingerprint::{bits_differ, compute, compute_many, compute_many_weighted, compute_weighted, hamming_distances, text, Fold};
pub use index::{FormatError, Index, Matches};
pub use search::{
    binomial, find_all, find_all_slice, find_clusters, find_clusters_slice, Filter, Layout, Pairs, PartLayout, PermutedTable,
    Placement, Slack, Slice, Strategy, MAX_KEY_BITS, MAX_TABLES, PARTS_CODE,
};
