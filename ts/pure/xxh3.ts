/**
 * XXH3-64 with a 64-bit seed (`XXH3_64bits_withSeed` of xxHash 0.8, as the xxhash-rust crate of
 * the WebAssembly build computes it), in 32-bit halves: `bigint` arithmetic allocates, and the
 * text fingerprint hashes every token and every shingle.
 *
 * 64-bit values travel as `(lo, hi)` pairs of unsigned 32-bit numbers; products of 32-bit halves
 * take `Math.imul` for the low word and a double multiplication for the high one.
 */

const TWO32 = 4294967296;
/** 2^-32: multiplying by it is exact, and much faster than dividing by 2^32. */
const INV_TWO32 = 1 / TWO32;

const PRIME32_1 = 0x9e3779b1;
const PRIME32_2 = 0x85ebca77;
const PRIME32_3 = 0xc2b2ae3d;
const PRIME64_1_LO = 0x85ebca87;
const PRIME64_1_HI = 0x9e3779b1;
const PRIME64_2_LO = 0x27d4eb4f;
const PRIME64_2_HI = 0xc2b2ae3d;
const PRIME64_3_LO = 0x9e3779f9;
const PRIME64_3_HI = 0x165667b1;
const PRIME64_4_LO = 0xc2b2ae63;
const PRIME64_4_HI = 0x85ebca77;
const PRIME64_5_LO = 0x165667c5;
const PRIME64_5_HI = 0x27d4eb2f;
const PRIME_MX1_LO = 0x9e3779f9;
const PRIME_MX1_HI = 0x16566791;
const PRIME_MX2_LO = 0x1e98df25;
const PRIME_MX2_HI = 0x9fb21c65;

/** Bytes of the default secret. */
const SECRET_SIZE = 192;
/** Bytes hashed per stripe of the long path, and per accumulator round. */
const STRIPE = 64;
/** Stripes per block: the secret advances 8 bytes per stripe until it runs out. */
const STRIPES_PER_BLOCK = (SECRET_SIZE - STRIPE) / 8;
const BLOCK = STRIPE * STRIPES_PER_BLOCK;
/** Where the last stripe's secret starts, counted back from `SECRET_SIZE - STRIPE`. */
const LAST_STRIPE_SECRET = SECRET_SIZE - STRIPE - 7;
const MERGE_SECRET = 11;
/** The 129..240 path keys its rounds after the eighth from here, and its last one from 136 − 17. */
const MID_ROUND_SECRET = 3;
const MID_LAST_SECRET = 136 - 17;

const DEFAULT_SECRET = new DataView(
  Uint8Array.of(
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
  ).buffer,
);

/**
 * Where the helpers that make a 64-bit value leave it, and the avalanches find it: low half at
 * 0, high half at 1. Halves passed as arguments or returned would be boxed into a fresh heap
 * number each (above 2^30) wherever the engine does not inline the helper, which depends on its
 * budget; so every helper takes only offsets and arrays, and its arithmetic stays in locals.
 */
const r = new Uint32Array(2);

/** The long path's eight 64-bit accumulators, as halves; reused by every long hash. */
const acc = new Uint32Array(16);
/** Two accumulators at a time as little-endian bytes, the form {@link mix} reads. */
const accBytes = new DataView(new ArrayBuffer(64));

/** `length * PRIME64_1` modulo 2^64 for every length of the short and mid paths, as halves. */
const LENGTH_PRIME = new Uint32Array(2 * 241);
for (let length = 0; length <= 240; length++) {
  const product = BigInt.asUintN(64, BigInt(length) * ((BigInt(PRIME64_1_HI) << 32n) | BigInt(PRIME64_1_LO)));
  LENGTH_PRIME[2 * length] = Number(product & 0xffff_ffffn);
  LENGTH_PRIME[2 * length + 1] = Number(product >> 32n);
}

/** Layout of {@link Xxh3Seed.keys}. */
const EMPTY = 0;
const FLIP_1TO3 = 2;
const FLIP_4TO8 = 4;
const FLIP_9TO16_LO = 6;
const FLIP_9TO16_HI = 8;
/** `keys[MIX + 4 o ..]`: the secret's words at byte `o` and `o + 8`, plus and minus the seed. */
const MIX = 10;
/** Largest secret offset a 16-byte mix of the short and mid paths keys with, plus one. */
const MIX_OFFSETS = 121;

/**
 * Everything XXH3 derives from one seed, computed once rather than per hash: the secret words
 * of the short and mid paths already combined with the seed, and the long path's secret.
 */
