/**
 * MinHash signatures (specification v1 in docs/specifications.md) in plain TypeScript: one-permutation
 * hashing with optimal densification, bit for bit as `crates/simhash-core/src/minhash`.
 * 64-bit arithmetic runs on pairs of 32-bit halves.
 */

/** The signature value of every position of a set without features. */
const EMPTY = 0xffff_ffff;

/** The high and low halves of the last 64-bit result (module state keeps the hot loop free of allocation). */
let hi = 0;
let lo = 0;

/** (hi, lo) ← (hi, lo) · (ch, cl) mod 2^64. */
function mul64(ch: number, cl: number): void {
  const a0 = lo & 0xffff;
  const a1 = lo >>> 16;
  const b0 = cl & 0xffff;
  const b1 = cl >>> 16;
  const middle = a0 * b1 + a1 * b0;
  const low = a0 * b0 + (middle % 0x1_0000) * 0x1_0000;
  const carry = Math.floor(low / 0x1_0000_0000);
  const high = a1 * b1 + Math.floor(middle / 0x1_0000) + carry + Math.imul(hi, cl) + Math.imul(lo, ch);
  hi = high >>> 0;
  lo = low >>> 0;
}

/** The murmur3 64-bit finaliser of (hi, lo), in place. */
function fmix64(): void {
  lo = (lo ^ (hi >>> 1)) >>> 0;
  mul64(0xff51_afd7, 0xed55_8ccd);
  lo = (lo ^ (hi >>> 1)) >>> 0;
  mul64(0xc4ce_b9fe, 0x1a85_ec53);
  lo = (lo ^ (hi >>> 1)) >>> 0;
}

/** The murmur3 32-bit finaliser. */
export function fmix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85eb_ca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2_ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The key features are mixed with: fmix64(seed ^ 0x9E3779B97F4A7C15), as (high, low). */
function seedKey(seed: bigint): [number, number] {
  const x = seed ^ 0x9e37_79b9_7f4a_7c15n;
  hi = Number(x >> 32n);
  lo = Number(x & 0xffff_ffffn);
  fmix64();
  return [hi, lo];
}

/**
 * Writes the signature of the features `words[2·from .. 2·to)` (each feature as its low then
 * high 32-bit half, as a little-endian `BigUint64Array` lays them out) into `out`, whose length
 * is the number of permutations; `filled` is scratch of at least that length.
 */
export function sketch(words: Uint32Array, from: number, to: number, seed: bigint, out: Uint32Array, filled: Uint8Array): void {
  const k = out.length;
  const [keyHi, keyLo] = seedKey(seed);
  out.fill(EMPTY);
  filled.fill(0, 0, k);
  let any = false;
  for (let f = from; f < to; f++) {
    lo = (words[2 * f]! ^ keyLo) >>> 0;
    hi = (words[2 * f + 1]! ^ keyHi) >>> 0;
    fmix64();
    const bin = Math.floor((hi * k) / 0x1_0000_0000);
    if (filled[bin] === 0 || lo < out[bin]!) {
      out[bin] = lo;
      filled[bin] = 1;
      any = true;
    }
  }
  if (!any) return;
  const attempts = 8 * k;
  for (let i = 0; i < k; i++) {
    if (filled[i] === 1) continue;
    const base = keyLo ^ Math.imul(i, 0x9e37_79b1);
    let donor = -1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const j = Math.floor((fmix32(base ^ Math.imul(attempt, 0x85eb_ca77)) * k) / 0x1_0000_0000);
      if (filled[j] === 1) {
        donor = j;
        break;
      }
    }
    if (donor < 0) {
      for (let step = 1; step < k; step++) {
        if (filled[(i + step) % k] === 1) {
          donor = (i + step) % k;
          break;
        }
      }
    }
    out[i] = out[donor]!;
  }
}
