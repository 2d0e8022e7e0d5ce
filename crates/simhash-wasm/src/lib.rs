//! The `extern "C"` boundary of `simhash-core` for WebAssembly.
//!
//! Only shims live here: turn (pointer, length) pairs from the host into slices, call the core,
//! and report failures as status codes. The host (the TypeScript loader) allocates every input
//! with [`sh_alloc`], validates arguments before calling, and frees what it allocated.
//!
//! Status codes returned by the `i32` functions:
//! `0` ok, `1` invalid parameters, `2` out of memory, `3` more pairs than allowed,
//! `4` lengths or offsets that do not fit together,
//! `32`–`37` bytes that are not a saved index (32 + the [`simhash_core::FormatError`] discriminant).

// Every unsafe operation gets its own block and its own `SAFETY` comment, even inside
// `unsafe fn`.
#![deny(unsafe_op_in_unsafe_fn)]

use core::{ptr, slice};
use simhash_core::adaptive::{Rule, TextIndex, TextSketches};
use simhash_core::minhash::datasketch::Scheme;
use simhash_core::text::{TextOptions, Unit, Weighting};
use simhash_core::{Error, Index, Matches, Slice, Strategy};
use std::alloc::{self, Layout};

/// Bumped whenever a signature, a status code or the meaning of an argument changes; the loader
/// refuses other versions.
pub const ABI_VERSION: u32 = 9;

const OK: i32 = 0;

fn status(error: Error) -> i32 {
    match error {
        Error::BlocksNotAboveDistance { .. }
        | Error::TooManyBlocks { .. }
        | Error::TooManyTables { .. }
        | Error::DistanceTooLarge { .. }
        | Error::InvalidParts { .. }
        | Error::InvalidShingleSize { .. }
        | Error::InvalidPermutations { .. } => 1,
        Error::OutOfMemory => 2,
        Error::TooManyPairs { .. } => 3,
        Error::LengthMismatch | Error::InvalidOffsets | Error::TooManyElements => 4,
        Error::QueryDistanceAboveIndex { .. } | Error::InvalidSlice { .. } | Error::InvalidOrder | Error::IdInUse { .. } => 1,
        Error::Format(problem) => 32 + problem as i32,
    }
}

fn to_status(result: Result<(), Error>) -> i32 {
    match result {
        Ok(()) => OK,
        Err(error) => status(error),
    }
}

/// # Safety
/// `ptr` must be null only when `len == 0`; otherwise it must point to `len` initialised,
/// aligned values that nothing writes to while the slice lives.
unsafe fn input<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if len == 0 {
        &[]
    } else {
        // SAFETY: guaranteed by the caller (see above).
        unsafe { slice::from_raw_parts(ptr, len) }
    }
}

/// # Safety
/// As [`input`], and nothing else reads or writes the memory while the slice lives.
unsafe fn output<'a, T>(ptr: *mut T, len: usize) -> &'a mut [T] {
    if len == 0 {
        &mut []
    } else {
        // SAFETY: guaranteed by the caller (see above).
        unsafe { slice::from_raw_parts_mut(ptr, len) }
    }
}

/// The ABI version this module implements.
#[no_mangle]
pub extern "C" fn sh_abi_version() -> u32 {
    ABI_VERSION
}

/// Allocates `bytes` bytes aligned to 8, or returns null when memory cannot grow. Zero bytes
/// give a non-null dangling pointer that must not be read.
#[no_mangle]
pub extern "C" fn sh_alloc(bytes: usize) -> *mut u8 {
    if bytes == 0 {
        return 8 as *mut u8;
    }
    match Layout::from_size_align(bytes, 8) {
        // SAFETY: the layout has a non-zero size.
        Ok(layout) => unsafe { alloc::alloc(layout) },
        Err(_) => ptr::null_mut(),
    }
}

/// Frees what [`sh_alloc`] returned for the same `bytes`.
///
/// # Safety
/// `ptr` must come from `sh_alloc(bytes)` and not have been freed.
#[no_mangle]
pub unsafe extern "C" fn sh_free(ptr: *mut u8, bytes: usize) {
    if bytes == 0 || ptr.is_null() {
        return;
    }
    // SAFETY: the same size and alignment `sh_alloc` used, as the caller guarantees; a size
    // that was accepted there is accepted here.
    unsafe { alloc::dealloc(ptr, Layout::from_size_align_unchecked(bytes, 8)) }
}

/// # Safety
/// `hashes` points to `len` values (see [`input`]).
#[no_mangle]
pub unsafe extern "C" fn sh_compute(hashes: *const u64, len: usize) -> u64 {
    // SAFETY: forwarded caller guarantee.
    simhash_core::compute(unsafe { input(hashes, len) })
}

