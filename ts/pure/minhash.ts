/** MinHash signatures in plain TypeScript, bit for bit as the WebAssembly entry. */

import { checkDocuments, checkTokens, datasketchPermutations, optionsOrOffsets, tokenBytes } from '../shared/datasketch.js';
import { resolveDatasketchOptions, resolveMinHashOptions } from '../shared/minhash-options.js';
import type { DatasketchOptions, DatasketchToken, MinHashOptions } from '../shared/minhash-types.js';
import type { U64Input } from '../shared/types.js';
import { checkOffsets, describe, iterate } from '../shared/validate.js';
import { sketch, fmix32 } from './minhash-sketch.js';
import { toU64Array } from '../shared/u64-input.js';
import { sha1Hash32 } from './sha1.js';
import { features } from './text.js';

function words(values: BigUint64Array): Uint32Array {
  return new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
}

/**
 * The MinHash signature of a text (its features as `features()` gives them) or of a set of
 * features: `numPerm` values, specification v1 in docs/specifications.md.
 *
 * @throws {TypeError | RangeError} for a bad text, features or options.
 */
export function minhash(input: string | U64Input, options?: MinHashOptions): Uint32Array {
  const resolved = resolveMinHashOptions(options);
  const values =
    typeof input === 'string' ? features(input, { ...resolved.text, weighting: 'tf' }) : toU64Array(input, 'features');
  const out = new Uint32Array(resolved.numPerm);
  sketch(words(values), 0, values.length, resolved.text.seed, out, new Uint8Array(resolved.numPerm));
  return out;
}

/**
 * One signature per text, or per document of features (document d owns
 * `features[offsets[d] .. offsets[d + 1])`), back to back: signature d is
 * `result.subarray(d·numPerm, (d + 1)·numPerm)`.
 *
 * @throws {TypeError | RangeError} for bad texts, features, offsets or options.
 */
export function minhashMany(texts: readonly string[] | Iterable<string>, options?: MinHashOptions): Uint32Array;
export function minhashMany(features: U64Input, offsets: Uint32Array, options?: MinHashOptions): Uint32Array;
export function minhashMany(
  input: readonly string[] | Iterable<string> | U64Input,
  second?: Uint32Array | MinHashOptions,
  third?: MinHashOptions,
): Uint32Array {
  if (second instanceof Uint32Array) {
    const resolved = resolveMinHashOptions(third, 'minhashMany');
    const values = toU64Array(input, 'features');
    const offsets = checkOffsets(second, values.length);
    const k = resolved.numPerm;
    const documents = Math.max(offsets.length - 1, 0);
    const out = new Uint32Array(documents * k);
    const filled = new Uint8Array(k);
    const all = words(values);
    for (let d = 0; d < documents; d++) {
      sketch(all, offsets[d]!, offsets[d + 1]!, resolved.text.seed, out.subarray(d * k, (d + 1) * k), filled);
    }
    return out;
  }
  const resolved = resolveMinHashOptions(optionsOrOffsets(second), 'minhashMany');
  if (typeof input !== 'object' || input === null || !(Symbol.iterator in input)) {
    throw new TypeError(`texts must be an array or an iterable of strings, got ${describe(input)}`);
  }
  const k = resolved.numPerm;
  const parts: Uint32Array[] = [];
  const filled = new Uint8Array(k);
  let index = 0;
  for (const text of iterate(input as Iterable<unknown>, 'texts')) {
    if (typeof text !== 'string') throw new TypeError(`texts[${index}] must be a string, got ${describe(text)}`);
    const values = features(text, { ...resolved.text, weighting: 'tf' });
    const out = new Uint32Array(k);
    sketch(words(values), 0, values.length, resolved.text.seed, out, filled);
    parts.push(out);
    index++;
  }
  const out = new Uint32Array(parts.length * k);
  parts.forEach((part, d) => out.set(part, d * k));
  return out;
}

/**
 * Signatures equal to datasketch's `MinHash(num_perm, seed, scheme)` updated with each token
 * of each document (strings as UTF-8), back to back.
 *
 * @throws {TypeError | RangeError} for bad documents or options.
 */
