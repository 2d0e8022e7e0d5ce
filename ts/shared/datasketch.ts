/**
 * What both entries share for datasketch-compatible signatures: the permutation parameters
 * datasketch draws from NumPy's `RandomState(seed)`, and tokens laid out as bytes.
 */

import type { DatasketchToken } from './minhash-types.js';
import type { ResolvedDatasketchOptions } from './minhash-options.js';
import { Mt19937 } from './mt19937.js';
import { describe } from './validate.js';

const MERSENNE_61 = (1n << 61n) - 1n;

/** The parameters `a`, `b` of every permutation, as 64-bit values. */
export interface DatasketchPermutations {
  readonly a: BigUint64Array;
  readonly b: BigUint64Array;
}

const cache = new Map<string, DatasketchPermutations>();

/**
 * The permutations of datasketch's `MinHash(num_perm, seed, scheme)`. Legacy draws
 * `a = randint(1, p)` then `b = randint(0, p)` per permutation (p = 2^61 − 1, `uint64`);
 * affine32 draws all `a = 2·randint(0, 2^31) + 1`, then all `b = randint(0, 2^32)` (`uint32`).
 */
export function datasketchPermutations(options: ResolvedDatasketchOptions): DatasketchPermutations {
  const key = `${options.scheme}:${options.seed}:${options.numPerm}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const generator = new Mt19937(options.seed);
  const k = options.numPerm;
  const a = new BigUint64Array(k);
  const b = new BigUint64Array(k);
  if (options.scheme === 'legacy') {
    for (let i = 0; i < k; i++) {
      a[i] = generator.randintU64(1n, MERSENNE_61);
      b[i] = generator.randintU64(0n, MERSENNE_61);
    }
  } else {
    for (let i = 0; i < k; i++) a[i] = BigInt((2 * generator.randintU32(0, 2 ** 31) + 1) >>> 0);
    for (let i = 0; i < k; i++) b[i] = BigInt(generator.randintU32(0, 2 ** 32));
  }
  const permutations = { a, b };
  if (cache.size >= 64) cache.clear();
  cache.set(key, permutations);
  return permutations;
}

/** Tokens as bytes back to back, with the offsets of each token (one more than tokens). */
export interface TokenBytes {
  readonly bytes: Uint8Array;
  readonly tokenOffsets: Uint32Array;
  /** Document d owns tokens `documents[d] .. documents[d + 1]`. */
  readonly documents: Uint32Array;
}

const encoder = new TextEncoder();

/** Lays out the tokens of `documents` (each an iterable of strings or bytes) as bytes. */
export function tokenBytes(documents: Iterable<Iterable<DatasketchToken>>, name: string): TokenBytes {
  const pieces: Uint8Array[] = [];
  const documentStarts: number[] = [0];
  let d = 0;
  for (const tokens of documents) {
    if (tokens === null || typeof tokens !== 'object' || !(Symbol.iterator in tokens)) {
      throw new TypeError(`${name}[${d}] must be an iterable of strings or Uint8Arrays, got ${describe(tokens)}`);
    }
    let t = 0;
    for (const token of tokens) {
      if (typeof token === 'string') pieces.push(encoder.encode(token));
      else if (token instanceof Uint8Array) pieces.push(token);
      else throw new TypeError(`${name}[${d}][${t}] must be a string or a Uint8Array, got ${describe(token)}`);
      t++;
    }
    documentStarts.push(pieces.length);
    d++;
  }
  let total = 0;
  for (const piece of pieces) total += piece.length;
  if (total > 0xffff_ffff || pieces.length > 0xffff_ffff) throw new RangeError(`${name} holds more than 2^32 − 1 bytes or tokens`);
  const bytes = new Uint8Array(total);
  const tokenOffsets = new Uint32Array(pieces.length + 1);
  let at = 0;
  for (let i = 0; i < pieces.length; i++) {
    bytes.set(pieces[i]!, at);
    at += pieces[i]!.length;
    tokenOffsets[i + 1] = at;
  }
  return { bytes, tokenOffsets, documents: Uint32Array.from(documentStarts) };
}

/** Checks `documents` is an iterable (of token iterables). */
export function checkDocuments(documents: unknown, name: string): Iterable<Iterable<DatasketchToken>> {
  if (documents === null || typeof documents !== 'object' || !(Symbol.iterator in documents)) {
    throw new TypeError(`${name} must be an iterable of token lists, got ${describe(documents)}`);
  }
  return documents as Iterable<Iterable<DatasketchToken>>;
}
