//! Allocation that reports failure instead of aborting: WebAssembly memory ends at 4 GiB, and
//! running out must be an error the caller sees, not a trap.

use crate::Error;

/// A vector of `len` zeros, or [`Error::OutOfMemory`].
pub(crate) fn zeroed(len: usize) -> Result<Vec<u64>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory)?;
    v.resize(len, 0);
    Ok(v)
}
