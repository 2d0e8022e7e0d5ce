/**
 * The cost model that picks the filter when a caller leaves it out. Two families compete
 * (see docs/simhash.md, "Larger distances: the parts filter"):
 *
 * - permuted tables, after Manku, Jain and Das Sarma (2007, section 3.1.1): a layout of
 *   `blocks` blocks has C(blocks, distance) tables, the table whose leading blocks total p bits
 *   is probed by about n / 2^p fingerprints per query;
 * - multi-index hashing over `parts` parts with generalised-pigeonhole slacks: each searched
 *   part is probed with every key in a Hamming ball around the query's, each probe a bucket
 *   of about n / 2^keyBits fingerprints.
 *
 * Costs count memory, not just operations: a probe (a bucket lookup, or a table's sort in a
 * batch) costs many candidate checks, since candidates are read in order and probes are not.
 * The constants were measured on the WebAssembly build. Both entries use the model, so they
 * make the same choice; results never depend on it, only speed and memory do.
 */

import { PARTS_CODE, checkParts } from './filter.js';
import { PLAN_TABLES_OPTIONS, type PlanTablesOptions, type TablePlan } from './types.js';
import { MAX_TABLES, checkBlocks, checkDistance, checkOptions, describe } from './validate.js';

/** Radix digits are at most this many bits (matches the Rust core's sort). */
const RADIX_DIGIT_BITS = 11;

/** Relative cost of checking one candidate (xor, popcount, compare). */
const VERIFY_COST = 1;
/**
 * Index query: relative costs, in candidate checks, of probing a permuted table (its prefix,
 * a directory entry and a bucket in memory of its own: random reads, cached or not), of
 * probing one key of a part's ball (neighbouring keys' directory entries and buckets share
 * cache lines while the part's directory fits in cache, {@link CACHED_DIRECTORY_BYTES}), and
 * of searching a part at all (its slack, its key, the ball's set-up). Fitted to
 * `node bench/plan-check.mjs` (single queries on the WebAssembly index of 100k and of 1M random
 * fingerprints, every distance 0 to 16, the planner's layout against 2 to 6 parts and the table
 * layouts of up to 64 tables near it, two indexes at a time in both build orders): with them
 * the planner's pick is at most 1.09× the fastest layout's time over those 34 cases, 1.007× on
 * geometric average, where the constants fitted before queries located their buckets in
 * batches (8 per cached key, 400 per part) had come to 1.24× and 1.04×. A missed key is not
 * seen at these sizes: its cost rose from 40 to 64 so that the cheaper parts do not move the
 * picks above 1M to 3 parts with directories of millions of keys, whose probes were measured
 * to miss the cache more than the model counted (docs/performance.md, "Larger distances and
 * scale"); at 30M and d=10 that makes the pick 4 parts instead of 3, not measured.
 */
const TABLE_PROBE_COST = 64;
const PART_PROBE_COST = { cached: 20, missed: 64 } as const;
const PART_COST = 50;
/** Bucket directories up to this size, all tables together, are taken to stay in cache. */
const CACHED_DIRECTORY_BYTES = 2 ** 21;

/** The cost of probing one key of a part, for parts whose directories hold `starts` bucket starts in all. */
function partProbeCost(starts: number): number {
  return 4 * starts <= CACHED_DIRECTORY_BYTES ? PART_PROBE_COST.cached : PART_PROBE_COST.missed;
}

/**
 * Batch search, by the bytes of the fingerprints as members (16 each): relative costs of placing
 * one fingerprint in a table, of each radix pass over it, of a table's permutation, of placing
 * it in a part's buckets (a count, then a scattered write; `widePart` where the part's bucket
 * starts outgrow a core's L2 cache, keys over {@link WIDE_PART_BITS} bits), and of joining a
 * part's bucket with one neighbouring key (the directory, and the neighbour's members, a
 * random read).
 *
 * Up to 2 MiB (131k fingerprints), where all of it stays in cache, the constants fitted first.
 * Above, fitted to `node bench/batch-plan-check.mjs` from 300k to 4M fingerprints at d = 1 to
 * 10, where the scattered writes miss the cache: a table cost 35 to 52 ns per fingerprint, a
 * part two thirds of a table of as many bits (more with keys of 20 bits: at d=2 and d=4, 3
 * parts took 1.2× and 1.6× the time of 4 at 2M), and a probe of 3 parts' keys of 18 to 21 bits
 * (one or two fingerprints each) grew from 14 checks at 300k to 22 at 1M and 50 at 4M. With
 * the first constants throughout, `findAll` picked 84 tables at d=6 and 2M (11.9 s) over 4
 * parts (1.1 s), and 3 parts at d=10 and 4M (70.5 s) over 4 (21.0 s).
 */
