/** SHA-1 (FIPS 180-4), only to reproduce datasketch's token hashes; not for security. */

const w = new Int32Array(80);
const block = new Uint8Array(64);

function compress(state: Int32Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const p = at + 4 * i;
    w[i] = (bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!;
  }
  for (let i = 16; i < 80; i++) {
    const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
    w[i] = (x << 1) | (x >>> 31);
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  for (let i = 0; i < 80; i++) {
    let f: number;
    let k: number;
    if (i < 20) {
      f = (b & c) | (~b & d);
      k = 0x5a82_7999;
    } else if (i < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9_eba1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8f1b_bcdc | 0;
    } else {
      f = b ^ c ^ d;
      k = 0xca62_c1d6 | 0;
    }
    const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
}

const state = new Int32Array(5);

/**
 * The first four bytes of the SHA-1 digest of `bytes[from .. to)`, read little-endian: the
 * 32-bit hash datasketch gives a token.
 */
export function sha1Hash32(bytes: Uint8Array, from: number, to: number): number {
  state[0] = 0x6745_2301;
  state[1] = 0xefcd_ab89 | 0;
  state[2] = 0x98ba_dcfe | 0;
  state[3] = 0x1032_5476;
  state[4] = 0xc3d2_e1f0 | 0;
  const length = to - from;
  let at = from;
  while (to - at >= 64) {
    compress(state, bytes, at);
    at += 64;
  }
  const rest = to - at;
  block.fill(0);
  block.set(bytes.subarray(at, to));
  block[rest] = 0x80;
  if (rest >= 56) {
    compress(state, block, 0);
    block.fill(0);
  }
  // The length in bits, big-endian, in the last 8 bytes (lengths here stay below 2^32 bytes).
  const bits = length * 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  block[56] = high >>> 24;
  block[57] = (high >>> 16) & 0xff;
  block[58] = (high >>> 8) & 0xff;
  block[59] = high & 0xff;
  block[60] = (bits >>> 24) & 0xff;
  block[61] = (bits >>> 16) & 0xff;
  block[62] = (bits >>> 8) & 0xff;
  block[63] = bits & 0xff;
  compress(state, block, 0);
  const first = state[0]!;
  // Digest bytes 0..3 are the first word big-endian; little-endian reading swaps them.
  return (((first & 0xff) << 24) | (((first >>> 8) & 0xff) << 16) | (((first >>> 16) & 0xff) << 8) | (first >>> 24)) >>> 0;
}
