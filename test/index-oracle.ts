/**
 * Brute-force references for findClusters and SimHashIndex, written from the specification and
 * sharing no code with either entry, and the two entries to run them against.
 */
import type { Api, LoadApi } from './api.js';
import { findAll } from './oracle.js';

/** Both entries, loaded and initialised. */
export const ENTRIES: ReadonlyArray<readonly [name: string, load: LoadApi]> = [
  [
    'wasm',
    async (): Promise<Api> => {
      const m: Api = await import('../ts/index.js');
      await m.init();
      return m;
    },
  ],
  ['pure', async (): Promise<Api> => import('../ts/pure/index.js')],
];

/**
 * For each position, the smallest position of its connected component: every pair within
 * `distance` from the all-pairs oracle, then a breadth-first walk from each position not yet
 * reached, in increasing order (so the walk's start is its component's smallest position).
 */
export function clusters(values: readonly bigint[], distance: number): number[] {
  const pairs = findAll(values, distance);
  const neighbours: number[][] = values.map(() => []);
  for (let k = 0; k < pairs.left.length; k++) {
    neighbours[pairs.left[k]!]!.push(pairs.right[k]!);
    neighbours[pairs.right[k]!]!.push(pairs.left[k]!);
  }
  const labels: number[] = values.map(() => -1);
  for (let start = 0; start < values.length; start++) {
    if (labels[start] !== -1) continue;
    labels[start] = start;
    const queue = [start];
    while (queue.length > 0) {
      for (const next of neighbours[queue.pop()!]!) {
        if (labels[next] === -1) {
          labels[next] = start;
          queue.push(next);
        }
      }
    }
  }
  return labels;
}

/** Set bits of a 32-bit value, one bit at a time through a byte table. */
const BYTE_BITS = Uint8Array.from({ length: 256 }, (_, b) => {
  let count = 0;
  for (let v = b; v !== 0; v >>>= 1) count += v & 1;
  return count;
});

function bits32(v: number): number {
  return BYTE_BITS[v & 0xff]! + BYTE_BITS[(v >>> 8) & 0xff]! + BYTE_BITS[(v >>> 16) & 0xff]! + BYTE_BITS[v >>> 24]!;
}

/**
 * The entries an index should hold, as a map from id to fingerprint kept in 32-bit halves so
 * that brute-force queries over tens of thousands of entries stay fast.
 */
export class Model {
  readonly #entries = new Map<number, readonly [low: number, high: number]>();

  get size(): number {
    return this.#entries.size;
  }

  has(id: number): boolean {
    return this.#entries.has(id);
  }

  set(id: number, value: bigint): void {
    this.#entries.set(id, [Number(value & 0xffff_ffffn), Number(value >> 32n)]);
  }

  delete(id: number): boolean {
    return this.#entries.delete(id);
  }

  /** What a query must return: ids within `distance`, by (distance, id), at most `limit`. */
  query(fingerprint: bigint, distance: number, limit = Infinity): { ids: number[]; distances: number[] } {
    const low = Number(fingerprint & 0xffff_ffffn);
    const high = Number(fingerprint >> 32n);
    const found: Array<[number, number]> = [];
    for (const [id, [l, h]] of this.#entries) {
      const d = bits32((l ^ low) >>> 0) + bits32((h ^ high) >>> 0);
      if (d <= distance) found.push([d, id]);
    }
    found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const kept = found.slice(0, limit);
    return { ids: kept.map(([, id]) => id), distances: kept.map(([d]) => d) };
  }
}

/** A query result as plain arrays, for readable diffs. */
export function plain(result: { ids: Uint32Array; distances: Uint8Array }): { ids: number[]; distances: number[] } {
  return { ids: Array.from(result.ids), distances: Array.from(result.distances) };
}
