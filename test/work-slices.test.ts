/**
 * Work slices of findAll and findClusters (internal, for the worker pool), in both entries:
 * the slices of one search are disjoint, each sorted, and together make the whole result (for
 * pairs: concatenated and sorted, equal to the all-pairs oracle with no pair twice; for
 * clusters: their labels joined give the oracle's components), for random, adversarial and
 * clustered inputs, automatic and explicit layouts of both filter families (permuted tables,
 * and parts), and slice counts below, at and above the number of units.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as oracle from './oracle.js';
import { clusters as oracleClusters } from './index-oracle.js';
import { distance as distanceArb, materialize, steps, validBlocks } from './suite/arbitraries.js';
import { expectThrows, fcParams, plainPairs } from './suite/helpers.js';
import { planTables } from '../ts/shared/plan.js';
import type { FindAllOptions, FindClustersOptions, PairResult, U64Input } from '../ts/shared/types.js';
import { joinSliceLabels, mergeSlicePairs, type WorkSlice } from '../ts/shared/work-slice.js';
import { init } from '../ts/wasm/loader.js';
import * as wasmFindAll from '../ts/wasm/find-all.js';
import * as wasmClusters from '../ts/wasm/clusters.js';
import * as pureFindAll from '../ts/pure/find-all.js';
import * as pureClusters from '../ts/pure/clusters.js';

interface SliceApi {
  findAllSlice(fingerprints: U64Input, options: FindAllOptions, slice: WorkSlice): PairResult;
  findClustersSlice(fingerprints: U64Input, options: FindClustersOptions, slice: WorkSlice): Uint32Array;
}

const ENTRIES: ReadonlyArray<readonly [string, SliceApi]> = [
  ['wasm', { findAllSlice: wasmFindAll.findAllSlice, findClustersSlice: wasmClusters.findClustersSlice }],
  ['pure', { findAllSlice: pureFindAll.findAllSlice, findClustersSlice: pureClusters.findClustersSlice }],
];

/** Property tests skip layouts with more tables than this. */
const MAX_TABLES = 300;

/** An explicit layout of either family, or none (the planner's). */
type Layout = { blocks?: number; parts?: number };

/** Number of filter units of a search: its tables or parts, or 1 for the direct search. */
function units(n: number, distance: number, layout: Layout): number {
  const plan = planTables({ n, distance, use: 'batch', ...layout });
  return plan.family === 'parts' ? plan.parts : plan.family === 'tables' ? oracle.binomial(plan.blocks, distance) : 1;
}

/** `blocks` as a layout (undefined: the planner's). */
function blocksLayout(blocks: number | undefined): Layout {
  return blocks === undefined ? {} : { blocks };
}

/** Counts to split a search of `tables` units into: few, exactly as many, and more. */
function countsFor(tables: number): number[] {
  return [...new Set([1, 2, 3, Math.max(1, tables - 1), tables, tables + 1, tables + 4])];
}

/** Near-duplicate families around a few bases, with fresh values between them. */
function families(rng: oracle.SplitMix64, n: number, distance: number): bigint[] {
  const bases = Array.from({ length: 6 }, () => rng.next());
  const values: bigint[] = [];
  while (values.length < n) {
    if (rng.below(3) === 0) values.push(rng.next());
    else values.push(oracle.flipBits(bases[rng.below(bases.length)]!, rng.below(distance + 2), rng));
  }
  return values;
}

function checkSlices(api: SliceApi, values: readonly bigint[], distance: number, layout: Layout, count: number): void {
  const input = BigUint64Array.from(values);
  const options = { distance, ...layout };
  const parts: PairResult[] = [];
  const labels: Uint32Array[] = [];
  for (let index = 0; index < count; index++) {
    const part = api.findAllSlice(input, options, { index, count });
    for (let k = 1; k < part.left.length; k++) {
      const before = part.left[k - 1]! < part.left[k]! || (part.left[k - 1] === part.left[k] && part.right[k - 1]! < part.right[k]!);
      expect(before).toBe(true);
    }
    parts.push(part);
    labels.push(api.findClustersSlice(input, options, { index, count }));
  }
  const expected = oracle.findAll(values, distance);
  // Concatenated and sorted: equal to the oracle only if no pair came from two slices.
  const concatenated = parts.flatMap((p) => Array.from(p.left, (l, k) => [l, p.right[k]!, p.distance[k]!] as const));
  concatenated.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  expect(concatenated.map((t) => t[0])).toEqual(expected.left);
  expect(concatenated.map((t) => t[1])).toEqual(expected.right);
  expect(concatenated.map((t) => t[2])).toEqual(expected.distance);
  expect(plainPairs(mergeSlicePairs(parts))).toEqual(expected);
  expect(Array.from(joinSliceLabels(labels))).toEqual(oracleClusters(values, distance));
}

