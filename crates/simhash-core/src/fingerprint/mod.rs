//! From features to fingerprints: SimHash of feature hashes ([`compute`], weighted and batched
//! forms), the Hamming distance between fingerprints, and the text pipeline that turns UTF-8
//! into features ([`text`]).
//!
//! Depends only on the crate's error type; everything else in the crate builds on it.

mod compute;
mod hamming;
pub mod text;

pub use compute::{compute, compute_many, compute_many_weighted, compute_weighted, Fold};
pub use hamming::{bits_differ, hamming_distances};
