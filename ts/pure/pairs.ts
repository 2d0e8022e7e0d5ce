import type { PairResult } from '../shared/types.js';
import { tooManyPairs } from '../shared/validate.js';
import { popcount64 } from '../shared/popcount.js';

/** Buckets of at most this many pairs are ordered by insertion, larger ones by the native sort. */
const INSERTION_SORT_MAX = 16;

/**
 * Collects the pairs `findAll` finds, in any order, each exactly once, and turns them into its
 * sorted result. Enforces `maxPairs` as pairs arrive, so an oversized result fails early
 * instead of after exhausting memory.
 */
export class PairCollector {
  readonly #maxPairs: number;
  #left: Uint32Array;
  #right: Uint32Array;
  #count = 0;

  /** An empty collector that throws once more than `maxPairs` pairs are added. */
  constructor(maxPairs: number) {
    this.#maxPairs = maxPairs;
    this.#left = new Uint32Array(Math.min(maxPairs, 1024));
    this.#right = new Uint32Array(this.#left.length);
  }

  /**
   * Records the pair of positions `a` and `b` (in either order).
   *
   * @throws {RangeError} when this pair is one more than `maxPairs`.
   */
  add(a: number, b: number): void {
    if (this.#count === this.#left.length) this.#grow();
    this.#left[this.#count] = a < b ? a : b;
    this.#right[this.#count] = a < b ? b : a;
    this.#count++;
  }

  #grow(): void {
    if (this.#count === this.#maxPairs) throw tooManyPairs(this.#maxPairs);
    const capacity = Math.min(this.#maxPairs, 2 * this.#count);
    const left = new Uint32Array(capacity);
    const right = new Uint32Array(capacity);
    left.set(this.#left);
    right.set(this.#right);
    this.#left = left;
    this.#right = right;
  }

  /**
   * The pairs sorted by `(left, right)`, with the distance of each recomputed from `words` (the
   * fingerprints as 32-bit halves, see `words.ts`), which is cheaper than carrying it through
   * the sort.
   */
  toResult(words: Uint32Array): PairResult {
    const m = this.#count;
    const n = words.length / 2;
    // A counting sort on `left` (every key is below n) puts each left's pairs in one bucket;
    // buckets are then short, except in families of near-duplicates.
    const starts = new Uint32Array(n + 1);
    for (let k = 0; k < m; k++) {
      const l = this.#left[k]! + 1;
      starts[l] = starts[l]! + 1;
    }
    for (let l = 1; l <= n; l++) starts[l] = starts[l]! + starts[l - 1]!;
    const left = new Uint32Array(m);
    const right = new Uint32Array(m);
    const next = starts.slice(0, n);
    for (let k = 0; k < m; k++) {
      const l = this.#left[k]!;
      const at = next[l]!;
      next[l] = at + 1;
      left[at] = l;
      right[at] = this.#right[k]!;
    }
    for (let l = 0; l < n; l++) {
      const start = starts[l]!;
      const end = starts[l + 1]!;
      if (end - start > INSERTION_SORT_MAX) {
        right.subarray(start, end).sort();
      } else if (end - start > 1) {
        insertionSort(right, start, end);
      }
    }
    const distance = new Uint8Array(m);
    for (let k = 0; k < m; k++) {
      const a = 2 * left[k]!;
      const b = 2 * right[k]!;
      distance[k] = popcount64(words[a]! ^ words[b]!, words[a + 1]! ^ words[b + 1]!);
    }
    return { left, right, distance };
  }
}

function insertionSort(values: Uint32Array, start: number, end: number): void {
  for (let i = start + 1; i < end; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= start && values[j]! > v) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = v;
  }
}