for (const [name, api] of ENTRIES) {
  describe(`${name}: work slices`, () => {
    beforeAll(async () => {
      await init();
    });

    it('make the whole findAll and findClusters result on random and adversarial inputs', () => {
      fc.assert(
        fc.property(distanceArb, steps(50), fc.nat(), fc.nat(), (distance, s, pickBlocks, pickCount) => {
          const values = materialize(s, distance);
          const choices: Array<number | undefined> = [undefined, ...validBlocks(distance, MAX_TABLES)];
          const blocks = choices[pickBlocks % choices.length];
          const counts = countsFor(units(values.length, distance, blocksLayout(blocks)));
          checkSlices(api, values, distance, blocksLayout(blocks), counts[pickCount % counts.length]!);
        }),
        fcParams(1301, 150),
      );
    });

    it('make the whole result with parts, one unit per part, on random and adversarial inputs', () => {
      fc.assert(
        fc.property(distanceArb, steps(50), fc.integer({ min: 1, max: 64 }), fc.nat(), (distance, s, parts, pickCount) => {
          const values = materialize(s, distance);
          const counts = countsFor(parts);
          checkSlices(api, values, distance, { parts }, counts[pickCount % counts.length]!);
        }),
        fcParams(1304, 100),
      );
    });

    it('make the whole result on clustered inputs, for every count up to beyond the tables', () => {
      const rng = new oracle.SplitMix64(1302n);
      const layouts: Array<[number, Layout]> = [
        [3, { blocks: 5 }],
        [3, { blocks: 4 }],
        [1, { blocks: 3 }],
        [6, { blocks: 8 }],
        [10, { blocks: 12 }],
        [3, {}],
        [10, {}],
        [10, { parts: 4 }],
        [16, { parts: 5 }],
        [6, { parts: 3 }],
      ];
      for (const [distance, layout] of layouts) {
        const values = families(rng, 400, distance);
        for (const count of countsFor(units(values.length, distance, layout))) {
          checkSlices(api, values, distance, layout, count);
        }
      }
    });

    it('split the work: with one slice per table, no slice finds every pair', () => {
      const rng = new oracle.SplitMix64(1303n);
      const values = BigUint64Array.from(families(rng, 300, 3));
      const whole = api.findAllSlice(values, { distance: 3, blocks: 5 }, { index: 0, count: 1 }).left.length;
      for (let index = 0; index < 10; index++) {
        expect(api.findAllSlice(values, { distance: 3, blocks: 5 }, { index, count: 10 }).left.length).toBeLessThan(whole);
      }
    });

    it('split the work of a parts search: each of two slices finds some pairs, none finds all', () => {
      const rng = new oracle.SplitMix64(1307n);
      const values = BigUint64Array.from(families(rng, 300, 10));
      const whole = api.findAllSlice(values, { distance: 10, parts: 4 }, { index: 0, count: 1 }).left.length;
      for (let index = 0; index < 2; index++) {
        const found = api.findAllSlice(values, { distance: 10, parts: 4 }, { index, count: 2 }).left.length;
        expect(found).toBeGreaterThan(0);
        expect(found).toBeLessThan(whole);
      }
    });

    it('parts searches of thousands of fingerprints (buckets dealt in groups): the slices make the whole', () => {
      const rng = new oracle.SplitMix64(1311n);
      const values: bigint[] = Array.from({ length: 4500 }, () => rng.next());
      for (let i = 0; i < 300; i++) values.push(oracle.flipBits(values[rng.below(values.length)]!, rng.below(12), rng));
      const input = BigUint64Array.from(values);
      for (const [parts, distance] of [[4, 10], [6, 10], [3, 5]] as const) {
        const options = { distance, parts };
        const whole = api.findAllSlice(input, options, { index: 0, count: 1 });
        const wholeLabels = api.findClustersSlice(input, options, { index: 0, count: 1 });
        for (const count of [2, 3, 16]) {
          const slices = Array.from({ length: count }, (_, index) => ({ index, count }));
          expect(plainPairs(mergeSlicePairs(slices.map((slice) => api.findAllSlice(input, options, slice))))).toEqual(plainPairs(whole));
          expect(joinSliceLabels(slices.map((slice) => api.findClustersSlice(input, options, slice)))).toEqual(wholeLabels);
        }
      }
    });

    it('refuses a slice whose index is not below its count', () => {
      const values = [1n, 2n];
      for (const slice of [{ index: 1, count: 1 }, { index: 0, count: 0 }, { index: -1, count: 2 }, { index: 0.5, count: 2 }]) {
        expectThrows(() => api.findAllSlice(values, { distance: 1 }, slice), RangeError, 'slice');
        expectThrows(() => api.findClustersSlice(values, { distance: 1 }, slice), RangeError, 'slice');
      }
    });
  });
}