export class Xxh3Seed {
  /** Seed-keyed secret words, laid out as described at {@link MIX} and above it. */
  readonly keys: Uint32Array;
  /** The long path's secret: each 16-byte pair of words of the default one, plus and minus the seed. */
  readonly longSecret: DataView;
  /** The long path's secret words from byte 11 on, which its final merge keys with. */
  readonly mergeKeys: Uint32Array;

  /** Prepares `seed`, a `bigint` in `0 .. 2^64 - 1` (not checked). Once per seed, so plain bigint arithmetic. */
  constructor(seed: bigint) {
    const secret = (offset: number): bigint => DEFAULT_SECRET.getBigUint64(offset, true);
    const plus = (value: bigint): bigint => BigInt.asUintN(64, value + seed);
    const minus = (value: bigint): bigint => BigInt.asUintN(64, value - seed);
    const keys = new Uint32Array(MIX + 4 * MIX_OFFSETS);
    const set = (at: number, value: bigint): void => {
      keys[at] = Number(value & 0xffff_ffffn);
      keys[at + 1] = Number(value >> 32n);
    };

    // The empty input's hash depends on the seed only.
    set(EMPTY, seed ^ secret(56) ^ secret(64));
    r[0] = keys[EMPTY]!;
    r[1] = keys[EMPTY + 1]!;
    avalanche64();
    keys[EMPTY] = r[0]!;
    keys[EMPTY + 1] = r[1]!;

    set(FLIP_1TO3, plus(BigInt(DEFAULT_SECRET.getUint32(0, true) ^ DEFAULT_SECRET.getUint32(4, true)) & 0xffff_ffffn));
    const swapped = seed ^ (BigInt(swap32(Number(seed & 0xffff_ffffn))) << 32n);
    set(FLIP_4TO8, BigInt.asUintN(64, (secret(8) ^ secret(16)) - swapped));
    set(FLIP_9TO16_LO, plus(secret(24) ^ secret(32)));
    set(FLIP_9TO16_HI, minus(secret(40) ^ secret(48)));
    for (let o = 0; o < MIX_OFFSETS; o++) {
      set(MIX + 4 * o, plus(secret(o)));
      set(MIX + 4 * o + 2, minus(secret(o + 8)));
    }
    this.keys = keys;

    this.longSecret = new DataView(new ArrayBuffer(SECRET_SIZE));
    for (let o = 0; o < SECRET_SIZE; o += 16) {
      this.longSecret.setBigUint64(o, plus(secret(o)), true);
      this.longSecret.setBigUint64(o + 8, minus(secret(o + 8)), true);
    }
    this.mergeKeys = Uint32Array.from({ length: 16 }, (_, w) => this.longSecret.getUint32(MERGE_SECRET + 4 * w, true));
  }
}

/**
 * XXH3-64 of bytes `[start, end)` of `input` with a prepared seed, written to `out[at]` (low
 * half) and `out[at + 1]` (high half). Allocates nothing.
 */
export function xxh3Hash(
  input: DataView,
  start: number,
  end: number,
  seed: Xxh3Seed,
  out: Uint32Array,
  at: number,
): void {
  const length = end - start;
  if (length <= 16) hashUpTo16(input, start, length, seed.keys);
  else if (length <= 128) hash17To128(input, start, length, seed.keys);
  else if (length <= 240) hash129To240(input, start, length, seed.keys);
  else hashLong(input, start, length, seed);
  out[at] = r[0]!;
  out[at + 1] = r[1]!;
}

/** The last seed {@link prepareSeed} prepared: callers use few distinct seeds, mostly one. */
let lastSeed = new Xxh3Seed(0n);
let lastSeedValue = 0n;

/** A prepared `seed` (unchecked `bigint` in `0 .. 2^64 - 1`), remembering the last one. */
export function prepareSeed(seed: bigint): Xxh3Seed {
  if (seed !== lastSeedValue) {
    lastSeed = new Xxh3Seed(seed);
    lastSeedValue = seed;
  }
  return lastSeed;
}

/**
 * XXH3-64 of `bytes` with `seed` (an unchecked `bigint` in `0 .. 2^64 - 1`), as a `bigint`: the
 * convenient form, for a hash now and then. Hot loops use {@link xxh3Hash}.
 */
