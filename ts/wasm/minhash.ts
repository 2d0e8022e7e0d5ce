/** MinHash signatures in WebAssembly (specification v1 in docs/specifications.md). */

import { checkDocuments, checkTokens, datasketchPermutations, optionsOrOffsets, tokenBytes } from '../shared/datasketch.js';
import { resolveDatasketchOptions, resolveMinHashOptions, type ResolvedMinHashOptions } from '../shared/minhash-options.js';
import type { DatasketchOptions, DatasketchToken, MinHashOptions } from '../shared/minhash-types.js';
import type { U64Input } from '../shared/types.js';
import { checkOffsets, describe, iterate } from '../shared/validate.js';
import type { PackedTexts } from '../shared/packed-texts.js';
import { memoryViews, withInstance, type WasmExports } from './loader.js';
import { CallScope } from './marshal.js';
import { throwIfFailed } from './status.js';
import { encodePacked, encodeRaw } from './text.js';

/** Texts are encoded into WebAssembly memory and signed in batches of about this size. */
const BATCH_BYTES = 4 << 20;

/** Signs documents of features; `offsets` null: one document of all of them. */
function signFeatures(features: U64Input, offsets: Uint32Array | null, resolved: ResolvedMinHashOptions, operation: string): Uint32Array {
  return withInstance((live) => {
    const scope = new CallScope(live);
    try {
      const input = scope.u64(features, 'features');
      const docs = scope.u32(offsets === null ? Uint32Array.of(0, input.length) : checkOffsets(offsets, input.length), 'offsets');
      const count = Math.max(0, docs.length - 1) * resolved.numPerm;
      const out = scope.alloc(count * 4);
      const seed = BigInt.asIntN(64, resolved.text.seed);
      throwIfFailed(live.sh_minhash_many(input.ptr, input.length, docs.ptr, docs.length, seed, out, count), operation);
      return new Uint32Array(live.memory.buffer, out, count).slice();
    } finally {
      scope.release();
    }
  });
}

function signTexts(texts: readonly string[], resolved: ResolvedMinHashOptions, out: Uint32Array, at: number, operation: string): void {
  signEncoded((scope, live) => encodeRaw(scope, live, texts, resolved.text), texts.length, resolved, out, at, operation);
}

/** Signs `count` texts that `encode` writes into WebAssembly memory, into `out` from `at`. */
function signEncoded(
  encode: (scope: CallScope, live: WasmExports) => { ptr: number; offsets: Uint32Array },
  count: number,
  resolved: ResolvedMinHashOptions,
  out: Uint32Array,
  at: number,
  operation: string,
): void {
  withInstance((live) => {
    const scope = new CallScope(live);
    try {
      const { ptr, offsets } = encode(scope, live);
      const offsetsRegion = scope.u32(offsets, 'texts');
      const values = count * resolved.numPerm;
      const result = scope.alloc(values * 4);
      const t = resolved.text;
      const status = live.sh_minhash_text_many(
        ptr,
        offsets[count]!,
        offsetsRegion.ptr,
        offsetsRegion.length,
        t.unit === 'word' ? 0 : 1,
        t.size,
        BigInt.asIntN(64, t.seed),
        result,
        values,
      );
      throwIfFailed(status, operation);
      out.set(new Uint32Array(live.memory.buffer, result, values), at);
    } finally {
      scope.release();
    }
  });
}

/**
 * `minhashMany` of texts packed by `packTexts` (the pool's workers get them so): one signature
 * per text, back to back.
 */
export function minhashPacked(packed: PackedTexts, options?: MinHashOptions): Uint32Array {
  const resolved = resolveMinHashOptions(options, 'minhashPacked');
  const out = new Uint32Array(packed.ends.length * resolved.numPerm);
  signEncoded((scope, live) => encodePacked(scope, live, packed, resolved.text), packed.ends.length, resolved, out, 0, 'minhashMany');
  return out;
}

/**
 * The MinHash signature of a text (over the features `features()` gives it with the same
 * options) or of a set of features: `numPerm` values (specification v1 in docs/specifications.md). Order
 * and repeats of features do not matter; a set without features gets `0xFFFFFFFF` everywhere.
 *
 * @example
 * const a = minhash('the quick brown fox jumps over the lazy dog');
 * const b = minhash('the quick brown fox jumped over the lazy dog');
 * estimateJaccard(a, b); // about 0.4: 4 of 10 distinct word 3-shingles shared
 * @throws {TypeError | RangeError} for a bad text, features or options.
 */
export function minhash(input: string | U64Input, options?: MinHashOptions): Uint32Array {
  const resolved = resolveMinHashOptions(options);
  if (typeof input === 'string') {
    const out = new Uint32Array(resolved.numPerm);
    signTexts([input], resolved, out, 0, 'minhash');
    return out;
  }
  return signFeatures(input, null, resolved, 'minhash');
}