/// # Safety
/// `hashes` and `weights` each point to `len` values.
#[no_mangle]
pub unsafe extern "C" fn sh_compute_weighted(hashes: *const u64, weights: *const f64, len: usize) -> u64 {
    // SAFETY: forwarded caller guarantee; equal lengths by construction, so this cannot fail.
    simhash_core::compute_weighted(unsafe { input(hashes, len) }, unsafe { input(weights, len) }).unwrap_or(0)
}

/// Writes `offsets_len - 1` fingerprints (none if `offsets_len == 0`) to `out`.
///
/// # Safety
/// `hashes` points to `len` values, `offsets` to `offsets_len`, and `out` to
/// `offsets_len.saturating_sub(1)` writable values not overlapping the inputs.
#[no_mangle]
pub unsafe extern "C" fn sh_compute_many(
    hashes: *const u64,
    len: usize,
    offsets: *const u32,
    offsets_len: usize,
    out: *mut u64,
) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (hashes, offsets, out) =
        unsafe { (input(hashes, len), input(offsets, offsets_len), output(out, offsets_len.saturating_sub(1))) };
    to_status(simhash_core::compute_many(hashes, offsets, out))
}

/// The weighted form of [`sh_compute_many`]; `weights` points to `len` values.
///
/// # Safety
/// As [`sh_compute_many`].
#[no_mangle]
pub unsafe extern "C" fn sh_compute_many_weighted(
    hashes: *const u64,
    weights: *const f64,
    len: usize,
    offsets: *const u32,
    offsets_len: usize,
    out: *mut u64,
) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (hashes, weights, offsets, out) = unsafe {
        (
            input(hashes, len),
            input(weights, len),
            input(offsets, offsets_len),
            output(out, offsets_len.saturating_sub(1)),
        )
    };
    to_status(simhash_core::compute_many_weighted(hashes, weights, offsets, out))
}

/// # Safety
/// `fingerprints` points to `len` values and `out` to `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sh_hamming_distances(query: u64, fingerprints: *const u64, len: usize, out: *mut u8) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (fingerprints, out) = unsafe { (input(fingerprints, len), output(out, len)) };
    to_status(simhash_core::hamming_distances(query, fingerprints, out))
}

/// Finds the pairs within `distance` bits, searching as the strategy code `filter` names
/// ([`Strategy::from_code`]: 0 directly, blocks, or `PARTS_CODE + parts`), that work slice
/// `slice_index` of `slice_count` reports (`0, 1`: all of them) and, on success, writes
/// `[left_ptr, right_ptr, distance_ptr, count]` to `result`. The three arrays belong to the
/// host until it passes `result` back to [`sh_pairs_free`].
///
/// # Safety
/// `fingerprints` points to `len` values; `result` to 4 writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn sh_find_all(
    fingerprints: *const u64,
    len: usize,
    distance: u32,
    filter: u32,
    max_pairs: u32,
    slice_index: u32,
    slice_count: u32,
    result: *mut u32,
) -> i32 {
    let slice = match Slice::new(slice_index, slice_count) {
        Ok(slice) => slice,
        Err(error) => return status(error),
    };
    // SAFETY: forwarded caller guarantees.
    let (fingerprints, result) = unsafe { (input(fingerprints, len), output(result, 4)) };
    match simhash_core::find_all_slice(fingerprints, distance, Strategy::from_code(filter), max_pairs as usize, slice) {
        Ok(pairs) => {
            result[3] = pairs.left.len() as u32;
            result[0] = Box::into_raw(pairs.left.into_boxed_slice()) as *mut u32 as u32;
            result[1] = Box::into_raw(pairs.right.into_boxed_slice()) as *mut u32 as u32;
            result[2] = Box::into_raw(pairs.distance.into_boxed_slice()) as *mut u8 as u32;
            OK
        }
        Err(error) => status(error),
    }
}

/// Frees the arrays [`sh_find_all`] described in `result`.
///
/// # Safety
/// `result` must hold what a successful `sh_find_all` wrote, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn sh_pairs_free(result: *const u32) {
    // SAFETY: forwarded caller guarantee: each pointer came from `Box::into_raw` of a boxed
    // slice of `count` elements, so rebuilding the boxes hands the memory back exactly once.
    unsafe {
        let result = input(result, 4);
        let count = result[3] as usize;
        drop(Box::from_raw(ptr::slice_from_raw_parts_mut(result[0] as usize as *mut u32, count)));
        drop(Box::from_raw(ptr::slice_from_raw_parts_mut(result[1] as usize as *mut u32, count)));
        drop(Box::from_raw(ptr::slice_from_raw_parts_mut(result[2] as usize as *mut u8, count)));
    }
}