export function xxh3(bytes: Uint8Array, seed = 0n): bigint {
  const out = new Uint32Array(2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  xxh3Hash(view, 0, bytes.length, prepareSeed(seed), out, 0);
  return (BigInt(out[1]!) << 32n) | BigInt(out[0]!);
}

function hashUpTo16(v: DataView, p: number, length: number, keys: Uint32Array): void {
  if (length > 8) {
    const lo0 = v.getUint32(p, true) ^ keys[FLIP_9TO16_LO]!;
    const lo1 = v.getUint32(p + 4, true) ^ keys[FLIP_9TO16_LO + 1]!;
    const hi0 = (v.getUint32(p + length - 8, true) ^ keys[FLIP_9TO16_HI]!) >>> 0;
    const hi1 = v.getUint32(p + length - 4, true) ^ keys[FLIP_9TO16_HI + 1]!;
    mix(v, p, p + length - 8, keys, FLIP_9TO16_LO);
    // length + swap64(lo) + hi + fold, the low halves' carries going into the high half.
    const sumLo = length + swap32(lo1) + hi0 + r[0]!;
    r[0] = sumLo;
    r[1] = swap32(lo0) + (hi1 >>> 0) + r[1]! + Math.floor(sumLo * INV_TWO32);
    avalanche3();
  } else if (length >= 4) {
    r[0] = v.getUint32(p + length - 4, true) ^ keys[FLIP_4TO8]!;
    r[1] = v.getUint32(p, true) ^ keys[FLIP_4TO8 + 1]!;
    rrmxmx(length);
  } else if (length > 0) {
    const combined =
      (v.getUint8(p) << 16) | (v.getUint8(p + (length >>> 1)) << 24) | v.getUint8(p + length - 1) | (length << 8);
    r[0] = combined ^ keys[FLIP_1TO3]!;
    r[1] = keys[FLIP_1TO3 + 1]!;
    avalanche64();
  } else {
    r[0] = keys[EMPTY]!;
    r[1] = keys[EMPTY + 1]!;
  }
}

function hash17To128(v: DataView, p: number, length: number, keys: Uint32Array): void {
  let lo = LENGTH_PRIME[2 * length]!;
  let hi = LENGTH_PRIME[2 * length + 1]!;
  // Pairs of 16-byte mixes from both ends inwards, keyed by consecutive secret words: one pair
  // up to 32 bytes, two up to 64, three up to 96, four up to 128. (The reference adds them from
  // the inside out; the sum is the same.) One call site, so that the engine inlines it.
  const mixes = 2 * (((length - 1) >>> 5) + 1);
  for (let m = 0; m < mixes; m++) {
    const inward = 16 * (m >>> 1);
    const at = (m & 1) === 0 ? p + inward : p + length - 16 - inward;
    mix(v, at, at + 8, keys, MIX + 64 * m);
    lo += r[0]!;
    hi += r[1]!;
  }
  // At most eight carries have piled up in `lo`; doubles hold the sums exactly.
  r[0] = lo;
  r[1] = hi + Math.floor(lo * INV_TWO32);
  avalanche3();
}

function hash129To240(v: DataView, p: number, length: number, keys: Uint32Array): void {
  let lo = LENGTH_PRIME[2 * length]!;
  let hi = LENGTH_PRIME[2 * length + 1]!;
  const rounds = length >>> 4;
  // Rounds 0..7 keyed from secret byte 16 i, then an avalanche; rounds 8.. from 16 (i - 8) + 3;
  // then the last 16 bytes from 136 - 17.
  for (let i = 0; i <= rounds; i++) {
    if (i === 8) {
      r[0] = lo;
      r[1] = hi + Math.floor(lo * INV_TWO32);
      avalanche3();
      lo = r[0]!;
      hi = r[1]!;
    }
    const last = i === rounds;
    const offset = last ? MID_LAST_SECRET : i < 8 ? 16 * i : 16 * (i - 8) + MID_ROUND_SECRET;
    const at = last ? p + length - 16 : p + 16 * i;
    mix(v, at, at + 8, keys, MIX + 4 * offset);
    lo += r[0]!;
    hi += r[1]!;
  }
  r[0] = lo;
  r[1] = hi + Math.floor(lo * INV_TWO32);
  avalanche3();
}

/**
 * The 128-bit product of the input words at bytes `p` and `q`, each xor-ed with a 64-bit key
 * from `keys[k ..]`, folded to 64 bits (low half xor high half), into `r`.
 */
function mix(v: DataView, p: number, q: number, keys: Uint32Array, k: number): void {
  const aLo = (v.getUint32(p, true) ^ keys[k]!) >>> 0;
  const aHi = (v.getUint32(p + 4, true) ^ keys[k + 1]!) >>> 0;
  const bLo = (v.getUint32(q, true) ^ keys[k + 2]!) >>> 0;
  const bHi = (v.getUint32(q + 4, true) ^ keys[k + 3]!) >>> 0;
  const p0Lo = Math.imul(aLo, bLo) >>> 0;
  const p0Hi = mulHi(aLo, bLo, p0Lo);
  const p1Lo = Math.imul(aLo, bHi) >>> 0;
  const p1Hi = mulHi(aLo, bHi, p1Lo);
  const p2Lo = Math.imul(aHi, bLo) >>> 0;
  const p2Hi = mulHi(aHi, bLo, p2Lo);
  const p3Lo = Math.imul(aHi, bHi) >>> 0;
  const p3Hi = mulHi(aHi, bHi, p3Lo);
  // 32-bit columns of the product; each sum stays far below 2^53.
  const s1 = p0Hi + p1Lo + p2Lo;
  const w1 = s1 >>> 0;
  const s2 = p1Hi + p2Hi + p3Lo + (s1 - w1) * INV_TWO32;
  const w2 = s2 >>> 0;
  r[0] = p0Lo ^ w2;
  r[1] = w1 ^ (p3Hi + (s2 - w2) * INV_TWO32);
}

function hashLong(v: DataView, p: number, length: number, seed: Xxh3Seed): void {
  const secret = seed.longSecret;
  acc.set(INITIAL_ACC);
  const blocks = Math.floor((length - 1) / BLOCK);
  for (let b = 0; b < blocks; b++) {
    const blockStart = p + b * BLOCK;
    for (let s = 0; s < STRIPES_PER_BLOCK; s++) accumulate(v, blockStart + s * STRIPE, secret, 8 * s);
    scramble(secret, SECRET_SIZE - STRIPE);
  }
  const tailStart = p + blocks * BLOCK;
  const stripes = Math.floor((length - 1 - blocks * BLOCK) / STRIPE);
  for (let s = 0; s < stripes; s++) accumulate(v, tailStart + s * STRIPE, secret, 8 * s);
  accumulate(v, p + length - STRIPE, secret, LAST_STRIPE_SECRET);

  const lengthLo = length >>> 0;
  let lo = Math.imul(lengthLo, PRIME64_1_LO) >>> 0;
  let hi = mulHi(lengthLo, PRIME64_1_LO, lo) + Math.imul(lengthLo, PRIME64_1_HI);
  hi += Math.imul(Math.floor(length * INV_TWO32), PRIME64_1_LO);
  for (let i = 0; i < 4; i++) {
    for (let w = 0; w < 4; w++) accBytes.setUint32(16 * i + 4 * w, acc[4 * i + w]!, true);
    mix(accBytes, 16 * i, 16 * i + 8, seed.mergeKeys, 4 * i);
    lo += r[0]!;
    hi += r[1]!;
  }
  r[0] = lo;
  r[1] = hi + Math.floor(lo * INV_TWO32);
  avalanche3();
}

/** The accumulators' starting values, as halves. */
const INITIAL_ACC = Uint32Array.of(
  PRIME32_3, 0, PRIME64_1_LO, PRIME64_1_HI, PRIME64_2_LO, PRIME64_2_HI, PRIME64_3_LO, PRIME64_3_HI,
  PRIME64_4_LO, PRIME64_4_HI, PRIME32_2, 0, PRIME64_5_LO, PRIME64_5_HI, PRIME32_1, 0,
);

/** One 64-byte stripe at input byte `p` into the accumulators, keyed by the secret at `s`. */
function accumulate(v: DataView, p: number, secret: DataView, s: number): void {
  for (let i = 0; i < 8; i++) {
    const dataLo = v.getUint32(p + 8 * i, true);
    const dataHi = v.getUint32(p + 8 * i + 4, true);
    const keyLo = (dataLo ^ secret.getUint32(s + 8 * i, true)) >>> 0;
    const keyHi = (dataHi ^ secret.getUint32(s + 8 * i + 4, true)) >>> 0;
    // The neighbouring lane takes the raw data ...
    const j = 2 * (i ^ 1);
    let sum = acc[j]! + dataLo;
    acc[j] = sum;
    acc[j + 1] = acc[j + 1]! + dataHi + (sum >= TWO32 ? 1 : 0);
    // ... and this lane the product of the keyed data's halves.
    const productLo = Math.imul(keyLo, keyHi) >>> 0;
    sum = acc[2 * i]! + productLo;
    acc[2 * i] = sum;
    acc[2 * i + 1] = acc[2 * i + 1]! + mulHi(keyLo, keyHi, productLo) + (sum >= TWO32 ? 1 : 0);
  }
}

/** Mixes the accumulators at the end of a block with the secret's last stripe at `s`. */
function scramble(secret: DataView, s: number): void {
  for (let i = 0; i < 8; i++) {
    const hi = acc[2 * i + 1]!;
    // acc ^= acc >> 47; acc ^= key; acc *= PRIME32_1
    const lo = (acc[2 * i]! ^ (hi >>> 15) ^ secret.getUint32(s + 8 * i, true)) >>> 0;
    const keyedHi = hi ^ secret.getUint32(s + 8 * i + 4, true);
    const productLo = Math.imul(lo, PRIME32_1) >>> 0;
    acc[2 * i] = productLo;
    acc[2 * i + 1] = mulHi(lo, PRIME32_1, productLo) + Math.imul(keyedHi, PRIME32_1);
  }
}

/**
 * The high half of the 64-bit product of unsigned 32-bit `a` and `b`, given its exact low half.
 * The double product is within 2^11 of the true one, so subtracting the low half leaves the high
 * half times 2^32 give or take 2^12: scaled down, that is within 2^-20 of the high half, and
 * truncating it plus one half recovers it exactly.
 */
function mulHi(a: number, b: number, low: number): number {
  return ((a * b - low) * INV_TWO32 + 0.5) >>> 0;
}

function swap32(x: number): number {
  return (((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24)) >>> 0;
}

/** XXH3's final mix of `r`: `h ^= h >> 37; h *= PRIME_MX1; h ^= h >> 32`. */
function avalanche3(): void {
  const hi = r[1]!;
  const lo = (r[0]! ^ (hi >>> 5)) >>> 0;
  const productLo = Math.imul(lo, PRIME_MX1_LO) >>> 0;
  const productHi = (mulHi(lo, PRIME_MX1_LO, productLo) + Math.imul(lo, PRIME_MX1_HI) + Math.imul(hi, PRIME_MX1_LO)) >>> 0;
  r[0] = productLo ^ productHi;
  r[1] = productHi;
}

/** XXH64's final mix of `r`, which XXH3 uses for inputs of 0 to 3 bytes. */
function avalanche64(): void {
  // h ^= h >> 33; h *= PRIME64_2
  let hi = r[1]!;
  let lo = (r[0]! ^ (hi >>> 1)) >>> 0;
  let productLo = Math.imul(lo, PRIME64_2_LO) >>> 0;
  let productHi = (mulHi(lo, PRIME64_2_LO, productLo) + Math.imul(lo, PRIME64_2_HI) + Math.imul(hi, PRIME64_2_LO)) >>> 0;
  // h ^= h >> 29; h *= PRIME64_3
  lo = (productLo ^ ((productLo >>> 29) | (productHi << 3))) >>> 0;
  hi = (productHi ^ (productHi >>> 29)) >>> 0;
  productLo = Math.imul(lo, PRIME64_3_LO) >>> 0;
  productHi = (mulHi(lo, PRIME64_3_LO, productLo) + Math.imul(lo, PRIME64_3_HI) + Math.imul(hi, PRIME64_3_LO)) >>> 0;
  // h ^= h >> 32
  r[0] = productLo ^ productHi;
  r[1] = productHi;
}

/** XXH3's stronger final mix of `r` for inputs of 4 to 8 bytes ("rrmxmx"). */
function rrmxmx(length: number): void {
  const l = r[0]!;
  const h = r[1]!;
  // h ^= rotl(h, 49) ^ rotl(h, 24); h *= PRIME_MX2
  let lo = (l ^ ((h << 17) | (l >>> 15)) ^ ((l << 24) | (h >>> 8))) >>> 0;
  const hi = (h ^ ((l << 17) | (h >>> 15)) ^ ((h << 24) | (l >>> 8))) >>> 0;
  let productLo = Math.imul(lo, PRIME_MX2_LO) >>> 0;
  let productHi = (mulHi(lo, PRIME_MX2_LO, productLo) + Math.imul(lo, PRIME_MX2_HI) + Math.imul(hi, PRIME_MX2_LO)) >>> 0;
  // h ^= (h >> 35) + length (below 2^32: no carry); h *= PRIME_MX2
  lo = (productLo ^ ((productHi >>> 3) + length)) >>> 0;
  productLo = Math.imul(lo, PRIME_MX2_LO) >>> 0;
  productHi = (mulHi(lo, PRIME_MX2_LO, productLo) + Math.imul(lo, PRIME_MX2_HI) + Math.imul(productHi, PRIME_MX2_LO)) >>> 0;
  // h ^= h >> 28
  r[0] = productLo ^ ((productLo >>> 28) | (productHi << 4));
  r[1] = productHi ^ (productHi >>> 28);
}
