/// <reference lib="esnext.disposable" preserve="true" />
/**
 * Types shared by the WebAssembly entry (`simhash-wasm`) and the pure TypeScript entry
 * (`simhash-wasm/pure`). Both entries export functions with exactly these signatures and give
 * identical results for identical inputs.
 */

import { optionKeys } from './validate.js';

/**
 * A fixed-length array of unsigned 64-bit values owned by one implementation.
 *
 * From the WebAssembly entry it lives inside the instance's linear memory, so passing it to
 * `compute`, `computeMany`, `hammingDistances` or `findAll` costs no copy. From the pure entry it
 * wraps an ordinary `BigUint64Array`. Either way, code written against it runs unchanged on both.
 *
 * Release it with {@link HashArray.free} (or a `using` declaration); a `FinalizationRegistry`
 * frees it if it is garbage-collected first, but only explicit release bounds peak memory.
 */
export interface HashArray {
  /** Number of 64-bit elements. */
  readonly length: number;
  /**
   * A `BigUint64Array` over the storage. Read it again after any call into the library: the
   * getter re-creates the view when the WebAssembly memory has grown, whereas a view kept from
   * before a growth is detached and reads as empty.
   */
  readonly view: BigUint64Array;
  /** `true` once {@link HashArray.free} has run. Using a freed array throws a `TypeError`. */
  readonly freed: boolean;
  /** Releases the storage. Idempotent. */
  free(): void;
  /** Same as {@link HashArray.free}, for `using` declarations. */
  [Symbol.dispose](): void;
}

/** Anything the library accepts as a list of 64-bit hashes or fingerprints. */
export type U64Input = BigUint64Array | readonly bigint[] | HashArray;

/** Anything the library accepts as a list of non-negative finite weights. */
export type WeightInput = Float64Array | readonly number[];

/** Options of `findAll`. */
export interface FindAllOptions {
  /**
   * Largest number of differing bits for a pair to be reported: an integer in `0..=64`.
   * Required: there is no universally right threshold.
   */
  distance: number;
  /**
   * Number of blocks the 64 bits are split into; must satisfy `distance < blocks <= 64`.
   * The result does not depend on it (the search is exact for every valid choice); only the
   * speed does. Default: chosen from the input size and `distance` by a cost model (and, when
   * no table layout can beat it, every pair is compared directly). Giving it forces the
   * permuted-table family.
   */
  blocks?: number;
  /**
   * Searches with multi-index hashing over this many parts (an integer in `1..=64`) instead
   * of permuted tables: the family the planner picks for larger distances (see docs/simhash.md,
   * "Larger distances: the parts filter"). Exclusive with `blocks`; only the speed depends on it. Default:
   * chosen with `blocks` by the cost model.
   */
  parts?: number;
  /**
   * Largest number of pairs to return. When the result would be larger, `findAll` throws a
   * `RangeError` instead of exhausting memory: a family of m mutual near-duplicates alone yields
   * m (m - 1) / 2 pairs. Default: 33,554,432 (2^25).
   */
  maxPairs?: number;
}

/**
 * Every pair of positions whose fingerprints differ in at most `distance` bits, as three
 * parallel arrays of equal length, sorted by `(left, right)`, with `left[k] < right[k]`.
 */
export interface PairResult {
  /** Position of the first fingerprint of each pair. */
  left: Uint32Array;
  /** Position of the second fingerprint of each pair (always greater than `left`). */
  right: Uint32Array;
  /** Number of differing bits of each pair. */
  distance: Uint8Array;
}

/** Bits `[low, high]` (inclusive, bit 0 least significant) covered by one block. */
export type BitRange = readonly [low: number, high: number];

/** One permuted table of a {@link PermutationLayout}. */
export interface PermutedTableLayout {
  /**
   * `order[k]` is the block placed k-th from the top (most significant end) of the permuted
   * value. The first `blocks - distance` entries are the table's leading (search) blocks, in
   * increasing order; the rest follow in increasing order.
   */
  readonly order: readonly number[];
  /** Number of leading bits of the permuted value that two colliding fingerprints share. */
  readonly prefixBits: number;
  /** The top `prefixBits` bits set. */
  readonly searchMask: bigint;
}

