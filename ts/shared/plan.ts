/**
 * The cost model that picks `blocks` when a caller leaves it out, after Manku, Jain and Das
 * Sarma (2007, section 3.1.1): a layout of `blocks` blocks has C(blocks, distance) tables, the
 * table whose leading blocks total p bits is probed by about n / 2^p fingerprints per query,
 * and more tables cost more memory and more probes. Both entries use it, so they make the same
 * choice; results never depend on it, only speed and memory do.
 */

import type { PlanTablesOptions, TablePlan } from './types.js';
import { MAX_TABLES, checkBlocks, checkDistance, checkOptions, describe } from './validate.js';

/** Radix digits are at most this many bits (matches the Rust core's sort). */
const RADIX_DIGIT_BITS = 11;

/** Batch search: relative cost of placing one element in a table, and of each radix pass. */
const PLACE_COST = 2;
const PASS_COST = 2;
/** Relative cost of checking one candidate (xor, popcount, compare). */
const VERIFY_COST = 1;
/**
 * Index query: relative cost of probing one table (prefix, directory, bucket and chain head:
 * a few cache misses), in candidate checks. Measured on the WebAssembly index at 1M entries.
 */
const PROBE_COST = 40;

/** Layouts with more tables than this are not considered unless asked for. */
const DEFAULT_MAX_TABLES = { batch: 4096, index: 64 } as const;

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

/** The tables of a layout grouped by prefix width: `count` tables of `prefixBits` bits each. */
interface PrefixGroup {
  readonly prefixBits: number;
  readonly count: number;
}

/**
 * Blocks are `floor(64/b)` or one bit wider (simhash-cpp's split); a table's prefix is the sum
 * of its `blocks - distance` leading blocks, so the tables with j wide leading blocks number
 * C(wide, j) C(narrow, leading - j).
 */
function prefixGroups(blocks: number, distance: number): PrefixGroup[] {
  const narrowBits = Math.floor(64 / blocks);
  const wide = 64 - narrowBits * blocks;
  const narrow = blocks - wide;
  const leading = blocks - distance;
  const groups: PrefixGroup[] = [];
  for (let j = 0; j <= Math.min(wide, leading); j++) {
    const count = binomial(wide, j) * binomial(narrow, leading - j);
    if (count > 0) groups.push({ prefixBits: leading * narrowBits + j, count });
  }
  return groups;
}

/**
 * Bucket bits of an index of n entries (about four entries per bucket), as the Rust core and
 * the pure index size their directories; uncapped here, as it only matters beyond what fits a
 * WebAssembly memory.
 */
export function bucketBits(n: number): number {
  return Math.max(1, Math.floor(Math.log2(Math.max(n, 1))) - 2);
}

/** Bytes an index of n entries holds besides its tables: slots, live bits, the id map. */
function slotBytes(n: number): number {
  const mapEntries = 2 ** Math.ceil(Math.log2(Math.max(8, (n * 4) / 3 + 1)));
  return 12 * n + n / 8 + 8 * mapEntries;
}

/** The plan for one layout (`blocks` 0: none, compare directly). */
function describePlan(n: number, distance: number, use: 'batch' | 'index', blocks: number): TablePlan {
  if (blocks === 0) {
    return {
      blocks: 0,
      tables: 0,
      minPrefixBits: 0,
      maxPrefixBits: 0,
      candidatesPerTable: n,
      candidatesPerQuery: n,
      bytes: use === 'index' ? slotBytes(n) : 16 * n,
      cost: use === 'index' ? n * VERIFY_COST : ((n * (n - 1)) / 2) * VERIFY_COST,
    };
  }
  const groups = prefixGroups(blocks, distance);
  const tables = groups.reduce((sum, g) => sum + g.count, 0);
  const minPrefixBits = groups[0]!.prefixBits;
  const maxPrefixBits = groups[groups.length - 1]!.prefixBits;
  const candidatesPerQuery = groups.reduce((sum, g) => sum + g.count * (n / 2 ** g.prefixBits), 0);
  const shape = {
    blocks,
    tables,
    minPrefixBits,
    maxPrefixBits,
    candidatesPerTable: n / 2 ** minPrefixBits,
    candidatesPerQuery,
  };
  if (use === 'index') {
    // A probe reads a whole directory bucket, which may be wider than the prefix.
    const r = bucketBits(n);
    const scanned = groups.reduce((sum, g) => sum + g.count * (n / 2 ** Math.min(r, g.prefixBits)), 0);
    const buckets = groups.reduce((sum, g) => sum + g.count * 2 ** Math.min(r, g.prefixBits), 0);
    return { ...shape, bytes: tables * 12 * n + 8 * buckets + slotBytes(n), cost: tables * PROBE_COST + scanned * VERIFY_COST };
  }
  const passes = Math.max(1, Math.ceil(minPrefixBits / RADIX_DIGIT_BITS));
  const perTable = n * (PLACE_COST + passes * PASS_COST) + ((n * n) / 2 / 2 ** minPrefixBits) * VERIFY_COST;
  return { ...shape, bytes: 16 * n, cost: tables * perTable };
}