const CACHED_BATCH = { place: 2, pass: 2, permute: 0, part: 4, widePart: 4 } as const;
const MISSED_BATCH = { place: 12, pass: 16, permute: 20, part: 44, widePart: 100 } as const;
const BATCH_COSTS = [
  { upTo: 2 ** 21, ...CACHED_BATCH, joinProbe: 8 },
  { upTo: 2 ** 23, ...MISSED_BATCH, joinProbe: 14 },
  { upTo: 2 ** 25, ...MISSED_BATCH, joinProbe: 22 },
  { upTo: Infinity, ...MISSED_BATCH, joinProbe: 50 },
] as const;

/** Part keys wider than this have bucket starts (4 bytes each) beyond 1 MiB. */
const WIDE_PART_BITS = 18;

/** The {@link BATCH_COSTS} of a batch search over n fingerprints. */
function batchCosts(n: number): (typeof BATCH_COSTS)[number] {
  return BATCH_COSTS.find((step) => 16 * n <= step.upTo)!;
}

/** Widest key a part's table is bucketed on (as the Rust core's `MAX_KEY_BITS`). */
const MAX_KEY_BITS = 24;

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
      family: 'direct',
      parts: 0,
      slack: [],
      probesPerQuery: 0,
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
    family: 'tables' as const,
    parts: 0,
    slack: [],
    probesPerQuery: tables,
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
    return { ...shape, bytes: tables * 12 * n + 8 * buckets + slotBytes(n), cost: tables * TABLE_PROBE_COST + scanned * VERIFY_COST };
  }
  const passes = Math.max(1, Math.ceil(minPrefixBits / RADIX_DIGIT_BITS));
  const costs = batchCosts(n);
  const perTable = n * (costs.place + passes * costs.pass + costs.permute) + ((n * n) / 2 / 2 ** minPrefixBits) * VERIFY_COST;
  return { ...shape, bytes: 16 * n, cost: tables * perTable };
}

/** Widths of `parts` parts split as the Rust core splits them (the last ones widest). */
function partWidths(parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor((64 * (i + 1)) / parts) - Math.floor((64 * i) / parts));
}

/**
 * The slack of each of `parts` parts at `distance`: `distance + 1` shared out evenly, the
 * remainder to the last parts. A pair within `distance` differs in fewer than `slack[i]` bits
 * of some part i (else it would differ in at least `distance + 1`).
 */
export function partSlack(parts: number, distance: number): number[] {
  const q = Math.floor((distance + 1) / parts);
  const r = (distance + 1) % parts;
  return Array.from({ length: parts }, (_, i) => q + (i >= parts - r ? 1 : 0));
}

/** Bits a part of `width` bits is bucketed on for n fingerprints (as the Rust core's `key_bits`). */
export function partKeyBits(width: number, n: number): number {
  return Math.min(width, Math.floor(Math.log2(Math.max(n, 2))), MAX_KEY_BITS);
}

/** Keys within `radius` bits of one of `bits` bits. */
export function ballVolume(bits: number, radius: number): number {
  let volume = 0;
  for (let r = 0; r <= Math.min(radius, bits); r++) volume += binomial(bits, r);
  return volume;
}

/** The plan for `parts` parts. */
function describeParts(n: number, distance: number, use: 'batch' | 'index', parts: number): TablePlan {
  const slack = partSlack(parts, distance);
  const widths = partWidths(parts);
  let probes = 0;
  let candidates = 0;
  let minKey = 64;
  let maxKey = 0;
  let directory = 0;
  let joinProbes = 0;
  let searched = 0;
  let wide = 0;
  for (let i = 0; i < parts; i++) {
    if (slack[i] === 0) continue;
    searched++;
    const bits = partKeyBits(widths[i]!, n);
    if (bits > WIDE_PART_BITS) wide++;
    const volume = ballVolume(bits, slack[i]! - 1);
    probes += volume;
    candidates += (n * volume) / 2 ** bits;
    minKey = Math.min(minKey, bits);
    maxKey = Math.max(maxKey, bits);
    directory += 2 ** bits;
    joinProbes += (Math.min(n, 2 ** bits) * volume) / 2;
  }
  const shape = {
    family: 'parts' as const,
    parts,
    slack,
    probesPerQuery: probes,
    blocks: 0,
    tables: searched,
    minPrefixBits: minKey,
    maxPrefixBits: maxKey,
    candidatesPerTable: n / 2 ** minKey,
    candidatesPerQuery: candidates,
  };
  if (use === 'index') {
    return {
      ...shape,
      bytes: searched * 12 * n + 8 * directory + slotBytes(n),
      cost: searched * PART_COST + probes * partProbeCost(directory) + candidates * VERIFY_COST,
    };
  }
  const costs = batchCosts(n);
  const placing = n * ((searched - wide) * costs.part + wide * costs.widePart);
  const cost = placing + directory + joinProbes * costs.joinProbe + (n / 2) * candidates * VERIFY_COST;
  return { ...shape, bytes: 16 * n + 4 * directory / searched, cost };
}

