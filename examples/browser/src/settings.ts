/**
 * The demo's settings: those the command line uses, chosen by the measurements in the README's
 * "Quality" section (word 3-shingles, each distinct shingle counted once; SimHash within 10
 * bits, MinHash at the library's default Jaccard threshold).
 */

import { planMinHashLsh, type MinHashLshOptions, type MinHashOptions, type TextOptions } from 'simhash-wasm/slim';

/** Options of every `fingerprintMany` call of the demo. */
export const TEXT_OPTIONS: Readonly<TextOptions> = { unit: 'word', size: 3, weighting: 'binary' };

/** Where the distance slider starts. */
export const DEFAULT_DISTANCE = 10;

/** Positions of a MinHash signature: the library's default, as `--method minhash` uses. */
export const MINHASH_PERMUTATIONS = 128;

/** Options of every `minhashMany` call: the same features as the fingerprints'. */
export const MINHASH_OPTIONS: Readonly<MinHashOptions> = { unit: 'word', size: 3, numPerm: MINHASH_PERMUTATIONS };

/** Where the threshold slider starts: the library's default, read from its planner. */
export const DEFAULT_THRESHOLD = planMinHashLsh().threshold;

/**
 * How `findClustersMinHash` plans its LSH bands, as the command line does: to miss few pairs
 * (false negatives weighted 0.9). Every candidate is checked against the threshold, so the
 * extra candidates cost only time.
 */
export const LSH_OPTIONS: Readonly<MinHashLshOptions> = {
  numPerm: MINHASH_PERMUTATIONS,
  falsePositiveWeight: 0.1,
  falseNegativeWeight: 0.9,
};

/**
 * Drops larger than this (bytes of files, characters of pasted text) are fingerprinted by a pool
 * of workers, one per core, when SimHash is chosen. One worker fingerprints 30 to 100 MB/s, so
 * below 8 MiB it is done in well under half a second, which starting the pool (each of its
 * workers fetches and compiles the module) and copying every text to it would mostly eat.
 */
export const POOL_THRESHOLD = 8 * 1024 * 1024;

/**
 * How documents are grouped: `adaptive` (the default, as on the command line) by the rule of
 * `decideTexts`, which compares short texts by their words and long ones by their word pairs.
 */
export type Method = 'adaptive' | 'simhash' | 'minhash';
