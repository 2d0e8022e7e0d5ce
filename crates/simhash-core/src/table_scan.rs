//! The permuted-table scan that `find_all` and `find_clusters` share: for each table, sort the
//! fingerprints by their leading blocks and hand every run of equal sorted bits to a visitor,
//! which decides what a run means (pairs, or unions of components).

use crate::find_all::Strategy;
use crate::layout::{Layout, PermutedTable};
use crate::radix::RadixSort;
use crate::Error;

/// One fingerprint of a run: its value and its position in the input.
pub(crate) type Member = (u64, u64);

/// What the scan hands its runs to. Called through `dyn`: one copy of the scan serves every
/// visitor (the .wasm size matters more than one indirect call per run).
pub(crate) trait RunVisitor {
    /// Called once per run of at least two fingerprints that may lie within the distance of
    /// one another. `table` is the table the run comes from, or `None` when the run is the whole
    /// input ([`Strategy::Direct`]). Members come in increasing position order for the direct
    /// strategy, in (sorted bits, position) order otherwise.
    fn visit(&mut self, run: &[Member], table: Option<&PermutedTable>) -> Result<(), Error>;
}

/// Runs the scan of `strategy` over `fingerprints`, visiting every run. Every pair within
/// `distance` bits shares a run at least once (in the first table whose leading blocks it agrees
/// on, possibly in later ones too); runs may also hold fingerprints farther apart.
///
/// # Errors
/// The [`Layout::new`] errors for a bad `(blocks, distance)`; [`Error::OutOfMemory`]; whatever
/// the visitor returns.
pub(crate) fn scan(
    fingerprints: &[u64],
    distance: u32,
    strategy: Strategy,
    visitor: &mut dyn RunVisitor,
) -> Result<(), Error> {
    match strategy {
        Strategy::Direct => direct(fingerprints, visitor),
        Strategy::Blocks(blocks) => {
            let layout = Layout::new(blocks, distance)?;
            tables(fingerprints, &layout, visitor)
        }
    }
}

/// Bits that hold any position below `n` (at least 1, at most 32 for `n <= 2^32`).
pub(crate) fn position_bits(n: usize) -> u32 {
    (64 - (n.max(2) as u64 - 1).leading_zeros()).max(1)
}

fn direct(fingerprints: &[u64], visitor: &mut dyn RunVisitor) -> Result<(), Error> {
    if fingerprints.len() < 2 {
        return Ok(());
    }
    let mut run = Vec::new();
    run.try_reserve_exact(fingerprints.len()).map_err(|_| Error::OutOfMemory)?;
    run.extend(fingerprints.iter().enumerate().map(|(i, &f)| (f, i as u64)));
    visitor.visit(&run, None)
}

fn tables(fingerprints: &[u64], layout: &Layout, visitor: &mut dyn RunVisitor) -> Result<(), Error> {
    let n = fingerprints.len();
    if n < 2 {
        return Ok(());
    }
    let position_bits = position_bits(n);
    let mut keys = zeroed(n)?;
    let mut scratch = zeroed(n)?;
    let mut run = Vec::new();
    for table in layout.tables() {
        // A key is the table's prefix on top and the position below. Only the top `sorted_bits`
        // of the prefix are sorted on: enough that runs of equal sorted bits hold few
        // fingerprints that differ further down the prefix (about n / 8 extra candidates for
        // uniform data, which the visitors reject); sorting the rest would cost more passes than
        // it saves. They also leave room for the position.
        let sorted_bits = table
            .prefix_bits
            .min(64 - position_bits)
            .min(n_bits(n) + EXTRA_SORTED_BITS);
        let run_mask = !(u64::MAX >> sorted_bits);
        let mut sort = RadixSort::new(64 - sorted_bits, sorted_bits)?;
        for (i, (key, &fingerprint)) in keys.iter_mut().zip(fingerprints).enumerate() {
            *key = (table.prefix(fingerprint) & run_mask) | i as u64;
            sort.count(*key);
        }
        sort.sort(&mut keys, &mut scratch)?;
        visit_runs(&keys, run_mask, fingerprints, table, &mut run, visitor)?;
    }
    Ok(())
}

/// Sorted prefix bits beyond log2(n): each one halves the expected spurious candidates.
const EXTRA_SORTED_BITS: u32 = 2;

/// Bits needed to count to `n`: `ceil(log2(n))` for n >= 2.
fn n_bits(n: usize) -> u32 {
    64 - (n as u64 - 1).leading_zeros()
}

/// Hands each run of keys with equal sorted bits to the visitor, its members read from
/// `fingerprints` into `run` so that the visitor reads them contiguously.
fn visit_runs(
    keys: &[u64],
    run_mask: u64,
    fingerprints: &[u64],
    table: &PermutedTable,
    run: &mut Vec<Member>,
    visitor: &mut dyn RunVisitor,
) -> Result<(), Error> {
    let position_mask = !run_mask;
    let mut start = 0;
    while start < keys.len() {
        let head = keys[start] & run_mask;
        let mut end = start + 1;
        while end < keys.len() && keys[end] & run_mask == head {
            end += 1;
        }
        if end - start > 1 {
            run.clear();
            run.try_reserve(end - start).map_err(|_| Error::OutOfMemory)?;
            run.extend(keys[start..end].iter().map(|&k| {
                let position = k & position_mask;
                (fingerprints[position as usize], position)
            }));
            visitor.visit(run, Some(table))?;
        }
        start = end;
    }
    Ok(())
}

/// A vector of `len` zeros, or [`Error::OutOfMemory`].
pub(crate) fn zeroed(len: usize) -> Result<Vec<u64>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory)?;
    v.resize(len, 0);
    Ok(v)
}
