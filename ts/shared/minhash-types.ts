/** Types of the MinHash API, shared by both entries. */

import type { TextOptions } from './types.js';
import { optionKeys } from './validate.js';

/**
 * Options of `minhash` and `minhashMany`. Over text, the text options choose the features
 * exactly as `features()` does (the weighting does not matter to a set); over features they are
 * ignored.
 */
export interface MinHashOptions extends Omit<TextOptions, 'weighting'> {
  /** Positions of the signature (permutations), an integer in 1..4096. Default 128. */
  readonly numPerm?: number;
}

/** Options of the datasketch-compatible signatures. */
export interface DatasketchOptions {
  /** `num_perm`: positions of the signature, an integer in 1..4096. Default 128. */
  readonly numPerm?: number;
  /** `seed` of NumPy's `RandomState`, an integer in 0..2^32 − 1. Default 1, as datasketch. */
  readonly seed?: number;
  /**
   * datasketch's `scheme`: `'affine32'` (its default since 2.0) or `'legacy'` (its only scheme
   * before 2.0, and `scheme='legacy'` since). Default `'affine32'`.
   */
  readonly scheme?: 'affine32' | 'legacy';
}

/** A token as datasketch's `update` receives it: a string (hashed as UTF-8) or bytes. */
export type DatasketchToken = string | Uint8Array;

/** Options of {@link MinHashLshPlan} and of the LSH index and batch search. */
export interface MinHashLshOptions {
  /** Jaccard similarity a pair must reach, in (0, 1]. Default 0.6 (see docs/quality.md). */
  readonly threshold?: number;
  /** Positions of the signatures. Default 128. */
  readonly numPerm?: number;
  /** Weight of the false-positive probability in the planner's objective. Default 0.5. */
  readonly falsePositiveWeight?: number;
  /** Weight of the false-negative probability. Default 0.5. */
  readonly falseNegativeWeight?: number;
  /** Bands and rows chosen by hand instead of by the planner; both or neither, bands·rows ≤ numPerm. */
  readonly bands?: number;
  readonly rows?: number;
}

/** Bands × rows for LSH, and the error they make. */
export interface MinHashLshPlan {
  readonly threshold: number;
  readonly numPerm: number;
  readonly bands: number;
  readonly rows: number;
  /** ∫₀ᵗ P(candidate | s) ds: the area of the S-curve below the threshold. */
  readonly falsePositive: number;
  /** ∫ₜ¹ (1 − P(candidate | s)) ds: the area above the curve beyond the threshold. */
  readonly falseNegative: number;
}

/** Options of the batch searches over signatures. */
export interface FindAllMinHashOptions extends MinHashLshOptions {
  /** Stop with a `RangeError` beyond this many pairs. Default 2^25. */
  readonly maxPairs?: number;
}

/** Pairs of positions whose estimated Jaccard similarity reaches the threshold. */
export interface MinHashPairs {
  readonly left: Uint32Array;
  readonly right: Uint32Array;
  /** Estimated Jaccard similarity of each pair. */
  readonly similarity: Float64Array;
}

/** What an LSH query found: ids by descending estimated similarity, then ascending id. */
export interface MinHashQueryResult {
  readonly ids: Uint32Array;
  readonly similarities: Float64Array;
}

/** Options of a query. */
export interface MinHashQueryOptions {
  /** Report only ids at or above this estimated similarity. Default: the index's threshold. */
  readonly threshold?: number;
  /** Report at most this many ids (the most similar). Default: all. */
  readonly limit?: number;
}

/** Results of many queries: query q found `ids[offsets[q] .. offsets[q + 1]]`. */
export interface MinHashQueryManyResult extends MinHashQueryResult {
  readonly offsets: Uint32Array;
}

/**
 * The names of {@link MinHashOptions}, and `weighting`: the text options of `fingerprint` may be
 * given as they are, their weighting ignored (a set has none).
 */
export const MINHASH_OPTIONS = [...optionKeys<MinHashOptions>({ numPerm: true, unit: true, size: true, normalize: true, lowercase: true, seed: true }), 'weighting'];
/** The names of {@link DatasketchOptions}. */
export const DATASKETCH_OPTIONS = optionKeys<DatasketchOptions>({ numPerm: true, seed: true, scheme: true });
/** The names of {@link MinHashLshOptions}. */
export const MINHASH_LSH_OPTIONS = optionKeys<MinHashLshOptions>({ threshold: true, numPerm: true, falsePositiveWeight: true, falseNegativeWeight: true, bands: true, rows: true });
/** The names of {@link MinHashQueryOptions}. */
export const MINHASH_QUERY_OPTIONS = optionKeys<MinHashQueryOptions>({ threshold: true, limit: true });
