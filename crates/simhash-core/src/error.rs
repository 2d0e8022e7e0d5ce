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
    /// An id a kept text of the index holds, or that a batch names twice.
    IdInUse { id: u32 },
    /// Bytes that are not a saved index.
    Format(FormatError),
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
            Error::IdInUse { id } => write!(f, "id {} is held by a kept text or named twice in the batch", id),
            Error::Format(problem) => write!(f, "not a saved index: {}", problem),
        }
    }
}

impl std::error::Error for Error {}

/// Why bytes are not a saved index (either kind). The discriminants are part of the WebAssembly boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The bytes do not start with the format's magic bytes: something else entirely.
    Magic = 0,
    /// A version this crate cannot read.
    Version = 1,
    /// Fewer or more bytes than the header announces (or too few for a header).
    Length = 2,
    /// The checksum does not match: the bytes were damaged.
    Checksum = 3,
    /// A header field is out of range (a SimHash index's distance or filter, a text index's rule).
    Header = 4,
    /// The ids are not strictly increasing (a text index: two kept texts hold one id).
    Ids = 5,
    /// A field the checksum cannot vouch for breaks the format (a text index's columns).
    Contents = 6,
}

impl core::fmt::Display for FormatError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            FormatError::Magic => "it does not start with the format's magic bytes",
            FormatError::Version => "its format version is not one this version reads",
            FormatError::Length => "its length does not match its header",
            FormatError::Checksum => "its checksum does not match: the bytes are damaged",
            FormatError::Header => "a header field is out of range",
            FormatError::Ids => "its ids are not strictly increasing, or two kept texts hold one",
            FormatError::Contents => "a field its checksum cannot vouch for breaks the format",
        })
    }
}

