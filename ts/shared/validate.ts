/**
 * Argument checks shared by both entries. Every check throws before any work starts, with a
 * `TypeError` for a value of the wrong kind and a `RangeError` for a value of the right kind that
 * breaks a rule, each naming the argument.
 */

/** Largest value of an unsigned 64-bit integer. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** Default bound on the number of pairs `findAll` may return. */
export const DEFAULT_MAX_PAIRS = 2 ** 25;

/** Largest number of elements an input may have: positions are reported as `Uint32Array`. */
export const MAX_ELEMENTS = 0xffff_ffff;

/** Checks one 64-bit value given as a `bigint`. */
export function checkU64(value: unknown, name: string): bigint {
  if (typeof value !== 'bigint') {
    throw new TypeError(`${name} must be a bigint, got ${describe(value)}`);
  }
  if (value < 0n || value > U64_MAX) {
    throw new RangeError(`${name} must be in 0..2^64-1, got ${value}`);
  }
  return value;
}

/**
 * Checks a `readonly bigint[]` and copies it into `target` (which must have its length).
 * Every element is checked: a silently wrapped value would be a wrong answer.
 */
export function copyBigints(values: readonly unknown[], name: string, target: BigUint64Array): void {
  for (let i = 0; i < values.length; i++) {
    target[i] = checkU64(values[i], `${name}[${i}]`);
  }
}

/** Checks that `value` is an array-like input of 64-bit values and returns its length. */
export function checkU64ListLength(value: unknown, name: string): number {
  if (value instanceof BigUint64Array) checkAttached(value, name);
  if (value instanceof BigUint64Array || Array.isArray(value)) {
    checkLength(value.length, name);
    return value.length;
  }
  throw new TypeError(
    `${name} must be a BigUint64Array, an array of bigint or a HashArray, got ${describe(value)}`,
  );
}

/**
 * Checks that `view` can still be read. A view whose buffer was transferred, or a view of
 * WebAssembly memory taken before the memory grew, reads as empty: computing on it would be a
 * wrong answer, not an error.
 */
export function checkAttached(view: ArrayBufferView, name: string): void {
  if (view.byteLength === 0 && isDetached(view.buffer)) {
    throw new TypeError(
      `${name} is a view of a detached ArrayBuffer (transferred, or WebAssembly memory that has grown since the view was taken): take the view again (a HashArray's .view getter does)`,
    );
  }
}

