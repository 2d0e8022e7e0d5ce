/**
 * Helpers for code migrating from seomoz's simhash-py, shared by both entries: its `shingle`
 * and `unsigned_hash`, and the text pipeline of its own tests, reproduced to the bit. New code
 * is better served by `fingerprint`, whose pipeline is specified and versioned (docs/specifications.md).
 */
import { md5 } from './md5.js';
import { describe, iterate } from './validate.js';

const encoder = new TextEncoder();

/**
 * simhash-py's `shingle(tokens, window)`: every run of `window` consecutive tokens, in order. A
 * string is taken code point by code point, as Python iterates a `str`. Fewer tokens than
 * `window` give no shingle at all (not one short shingle).
 *
 * @example
 * shingle(['a', 'b', 'c', 'd', 'e'], 3); // [['a', 'b', 'c'], ['b', 'c', 'd'], ['c', 'd', 'e']]
 * shingle('abcde');                      // [['a', 'b', 'c', 'd'], ['b', 'c', 'd', 'e']]
 * @param window Tokens per shingle, a positive integer. Default 4, as in simhash-py.
 * @throws {TypeError} if `tokens` is neither a string nor iterable, or `window` is not a number.
 * @throws {RangeError} if `window` is not a positive integer (simhash-py: `ValueError`).
 */
export function shingle(tokens: string, window?: number): string[][];
export function shingle<T>(tokens: Iterable<T>, window?: number): T[][];
export function shingle<T>(tokens: Iterable<T> | string, window = 4): Array<Array<T | string>> {
  if (typeof window !== 'number') throw new TypeError(`window must be a number, got ${describe(window)}`);
  if (!Number.isInteger(window) || window < 1) {
    throw new RangeError(`window must be a positive integer, got ${window}`);
  }
  if (typeof tokens !== 'string' && !isIterable(tokens)) {
    throw new TypeError(`tokens must be a string or an iterable, got ${describe(tokens)}`);
  }
  const items: Array<T | string> = typeof tokens === 'string' ? Array.from(tokens) : Array.from(iterate(tokens, 'tokens'));
  const out: Array<Array<T | string>> = [];
  for (let i = 0; i + window <= items.length; i++) out.push(items.slice(i, i + window));
  return out;
}

/**
 * simhash-py's `unsigned_hash(bytes)`: the first 8 bytes of the MD5 digest, read as a
 * big-endian unsigned 64-bit integer. A string is hashed as its UTF-8 encoding (a lone
 * surrogate as U+FFFD).
 *
 * @example
 * unsignedHash('hello world'); // 6824707963431612112n
 * @throws {TypeError} if `bytes` is neither a `Uint8Array` nor a string.
 */
export function unsignedHash(bytes: Uint8Array | string): bigint {
  let data: Uint8Array;
  if (typeof bytes === 'string') data = encoder.encode(bytes);
  else if (bytes instanceof Uint8Array) data = bytes;
  else throw new TypeError(`bytes must be a Uint8Array or a string, got ${describe(bytes)}`);
  return new DataView(md5(data).buffer).getBigUint64(0, false);
}

/**
 * The feature hashes of simhash-py's own text pipeline (its functional test): lower-case the
 * text, split it on runs of non-word characters (Python's `re.split(r'\W+', ...)`, where a word
 * character is a letter, a number or `_`), join the pieces, take every run of 4 consecutive
 * code points, and {@link unsignedHash} each one's UTF-8. A text of fewer than 4 such code
 * points has none.
 *
 * Results equal simhash-py's for any text on whose lower-casing and letter and number classes
 * Python's and the JavaScript engine's Unicode data agree.
 *
 * @throws {TypeError} if `text` is not a string.
 */
export function simhashPyFeatures(text: string): BigUint64Array {
  if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
  const joined = text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).join('');
  const shingles = shingle(joined, 4);
  const hashes = new BigUint64Array(shingles.length);
  for (let i = 0; i < shingles.length; i++) hashes[i] = unsignedHash(shingles[i]!.join(''));
  return hashes;
}

/**
 * Builds `simhashPyFingerprint(text)`, the fingerprint simhash-py computes for `text` in its
 * own tests, `compute(simhashPyFeatures(text))`, over an entry's `compute`: each entry exports
 * the result, computed by its own implementation.
 */
export function simhashPyFingerprintUsing(compute: (hashes: BigUint64Array) => bigint): (text: string) => bigint {
  return (text) => compute(simhashPyFeatures(text));
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.iterator in value;
}