/// Text options from their codes: `unit` 0 word, 1 char; `weighting` 0 term frequency,
/// 1 binary. `None` for an unknown code.
fn text_options(unit: u32, size: u32, weighting: u32, seed: u64) -> Option<TextOptions> {
    let unit = match unit {
        0 => Unit::Word,
        1 => Unit::Char,
        _ => return None,
    };
    let weighting = match weighting {
        0 => Weighting::TermFrequency,
        1 => Weighting::Binary,
        _ => return None,
    };
    Some(TextOptions { unit, size, weighting, seed })
}

/// Fingerprints `offsets_len - 1` UTF-8 texts laid out back to back in `texts` (text `d` is
/// `texts[offsets[d]..offsets[d + 1]]`) into `out`.
///
/// # Safety
/// `texts` points to `len` bytes, `offsets` to `offsets_len` values, and `out` to
/// `offsets_len.saturating_sub(1)` writable values not overlapping the inputs.
#[no_mangle]
pub unsafe extern "C" fn sh_text_fingerprint_many(
    texts: *const u8,
    len: usize,
    offsets: *const u32,
    offsets_len: usize,
    unit: u32,
    size: u32,
    weighting: u32,
    seed: u64,
    out: *mut u64,
) -> i32 {
    let options = match text_options(unit, size, weighting, seed) {
        Some(options) => options,
        None => return 1,
    };
    // SAFETY: forwarded caller guarantees.
    let (texts, offsets, out) =
        unsafe { (input(texts, len), input(offsets, offsets_len), output(out, offsets_len.saturating_sub(1))) };
    to_status(simhash_core::text::fingerprint_many(texts, offsets, &options, out))
}

/// Lowers the ASCII capitals of `len` bytes at `text` in place (`A`–`Z` to `a`–`z`), the part
/// of step 1 the host leaves to this module (see `ts/shared/text-normalize.ts`).
///
/// # Safety
/// `text` points to `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sh_text_lowercase_ascii(text: *mut u8, len: usize) {
    // SAFETY: forwarded caller guarantee.
    simhash_core::text::lowercase_ascii(unsafe { output(text, len) });
}

/// The shingle hashes of one UTF-8 text; on success writes `[ptr, count]` to `result`, an
/// array the host owns until it passes both to [`sh_u64s_free`].
///
/// # Safety
/// `text` points to `len` bytes; `result` to 2 writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn sh_text_features(
    text: *const u8,
    len: usize,
    unit: u32,
    size: u32,
    weighting: u32,
    seed: u64,
    result: *mut u32,
) -> i32 {
    let options = match text_options(unit, size, weighting, seed) {
        Some(options) => options,
        None => return 1,
    };
    // SAFETY: forwarded caller guarantees.
    let (text, result) = unsafe { (input(text, len), output(result, 2)) };
    match simhash_core::text::features(text, &options) {
        Ok(features) => {
            result[1] = features.len() as u32;
            result[0] = Box::into_raw(features.into_boxed_slice()) as *mut u64 as u32;
            OK
        }
        Err(error) => status(error),
    }
}

/// Frees an array [`sh_text_features`] handed over.
///
/// # Safety
/// `ptr` and `count` must be what `sh_text_features` wrote, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn sh_u64s_free(ptr: *mut u64, count: usize) {
    // SAFETY: the pointer came from `Box::into_raw` of a boxed slice of `count` elements, as
    // the caller guarantees, so rebuilding the box hands the memory back exactly once.
    drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(ptr, count)) });
}

/// Writes to `labels[i]` the smallest position of the component of fingerprint `i` within
/// `distance` bits, searching as the strategy code `filter` names (see [`sh_find_all`]), over
/// the pairs that work slice `slice_index` of `slice_count` finds (`0, 1`: all of them).
///
/// # Safety
/// `fingerprints` points to `len` values and `labels` to `len` writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn sh_find_clusters(
    fingerprints: *const u64,
    len: usize,
    distance: u32,
    filter: u32,
    slice_index: u32,
    slice_count: u32,
    labels: *mut u32,
) -> i32 {
    let slice = match Slice::new(slice_index, slice_count) {
        Ok(slice) => slice,
        Err(error) => return status(error),
    };
    // SAFETY: forwarded caller guarantees.
    let (fingerprints, labels) = unsafe { (input(fingerprints, len), output(labels, len)) };
    to_status(simhash_core::find_clusters_slice(fingerprints, distance, Strategy::from_code(filter), slice, labels))
}