/**
 * How the 64 bits are split into blocks and which permuted tables are searched, exactly as
 * simhash-cpp lays them out: block `i` covers bits `floor(64 i / blocks)` to
 * `floor(64 (i + 1) / blocks) - 1`, and there is one table per `(blocks - distance)`-subset of
 * blocks, in lexicographic order of the subsets.
 */
export interface PermutationLayout {
  readonly blocks: number;
  readonly distance: number;
  /** Bit range of each block, block 0 holding the least significant bits. */
  readonly blockBitRanges: readonly BitRange[];
  /** Mask of each block's bits. */
  readonly blockMasks: readonly bigint[];
  /** `C(blocks, distance)` tables, in the order the search visits them. */
  readonly tables: readonly PermutedTableLayout[];
}

/**
 * Options of the text functions (`fingerprint`, `fingerprintMany`, `features`); see docs/specifications.md,
 * "Text fingerprints: specification v1" for exactly what each does.
 */
export interface TextOptions {
  /** `'word'`: shingles of tokens; `'char'`: shingles of characters. Default `'word'`. */
  unit?: 'word' | 'char';
  /** Units per shingle, an integer in `1..=64`. Default 3 for `'word'`, 4 for `'char'`. */
  size?: number;
  /**
   * `'binary'`: each distinct shingle counts once, so the fingerprint follows the shingle set as
   * Jaccard similarity does; `'tf'`: every occurrence counts. Default `'binary'` (see the
   * docs/quality.md for why).
   */
  weighting?: 'tf' | 'binary';
  /** Apply Unicode NFKC normalisation first. Default `true`. */
  normalize?: boolean;
  /** Lower-case (Unicode default case mapping, no locale) after normalising. Default `true`. */
  lowercase?: boolean;
  /** The xxh3 seed, a bigint in `0..2^64-1`. Default `0n`. */
  seed?: bigint;
}

/** Options of `findClusters`. */
export interface FindClustersOptions {
  /** Largest number of differing bits that joins two fingerprints: an integer in `0..=64`. */
  distance: number;
  /**
   * Number of blocks, with `distance < blocks <= 64`; only the speed depends on it. Default:
   * chosen by {@link PlanTablesOptions | planTables} (`use: 'batch'`).
   */
  blocks?: number;
  /**
   * Searches with multi-index hashing over this many parts (an integer in `1..=64`) instead
   * of permuted tables: the family the planner picks for larger distances (see docs/simhash.md,
   * "Larger distances: the parts filter"). Exclusive with `blocks`; only the speed depends on it. Default:
   * chosen with `blocks` by the cost model.
   */
  parts?: number;
}

/** Options of `planTables`. */
export interface PlanTablesOptions {
  /** Number of fingerprints: indexed (`use: 'index'`) or searched (`use: 'batch'`). */
  n: number;
  /** Largest number of differing bits searched for, `0..=64`. */
  distance: number;
  /**
   * `'index'` (default): a `SimHashIndex` answering one query at a time, where each table costs
   * a probe per query and 12 bytes per fingerprint. `'batch'`: `findAll` and `findClusters`,
   * where each table costs a sort of all n fingerprints.
   */
  use?: 'index' | 'batch';
  /** Describe this permuted-table layout (`distance < blocks <= 64`) instead of choosing one. */
  blocks?: number;
  /** Describe this part layout (`1..=64` parts) instead of choosing one. Exclusive with `blocks`. */
  parts?: number;
  /** Choose only among permuted tables (`'tables'`) or only among part layouts (`'parts'`). Default: both. */
  family?: 'tables' | 'parts';
  /**
   * Permuted-table layouts with more tables are not considered. Default 64 for an index, 4096
   * for a batch; no layout has more than 4096 tables.
   */
  maxTables?: number;
}

/**
 * A filter and what the cost model expects of it, for uniformly random fingerprints.
 * `family: 'direct'` means no filter: every pair (batch) or every entry (index) is compared.
 */
