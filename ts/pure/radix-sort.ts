/**
 * Stable least-significant-digit radix sort of keys of up to 64 bits, carrying each key's
 * position: the sort behind each permuted table of `findAll`.
 */

/** Widest digit: 2^11 counters (8 KiB) stay in L1 cache. The cost model in plan.ts assumes it. */
const MAX_DIGIT_BITS = 11;

/** Most digits a 64-bit key needs: three per 32-bit half. */
const MAX_DIGITS = 6;

/** Keys in increasing order with the positions they came from; views of a sorter's buffers. */
export interface SortedKeys {
  /** Where each key was before sorting. */
  readonly positions: Uint32Array;
  /** Low halves of the keys. */
  readonly low: Uint32Array;
  /** High halves of the keys; meaningful only for keys wider than 32 bits. */
  readonly high: Uint32Array;
}

/**
 * Sorts `n` keys at a time, reusing its buffers from one call to the next. Keys move together
 * with their positions, so every pass reads sequentially, and the sorted keys are at hand to
 * find runs of equal keys without going back to the unsorted data.
 */
export class KeySorter {
  /** Low halves of the keys to sort, written by the caller. Sorting overwrites them. */
  readonly low: Uint32Array;
  /**
   * High halves of the keys to sort, for keys wider than 32 bits (empty unless the sorter was
   * made `wide`). Sorting overwrites them.
   */
  readonly high: Uint32Array;
  readonly #positions: Uint32Array;
  readonly #otherLow: Uint32Array;
  readonly #otherHigh: Uint32Array;
  readonly #otherPositions: Uint32Array;
  readonly #counts = new Uint32Array(MAX_DIGITS << MAX_DIGIT_BITS);

  /** Buffers for `n` keys, of up to 64 bits if `wide`, else of up to 32 bits. */
  constructor(n: number, wide: boolean) {
    this.low = new Uint32Array(n);
    this.high = new Uint32Array(wide ? n : 0);
    this.#positions = new Uint32Array(n);
    this.#otherLow = new Uint32Array(n);
    this.#otherHigh = new Uint32Array(wide ? n : 0);
    this.#otherPositions = new Uint32Array(n);
  }

  /**
   * Sorts the keys in {@link low} (and {@link high}), of which the low `keyBits` bits count
   * (at most 32 unless the sorter is wide). Equal keys keep position order. The result stays
   * valid until the next call.
   */
  sort(keyBits: number): SortedKeys {
    const n = this.low.length;
    const wide = keyBits > 32;
    // Digits never straddle the halves, so a digit is one shift and mask of one word; splitting
    // each half into equal digits costs at most one extra pass, when keyBits just exceeds 32.
    const digits: Digit[] = [];
    splitIntoDigits(0, Math.min(keyBits, 32), digits);
    splitIntoDigits(1, keyBits - 32, digits);
    const counts = this.#counts;
    counts.fill(0);
    for (let d = 0; d < digits.length; d++) {
      const { half, shift, mask } = digits[d]!;
      const key = half === 0 ? this.low : this.high;
      const base = d << MAX_DIGIT_BITS;
      for (let i = 0; i < n; i++) {
        const bucket = base + ((key[i]! >>> shift) & mask);
        counts[bucket] = counts[bucket]! + 1;
      }
    }
    let from: SortedKeys = { positions: this.#positions, low: this.low, high: this.high };
    let to: SortedKeys = { positions: this.#otherPositions, low: this.#otherLow, high: this.#otherHigh };
    for (let i = 0; i < n; i++) from.positions[i] = i;
    for (let d = 0; d < digits.length; d++) {
      const { half, shift, mask } = digits[d]!;
      const base = d << MAX_DIGIT_BITS;
      const key = half === 0 ? from.low : from.high;
      // A digit shared by every key would only copy the keys.
      if (counts[base + ((key[0]! >>> shift) & mask)] === n) continue;
      let sum = 0;
      for (let b = base; b <= base + mask; b++) {
        const c = counts[b]!;
        counts[b] = sum;
        sum += c;
      }
      if (wide) {
        scatterWide(from, to, half, shift, mask, counts, base);
      } else {
        scatterNarrow(from, to, shift, mask, counts, base);
      }
      [from, to] = [to, from];
    }
    return from;
  }
}

/** One radix digit: `(half of the key >>> shift) & mask`. */
interface Digit {
  /** 0 for the low half of the key, 1 for the high half. */
  readonly half: number;
  readonly shift: number;
  readonly mask: number;
}

/** Appends the digits of the low `bits` bits of half `half`, as few and as equal as possible. */
function splitIntoDigits(half: number, bits: number, digits: Digit[]): void {
  if (bits <= 0) return;
  const count = Math.ceil(bits / MAX_DIGIT_BITS);
  for (let i = 0; i < count; i++) {
    const low = Math.floor((bits * i) / count);
    const high = Math.floor((bits * (i + 1)) / count);
    digits.push({ half, shift: low, mask: 0xffff_ffff >>> (32 - (high - low)) });
  }
}

/** One counting-sort pass over keys of at most 32 bits; `counts` holds each bucket's start. */
function scatterNarrow(
  from: SortedKeys,
  to: SortedKeys,
  shift: number,
  mask: number,
  counts: Uint32Array,
  base: number,
): void {
  const { positions, low } = from;
  const toPositions = to.positions;
  const toLow = to.low;
  for (let i = 0; i < positions.length; i++) {
    const key = low[i]!;
    const bucket = base + ((key >>> shift) & mask);
    const at = counts[bucket]!;
    counts[bucket] = at + 1;
    toLow[at] = key;
    toPositions[at] = positions[i]!;
  }
}

/** {@link scatterNarrow} for keys wider than 32 bits, whose digit comes from half `half`. */
function scatterWide(
  from: SortedKeys,
  to: SortedKeys,
  half: number,
  shift: number,
  mask: number,
  counts: Uint32Array,
  base: number,
): void {
  const { positions, low, high } = from;
  const toPositions = to.positions;
  const toLow = to.low;
  const toHigh = to.high;
  const digitKey = half === 0 ? low : high;
  for (let i = 0; i < positions.length; i++) {
    const bucket = base + ((digitKey[i]! >>> shift) & mask);
    const at = counts[bucket]!;
    counts[bucket] = at + 1;
    toLow[at] = low[i]!;
    toHigh[at] = high[i]!;
    toPositions[at] = positions[i]!;
  }
}