/// An index owned by the host through an opaque pointer, with the buffers its answers are
/// handed over in.
pub struct IndexHandle {
    index: Index,
    matches: Matches,
    serialized: Vec<u8>,
    /// What the last call left for the host. After a query:
    /// `[ids_ptr, distances_ptr, offsets_ptr, count, queries]`; after [`sh_index_serialize`]:
    /// `[bytes_ptr, bytes_len, ..]`. Its address never changes.
    answer: [u32; 5],
}

fn into_handle(index: Index, handle: &mut [u32]) -> i32 {
    let boxed = Box::new(IndexHandle { index, matches: Matches::default(), serialized: Vec::new(), answer: [0; 5] });
    handle[0] = Box::into_raw(boxed) as u32;
    OK
}

/// # Safety
/// `handle` must come from [`sh_index_new`] or [`sh_index_deserialize`] and not be freed, and
/// nothing else may use it while the reference lives.
unsafe fn index_mut<'a>(handle: u32) -> &'a mut IndexHandle {
    // SAFETY: guaranteed by the caller (see above).
    unsafe { &mut *(handle as usize as *mut IndexHandle) }
}

/// Makes an empty index for `distance` with filter code `filter` ([`Strategy::from_code`];
/// 0: the host picks the filter later with
/// [`sh_index_set_filter`]) and writes its handle to `handle`.
///
/// # Safety
/// `handle` points to 1 writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn sh_index_new(distance: u32, filter: u32, handle: *mut u32) -> i32 {
    match Index::new(distance, filter) {
        // SAFETY: forwarded caller guarantee.
        Ok(index) => into_handle(index, unsafe { output(handle, 1) }),
        Err(error) => status(error),
    }
}

/// Frees an index.
///
/// # Safety
/// As [`index_mut`]; the handle is invalid afterwards.
#[no_mangle]
pub unsafe extern "C" fn sh_index_free(handle: u32) {
    // SAFETY: the handle came from `Box::into_raw` and is freed once, as the caller guarantees.
    drop(unsafe { Box::from_raw(handle as usize as *mut IndexHandle) });
}

/// Address of the index's answer (see [`IndexHandle`]), fixed for its lifetime.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_answer(handle: u32) -> *const u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { index_mut(handle) }.answer.as_ptr()
}

/// Number of ids.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_len(handle: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { index_mut(handle) }.index.len() as u32
}

/// Code of the current filter ([`Strategy::code`]), 0 when every entry is compared.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_filter(handle: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { index_mut(handle) }.index.filter()
}

/// The distance and the configured filter code (0: chosen by the host), as
/// `distance << 8 | filter`.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_parameters(handle: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    let index = &unsafe { index_mut(handle) }.index;
    index.distance() << 8 | index.configured_filter()
}

/// 1 if `id` is in the index, else 0.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_contains(handle: u32, id: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    u32::from(unsafe { index_mut(handle) }.index.contains(id))
}

/// Adds or replaces `id`.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_insert(handle: u32, id: u32, fingerprint: u64) -> i32 {
    // SAFETY: forwarded caller guarantee.
    to_status(unsafe { index_mut(handle) }.index.insert(id, fingerprint).map(drop))
}

/// Adds or replaces `ids[k]` with `fingerprints[k]`, in order.
///
/// # Safety
/// As [`index_mut`]; `ids` and `fingerprints` each point to `len` values.
#[no_mangle]
pub unsafe extern "C" fn sh_index_insert_many(handle: u32, ids: *const u32, fingerprints: *const u64, len: usize) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (target, ids, fingerprints) = unsafe { (index_mut(handle), input(ids, len), input(fingerprints, len)) };
    to_status(target.index.insert_many(ids, fingerprints))
}

/// Removes `id`: 1 if it was there, else 0.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_remove(handle: u32, id: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    u32::from(unsafe { index_mut(handle) }.index.remove(id))
}

/// Rebuilds the tables with `blocks` blocks (0: compare every entry).
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_set_filter(handle: u32, filter: u32) -> i32 {
    // SAFETY: forwarded caller guarantee.
    to_status(unsafe { index_mut(handle) }.index.set_filter(filter))
}

fn answer_matches(target: &mut IndexHandle, result: Result<(), Error>) -> i32 {
    if let Err(error) = result {
        return status(error);
    }
    let matches = &target.matches;
    target.answer = [
        matches.ids.as_ptr() as u32,
        matches.distances.as_ptr() as u32,
        matches.offsets.as_ptr() as u32,
        matches.ids.len() as u32,
        matches.offsets.len() as u32 - 1,
    ];
    OK
}

