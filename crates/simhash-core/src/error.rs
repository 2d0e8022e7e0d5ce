//! The one error type of the crate.

use core::fmt;

/// Why an operation refused its input. Nothing in this crate panics on input it is handed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// `blocks` must be greater than `distance` (every table needs a leading block).
    BlocksNotAboveDistance { blocks: u32, distance: u32 },
    /// `blocks` must not exceed 64 (a block needs at least one bit).
    TooManyBlocks { blocks: u32 },
    /// The layout would have more than [`crate::MAX_TABLES`] tables.
    TooManyTables { blocks: u32, distance: u32 },
    /// A part layout needs `1..=64` parts.
    InvalidParts { parts: u32 },
    /// `distance` must not exceed 64.
    DistanceTooLarge { distance: u32 },
    /// Two slices that must have matching lengths do not.
    LengthMismatch,
    /// Document offsets decrease or point past the hashes.
    InvalidOffsets,
    /// More elements than 32-bit positions can address.
    TooManyElements,
    /// The search would report more pairs than the caller allowed.
    TooManyPairs { max_pairs: u64 },
    /// An allocation failed.
    OutOfMemory,
    /// A shingle size outside `1..=64`.
    InvalidShingleSize { size: u32 },
    /// A query asked for a larger distance than the index answers.
    QueryDistanceAboveIndex { distance: u32, index_distance: u32 },
    /// A work slice whose index is not below its count.
    InvalidSlice { index: u32, count: u32 },
    /// An order of documents that is not a permutation of them.
    InvalidOrder,
    /// Bytes that are not a saved index.
    Format(crate::FormatError),
    /// A MinHash signature length (number of permutations) outside `1..=4096`, or permutation
    /// parameters of unequal lengths.
    InvalidPermutations { permutations: u32 },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::BlocksNotAboveDistance { blocks, distance } => write!(
                f,
                "blocks must be greater than distance (got blocks {}, distance {})",
                blocks, distance
            ),
            Error::TooManyBlocks { blocks } => write!(f, "blocks must not exceed 64, got {}", blocks),
            Error::TooManyTables { blocks, distance } => write!(
                f,
                "blocks {} with distance {} needs more than {} tables",
                blocks,
                distance,
                crate::MAX_TABLES
            ),
            Error::InvalidParts { parts } => write!(f, "parts must be in 1..=64, got {}", parts),
            Error::DistanceTooLarge { distance } => write!(f, "distance must not exceed 64, got {}", distance),
            Error::LengthMismatch => f.write_str("slice lengths do not match"),
            Error::InvalidOffsets => f.write_str("offsets must never decrease nor exceed the number of hashes"),
            Error::TooManyElements => f.write_str("more than 2^32 - 1 elements"),
            Error::TooManyPairs { max_pairs } => write!(f, "more than {} pairs", max_pairs),
            Error::OutOfMemory => f.write_str("out of memory"),
            Error::InvalidPermutations { permutations } => {
                write!(f, "the number of permutations must be in 1..=4096, got {}", permutations)
            }
            Error::InvalidShingleSize { size } => write!(f, "shingle size must be in 1..=64, got {}", size),
            Error::QueryDistanceAboveIndex { distance, index_distance } => write!(
                f,
                "query distance {} exceeds the index's distance {}",
                distance, index_distance
            ),
            Error::InvalidSlice { index, count } => {
                write!(f, "slice index must be below the slice count (got index {}, count {})", index, count)
            }
            Error::InvalidOrder => f.write_str("order must name every document once"),
            Error::Format(problem) => write!(f, "not a saved index: {}", problem),
        }
    }
}

impl std::error::Error for Error {}
