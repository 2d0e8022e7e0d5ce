//! MinHash signatures: the Jaccard similarity of two feature sets, estimated from the share of
//! positions where their signatures agree.
//!
//! Two schemes: [`signature`] (specification v1 in the README), one-permutation hashing with
//! optimal densification, which costs O(n + k) for n features and k positions; and
//! [`datasketch`], k independent permutations over SHA-1 token hashes, O(n·k), equal to the
//! signatures of the Python library datasketch for the same tokens and permutations.
//!
//! Builds on [`crate::fingerprint`] for the text pipeline, so one tokenisation serves both
//! SimHash and MinHash.

pub mod datasketch;
mod sha1;
mod signature;

pub use sha1::sha1;
pub(crate) use signature::Sketch;
pub use signature::{signature, signature_many, text_signature_many, EMPTY, MAX_PERMUTATIONS, MINHASH_VERSION};