/// The ids within `distance` of `fingerprint`, sorted by (distance, id), at most `limit`; on
/// success the answer describes them (see [`IndexHandle`]) until the next call on the index.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_query(handle: u32, fingerprint: u64, distance: u32, limit: u32) -> i32 {
    // SAFETY: forwarded caller guarantee.
    let target = unsafe { index_mut(handle) };
    let result = target.index.query(fingerprint, distance, limit, &mut target.matches);
    answer_matches(target, result)
}

/// [`sh_index_query`] for `len` fingerprints at once; the answer's offsets separate them.
///
/// # Safety
/// As [`index_mut`]; `fingerprints` points to `len` values.
#[no_mangle]
pub unsafe extern "C" fn sh_index_query_many(
    handle: u32,
    fingerprints: *const u64,
    len: usize,
    distance: u32,
    limit: u32,
) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (target, fingerprints) = unsafe { (index_mut(handle), input(fingerprints, len)) };
    let result = target.index.query_many(fingerprints, distance, limit, &mut target.matches);
    answer_matches(target, result)
}

/// Serializes the index; on success the answer holds `[bytes_ptr, bytes_len]`, valid until
/// [`sh_index_release_bytes`] or the next serialization.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_serialize(handle: u32) -> i32 {
    // SAFETY: forwarded caller guarantee.
    let target = unsafe { index_mut(handle) };
    match target.index.serialize() {
        Ok(bytes) => {
            target.serialized = bytes;
            target.answer[0] = target.serialized.as_ptr() as u32;
            target.answer[1] = target.serialized.len() as u32;
            OK
        }
        Err(error) => status(error),
    }
}

/// Frees the bytes of the last serialization.
///
/// # Safety
/// As [`index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_index_release_bytes(handle: u32) {
    // SAFETY: forwarded caller guarantee.
    unsafe { index_mut(handle) }.serialized = Vec::new();
}

/// Loads an index from `len` bytes and writes its handle to `handle`. Bytes that are not a
/// saved index give status 32 + the [`simhash_core::FormatError`] discriminant.
///
/// # Safety
/// `bytes` points to `len` bytes; `handle` to 1 writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn sh_index_deserialize(bytes: *const u8, len: usize, handle: *mut u32) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (bytes, handle) = unsafe { (input(bytes, len), output(handle, 1)) };
    match Index::deserialize(bytes) {
        Ok(index) => into_handle(index, handle),
        Err(error) => status(error),
    }
}

/// MinHash signatures (specification v1) of `offsets_len - 1` documents of features, document
/// `d` being `features[offsets[d]..offsets[d + 1]]`, into `out`: `out_len / (offsets_len - 1)`
/// positions each.
///
/// # Safety
/// `features` points to `len` values, `offsets` to `offsets_len`, and `out` to `out_len`
/// writable values not overlapping the inputs.
#[no_mangle]
pub unsafe extern "C" fn sh_minhash_many(
    features: *const u64,
    len: usize,
    offsets: *const u32,
    offsets_len: usize,
    seed: u64,
    out: *mut u32,
    out_len: usize,
) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (features, offsets, out) = unsafe { (input(features, len), input(offsets, offsets_len), output(out, out_len)) };
    to_status(simhash_core::minhash::signature_many(features, offsets, seed, out))
}

/// MinHash signatures of `offsets_len - 1` UTF-8 texts laid out as for
/// [`sh_text_fingerprint_many`], over the text pipeline's features with `unit`, `size` and
/// `seed`, which also seeds the signature; `out` as for [`sh_minhash_many`].
///
/// # Safety
/// `texts` points to `len` bytes, `offsets` to `offsets_len` values, and `out` to `out_len`
/// writable values not overlapping the inputs.
#[no_mangle]
pub unsafe extern "C" fn sh_minhash_text_many(
    texts: *const u8,
    len: usize,
    offsets: *const u32,
    offsets_len: usize,
    unit: u32,
    size: u32,
    seed: u64,
    out: *mut u32,
    out_len: usize,
) -> i32 {
    // The weighting does not matter to a set.
    let options = match text_options(unit, size, 1, seed) {
        Some(options) => options,
        None => return 1,
    };
    // SAFETY: forwarded caller guarantees.
    let (texts, offsets, out) = unsafe { (input(texts, len), input(offsets, offsets_len), output(out, out_len)) };
    to_status(simhash_core::minhash::text_signature_many(texts, offsets, &options, seed, out))
}

