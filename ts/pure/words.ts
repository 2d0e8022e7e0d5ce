/**
 * 64-bit values as pairs of 32-bit halves, the form every hot loop of the pure entry works on:
 * JavaScript has no 64-bit integer arithmetic short of `bigint`, which allocates.
 */

/** Whether the host stores the low half of a 64-bit element first; checked once. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

const LOW_MASK = 0xffff_ffffn;

/**
 * `values` as 32-bit halves: the low half of element `i` at `[2 i]`, the high half at
 * `[2 i + 1]`. On little-endian hosts this is a view of the same memory, so no copy is made.
 */
export function toWords(values: BigUint64Array): Uint32Array {
  return LITTLE_ENDIAN
    ? new Uint32Array(values.buffer, values.byteOffset, values.length * 2)
    : wordsFromBigints(values);
}

/** {@link toWords} by arithmetic, for hosts whose memory layout does not give it for free. */
export function wordsFromBigints(values: BigUint64Array): Uint32Array {
  const words = new Uint32Array(values.length * 2);
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    words[2 * i] = lowWord(value);
    words[2 * i + 1] = highWord(value);
  }
  return words;
}

/**
 * The inverse of {@link toWords} for a freshly allocated `words` (its offset must be a multiple
 * of 8): shares its memory on little-endian hosts.
 */
export function fromWords(words: Uint32Array): BigUint64Array {
  return LITTLE_ENDIAN
    ? new BigUint64Array(words.buffer, words.byteOffset, words.length / 2)
    : bigintsFromWords(words);
}

/** {@link fromWords} by arithmetic, for hosts whose memory layout does not give it for free. */
export function bigintsFromWords(words: Uint32Array): BigUint64Array {
  const values = new BigUint64Array(words.length / 2);
  for (let i = 0; i < values.length; i++) {
    values[i] = toBigint(words[2 * i]!, words[2 * i + 1]!);
  }
  return values;
}

/** The 64-bit value with halves `low` and `high`. */
export function toBigint(low: number, high: number): bigint {
  return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
}

/** The low 32 bits of a 64-bit `value`. */
export function lowWord(value: bigint): number {
  return Number(value & LOW_MASK);
}

/** The high 32 bits of a 64-bit `value`. */
export function highWord(value: bigint): number {
  return Number(value >> 32n);
}
