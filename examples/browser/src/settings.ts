/**
 * The demo's fingerprinting settings: those the command line uses, chosen by the measurement in
 * the README's "Quality" section (word 3-shingles, each distinct shingle counted once, 10 bits).
 */

import type { TextOptions } from 'simhash-wasm/slim';

/** Options of every `fingerprintMany` call of the demo. */
export const TEXT_OPTIONS: Readonly<TextOptions> = { unit: 'word', size: 3, weighting: 'binary' };

/** Where the distance slider starts. */
export const DEFAULT_DISTANCE = 10;