/**
 * One signature per text, or per document of features (document d owns
 * `features[offsets[d] .. offsets[d + 1])`), back to back in one `Uint32Array`: signature d is
 * `result.subarray(d·numPerm, (d + 1)·numPerm)`. Texts are normalised as `fingerprintMany`
 * normalises them and tokenised, shingled and signed in WebAssembly in batches.
 *
 * @example
 * const sigs = minhashMany(['first text', 'second text'], { numPerm: 64 }); // 128 values
 * @throws {TypeError | RangeError} for bad texts, features, offsets or options.
 */
export function minhashMany(texts: readonly string[] | Iterable<string>, options?: MinHashOptions): Uint32Array;
export function minhashMany(features: U64Input, offsets: Uint32Array, options?: MinHashOptions): Uint32Array;
export function minhashMany(
  input: readonly string[] | Iterable<string> | U64Input,
  second?: Uint32Array | MinHashOptions,
  third?: MinHashOptions,
): Uint32Array {
  if (second instanceof Uint32Array) return signFeatures(input as U64Input, second, resolveMinHashOptions(third), 'minhashMany');
  const resolved = resolveMinHashOptions(optionsOrOffsets(second), 'minhashMany');
  if (typeof input !== 'object' || input === null || !(Symbol.iterator in input)) {
    throw new TypeError(`texts must be an array or an iterable of strings, got ${describe(input)}`);
  }
  const k = resolved.numPerm;
  const known = Array.isArray(input) ? input.length : undefined;
  let out = new Uint32Array((known ?? 16) * k);
  let count = 0;
  let batch: string[] = [];
  let batchUnits = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    if ((count + batch.length) * k > out.length) {
      const grown = new Uint32Array(Math.max(out.length * 2, (count + batch.length) * k));
      grown.set(out.subarray(0, count * k));
      out = grown;
    }
    signTexts(batch, resolved, out, count * k, 'minhashMany');
    count += batch.length;
    batch = [];
    batchUnits = 0;
  };
  let index = 0;
  for (const text of iterate(input as Iterable<unknown>, 'texts')) {
    // Step 1 runs as each batch is written (encodeRaw); only the type is checked here.
    if (typeof text !== 'string') throw new TypeError(`texts[${index}] must be a string, got ${describe(text)}`);
    index++;
    batch.push(text);
    batchUnits += 3 * text.length;
    if (batchUnits >= BATCH_BYTES) flush();
  }
  flush();
  return count * k === out.length ? out : out.slice(0, count * k);
}

/**
 * Signatures equal to datasketch's `MinHash(num_perm, seed, scheme)` updated with each token
 * of each document (strings as UTF-8, `Uint8Array`s as they are), back to back. A document
 * without tokens gets `0xFFFFFFFF` everywhere, as a fresh datasketch `MinHash`.
 *
 * @example
 * // Python: m = MinHash(num_perm=128, seed=1); [m.update(w.encode()) for w in words]
 * datasketchMinhashMany([words], { numPerm: 128, seed: 1 }); // equals m.hashvalues
 * @throws {TypeError | RangeError} for bad documents or options.
 */
export function datasketchMinhashMany(documents: Iterable<Iterable<DatasketchToken>>, options?: DatasketchOptions): Uint32Array {
  const resolved = resolveDatasketchOptions(options, 'datasketchMinhashMany');
  const { bytes, tokenOffsets, documents: starts } = tokenBytes(checkDocuments(documents, 'documents'), 'documents');
  const { a, b } = datasketchPermutations(resolved);
  const k = resolved.numPerm;
  return withInstance((live) => {
    const scope = new CallScope(live);
    try {
      const bytesPtr = scope.alloc(bytes.length);
      memoryViews(live).u8.set(bytes, bytesPtr);
      const tokens = scope.u32(tokenOffsets, 'documents');
      const docs = scope.u32(starts, 'documents');
      const aRegion = scope.u64(a, 'a');
      const bRegion = scope.u64(b, 'b');
      const count = (starts.length - 1) * k;
      const out = scope.alloc(count * 4);
      const status = live.sh_minhash_datasketch_many(
        bytesPtr,
        bytes.length,
        tokens.ptr,
        tokens.length,
        docs.ptr,
        docs.length,
        resolved.scheme === 'legacy' ? 0 : 1,
        aRegion.ptr,
        bRegion.ptr,
        k,
        out,
        count,
      );
      throwIfFailed(status, 'datasketchMinhashMany');
      return new Uint32Array(live.memory.buffer, out, count).slice();
    } finally {
      scope.release();
    }
  });
}

/**
 * The datasketch-compatible signature of one list of tokens: {@link datasketchMinhashMany} of
 * `[tokens]`.
 *
 * @example
 * datasketchMinhash('the quick brown fox'.split(' ')); // MinHash(num_perm=128, seed=1)
 * @throws {TypeError | RangeError} for bad tokens or options.
 */
export function datasketchMinhash(tokens: Iterable<DatasketchToken>, options?: DatasketchOptions): Uint32Array {
  return datasketchMinhashMany([checkTokens(tokens)], options);
}