/**
 * A filter for `options.n` fingerprints searched within `options.distance` bits: the given
 * `blocks` or `parts` described, or, without them, the cheapest by the cost model among
 * permuted-table layouts (up to `maxTables` tables), part layouts (1 to `distance + 1` parts,
 * one more for `use: 'batch'`, at most 64) and no filter at all (`family: 'direct'`: always at
 * distance 64, and for small n). `family` limits the choice to one family.
 *
 * `use: 'index'` (the default) plans a {@link SimHashIndex} answering queries; `use: 'batch'`
 * plans `findAll` and `findClusters` over `n` fingerprints. This is what those use when their
 * `blocks` and `parts` are left out.
 *
 * @example
 * // The paper's worked example: 8B (2^34) fingerprints, 64 bits, k = 3, the 20-table design.
 * planTables({ n: 2 ** 34, distance: 3, blocks: 6 });
 * // { family: 'tables', blocks: 6, tables: 20, minPrefixBits: 31, candidatesPerTable: 8, ... }
 * planTables({ n: 1e6, distance: 10 });
 * // { family: 'parts', parts: 4, slack: [2, 3, 3, 3], probesPerQuery: 427, ... }
 * @throws {TypeError | RangeError} for an invalid option.
 */
export function planTables(options: PlanTablesOptions): TablePlan {
  const opts = checkOptions(options, PLAN_TABLES_OPTIONS, 'planTables');
  const n = checkCount(opts.n, 'options.n');
  const distance = checkDistance(opts.distance);
  const use = checkUse(opts.use);
  if (opts.blocks !== undefined && opts.parts !== undefined) {
    throw new TypeError('options.blocks and options.parts choose different filter families: give at most one');
  }
  if (opts.blocks !== undefined) return describePlan(n, distance, use, checkBlocks(opts.blocks, distance));
  if (opts.parts !== undefined) return describeParts(n, distance, use, checkParts(opts.parts));
  const family = checkFamily(opts.family);
  // A larger cap than the layouts allow can only mean "as many as allowed".
  const maxTables = opts.maxTables === undefined ? DEFAULT_MAX_TABLES[use] : Math.min(checkCount(opts.maxTables, 'options.maxTables'), MAX_TABLES);
  let best = describePlan(n, distance, use, 0);
  if (family !== 'parts') {
    for (let blocks = distance + 1; blocks <= 64; blocks++) {
      if (binomial(blocks, distance) > maxTables) break;
      const plan = describePlan(n, distance, use, blocks);
      if (plan.cost < best.cost) best = plan;
    }
  }
  if (family !== 'tables') {
    // A batch search also weighs one part more than the slack can fill: one part is left
    // unsearched and the others are narrower (at d=2 and 2M, 4 parts of 16-bit keys took 0.85×
    // the time of 3 of 20 bits, 0.68× that of 3 tables).
    const mostParts = Math.min(64, distance + (use === 'batch' ? 2 : 1));
    for (let parts = 1; parts <= mostParts; parts++) {
      const plan = describeParts(n, distance, use, parts);
      if (plan.cost < best.cost) best = plan;
    }
  }
  return best;
}

/** The filter code (see `filter.ts`) the planner chooses for `n` fingerprints at `distance`. */
export function chooseFilter(n: number, distance: number, use: 'batch' | 'index'): number {
  const plan = planTables({ n, distance, use });
  return plan.family === 'parts' ? PARTS_CODE + plan.parts : plan.blocks;
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

  /** The filter code planned for size `n` (0: compare directly) when it is time to plan, else `undefined`. */
  due(n: number): number | undefined {
    if (this.#plannedFor >= 0 && n <= 2 * this.#plannedFor && 4 * n >= this.#plannedFor) return undefined;
    this.#plannedFor = n;
    return chooseFilter(n, this.#distance, 'index');
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

/** Checks `family`: `'tables'`, `'parts'` or, by default, either. */
function checkFamily(value: unknown): 'tables' | 'parts' | 'any' {
  if (value === undefined) return 'any';
  if (value === 'tables' || value === 'parts') return value;
  throw new TypeError(`options.family must be 'tables' or 'parts', got ${describe(value)}`);
}

/** Checks `use`: `'index'` (the default) or `'batch'`. */
function checkUse(value: unknown): 'batch' | 'index' {
  if (value === undefined || value === 'index' || value === 'batch') return value ?? 'index';
  throw new TypeError(`options.use must be 'index' or 'batch', got ${describe(value)}`);
}
