/**
 * Naive reference implementations, written straight from the specification and sharing no code
 * with either entry point. They are the brute force every implementation is checked against, so
 * they favour obviousness over speed (except where a test needs millions of pair checks, see
 * {@link findAll}).
 */

/** Largest unsigned 64-bit value. */
export const U64_MAX = (1n << 64n) - 1n;

/** Value of bit `bit` (0 = least significant) of `value`. */
export function bitOf(value: bigint, bit: number): boolean {
  return ((value >> BigInt(bit)) & 1n) === 1n;
}

/** Number of set bits of a non-negative bigint, one bit at a time. */
export function popcount(value: bigint): number {
  let count = 0;
  for (let v = value; v > 0n; v >>= 1n) {
    if ((v & 1n) === 1n) count++;
  }
  return count;
}

/** `popcount(a ^ b)`. */
export function numDifferingBits(a: bigint, b: bigint): number {
  return popcount(a ^ b);
}

/** Bit i is set iff strictly more hashes have bit i set than clear; ties and empty input give 0. */
export function compute(hashes: readonly bigint[]): bigint {
  let result = 0n;
  for (let bit = 0; bit < 64; bit++) {
    let set = 0;
    for (const h of hashes) if (bitOf(h, bit)) set++;
    const clear = hashes.length - set;
    if (set > clear) result |= 1n << BigInt(bit);
  }
  return result;
}

/**
 * Weighted compute with the exact floating-point order of the specification: for each bit, an
 * f64 sum starting at 0 that adds `w[k]` or `-w[k]` for k in input order; the bit is set iff the
 * sum is > 0.
 */
export function computeWeighted(hashes: readonly bigint[], weights: ArrayLike<number>): bigint {
  if (weights.length !== hashes.length) throw new Error('oracle: weights length mismatch');
  let result = 0n;
  for (let bit = 0; bit < 64; bit++) {
    let sum = 0;
    for (let k = 0; k < hashes.length; k++) {
      const w = weights[k]!;
      sum += bitOf(hashes[k]!, bit) ? w : -w;
    }
    if (sum > 0) result |= 1n << BigInt(bit);
  }
  return result;
}

/** The documents described by `offsets`: `max(0, offsets.length - 1)` half-open ranges. */
export function documentRanges(offsets: ArrayLike<number>): Array<[start: number, end: number]> {
  const ranges: Array<[number, number]> = [];
  for (let d = 0; d + 1 < offsets.length; d++) ranges.push([offsets[d]!, offsets[d + 1]!]);
  return ranges;
}

/** One fingerprint per document: `compute(hashes[offsets[d] .. offsets[d + 1]))`. */
export function computeMany(hashes: readonly bigint[], offsets: ArrayLike<number>): bigint[] {
  return documentRanges(offsets).map(([start, end]) => compute(hashes.slice(start, end)));
}

/** One weighted fingerprint per document. */
export function computeManyWeighted(
  hashes: readonly bigint[],
  weights: ArrayLike<number>,
  offsets: ArrayLike<number>,
): bigint[] {
  const w = Array.from(weights);
  return documentRanges(offsets).map(([start, end]) =>
    computeWeighted(hashes.slice(start, end), w.slice(start, end)),
  );
}

/** Distance from `query` to every fingerprint. */
export function hammingDistances(query: bigint, fingerprints: readonly bigint[]): number[] {
  return fingerprints.map((f) => numDifferingBits(query, f));
}

/** Pairs as plain arrays, in the order `findAll` must report them. */
export interface OraclePairs {
  left: number[];
  right: number[];
  distance: number[];
}

/** Number of set bits of a 32-bit unsigned integer, one bit at a time. */
function popcount32(value: number): number {
  let count = 0;
  for (let v = value >>> 0; v !== 0; v >>>= 1) count += v & 1;
  return count;
}

/**
 * Every pair of positions i < j with `popcount(x_i ^ x_j) <= distance`, by comparing all pairs,
 * in increasing (i, j) order. Values are split into two 32-bit halves first so that a few million
 * pairs take well under a second; the halves are checked against the bigint definition.
 */
export function findAll(fingerprints: readonly bigint[], distance: number): OraclePairs {
  const n = fingerprints.length;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = fingerprints[i]!;
    if (v < 0n || v > U64_MAX) throw new Error('oracle: value out of range');
    lo[i] = Number(v & 0xffff_ffffn);
    hi[i] = Number(v >> 32n);
    if ((BigInt(hi[i]!) << 32n) + BigInt(lo[i]!) !== v) throw new Error('oracle: split mismatch');
  }
  // Byte popcount table, built with the one-bit-at-a-time count above.
  const byteCount = new Uint8Array(256);
  for (let b = 0; b < 256; b++) byteCount[b] = popcount32(b);
  const count32 = (v: number): number =>
    byteCount[v & 0xff]! + byteCount[(v >>> 8) & 0xff]! + byteCount[(v >>> 16) & 0xff]! + byteCount[v >>> 24]!;
  const out: OraclePairs = { left: [], right: [], distance: [] };
  for (let i = 0; i < n; i++) {
    const li = lo[i]!;
    const hiI = hi[i]!;
    for (let j = i + 1; j < n; j++) {
      const d = count32((li ^ lo[j]!) >>> 0) + count32((hiI ^ hi[j]!) >>> 0);
      if (d <= distance) {
        out.left.push(i);
        out.right.push(j);
        out.distance.push(d);
      }
    }
  }
  return out;
}

/** Number of ways to choose `k` of `n` (exact for the small values the tests use). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/**
 * A small deterministic PRNG (SplitMix64) for building large test inputs reproducibly without
 * fast-check: `next()` returns a uniform u64, `below(n)` a uniform integer in `0..n`.
 */
export class SplitMix64 {
  private state: bigint;

  constructor(seed: bigint) {
    this.state = BigInt.asUintN(64, seed);
  }

  next(): bigint {
    this.state = BigInt.asUintN(64, this.state + 0x9e37_79b9_7f4a_7c15n);
    let z = this.state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58_476d_1ce4_e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d0_49bb_1331_11ebn);
    return z ^ (z >> 31n);
  }

  /** Uniform integer in `0..n` (n ≤ 2^32). */
  below(n: number): number {
    return Number((this.next() >> 32n) % BigInt(n));
  }
}

/**
 * `value` with exactly `count` distinct bits flipped, the bits chosen by `rng`
 * (a partial Fisher–Yates shuffle of the 64 bit positions).
 */
export function flipBits(value: bigint, count: number, rng: { below(n: number): number }): bigint {
  if (count < 0 || count > 64) throw new Error('oracle: flip count out of range');
  const bits = Array.from({ length: 64 }, (_, i) => i);
  let result = value;
  for (let k = 0; k < count; k++) {
    const pick = k + rng.below(64 - k);
    const tmp = bits[k]!;
    bits[k] = bits[pick]!;
    bits[pick] = tmp;
    result ^= 1n << BigInt(bits[k]!);
  }
  return result;
}
