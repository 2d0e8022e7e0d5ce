/**
 * The cost model that picks `blocks` when a caller leaves it out. Both entries use it, so they
 * make the same choice; the result of `findAll` does not depend on it, only its speed.
 */

/** Tables beyond this many are never considered: their set-up alone would dominate. */
const AUTO_MAX_TABLES = 4096;

/** Radix digits are at most this many bits (matches the Rust core's sort). */
const RADIX_DIGIT_BITS = 11;

/** Relative cost of placing one element in a table: permute and count, plus each radix pass. */
const PLACE_COST = 2;
const PASS_COST = 2;
/** Relative cost of checking one candidate pair (xor, popcount, compare). */
const VERIFY_COST = 1;

/**
 * Number of ways to choose `k` of `n`, as a float (exact up to 2^53).
 */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const m = Math.min(k, n - k);
  let result = 1;
  for (let i = 1; i <= m; i++) result = (result * (n - m + i)) / i;
  return Math.round(result);
}

/**
 * Smallest number of prefix bits over the tables of a layout: the tables whose leading blocks
 * are the narrowest ones. Blocks are `floor(64/b)` or `ceil(64/b)` bits wide.
 */
function minPrefixBits(blocks: number, distance: number): number {
  const narrow = Math.floor(64 / blocks);
  const wideCount = 64 - narrow * blocks;
  const narrowCount = blocks - wideCount;
  const leading = blocks - distance;
  const fromNarrow = Math.min(leading, narrowCount);
  return fromNarrow * narrow + (leading - fromNarrow) * (narrow + 1);
}

/** Estimated cost of comparing every pair directly. */
function directCost(n: number): number {
  return ((n * (n - 1)) / 2) * VERIFY_COST;
}

/** Estimated cost of a search with `blocks` blocks over `n` uniformly random fingerprints. */
export function tableCost(n: number, distance: number, blocks: number): number {
  const tables = binomial(blocks, distance);
  const prefixBits = minPrefixBits(blocks, distance);
  const passes = Math.max(1, Math.ceil(prefixBits / RADIX_DIGIT_BITS));
  const perTable = n * (PLACE_COST + passes * PASS_COST) + ((n * n) / 2 / 2 ** prefixBits) * VERIFY_COST;
  return tables * perTable;
}

/**
 * The number of blocks for `findAll` over `n` fingerprints at `distance`, or 0 when comparing
 * every pair directly is expected to be cheaper than any table layout (always the case at
 * distance 64, where no layout exists).
 */
export function chooseBlocks(n: number, distance: number): number {
  let best = 0;
  let bestCost = directCost(n);
  for (let blocks = distance + 1; blocks <= 64; blocks++) {
    if (binomial(blocks, distance) > AUTO_MAX_TABLES) break;
    const cost = tableCost(n, distance, blocks);
    if (cost < bestCost) {
      best = blocks;
      bestCost = cost;
    }
  }
  return best;
}
