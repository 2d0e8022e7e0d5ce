/**
 * NumPy's legacy `RandomState(seed)` as far as datasketch uses it: the MT19937 generator
 * seeded by `init_genrand`, and `randint` for `uint32` and `uint64` by masked rejection
 * sampling, draw for draw.
 */

const N = 624;
const M = 397;

/** MT19937 (Matsumoto and Nishimura, 1998). */
export class Mt19937 {
  private readonly state = new Uint32Array(N);
  private index = N;

  /** Seeds as NumPy does for an integer seed in 0..2^32 − 1. */
  constructor(seed: number) {
    const mt = this.state;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const previous = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, previous) + i) >>> 0;
    }
  }

  private twist(): void {
    const mt = this.state;
    for (let i = 0; i < N; i++) {
      const y = (mt[i]! & 0x8000_0000) | (mt[(i + 1) % N]! & 0x7fff_ffff);
      mt[i] = mt[(i + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908_b0df : 0);
    }
    this.index = 0;
  }

  /** The next 32-bit output. */
  next32(): number {
    if (this.index >= N) this.twist();
    let y = this.state[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** NumPy's 64-bit draw from MT19937: the first 32-bit output is the high half. */
  next64(): bigint {
    const high = this.next32();
    return (BigInt(high) << 32n) | BigInt(this.next32());
  }

  /** `randint(low, high, dtype=np.uint64)` for a range wider than 2^32 values. */
  randintU64(low: bigint, high: bigint): bigint {
    const range = high - 1n - low;
    let mask = range;
    for (let shift = 1n; shift <= 32n; shift <<= 1n) mask |= mask >> shift;
    for (;;) {
      const value = this.next64() & mask;
      if (value <= range) return low + value;
    }
  }

  /** `randint(low, high, dtype=np.uint32)` for `high − low` in 2..2^32. */
  randintU32(low: number, high: number): number {
    const range = high - 1 - low;
    if (range === 0xffff_ffff) return (low + this.next32()) >>> 0;
    let mask = range;
    for (let shift = 1; shift <= 16; shift <<= 1) mask |= mask >>> shift;
    for (;;) {
      const value = (this.next32() & mask) >>> 0;
      if (value <= range) return (low + value) >>> 0;
    }
  }
}