export interface TablePlan {
  /**
   * `'tables'`: permuted tables (`blocks`); `'parts'`: multi-index hashing (`parts`);
   * `'direct'`: none.
   */
  readonly family: 'direct' | 'tables' | 'parts';
  /** Number of blocks the 64 bits are split into; 0 unless `family` is `'tables'`. */
  readonly blocks: number;
  /** Number of parts the 64 bits are split into; 0 unless `family` is `'parts'`. */
  readonly parts: number;
  /**
   * Per part: a pair qualifies in part i when it differs there in fewer than `slack[i]` bits,
   * so part i is probed with every key within `slack[i] - 1` bits of the query's (0: never
   * probed). The slacks sum to `distance + 1`. Empty unless `family` is `'parts'`.
   */
  readonly slack: readonly number[];
  /** Tables (permuted tables, or parts with a positive slack) the search visits. */
  readonly tables: number;
  /** Buckets looked up per query: one per table, or each part's Hamming ball of keys. */
  readonly probesPerQuery: number;
  /** Narrowest key (a table's leading-block prefix, or a part's bucket key), in bits. */
  readonly minPrefixBits: number;
  /** Widest key, in bits. */
  readonly maxPrefixBits: number;
  /**
   * Expected fingerprints per bucket in the table with the narrowest key,
   * `n / 2^minPrefixBits`: the paper's "a probe retrieves at most" figure.
   */
  readonly candidatesPerTable: number;
  /** Expected fingerprints in the buckets a query probes, summed over all tables. */
  readonly candidatesPerQuery: number;
  /**
   * Estimated bytes: of the whole index for `use: 'index'`; of the scan's working memory
   * (besides input and output) for `use: 'batch'`.
   */
  readonly bytes: number;
  /**
   * Estimated time in units of one candidate check: per query for an index, for the whole
   * search for a batch. Comparable only between plans of the same `n`, `distance` and `use`.
   */
  readonly cost: number;
}

/** Options of `new SimHashIndex(...)`. */
export interface SimHashIndexOptions {
  /** Largest distance queries may ask for: an integer in `0..=64`. */
  distance: number;
  /**
   * Fixes a permuted-table layout (`distance < blocks <= 64`). Default: planned by `planTables`
   * for the size the index has, and re-planned as it grows or shrinks.
   */
  blocks?: number;
  /**
   * Fixes a multi-index layout of this many parts (`1..=64`); exclusive with `blocks`. Saved
   * indexes with a fixed `parts` use format version 2.
   */
  parts?: number;
}

/** Options of `SimHashIndex.query` and `queryMany`. */
export interface QueryOptions {
  /** Largest number of differing bits, `0..=` the index's distance. Default: the index's. */
  distance?: number;
  /** Most ids returned per query, the nearest first; an integer in `0..2^32-1`. Default: all. */
  limit?: number;
}

/** What a query found, sorted by (distance, id). */
export interface QueryResult {
  /** Ids within the distance. */
  ids: Uint32Array;
  /** Distance of each id from the query. */
  distances: Uint8Array;
}

/**
 * What a batch of queries found: query `q` found `ids[offsets[q] .. offsets[q + 1]]`, sorted by
 * (distance, id), with their `distances` alongside.
 */
export interface QueryManyResult {
  /** One more than the number of queries; `offsets[0]` is 0. */
  offsets: Uint32Array;
  ids: Uint32Array;
  distances: Uint8Array;
}

/**
 * A mutable set of `(id, fingerprint)` entries answering "which ids lie within k bits of this
 * fingerprint?" exactly, for every k up to the index's distance. Ids are integers in
 * `0..2^32-1`; adding an id that is present replaces its fingerprint (as `Map.set` does).
 *
 * The WebAssembly entry keeps it in WebAssembly memory: release it with `free()` (or `using`);
 * a `FinalizationRegistry` frees it if it is garbage-collected first.
 */
/**
 * What `decideMany` found: document q is kept (and was added) when `representative[q]` is its
 * own id; otherwise it duplicates the kept document `representative[q]`, `distance[q]` bits away.
 */
