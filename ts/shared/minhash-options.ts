/** Validation and defaults of the MinHash options, shared by both entries. */

import { DATASKETCH_OPTIONS, MINHASH_OPTIONS, type DatasketchOptions, type MinHashOptions } from './minhash-types.js';
import { resolveTextOptions, type ResolvedTextOptions } from './text-options.js';
import { checkOptions, describe } from './validate.js';

/** The version of the MinHash signature specification both entries implement. */
export const MINHASH_VERSION = 1;

/** Default positions of a signature. */
export const DEFAULT_NUM_PERM = 128;

/** The most positions a signature may have (densifying a one-feature set costs about k²). */
export const MAX_NUM_PERM = 4096;

/** {@link MinHashOptions} with every default filled in. */
export interface ResolvedMinHashOptions {
  readonly numPerm: number;
  readonly text: ResolvedTextOptions;
}

/** Checks `value` is an integer in `min..max`; `fallback` when undefined. */
export function checkInteger(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in ${min}..${max}, got ${value}`);
  }
  return value;
}

/** Checks MinHash options and fills in the defaults. */
export function resolveMinHashOptions(options: MinHashOptions | undefined, where = 'minhash'): ResolvedMinHashOptions {
  const o = options === undefined ? {} : checkOptions(options, MINHASH_OPTIONS, where);
  const numPerm = checkInteger(o.numPerm, 'options.numPerm', 1, MAX_NUM_PERM, DEFAULT_NUM_PERM);
  // The weighting is irrelevant to a set; the text pipeline's own checks cover the rest.
  const { numPerm: _numPerm, ...text } = o;
  return { numPerm, text: resolveTextOptions({ ...text, weighting: 'binary' }, where) };
}

/** {@link DatasketchOptions} with every default filled in. */
export interface ResolvedDatasketchOptions {
  readonly numPerm: number;
  readonly seed: number;
  readonly scheme: 'affine32' | 'legacy';
}

/** Checks datasketch options and fills in the defaults. */
export function resolveDatasketchOptions(options: DatasketchOptions | undefined, where = 'datasketchMinhash'): ResolvedDatasketchOptions {
  const o = options === undefined ? {} : checkOptions(options, DATASKETCH_OPTIONS, where);
  const scheme = o.scheme === undefined ? 'affine32' : o.scheme;
  if (typeof scheme !== 'string') throw new TypeError(`options.scheme must be a string, 'affine32' or 'legacy', got ${describe(scheme)}`);
  if (scheme !== 'affine32' && scheme !== 'legacy') {
    throw new RangeError(`options.scheme must be 'affine32' or 'legacy', got ${describe(scheme)}`);
  }
  return {
    numPerm: checkInteger(o.numPerm, 'options.numPerm', 1, MAX_NUM_PERM, DEFAULT_NUM_PERM),
    seed: checkInteger(o.seed, 'options.seed', 0, 0xffff_ffff, 1),
    scheme,
  };
}

/**
 * Checks that `signatures` is a `Uint32Array` of whole signatures of `numPerm` positions;
 * returns how many.
 */
export function checkSignatures(signatures: unknown, numPerm: number, name = 'signatures'): number {
  if (!(signatures instanceof Uint32Array)) throw new TypeError(`${name} must be a Uint32Array, got ${describe(signatures)}`);
  if (signatures.length % numPerm !== 0) {
    throw new RangeError(`${name}.length must be a multiple of numPerm ${numPerm}, got ${signatures.length}`);
  }
  return signatures.length / numPerm;
}

/**
 * The estimated Jaccard similarity of two sets from their MinHash signatures: the share of
 * positions where the signatures agree. Both must come from the same scheme, seed and number of
 * permutations.
 *
 * @example
 * estimateJaccard(minhash('a b c d e f'), minhash('a b c d e g')); // about 0.6
 * @throws {TypeError | RangeError} unless both are non-empty `Uint32Array`s of equal length.
 */
export function estimateJaccard(a: Uint32Array, b: Uint32Array): number {
  if (!(a instanceof Uint32Array)) throw new TypeError(`a must be a Uint32Array, got ${describe(a)}`);
  if (!(b instanceof Uint32Array)) throw new TypeError(`b must be a Uint32Array, got ${describe(b)}`);
  if (a.length !== b.length || a.length === 0) {
    throw new RangeError(`a and b must be signatures of the same non-zero length, got ${a.length} and ${b.length}`);
  }
  let equal = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) equal++;
  return equal / a.length;
}