/**
 * A table layout for `options.n` fingerprints searched within `options.distance` bits: the
 * given `blocks` described, or, without it, the cheapest layout by the cost model (or none,
 * `blocks: 0`, when comparing directly is cheaper: always at distance 64, and for small n).
 *
 * `use: 'index'` (the default) plans a {@link SimHashIndex} answering queries; `use: 'batch'`
 * plans `findAll` and `findClusters` over `n` fingerprints. This is what those use when their
 * `blocks` is left out.
 *
 * @example
 * // The paper's worked example: 8B (2^34) fingerprints, 64 bits, k = 3, the 20-table design.
 * planTables({ n: 2 ** 34, distance: 3, blocks: 6 });
 * // { blocks: 6, tables: 20, minPrefixBits: 31, maxPrefixBits: 33, candidatesPerTable: 8, ... }
 * @throws {TypeError | RangeError} for an invalid option.
 */
export function planTables(options: PlanTablesOptions): TablePlan {
  const opts = checkOptions(options);
  const n = checkCount(opts.n, 'n');
  const distance = checkDistance(opts.distance);
  const use = checkUse(opts.use);
  if (opts.blocks !== undefined) return describePlan(n, distance, use, checkBlocks(opts.blocks, distance));
  // A larger cap than the layouts allow can only mean "as many as allowed".
  const maxTables = opts.maxTables === undefined ? DEFAULT_MAX_TABLES[use] : Math.min(checkCount(opts.maxTables, 'maxTables'), MAX_TABLES);
  let best = describePlan(n, distance, use, 0);
  for (let blocks = distance + 1; blocks <= 64; blocks++) {
    if (binomial(blocks, distance) > maxTables) break;
    const plan = describePlan(n, distance, use, blocks);
    if (plan.cost < best.cost) best = plan;
  }
  return best;
}

/**
 * The number of blocks for a batch search over `n` fingerprints at `distance`, or 0 when
 * comparing every pair directly is expected to be cheaper (always at distance 64).
 */
export function chooseBlocks(n: number, distance: number): number {
  return planTables({ n, distance, use: 'batch' }).blocks;
}

/**
 * When an index should change layout: it plans for the size it has whenever that size has
 * doubled or fallen to a quarter since it last planned, and switches when the plan differs.
 * Rebuilding then costs O(n) once per doubling, so additions stay O(1) amortised. Both index
 * implementations follow it, so they hold the same layout at the same size.
 */
export class LayoutPolicy {
  readonly #distance: number;
  #plannedFor = -1;

  /** A policy for an index answering up to `distance` bits. */
  constructor(distance: number) {
    this.#distance = distance;
  }

  /** The blocks planned for size `n` (0: compare directly) when it is time to plan, else `undefined`. */
  due(n: number): number | undefined {
    if (this.#plannedFor >= 0 && n <= 2 * this.#plannedFor && 4 * n >= this.#plannedFor) return undefined;
    this.#plannedFor = n;
    return planTables({ n, distance: this.#distance }).blocks;
  }
}

/** Checks a non-negative integer count (any size a float holds exactly). */
function checkCount(value: unknown, name: string): number {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  return value;
}

/** Checks `use`: `'index'` (the default) or `'batch'`. */
function checkUse(value: unknown): 'batch' | 'index' {
  if (value === undefined || value === 'index' || value === 'batch') return value ?? 'index';
  throw new TypeError(`use must be 'index' or 'batch', got ${describe(value)}`);
}
