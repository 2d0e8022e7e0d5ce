/**
 * Types shared by the WebAssembly entry (`simhash-wasm`) and the pure TypeScript entry
 * (`simhash-wasm/pure`). Both entries export functions with exactly these signatures and give
 * identical results for identical inputs.
 */

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
   * no table layout can beat it, every pair is compared directly).
   */
  blocks?: number;
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
 * Options of the text functions (`fingerprint`, `fingerprintMany`, `features`); see the README's
 * "Text fingerprints: specification v1" for exactly what each does.
 */
export interface TextOptions {
  /** `'word'`: shingles of tokens; `'char'`: shingles of characters. Default `'word'`. */
  unit?: 'word' | 'char';
  /** Units per shingle, an integer in `1..=64`. Default 3 for `'word'`, 4 for `'char'`. */
  size?: number;
  /** `'tf'`: every shingle occurrence counts; `'binary'`: each distinct one once. Default `'tf'`. */
  weighting?: 'tf' | 'binary';
  /** Apply Unicode NFKC normalisation first. Default `true`. */
  normalize?: boolean;
  /** Lower-case (Unicode default case mapping, no locale) after normalising. Default `true`. */
  lowercase?: boolean;
  /** The xxh3 seed, a bigint in `0..2^64-1`. Default `0n`. */
  seed?: bigint;
}
