/**
 * Steps 7 and 8 of the text fingerprint specification: shingle hashes over the unit hashes,
 * the distinct ones for binary weighting, and the fold into a fingerprint.
 */
import { countSetBits } from './bit-counts.js';
import { fromWords, toWords } from './words.js';
import { type Xxh3Seed, xxh3Hash } from './xxh3.js';

/**
 * Hashes the shingles of `count` unit hashes stored little-endian at `units[8 i]`: shingle `j`
 * is xxh3 of the `size` unit hashes from `j` on, read in place as the `le64` concatenation the
 * specification hashes. Fewer units than `size` make one shingle of them all, none make none.
 * Shingle `j` goes to `out[2 j]` (low half) and `out[2 j + 1]`; returns the number of shingles.
 */
export function hashShingles(
  units: DataView,
  count: number,
  size: number,
  seed: Xxh3Seed,
  out: Uint32Array,
): number {
  if (count === 0) return 0;
  if (count < size) {
    xxh3Hash(units, 0, 8 * count, seed, out, 0);
    return 1;
  }
  const shingles = count - size + 1;
  const bytes = 8 * size;
  for (let j = 0; j < shingles; j++) xxh3Hash(units, 8 * j, 8 * j + bytes, seed, out, 2 * j);
  return shingles;
}

/**
 * Sorts the `count` 64-bit values held as halves in `words` (low half first) ascending and
 * drops repeats, in place; returns how many distinct values are left at the front.
 */
export function sortDistinct(words: Uint32Array, count: number): number {
  const values = fromWords(words.subarray(0, 2 * count));
  values.sort();
  // The same memory as `words` on little-endian hosts, where the compaction below only ever
  // writes at or behind the slot it reads.
  const sorted = toWords(values);
  let distinct = 0;
  for (let i = 0; i < count; i++) {
    const lo = sorted[2 * i]!;
    const hi = sorted[2 * i + 1]!;
    if (distinct === 0 || lo !== words[2 * distinct - 2] || hi !== words[2 * distinct - 1]) {
      words[2 * distinct] = lo;
      words[2 * distinct + 1] = hi;
      distinct++;
    }
  }
  return distinct;
}

/** The hash set of {@link keepDistinct}: slot `s` holds 1 + the position of a kept value, 0 if free. */
let slots = new Int32Array(1024);
/** A set larger than this is let go after use rather than kept for the next text. */
const KEEP_SLOTS = 1 << 22;

/**
 * Keeps the first occurrence of each of the `count` 64-bit values held as halves in `words`
 * (low half first), in place and in order, and returns how many are left at the front. The
 * fold counts bits, so for a fingerprint this serves as well as {@link sortDistinct} without
 * the sort: an open-addressing set, at most half full, indexed by the low bits (the values are
 * hashes).
 */
export function keepDistinct(words: Uint32Array, count: number): number {
  let size = 16;
  while (size < 2 * count) size *= 2;
  if (slots.length < size) slots = new Int32Array(size);
  else slots.fill(0, 0, size);
  const mask = size - 1;
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const lo = words[2 * i]!;
    const hi = words[2 * i + 1]!;
    for (let at = lo & mask; ; at = (at + 1) & mask) {
      const slot = slots[at]!;
      if (slot === 0) {
        slots[at] = kept + 1;
        // kept <= i: the value was read before its place is written.
        words[2 * kept] = lo;
        words[2 * kept + 1] = hi;
        kept++;
        break;
      }
      if (words[2 * slot - 2] === lo && words[2 * slot - 1] === hi) break;
    }
  }
  if (size > KEEP_SLOTS) slots = new Int32Array(1024);
  return kept;
}

/**
 * Writes the SimHash of the `count` hashes in `words` (bit `b` set iff more than half of them
 * have it) to `out[at]` (low half) and `out[at + 1]`. `counts` is scratch of 64 entries.
 */
export function foldShingles(words: Uint32Array, count: number, counts: Int32Array, out: Uint32Array, at: number): void {
  counts.fill(0);
  countSetBits(words, 0, count, 0, counts, 0);
  countSetBits(words, 0, count, 1, counts, 32);
  let low = 0;
  let high = 0;
  for (let b = 0; b < 32; b++) {
    if (2 * counts[b]! > count) low |= 1 << b;
    if (2 * counts[32 + b]! > count) high |= 1 << b;
  }
  out[at] = low;
  out[at + 1] = high;
}
