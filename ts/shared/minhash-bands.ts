/**
 * LSH bands over signatures: the 32-bit key of a band, exact band equality (keys only find
 * candidates; a pair shares a band only if its rows are equal), and the share of equal
 * positions a pair needs to reach a threshold.
 */

/** The key of band `band` (rows `band·rows .. (band + 1)·rows`) of the signature at `at`. */
export function bandKey(signatures: Uint32Array, at: number, band: number, rows: number): number {
  let h = Math.imul(band + 1, 0x9e37_79b1);
  const start = at + band * rows;
  for (let i = start; i < start + rows; i++) {
    h = Math.imul(h ^ signatures[i]!, 0x85eb_ca6b);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 16), 0xc2b2_ae35);
  return (h ^ (h >>> 13)) >>> 0;
}

/** Whether band `band` of the signatures at `x` (in `xs`) and `y` (in `ys`) is equal row for row. */
export function bandEqual(xs: Uint32Array, x: number, ys: Uint32Array, y: number, band: number, rows: number): boolean {
  const offset = band * rows;
  for (let i = offset; i < offset + rows; i++) if (xs[x + i] !== ys[y + i]) return false;
  return true;
}

/** Equal positions of the signatures at `x` and `y`, `k` long. */
export function equalPositions(xs: Uint32Array, x: number, ys: Uint32Array, y: number, k: number): number {
  let equal = 0;
  for (let i = 0; i < k; i++) if (xs[x + i] === ys[y + i]) equal++;
  return equal;
}

/**
 * The fewest equal positions out of `k` whose share reaches `threshold`: an estimate `e / k`
 * "reaches" the threshold when `e ≥ ⌈threshold·k − 1e-9⌉`, so that 0.7 of 10 positions is 7
 * despite binary rounding.
 */
export function minEqual(threshold: number, k: number): number {
  return Math.max(0, Math.ceil(threshold * k - 1e-9));
}

/**
 * The exact Jaccard similarity of two sets given as sorted, distinct `BigUint64Array`s
 * (`features(text, { weighting: 'binary' })`); 1 for two empty sets.
 */
export function exactJaccard(a: BigUint64Array, b: BigUint64Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  const union = a.length + b.length - common;
  return union === 0 ? 1 : common / union;
}

/**
 * Kept documents (by rank) under each band key of their signatures: the candidates of the
 * decisions, so that only kept documents are ever compared and a family of identical documents
 * costs each member one candidate per band. Keys of all bands share one map: a candidate is
 * confirmed band by band, so keys that collide across bands cost a comparison, no error.
 */
export class KeptBands {
  readonly #buckets = new Map<number, number[]>();
  readonly #rows: number;
  /** The band keys of the signature last looked up, kept for `add`. */
  readonly #keys: Uint32Array;

  constructor(bands: number, rows: number) {
    this.#rows = rows;
    this.#keys = new Uint32Array(bands);
  }

  /**
   * Calls `visit(rank)` once for each kept document whose signature (in `of(rank)`) shares a
   * band, row for row, with the one at `at` of `signatures`; `seen` marks the ranks visited for
   * `stamp`.
   */
  candidates(signatures: Uint32Array, at: number, of: (rank: number) => number, seen: Int32Array, stamp: number, visit: (rank: number) => void): void {
    const keys = this.#keys;
    for (let band = 0; band < keys.length; band++) {
      const key = bandKey(signatures, at, band, this.#rows);
      keys[band] = key;
      const bucket = this.#buckets.get(key);
      if (bucket === undefined) continue;
      for (const rank of bucket) {
        if (seen[rank] === stamp || !bandEqual(signatures, at, signatures, of(rank), band, this.#rows)) continue;
        seen[rank] = stamp;
        visit(rank);
      }
    }
  }

  /** Files the kept document `rank` under the band keys of the signature `candidates` last looked up. */
  addLast(rank: number): void {
    for (const key of this.#keys) {
      const bucket = this.#buckets.get(key);
      if (bucket === undefined) this.#buckets.set(key, [rank]);
      else if (bucket[bucket.length - 1] !== rank) bucket.push(rank);
    }
  }
}
