// xorshift32 (Marsaglia 2003), seeded: the same sequence on every machine, for the benchmark's
// inputs and the quality sets' samples and edits.

/**
 * A generator from `seed` (a seed of 0 is taken as 1): `next()` the next 32-bit value, `below(n)`
 * one in `0 .. n - 1`.
 *
 * @param {number} seed
 */
export function xorshift32(seed) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  return { next, below: (/** @type {number} */ n) => next() % n };
}