export interface OnlineDecisions {
  readonly representative: Uint32Array;
  readonly distance: Uint8Array;
}

export interface SimHashIndex {
  /** Largest distance queries may ask for. */
  readonly distance: number;
  /** Blocks of the permuted tables now in use; 0 while it compares every entry or uses parts. */
  readonly blocks: number;
  /** Parts of the multi-index layout now in use; 0 while it compares every entry or uses tables. */
  readonly parts: number;
  /** Number of ids. */
  readonly size: number;
  /** `true` once `free()` has run; every other use then throws a `TypeError`. */
  readonly freed: boolean;
  /** Adds `id` with `fingerprint`, replacing the fingerprint `id` had. */
  add(id: number, fingerprint: bigint): void;
  /**
   * Adds `ids[k]` with `fingerprints[k]` for every k, in order (a later duplicate id wins); all
   * or nothing.
   */
  addMany(ids: Uint32Array, fingerprints: U64Input): void;
  /** Removes `id`; `true` if it was present. */
  remove(id: number): boolean;
  /** Whether `id` is present. */
  has(id: number): boolean;
  /** The ids within `options.distance` of `fingerprint`, sorted by (distance, id). */
  query(fingerprint: bigint, options?: QueryOptions): QueryResult;
  /** {@link SimHashIndex.query} for every fingerprint of a batch, in one call. */
  queryMany(fingerprints: U64Input, options?: QueryOptions): QueryManyResult;
  /**
   * The online decision, for an index that holds only kept documents: takes the documents in
   * order, and adds `ids[q]` with `fingerprints[q]` unless the index, or a document of the batch
   * kept before it, lies within `distance` bits; then `representative[q]` names the closest such
   * document (ties to the smaller id) and `distance[q]` its distance, and the document is not
   * added. A document whose own id the index holds within the distance was kept before and stays.
   */
  decideMany(ids: Uint32Array, fingerprints: U64Input): OnlineDecisions;
  /** The index as bytes in the versioned format of docs/specifications.md; load with `SimHashIndex.deserialize`. */
  serialize(): Uint8Array;
  /** Releases the index. Idempotent. */
  free(): void;
  /** Same as {@link SimHashIndex.free}, for `using` declarations. */
  [Symbol.dispose](): void;
}

/** The `SimHashIndex` class of either entry. */
export interface SimHashIndexConstructor {
  /** An empty index. @throws {TypeError | RangeError} for invalid options. */
  new (options: SimHashIndexOptions): SimHashIndex;
  /**
   * The index saved in `bytes` (by either entry).
   *
   * @throws {TypeError} unless `bytes` is a `Uint8Array`; an `IndexFormatError` (a `RangeError`)
   * naming what is wrong with bytes that are not a saved index.
   */
  deserialize(bytes: Uint8Array): SimHashIndex;
  readonly prototype: SimHashIndex;
}

/** The names of {@link FindAllOptions}. */
export const FIND_ALL_OPTIONS = optionKeys<FindAllOptions>({ distance: true, blocks: true, parts: true, maxPairs: true });
/** The names of {@link TextOptions}. */
export const TEXT_OPTIONS = optionKeys<TextOptions>({ unit: true, size: true, weighting: true, normalize: true, lowercase: true, seed: true });
/** The names of {@link FindClustersOptions}. */
export const FIND_CLUSTERS_OPTIONS = optionKeys<FindClustersOptions>({ distance: true, blocks: true, parts: true });
/** The names of {@link PlanTablesOptions}. */
export const PLAN_TABLES_OPTIONS = optionKeys<PlanTablesOptions>({ n: true, distance: true, use: true, blocks: true, parts: true, family: true, maxTables: true });
/** The names of {@link SimHashIndexOptions}. */
export const SIMHASH_INDEX_OPTIONS = optionKeys<SimHashIndexOptions>({ distance: true, blocks: true, parts: true });
/** The names of {@link QueryOptions}. */
export const QUERY_OPTIONS = optionKeys<QueryOptions>({ distance: true, limit: true });
