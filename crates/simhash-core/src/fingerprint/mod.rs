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

use crate::Error;

/// Checks document offsets into a slice of `len` elements (document `d` is
/// `offsets[d]..offsets[d + 1]`): they never decrease nor exceed `len`.
///
/// # Errors
/// [`Error::InvalidOffsets`] otherwise.
pub(crate) fn check_offsets(offsets: &[u32], len: usize) -> Result<(), Error> {
    let mut previous = 0usize;
    for &offset in offsets {
        let offset = offset as usize;
        if offset < previous || offset > len {
            return Err(Error::InvalidOffsets);
        }
        previous = offset;
    }
    Ok(())
}
