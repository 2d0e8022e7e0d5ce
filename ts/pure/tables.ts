/**
 * What each permuted table of a layout needs over 32-bit halves: how to pack a fingerprint's
 * leading blocks into a key, and the masks that decide whether a pair agrees on them and
 * collides in no earlier table. Shared by the batch scan (findAll, findClusters) and the index.
 */

import type { PermutationLayout } from '../shared/types.js';

/**
 * One table. The key is the table's leading blocks packed together rather than the permuted
 * value's prefix: any key that is equal exactly when the leading blocks agree groups the same
 * candidates, and packing runs of adjacent blocks takes fewer shifts than simhash-cpp's
 * block-by-block permutation.
 */
export interface TableWords {
  /** Width of the key: the table's `prefixBits`. */
  readonly keyBits: number;
  /**
   * Five numbers per piece of the key: source half, shift right, mask, key half, shift left.
   * No piece crosses a half of the source or of the key. Pieces come in key order, so the
   * first piece of each key half is the one at its bottom.
   */
  readonly pieces: Int32Array;
  /** Mask (low, high halves) of the leading blocks' bits. */
  readonly leadingLow: number;
  readonly leadingHigh: number;
  /**
   * Masks (low, high) of the blocks before the last leading block that are not leading. A pair
   * that agrees on all leading blocks collides first in this table, in layout order, iff it
   * differs on each of these (see {@link collidesFirstHere}).
   */
  readonly earlierBlocks: Int32Array;
}

/** The {@link TableWords} of table `table` of `layout`. */
export function tableWords(layout: PermutationLayout, table: number): TableWords {
  const { blocks, distance, blockBitRanges, tables } = layout;
  const leading = tables[table]!.order.slice(0, blocks - distance);
  const pieces: number[] = [];
  let keyBits = 0;
  let leadingLow = 0;
  let leadingHigh = 0;
  // Adjacent leading blocks form one contiguous bit range, moved into the key as a unit.
  for (let r = 0; r < leading.length; ) {
    let s = r + 1;
    while (s < leading.length && leading[s] === leading[s - 1]! + 1) s++;
    const low = blockBitRanges[leading[r]!]![0];
    const high = blockBitRanges[leading[s - 1]!]![1];
    leadingLow |= halfMask(low, high, 0);
    leadingHigh |= halfMask(low, high, 1);
    keyBits = pushPieces(pieces, low, high, keyBits);
    r = s;
  }
  const earlierBlocks: number[] = [];
  for (let block = 0; block < leading[leading.length - 1]!; block++) {
    if (leading.includes(block)) continue;
    const [low, high] = blockBitRanges[block]!;
    earlierBlocks.push(halfMask(low, high, 0), halfMask(low, high, 1));
  }
  return {
    keyBits,
    pieces: Int32Array.from(pieces),
    leadingLow,
    leadingHigh,
    earlierBlocks: Int32Array.from(earlierBlocks),
  };
}

/**
 * Appends to `pieces` (see `TableWords.pieces`) the moves that carry bits `low..=high` of a
 * fingerprint into its key from key bit `keyBits` on; returns the key's width after them.
 */
export function pushPieces(pieces: number[], low: number, high: number, keyBits: number): number {
  for (const [from, to] of splitAt32(low, high)) {
    for (const [keyFrom, keyTo] of splitAt32(keyBits, keyBits + to - from)) {
      const width = keyTo - keyFrom + 1;
      const source = from + keyFrom - keyBits;
      pieces.push(source >> 5, source & 31, 0xffff_ffff >>> (32 - width), keyFrom >> 5, keyFrom & 31);
    }
    keyBits += to - from + 1;
  }
  return keyBits;
}

/** Bit range `[low, high]` of 64 cut where it crosses into the high half. */
function splitAt32(low: number, high: number): [number, number][] {
  return low < 32 && high >= 32 ? [[low, 31], [32, high]] : [[low, high]];
}

/** The bits of `[low, high]` that fall in half `half` (0 low, 1 high), as a 32-bit mask. */
export function halfMask(low: number, high: number, half: number): number {
  const from = Math.max(low, 32 * half);
  const to = Math.min(high, 32 * half + 31);
  if (from > to) return 0;
  return ((0xffff_ffff >>> (31 - (to - from))) << (from - 32 * half)) | 0;
}

/**
 * Writes every fingerprint's key (`words` as 32-bit halves): one tight loop per piece rather
 * than a loop over pieces.
 */
export function computeKeys(words: Uint32Array, pieces: Int32Array, keyLow: Uint32Array, keyHigh: Uint32Array): void {
  const n = keyLow.length;
  for (let k = 0; k < pieces.length; k += 5) {
    const source = pieces[k]!;
    const shift = pieces[k + 1]!;
    const mask = pieces[k + 2]!;
    const key = pieces[k + 3] === 0 ? keyLow : keyHigh;
    const keyShift = pieces[k + 4]!;
    // The piece at the bottom of a key half is the first to write it.
    if (keyShift === 0) {
      for (let p = 0; p < n; p++) key[p] = (words[2 * p + source]! >>> shift) & mask;
    } else {
      for (let p = 0; p < n; p++) key[p] = key[p]! | (((words[2 * p + source]! >>> shift) & mask) << keyShift);
    }
  }
}

/** The low 32 bits of one fingerprint's key (halves `low`, `high`). */
export function keyLowOf(low: number, high: number, pieces: Int32Array): number {
  let key = 0;
  for (let k = 0; k < pieces.length && pieces[k + 3] === 0; k += 5) {
    key |= (((pieces[k] === 0 ? low : high) >>> pieces[k + 1]!) & pieces[k + 2]!) << pieces[k + 4]!;
  }
  return key >>> 0;
}

/** Whether the pair with halves of difference `x` and `y` differs on every earlier block. */
export function collidesFirstHere(x: number, y: number, earlierBlocks: Int32Array): boolean {
  for (let k = 0; k < earlierBlocks.length; k += 2) {
    if (((x & earlierBlocks[k]!) | (y & earlierBlocks[k + 1]!)) === 0) return false;
  }
  return true;
}
