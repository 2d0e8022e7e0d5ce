/** Bit counts of 32- and 64-bit values held as 32-bit halves: the SWAR count. */

/** Number of set bits of a 32-bit value. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x5555_5555;
  x = (x & 0x3333_3333) + ((x >>> 2) & 0x3333_3333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f_0f0f, 0x0101_0101) >>> 24;
}

/**
 * Number of set bits of the 64-bit value with halves `low` and `high`: {@link popcount32} with
 * the halves merged once their per-byte counts fit a byte together (at most 16).
 */
export function popcount64(low: number, high: number): number {
  low -= (low >>> 1) & 0x5555_5555;
  high -= (high >>> 1) & 0x5555_5555;
  low = (low & 0x3333_3333) + ((low >>> 2) & 0x3333_3333);
  high = (high & 0x3333_3333) + ((high >>> 2) & 0x3333_3333);
  const bytes = ((low + (low >>> 4)) & 0x0f0f_0f0f) + ((high + (high >>> 4)) & 0x0f0f_0f0f);
  return Math.imul(bytes, 0x0101_0101) >>> 24;
}