/// datasketch-compatible signatures: token `t` is `tokens[token_offsets[t]..token_offsets[t + 1]]`,
/// document `d` is tokens `documents[d]..documents[d + 1]`; `scheme` 0 legacy, 1 affine32; `a` and `b` hold `k` permutation
/// parameters each; `out` receives `k` values per document.
///
/// # Safety
/// `tokens` points to `len` bytes, `token_offsets` to `token_offsets_len` values, `documents`
/// to `documents_len`, `a` and `b` to `k` each, and `out` to `out_len` writable values not
/// overlapping the inputs.
#[no_mangle]
pub unsafe extern "C" fn sh_minhash_datasketch_many(
    tokens: *const u8,
    len: usize,
    token_offsets: *const u32,
    token_offsets_len: usize,
    documents: *const u32,
    documents_len: usize,
    scheme: u32,
    a: *const u64,
    b: *const u64,
    k: usize,
    out: *mut u32,
    out_len: usize,
) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (tokens, token_offsets, documents, a, b, out) = unsafe {
        (
            input(tokens, len),
            input(token_offsets, token_offsets_len),
            input(documents, documents_len),
            input(a, k),
            input(b, k),
            output(out, out_len),
        )
    };
    let scheme = match scheme {
        0 => Scheme::Legacy,
        1 => Scheme::Affine32,
        _ => return 1,
    };
    to_status(simhash_core::minhash::datasketch::signature_many(tokens, token_offsets, documents, scheme, a, b, out))
}

/// # Safety
/// `handle` must come from [`sh_text_sketches_new`] and not be freed, and nothing else may use
/// it while the reference lives.
unsafe fn sketches_mut<'a>(handle: u32) -> &'a mut TextSketches {
    // SAFETY: guaranteed by the caller (see above).
    unsafe { &mut *(handle as usize as *mut TextSketches) }
}

/// Makes an empty set of text sketches (the length-adaptive decision) and returns its handle.
#[no_mangle]
pub extern "C" fn sh_text_sketches_new() -> u32 {
    Box::into_raw(Box::new(TextSketches::new())) as u32
}

/// Frees a set of text sketches.
///
/// # Safety
/// As [`sketches_mut`]; the handle is invalid afterwards.
#[no_mangle]
pub unsafe extern "C" fn sh_text_sketches_free(handle: u32) {
    // SAFETY: the handle came from `Box::into_raw` and is freed once, as the caller guarantees.
    drop(unsafe { Box::from_raw(handle as usize as *mut TextSketches) });
}

/// Number of texts sketched.
///
/// # Safety
/// As [`sketches_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_text_sketches_len(handle: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { sketches_mut(handle) }.len() as u32
}

/// Sketches `offsets_len - 1` UTF-8 texts laid out as for [`sh_text_fingerprint_many`].
///
/// # Safety
/// As [`sketches_mut`]; `texts` points to `len` bytes and `offsets` to `offsets_len` values.
#[no_mangle]
pub unsafe extern "C" fn sh_text_sketches_add(handle: u32, texts: *const u8, len: usize, offsets: *const u32, offsets_len: usize) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (sketches, texts, offsets) = unsafe { (sketches_mut(handle), input(texts, len), input(offsets, offsets_len)) };
    to_status(sketches.add(texts, offsets))
}

/// Writes the kind code of every text (`simhash_core::adaptive::Kind`) to `out`.
///
/// # Safety
/// As [`sketches_mut`]; `out` points to `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sh_text_sketches_kinds(handle: u32, out: *mut u8, len: usize) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (sketches, out) = unsafe { (sketches_mut(handle), output(out, len)) };
    if out.len() != sketches.len() {
        return status(Error::LengthMismatch);
    }
    out.copy_from_slice(sketches.kinds());
    OK
}

/// Decides the texts taken in `order` (`len` values) into `representative` and `similarity`,
/// by the rule with code `rule`: 0 the default (specification v3), 1 v3 with template siblings
/// removed, 2 specification v2; any other code is refused as a length mismatch.
///
/// # Safety
/// As [`sketches_mut`]; `order` points to `len` values, `representative` and `similarity` to
/// `len` writable values each, none overlapping.
#[no_mangle]
pub unsafe extern "C" fn sh_text_sketches_decide(handle: u32, order: *const u32, len: usize, representative: *mut u32, similarity: *mut f64, rule: u32) -> i32 {
    let rule = match rule {
        0 => Rule::V3 { templates: false },
        1 => Rule::V3 { templates: true },
        2 => Rule::V2,
        _ => return status(Error::LengthMismatch),
    };
    // SAFETY: forwarded caller guarantees.
    let (sketches, order, representative, similarity) =
        unsafe { (sketches_mut(handle), input(order, len), output(representative, len), output(similarity, len)) };
    to_status(sketches.decide_with(rule, order, representative, similarity))
}

