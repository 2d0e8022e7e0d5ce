import type { BitRange, PermutationLayout, PermutedTableLayout } from './types.js';
import { checkBlocks, checkDistance, checkU64, describe } from './validate.js';

/**
 * The block split and the permuted tables searched for `distance` with `blocks` blocks, laid out
 * as simhash-cpp lays them out (so tables can be compared with it bit for bit).
 *
 * Any two fingerprints within `distance` bits differ in at most `distance` blocks, so they agree
 * on all `blocks - distance` leading blocks of at least one table.
 *
 * @throws {TypeError | RangeError} unless `distance` is an integer in `0..=64` and `blocks` an
 * integer with `distance < blocks <= 64`.
 */
export function permutationLayout(blocks: number, distance: number): PermutationLayout {
  const d = checkDistance(distance, 'distance');
  const b = checkBlocks(blocks, d, 'blocks');
  const blockBitRanges: BitRange[] = [];
  const blockMasks: bigint[] = [];
  for (let i = 0; i < b; i++) {
    const low = Math.floor((64 * i) / b);
    const high = Math.floor((64 * (i + 1)) / b) - 1;
    blockBitRanges.push([low, high]);
    blockMasks.push(((1n << BigInt(high - low + 1)) - 1n) << BigInt(low));
  }
  const tables: PermutedTableLayout[] = [];
  for (const leading of combinations(b, b - d)) {
    const rest: number[] = [];
    for (let i = 0; i < b; i++) if (!leading.includes(i)) rest.push(i);
    let prefixBits = 0;
    for (const i of leading) prefixBits += blockWidth(blockBitRanges[i]!);
    const searchMask = prefixBits === 0 ? 0n : ((1n << BigInt(prefixBits)) - 1n) << BigInt(64 - prefixBits);
    tables.push({ order: [...leading, ...rest], prefixBits, searchMask });
  }
  return { blocks: b, distance: d, blockBitRanges, blockMasks, tables };
}

/**
 * `value` with its blocks rearranged as table `table` of `layout` orders them: block
 * `order[0]` in the most significant bits, then `order[1]`, and so on.
 *
 * @throws {RangeError} if `table` is not an index into `layout.tables`.
 */
export function permute(value: bigint, layout: PermutationLayout, table: number): bigint {
  checkU64(value, 'value');
  const tables = (layout as { tables?: unknown } | null | undefined)?.tables;
  if (!Array.isArray(tables) || !Array.isArray((layout as { blockBitRanges?: unknown }).blockBitRanges)) {
    throw new TypeError(`layout must be a PermutationLayout made by permutationLayout(), got ${describe(layout)}`);
  }
  const entry = layout.tables[table];
  if (!Number.isInteger(table) || entry === undefined) {
    throw new RangeError(`table must be an integer in 0..${layout.tables.length - 1}, got ${table}`);
  }
  let result = 0n;
  let top = 64;
  for (const block of entry.order) {
    const range = layout.blockBitRanges[block]!;
    const width = blockWidth(range);
    top -= width;
    const bits = (value >> BigInt(range[0])) & ((1n << BigInt(width)) - 1n);
    result |= bits << BigInt(top);
  }
  return result;
}

function blockWidth(range: BitRange): number {
  return range[1] - range[0] + 1;
}

/** The `k`-subsets of `0..n`, each in increasing order, in lexicographic order. */
function* combinations(n: number, k: number): Generator<number[]> {
  const current = Array.from({ length: k }, (_, i) => i);
  if (k > n) return;
  for (;;) {
    yield current.slice();
    let i = k - 1;
    while (i >= 0 && current[i] === n - k + i) i--;
    if (i < 0) return;
    current[i]!++;
    for (let j = i + 1; j < k; j++) current[j] = current[j - 1]! + 1;
  }
}
