/**
 * What both entries share for datasketch-compatible signatures: the permutation parameters
 * datasketch draws from NumPy's `RandomState(seed)`, and tokens laid out as bytes.
 */

import type { DatasketchToken } from './minhash-types.js';
import type { ResolvedDatasketchOptions } from './minhash-options.js';
import { Mt19937 } from './mt19937.js';
import { describe, iterate } from './validate.js';

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
  // Tokens are encoded straight into one growing buffer: a fresh array per token would cost
  // more than hashing it.
  let bytes = new Uint8Array(1 << 16);
  let tokenOffsets = new Uint32Array(1 << 12);
  let tokens = 0;
  let at = 0;
  const documentStarts: number[] = [0];
  const reserve = (more: number): void => {
    if (at + more > 0xffff_ffff) throw new RangeError(`${name} holds more than 2^32 − 1 bytes`);
    if (at + more <= bytes.length) return;
    const grown = new Uint8Array(Math.max(2 * bytes.length, at + more));
    grown.set(bytes.subarray(0, at));
    bytes = grown;
  };
  let d = 0;
  for (const list of iterate(documents, name)) {
    if (list === null || typeof list !== 'object' || !(Symbol.iterator in list)) {
      throw new TypeError(`${name}[${d}] must be an iterable of strings or Uint8Arrays, got ${describe(list)}`);
    }
    let t = 0;
    for (const token of iterate(list, `${name}[${d}]`)) {
      if (typeof token === 'string') {
        reserve(3 * token.length);
        at += encoder.encodeInto(token, bytes.subarray(at)).written;
      } else if (token instanceof Uint8Array) {
        reserve(token.length);
        bytes.set(token, at);
        at += token.length;
      } else {
        throw new TypeError(`${name}[${d}][${t}] must be a string or a Uint8Array, got ${describe(token)}`);
      }
      if (tokens + 2 > tokenOffsets.length) {
        if (tokens + 2 > 0xffff_ffff) throw new RangeError(`${name} holds more than 2^32 − 2 tokens`);
        const grown = new Uint32Array(2 * tokenOffsets.length);
        grown.set(tokenOffsets);
        tokenOffsets = grown;
      }
      tokenOffsets[++tokens] = at;
      t++;
    }
    documentStarts.push(tokens);
    d++;
  }
  return { bytes: bytes.subarray(0, at), tokenOffsets: tokenOffsets.slice(0, tokens + 1), documents: Uint32Array.from(documentStarts) };
}

/** `tokens` of `datasketchMinhash`, checked: an iterable of tokens, not a string or a number. */
export function checkTokens(tokens: unknown): Iterable<DatasketchToken> {
  if (tokens === null || typeof tokens !== 'object' || !(Symbol.iterator in tokens)) {
    throw new TypeError(`tokens must be an iterable of strings or Uint8Arrays, got ${describe(tokens)}`);
  }
  return iterate(tokens as Iterable<DatasketchToken>, 'tokens');
}

/**
 * The second argument of `minhashMany` when it is not the `Uint32Array` of offsets: the options,
 * or an error for offsets of another type (a plain array would otherwise read as options).
 */
export function optionsOrOffsets<T>(second: T): T {
  if (Array.isArray(second) || ArrayBuffer.isView(second)) {
    throw new TypeError(`offsets must be a Uint32Array, got ${describe(second)} (minhashMany(features, offsets, options))`);
  }
  return second;
}

/** Checks `documents` is an iterable (of token iterables). */
export function checkDocuments(documents: unknown, name: string): Iterable<Iterable<DatasketchToken>> {
  if (documents === null || typeof documents !== 'object' || !(Symbol.iterator in documents)) {
    throw new TypeError(`${name} must be an iterable of token lists, got ${describe(documents)}`);
  }
  return documents as Iterable<Iterable<DatasketchToken>>;
}
