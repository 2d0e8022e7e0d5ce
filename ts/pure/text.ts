/**
 * The text fingerprint of specification v1 (docs/specifications.md), in plain TypeScript: normalise,
 * encode, tokenise, hash units, hash shingles, fold.
 */
import { normalizeRuns } from '../shared/text-normalize.js';
import { type ResolvedTextOptions, resolveTextOptions } from '../shared/text-options.js';
import type { TextOptions } from '../shared/types.js';
import { describe, iterate } from '../shared/validate.js';
import { encode, shingleScratch, trimScratch, unitScratch } from './text-scratch.js';
import { foldShingles, hashShingles, keepDistinct, sortDistinct } from './text-shingles.js';
import { hashCharUnits, hashWordUnits } from './text-units.js';
import { fromWords, toBigint } from './words.js';
import { prepareSeed } from './xxh3.js';

/**
 * The SimHash fingerprint of `text` (specification v1, docs/specifications.md): the majority of its
 * shingle hashes bit by bit, `0n` for a text without tokens.
 *
 * @example
 * fingerprint('The quick brown fox jumps over the lazy dog');
 * fingerprint('中文字', { unit: 'char', size: 2 });
 * @throws {TypeError} if `text` is not a string; {@link TypeError} or {@link RangeError} for
 * invalid options, naming the field.
 */
export function fingerprint(text: string, options?: TextOptions): bigint {
  const opts = resolveTextOptions(options, 'fingerprint');
  const normalized = normalizeRuns(text, opts);
  const out = new Uint32Array(2);
  try {
    // The scratch is read after hashing: hashing may have replaced it with a larger one.
    const count = shingleHashes(normalized, opts, keepDistinct);
    foldShingles(shingleScratch(), count, new Int32Array(64), out, 0);
  } finally {
    trimScratch();
  }
  return toBigint(out[0]!, out[1]!);
}

/**
 * {@link fingerprint} of each text, in order, with the same options.
 *
 * @param texts An array or any other iterable of strings (not a string).
 * @throws {TypeError} if `texts` is not an array or iterable, or `texts[i]` is not a string;
 * {@link TypeError} or {@link RangeError} for invalid options.
 */
export function fingerprintMany(texts: readonly string[] | Iterable<string>, options?: TextOptions): BigUint64Array {
  const opts = resolveTextOptions(options, 'fingerprintMany');
  if (texts === null || typeof texts !== 'object' || !(Symbol.iterator in texts)) {
    throw new TypeError(`texts must be an array or an iterable of strings, got ${describe(texts)}`);
  }
  let out = new Uint32Array(2 * (Array.isArray(texts) ? texts.length : 16));
  let count = 0;
  const counts = new Int32Array(64);
  try {
    for (const text of iterate(texts, 'texts')) {
      const normalized = normalizeRuns(text, opts, `texts[${count}]`);
      if (2 * count === out.length) {
        const grown = new Uint32Array(Math.max(32, 2 * out.length));
        grown.set(out);
        out = grown;
      }
      const shingles = shingleHashes(normalized, opts, keepDistinct);
      foldShingles(shingleScratch(), shingles, counts, out, 2 * count);
      count++;
    }
  } finally {
    trimScratch();
  }
  return fromWords(2 * count === out.length ? out : out.slice(0, 2 * count));
}

/**
 * The shingle hashes {@link fingerprint} folds (step 7 of the specification): in text order
 * with repeats for `weighting: 'tf'`, ascending and distinct for `'binary'`.
 *
 * @throws {TypeError | RangeError} as {@link fingerprint}.
 */
export function features(text: string, options?: TextOptions): BigUint64Array {
  const opts = resolveTextOptions(options, 'features');
  const normalized = normalizeRuns(text, opts);
  try {
    const count = shingleHashes(normalized, opts, sortDistinct);
    return fromWords(shingleScratch().slice(0, 2 * count));
  } finally {
    trimScratch();
  }
}

/**
 * Steps 2 to 7 (and the de-duplication of step 8, by `distinct`: sorted for `features`, in
 * any order for a fold) for a text through `normalizeRuns`, whose ASCII capitals are lowered
 * here: leaves the shingle hashes in scratch and returns their number.
 */
function shingleHashes(
  normalized: string,
  opts: ResolvedTextOptions,
  distinct: (words: Uint32Array, count: number) => number,
): number {
  const seed = prepareSeed(opts.seed);
  const encoded = encode(normalized, opts.lowercase);
  const hashUnits = opts.unit === 'word' ? hashWordUnits : hashCharUnits;
  const units = unitScratch();
  const unitCount = hashUnits(encoded.bytes, encoded.view, encoded.length, seed, units);
  const shingles = shingleScratch();
  const count = hashShingles(units, unitCount, opts.size, seed, shingles);
  return opts.weighting === 'binary' ? distinct(shingles, count) : count;
}