/// Exports the sketches as bytes; on success writes `[ptr, len]` to `result`, bytes the host
/// owns until it passes both to [`sh_bytes_free`].
///
/// # Safety
/// As [`sketches_mut`]; `result` points to 2 writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn sh_text_sketches_export(handle: u32, result: *mut u32) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (sketches, result) = unsafe { (sketches_mut(handle), output(result, 2)) };
    match sketches.export() {
        Ok(bytes) => {
            let bytes = bytes.into_boxed_slice();
            result[1] = bytes.len() as u32;
            result[0] = Box::into_raw(bytes) as *mut u8 as u32;
            OK
        }
        Err(error) => status(error),
    }
}

/// Frees bytes [`sh_text_sketches_export`] handed over.
///
/// # Safety
/// `ptr` and `len` must be what `sh_text_sketches_export` wrote, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn sh_bytes_free(ptr: *mut u8, len: usize) {
    // SAFETY: the pointer came from `Box::into_raw` of a boxed slice of `len` bytes, as the
    // caller guarantees, so rebuilding the box hands the memory back exactly once.
    drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Appends exported sketches of `len` bytes after the texts sketched before. Bytes that are not
/// exported sketches give status 32 + the [`simhash_core::FormatError`] discriminant.
///
/// # Safety
/// As [`sketches_mut`]; `bytes` points to `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sh_text_sketches_append(handle: u32, bytes: *const u8, len: usize) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (sketches, bytes) = unsafe { (sketches_mut(handle), input(bytes, len)) };
    to_status(sketches.append(bytes))
}

/// Forgets the texts after the first `len`.
///
/// # Safety
/// As [`sketches_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_text_sketches_truncate(handle: u32, len: usize) {
    // SAFETY: forwarded caller guarantee.
    unsafe { sketches_mut(handle) }.truncate(len);
}

/// A text index owned by the host through an opaque pointer, with the buffers its answers are
/// handed over in.
pub struct TextIndexHandle {
    index: TextIndex,
    ids: Vec<u32>,
    similarity: Vec<f64>,
    saved: Vec<u8>,
    /// What the last call left for the host. After a query: `[ids_ptr, similarity_ptr, count]`;
    /// after [`sh_text_index_save`]: `[bytes_ptr, bytes_len, 0]`. Its address never changes.
    answer: [u32; 3],
}

fn into_text_handle(index: TextIndex, handle: &mut [u32]) -> i32 {
    let boxed = Box::new(TextIndexHandle { index, ids: Vec::new(), similarity: Vec::new(), saved: Vec::new(), answer: [0; 3] });
    handle[0] = Box::into_raw(boxed) as u32;
    OK
}

/// # Safety
/// `handle` must come from [`sh_text_index_new`] or [`sh_text_index_load`] and not be freed,
/// and nothing else may use it while the reference lives.
unsafe fn text_index_mut<'a>(handle: u32) -> &'a mut TextIndexHandle {
    // SAFETY: guaranteed by the caller (see above).
    unsafe { &mut *(handle as usize as *mut TextIndexHandle) }
}

/// Makes an empty text index (specification v3; template siblings removed too when
/// `templates` is 1) and writes its handle to `handle`.
///
/// # Safety
/// `handle` points to 1 writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_new(templates: u32, handle: *mut u32) -> i32 {
    // SAFETY: forwarded caller guarantee.
    into_text_handle(TextIndex::new(templates == 1), unsafe { output(handle, 1) })
}

/// Frees a text index.
///
/// # Safety
/// As [`text_index_mut`]; the handle is invalid afterwards.
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_free(handle: u32) {
    // SAFETY: the handle came from `Box::into_raw` and is freed once, as the caller guarantees.
    drop(unsafe { Box::from_raw(handle as usize as *mut TextIndexHandle) });
}

/// Address of the text index's answer (see [`TextIndexHandle`]), fixed for its lifetime.
///
/// # Safety
/// As [`text_index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_answer(handle: u32) -> *const u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { text_index_mut(handle) }.answer.as_ptr()
}

/// What the text index holds: 0 its kept texts, 1 the texts it decided, 2 whether it removes
/// template siblings.
///
/// # Safety
/// As [`text_index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_count(handle: u32, what: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    let index = &unsafe { text_index_mut(handle) }.index;
    match what {
        0 => index.len() as u32,
        1 => index.taken() as u32,
        _ => u32::from(index.templates()),
    }
}

/// Whether a kept text holds `id` (1) or not (0).
///
/// # Safety
/// As [`text_index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_contains(handle: u32, id: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    u32::from(unsafe { text_index_mut(handle) }.index.contains(id))
}