export function datasketchMinhashMany(documents: Iterable<Iterable<DatasketchToken>>, options?: DatasketchOptions): Uint32Array {
  const resolved = resolveDatasketchOptions(options, 'datasketchMinhashMany');
  const { bytes, tokenOffsets, documents: starts } = tokenBytes(checkDocuments(documents, 'documents'), 'documents');
  const { a, b } = datasketchPermutations(resolved);
  const k = resolved.numPerm;
  const out = new Uint32Array((starts.length - 1) * k).fill(0xffff_ffff);
  if (resolved.scheme === 'affine32') {
    const a32 = Uint32Array.from(a, Number);
    const b32 = Uint32Array.from(b, Number);
    for (let d = 0; d + 1 < starts.length; d++) {
      const sig = out.subarray(d * k, (d + 1) * k);
      for (let t = starts[d]!; t < starts[d + 1]!; t++) {
        const h = fmix32(sha1Hash32(bytes, tokenOffsets[t]!, tokenOffsets[t + 1]!));
        for (let i = 0; i < k; i++) {
          const value = (Math.imul(a32[i]!, h) + b32[i]!) >>> 0;
          if (value < sig[i]!) sig[i] = value;
        }
      }
    }
    return out;
  }
  const aHi = Uint32Array.from(a, (v) => Number(v >> 32n));
  const aLo = Uint32Array.from(a, (v) => Number(v & 0xffff_ffffn));
  const bHi = Uint32Array.from(b, (v) => Number(v >> 32n));
  const bLo = Uint32Array.from(b, (v) => Number(v & 0xffff_ffffn));
  for (let d = 0; d + 1 < starts.length; d++) {
    const sig = out.subarray(d * k, (d + 1) * k);
    for (let t = starts[d]!; t < starts[d + 1]!; t++) {
      const h = sha1Hash32(bytes, tokenOffsets[t]!, tokenOffsets[t + 1]!);
      const h0 = h & 0xffff;
      const h1 = h >>> 16;
      for (let i = 0; i < k; i++) {
        // x = a·h + b mod 2^64, from a's low half times h (exact in 16-bit pieces) and
        // a's high half times h (only its low 32 bits survive).
        const l = aLo[i]!;
        const l0 = l & 0xffff;
        const l1 = l >>> 16;
        const middle = l0 * h1 + l1 * h0;
        const low = l0 * h0 + (middle % 0x1_0000) * 0x1_0000 + bLo[i]!;
        const carry = Math.floor(low / 0x1_0000_0000);
        const xHi = (l1 * h1 + Math.floor(middle / 0x1_0000) + carry + Math.imul(aHi[i]!, h) + bHi[i]!) >>> 0;
        const xLo = low >>> 0;
        // x mod (2^61 − 1): 2^61 ≡ 1, so the top three bits fold into the low 61.
        let rLo = xLo + (xHi >>> 29);
        let rHi = xHi & 0x1fff_ffff;
        if (rLo > 0xffff_ffff) {
          rLo -= 0x1_0000_0000;
          rHi++;
        }
        let value: number;
        if (rHi > 0x1fff_ffff) value = rLo + 1; // r − p = (r − 2^61) + 1, at most 7
        else if (rHi === 0x1fff_ffff && rLo === 0xffff_ffff) value = 0;
        else value = rLo;
        if (value < sig[i]!) sig[i] = value;
      }
    }
  }
  return out;
}

/**
 * The datasketch-compatible signature of one list of tokens: {@link datasketchMinhashMany} of
 * `[tokens]`.
 *
 * @example
 * datasketchMinhash('the quick brown fox'.split(' '), { numPerm: 128, seed: 1 });
 * @throws {TypeError | RangeError} for bad tokens or options.
 */
export function datasketchMinhash(tokens: Iterable<DatasketchToken>, options?: DatasketchOptions): Uint32Array {
  return datasketchMinhashMany([checkTokens(tokens)], options);
}
