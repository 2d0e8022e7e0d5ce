/**
 * The permuted-table scan that findAll and findClusters share: for each table, sort the
 * fingerprints by their leading blocks and hand every run of equal keys to a visitor, which
 * decides what a run means (pairs, or unions of components).
 */

import { permutationLayout } from '../shared/layout.js';
import { KeySorter } from './radix-sort.js';
import { computeKeys, tableWords, type TableWords } from './tables.js';
import { sliceIncludes, type WorkSlice } from '../shared/work-slice.js';

/** Fingerprints of one run, copied together so that visiting them reads no further. */
export class RunBuffer {
  /** Positions of the run's fingerprints. */
  positions = new Uint32Array(64);
  /** Low halves of the run's fingerprints. */
  low = new Uint32Array(64);
  /** High halves of the run's fingerprints. */
  high = new Uint32Array(64);

  /** Makes room for a run of `length` fingerprints. */
  reserve(length: number): void {
    if (length <= this.positions.length) return;
    const capacity = Math.max(length, 2 * this.positions.length);
    this.positions = new Uint32Array(capacity);
    this.low = new Uint32Array(capacity);
    this.high = new Uint32Array(capacity);
  }
}

/**
 * Called once per run of at least two fingerprints that may lie within the distance of one
 * another: the first `length` entries of `run`, from `table`, or from no table (`null`) when the
 * run is the whole input.
 */
export type RunVisitor = (run: RunBuffer, length: number, table: TableWords | null) => void;

/**
 * Visits the runs of a scan over `words` (fingerprints as 32-bit halves) in the units of
 * `slice`: with `blocks` 0, one run of everything, in position order (a single unit, unit 0);
 * otherwise the runs of equal keys of each table `t` the slice includes. Over the whole search,
 * every pair within `distance` bits shares a run at least once.
 */
export function scanRuns(words: Uint32Array, distance: number, blocks: number, slice: WorkSlice, visit: RunVisitor): void {
  const n = words.length / 2;
  if (n < 2) return;
  const run = new RunBuffer();
  if (blocks === 0) {
    if (!sliceIncludes(slice, 0)) return;
    run.reserve(n);
    for (let p = 0; p < n; p++) {
      run.positions[p] = p;
      run.low[p] = words[2 * p]!;
      run.high[p] = words[2 * p + 1]!;
    }
    visit(run, n, null);
    return;
  }
  const layout = permutationLayout(blocks, distance);
  const wide = layout.tables.some((table) => table.prefixBits > 32);
  const sorter = new KeySorter(n, wide);
  for (let t = slice.index; t < layout.tables.length; t += slice.count) {
    const table = tableWords(layout, t);
    computeKeys(words, table.pieces, sorter.low, sorter.high);
    const { positions: order, low: keyLow, high: keyHigh } = sorter.sort(table.keyBits);
    const wideKeys = table.keyBits > 32;
    let start = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && keyLow[i] === keyLow[start] && (!wideKeys || keyHigh[i] === keyHigh[start])) continue;
      const length = i - start;
      if (length > 1) {
        run.reserve(length);
        const { positions, low, high } = run;
        for (let k = 0; k < length; k++) {
          const p = order[start + k]!;
          positions[k] = p;
          low[k] = words[2 * p]!;
          high[k] = words[2 * p + 1]!;
        }
        visit(run, length, table);
      }
      start = i;
    }
  }
}