/// Removes the kept text `id`: 1 if one held it, else 0.
///
/// # Safety
/// As [`text_index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_remove(handle: u32, id: u32) -> u32 {
    // SAFETY: forwarded caller guarantee.
    u32::from(unsafe { text_index_mut(handle) }.index.remove(id))
}

/// Decides `offsets_len - 1` UTF-8 texts laid out as for [`sh_text_fingerprint_many`] under
/// `ids`, into `representative` and `similarity` (`TextIndex::decide_many`).
///
/// # Safety
/// As [`text_index_mut`]; `ids`, `representative` and `similarity` point to `offsets_len - 1`
/// values each (the last two writable, none overlapping), `texts` to `len` bytes and `offsets`
/// to `offsets_len` values.
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_decide_many(
    handle: u32,
    ids: *const u32,
    texts: *const u8,
    len: usize,
    offsets: *const u32,
    offsets_len: usize,
    representative: *mut u32,
    similarity: *mut f64,
) -> i32 {
    let count = offsets_len.saturating_sub(1);
    // SAFETY: forwarded caller guarantees.
    let (target, ids, texts, offsets, representative, similarity) = unsafe {
        (text_index_mut(handle), input(ids, count), input(texts, len), input(offsets, offsets_len), output(representative, count), output(similarity, count))
    };
    to_status(target.index.decide_many(ids, texts, offsets, representative, similarity))
}

/// Keeps `offsets_len - 1` UTF-8 texts under `ids` without judging them
/// (`TextIndex::add_many`).
///
/// # Safety
/// As [`sh_text_index_decide_many`], without the outputs.
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_add_many(handle: u32, ids: *const u32, texts: *const u8, len: usize, offsets: *const u32, offsets_len: usize) -> i32 {
    let count = offsets_len.saturating_sub(1);
    // SAFETY: forwarded caller guarantees.
    let (target, ids, texts, offsets) = unsafe { (text_index_mut(handle), input(ids, count), input(texts, len), input(offsets, offsets_len)) };
    to_status(target.index.add_many(ids, texts, offsets))
}

/// Lists the kept texts the rule calls near-duplicates of a UTF-8 text of `len` bytes; on
/// success the answer holds `[ids_ptr, similarity_ptr, count]`, valid until the next call.
///
/// # Safety
/// As [`text_index_mut`]; `text` points to `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_query(handle: u32, text: *const u8, len: usize) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (target, text) = unsafe { (text_index_mut(handle), input(text, len)) };
    match target.index.query(text) {
        Ok(found) => {
            target.ids.clear();
            target.similarity.clear();
            if target.ids.try_reserve(found.len()).is_err() || target.similarity.try_reserve(found.len()).is_err() {
                return status(Error::OutOfMemory);
            }
            target.ids.extend(found.iter().map(|&(id, _)| id));
            target.similarity.extend(found.iter().map(|&(_, s)| s));
            target.answer = [target.ids.as_ptr() as u32, target.similarity.as_ptr() as u32, found.len() as u32];
            OK
        }
        Err(error) => status(error),
    }
}

/// Saves the text index; on success the answer holds `[bytes_ptr, bytes_len, 0]`, valid until
/// [`sh_text_index_release_bytes`] or the next save.
///
/// # Safety
/// As [`text_index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_save(handle: u32) -> i32 {
    // SAFETY: forwarded caller guarantee.
    let target = unsafe { text_index_mut(handle) };
    match target.index.save() {
        Ok(bytes) => {
            target.saved = bytes;
            target.answer = [target.saved.as_ptr() as u32, target.saved.len() as u32, 0];
            OK
        }
        Err(error) => status(error),
    }
}

/// Frees the bytes of the last save.
///
/// # Safety
/// As [`text_index_mut`].
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_release_bytes(handle: u32) {
    // SAFETY: forwarded caller guarantee.
    unsafe { text_index_mut(handle) }.saved = Vec::new();
}

/// Loads a text index from `len` bytes and writes its handle to `handle`. Bytes that are not a
/// saved text index give status 32 + the [`simhash_core::FormatError`] discriminant.
///
/// # Safety
/// `bytes` points to `len` bytes; `handle` to 1 writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn sh_text_index_load(bytes: *const u8, len: usize, handle: *mut u32) -> i32 {
    // SAFETY: forwarded caller guarantees.
    let (bytes, handle) = unsafe { (input(bytes, len), output(handle, 1)) };
    match TextIndex::load(bytes) {
        Ok(index) => into_text_handle(index, handle),
        Err(error) => status(error),
    }
}