function isDetached(buffer: ArrayBufferLike): boolean {
  const flag = (buffer as { detached?: unknown }).detached;
  if (typeof flag === 'boolean') return flag;
  // Runtimes without `ArrayBuffer.prototype.detached` refuse to make a view of a detached buffer.
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** Checks a length against what positions can address. */
export function checkLength(length: number, name: string): void {
  if (length > MAX_ELEMENTS) {
    throw new RangeError(`${name} must have at most ${MAX_ELEMENTS} elements, got ${length}`);
  }
}

/** Checks the length of an array to allocate: an integer in `0..2^32-1`. */
export function checkArrayLength(length: unknown, name = 'length'): number {
  if (typeof length !== 'number') throw new TypeError(`${name} must be a number, got ${describe(length)}`);
  if (!Number.isInteger(length) || length < 0 || length > MAX_ELEMENTS) {
    throw new RangeError(`${name} must be an integer in 0..${MAX_ELEMENTS}, got ${length}`);
  }
  return length;
}

/** Checks `distance`: an integer in `0..=64`. */
export function checkDistance(distance: unknown, name = 'options.distance'): number {
  if (typeof distance !== 'number') {
    throw new TypeError(`${name} must be a number, got ${describe(distance)}`);
  }
  if (!Number.isInteger(distance) || distance < 0 || distance > 64) {
    throw new RangeError(`${name} must be an integer in 0..64, got ${distance}`);
  }
  return distance;
}

/** Checks `blocks` against an already checked `distance`: an integer with `distance < blocks <= 64`. */
export function checkBlocks(blocks: unknown, distance: number, name = 'options.blocks'): number {
  if (typeof blocks !== 'number') {
    throw new TypeError(`${name} must be a number, got ${describe(blocks)}`);
  }
  if (!Number.isInteger(blocks)) {
    throw new RangeError(`${name} must be an integer, got ${blocks}`);
  }
  if (blocks > 64) {
    throw new RangeError(`${name} must not exceed 64, got ${blocks}`);
  }
  if (blocks <= distance) {
    throw new RangeError(
      `${name} must be greater than distance (got ${name} ${blocks}, distance ${distance})`,
    );
  }
  if (tableCount(blocks, distance) > MAX_TABLES) {
    throw new RangeError(
      `${name} ${blocks} with distance ${distance} needs C(${blocks}, ${distance}) tables; at most ${MAX_TABLES} are supported (omit ${name} to let the planner choose)`,
    );
  }
  return blocks;
}

/**
 * Most permuted tables a layout may have (the Rust core enforces the same bound). Each table
 * costs a pass over the input whatever its size, so this bounds the work a layout given by a
 * caller or read from saved bytes can cause; the planner never chooses more.
 */
export const MAX_TABLES = 4096;

/** `C(blocks, distance)`, the number of permuted tables, saturating just above `MAX_TABLES`. */
function tableCount(blocks: number, distance: number): number {
  const k = Math.min(distance, blocks - distance);
  let count = 1;
  for (let i = 1; i <= k; i++) {
    count = (count * (blocks - k + i)) / i;
    if (count > MAX_TABLES) return MAX_TABLES + 1;
  }
  return Math.round(count);
}

/** Checks `maxPairs`: a non-negative integer no larger than 2^32 - 1. */
export function checkMaxPairs(maxPairs: unknown, name = 'options.maxPairs'): number {
  if (typeof maxPairs !== 'number') {
    throw new TypeError(`${name} must be a number, got ${describe(maxPairs)}`);
  }
  if (!Number.isInteger(maxPairs) || maxPairs < 0 || maxPairs > MAX_ELEMENTS) {
    throw new RangeError(`${name} must be an integer in 0..${MAX_ELEMENTS}, got ${maxPairs}`);
  }
  return maxPairs;
}

/**
 * The option names of an options type `T`, as a list: the object literal must name every key of
 * `T` and no other, so the compiler keeps the list and the type equal.
 */
export function optionKeys<T>(keys: { readonly [K in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(keys);
}

/** Option names of datasketch and of Python's `simhash` that users bring, with the name meant here. */
const FOREIGN_NAMES: Readonly<Record<string, string>> = {
  num_perm: 'numPerm',
  false_positive_weight: 'falsePositiveWeight',
  false_negative_weight: 'falseNegativeWeight',
  weights: 'falsePositiveWeight and falseNegativeWeight',
  params: 'bands and rows',
  k: 'distance',
};

/**
 * Checks that an options argument is a plain object whose keys are all among `known`: a
 * misspelled option would otherwise leave its default in force without a word. `where` names the
 * call in the message, with the option meant when one is close or a foreign spelling of it.
 */
export function checkOptions(options: unknown, known: readonly string[], where: string, name = 'options'): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${name} must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new TypeError(`unknown option '${key}' of ${where}${meant(key, known)}`);
  }
  return options as Record<string, unknown>;
}

/** What an unknown option was probably meant to be, as a parenthesis (empty when nothing is close). */
function meant(key: string, known: readonly string[]): string {
  const foreign = FOREIGN_NAMES[key];
  if (foreign !== undefined && foreign.split(' and ').every((k) => known.includes(k))) {
    return ` (${key} is spelt ${foreign} here)`;
  }
  const plain = (s: string): string => s.toLowerCase().replace(/[_-]/g, '');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(plain(key), plain(candidate));
    if (d < bestDistance && d <= Math.max(1, Math.floor(candidate.length / 3))) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best === undefined ? `; the options are ${known.join(', ')}` : ` (did you mean '${best}'?)`;
}

/** The edit distance of two short strings: insertions, deletions, substitutions and swaps of two neighbours. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * Checks weights for `hashCount` hashes: a `Float64Array` or an array of numbers of the same
 * length, each finite and non-negative. Returns them as a `Float64Array` (the input itself when
 * it already is one).
 */
export function checkWeights(weights: unknown, hashCount: number, name = 'weights'): Float64Array {
  let array: Float64Array;
  if (weights instanceof Float64Array) {
    checkAttached(weights, name);
    array = weights;
  } else if (Array.isArray(weights)) {
    array = new Float64Array(weights.length);
    for (let i = 0; i < weights.length; i++) {
      const w: unknown = weights[i];
      if (typeof w !== 'number') {
        throw new TypeError(`${name}[${i}] must be a number, got ${describe(w)}`);
      }
      array[i] = w;
    }
  } else {
    throw new TypeError(`${name} must be a Float64Array or an array of numbers, got ${describe(weights)}`);
  }
  if (array.length !== hashCount) {
    throw new RangeError(
      `${name} must have one weight per hash: expected ${hashCount}, got ${array.length}`,
    );
  }
  for (let i = 0; i < array.length; i++) {
    const w = array[i]!;
    // `!(w >= 0)` also catches NaN.
    if (!(w >= 0) || w === Infinity) {
      throw new RangeError(`${name}[${i}] must be finite and non-negative, got ${w}`);
    }
  }
  return array;
}

/**
 * Checks document offsets for `hashCount` hashes: a `Uint32Array` whose entries never decrease
 * and never exceed `hashCount`. Document `d` owns `hashes[offsets[d] .. offsets[d + 1])`, so
 * `offsets.length - 1` documents are described (none for an empty array).
 */
export function checkOffsets(offsets: unknown, hashCount: number, name = 'offsets'): Uint32Array {
  if (!(offsets instanceof Uint32Array)) {
    throw new TypeError(`${name} must be a Uint32Array, got ${describe(offsets)}`);
  }
  checkAttached(offsets, name);
  let previous = 0;
  for (let i = 0; i < offsets.length; i++) {
    const o = offsets[i]!;
    if (o < previous) {
      throw new RangeError(`${name} must never decrease, but ${name}[${i}] = ${o} < ${previous}`);
    }
    if (o > hashCount) {
      throw new RangeError(`${name}[${i}] = ${o} is beyond the ${hashCount} hashes`);
    }
    previous = o;
  }
  return offsets;
}

/** A short description of a value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const ctor = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof ctor === 'string' ? `${/^[AEIO]/.test(ctor) ? 'an' : 'a'} ${ctor}` : 'an object';
  }
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'bigint') return `the bigint ${value}`;
  return `${typeof value} ${String(value)}`;
}

/**
 * The error `findAll` throws when its result would exceed `maxPairs`: usually a family of
 * mutual near-duplicates, whose groups `findClusters` gives in memory linear in n.
 */
export function tooManyPairs(maxPairs: number): RangeError {
  return new RangeError(
    `findAll would return more than maxPairs (${maxPairs}) pairs; for groups of near-duplicates use findClusters (one label per fingerprint, memory linear in n), or raise options.maxPairs or lower options.distance`,
  );
}

/**
 * `value`'s elements, for a `for…of`, with errors that name `name` where the engine's would
 * name a variable or nothing ("Iterator result 5 is not an object"): `value` must be iterable,
 * its iterator an object with `next()`, and each result an object. Arrays pass as they are.
 */
export function iterate<T>(value: Iterable<T>, name: string): Iterable<T> {
  if (Array.isArray(value)) return value;
  const method: unknown = (value as { [Symbol.iterator]?: unknown })[Symbol.iterator];
  if (typeof method !== 'function') throw new TypeError(`${name} must be iterable, but its [Symbol.iterator] is ${describe(method)}`);
  return {
    [Symbol.iterator](): Iterator<T> {
      const iterator: unknown = method.call(value);
      const next: unknown = iterator !== null && typeof iterator === 'object' ? (iterator as { next?: unknown }).next : undefined;
      if (typeof next !== 'function') {
        throw new TypeError(`${name}[Symbol.iterator]() must return an iterator (an object with a next() method), got ${describe(iterator)}`);
      }
      const source = iterator as Iterator<T>;
      const wrapped: Iterator<T> = {
        next(): IteratorResult<T> {
          const result: unknown = next.call(source);
          if (result === null || typeof result !== 'object') {
            throw new TypeError(`${name}: its iterator's next() returned ${describe(result)}, not an object { value, done }`);
          }
          return result as IteratorResult<T>;
        },
      };
      // An early exit (a bad element) closes the source, as a plain for…of would.
      if (typeof source.return === 'function') wrapped.return = (v?: unknown) => source.return!(v);
      return wrapped;
    },
  };
}
