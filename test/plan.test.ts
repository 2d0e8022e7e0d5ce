/**
 * planTables: the worked example of Manku, Jain and Das Sarma (2007, section 3.1.1), expected
 * candidates that match the layouts' actual prefixes, the choices findAll and the index make
 * with it, and argument errors.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { permutationLayout } from '../ts/shared/layout.js';
import { planTables } from '../ts/shared/plan.js';
import { ENTRIES } from './index-oracle.js';
import { validBlocks } from './suite/arbitraries.js';
import { expectThrows, fcParams } from './suite/helpers.js';

describe('planTables', () => {
  it("reproduces the paper's designs for 8B = 2^34 fingerprints, 64 bits, k = 3", () => {
    const n = 2 ** 34;
    expect(planTables({ n, distance: 3, blocks: 6 })).toMatchObject({ tables: 20, minPrefixBits: 31, maxPrefixBits: 33, candidatesPerTable: 8 });
    expect(planTables({ n, distance: 3, blocks: 5 })).toMatchObject({ tables: 10, minPrefixBits: 25, maxPrefixBits: 26, candidatesPerTable: 512 });
    expect(planTables({ n, distance: 3, blocks: 4 })).toMatchObject({ tables: 4, minPrefixBits: 16, maxPrefixBits: 16, candidatesPerTable: 2 ** 18 });
    // Summed over the tables: 4 × 2 + 12 × 4 + 4 × 8 for the 20-table design.
    expect(planTables({ n, distance: 3, blocks: 6 }).candidatesPerQuery).toBe(88);
    // Left to choose, the cost model settles on the paper's 20-table design.
    expect(planTables({ n, distance: 3 }).blocks).toBe(6);
  });

  it('expects n / 2^p candidates from each table, p its actual prefix width', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.nat(), fc.integer({ min: 0, max: 2 ** 40 }), (distance, pick, n) => {
        const valid = validBlocks(distance, 2000);
        const blocks = valid[pick % valid.length]!;
        const layout = permutationLayout(blocks, distance);
        const widths = layout.tables.map((t) => t.prefixBits);
        const plan = planTables({ n, distance, blocks, use: 'batch' });
        expect(plan.tables).toBe(layout.tables.length);
        expect(plan.minPrefixBits).toBe(Math.min(...widths));
        expect(plan.maxPrefixBits).toBe(Math.max(...widths));
        const expected = widths.reduce((sum, p) => sum + n / 2 ** p, 0);
        expect(plan.candidatesPerQuery).toBeCloseTo(expected, 6);
      }),
      fcParams(601, 200),
    );
  });

  it('compares directly when that is cheaper: small n, and always at distance 64', () => {
    expect(planTables({ n: 10, distance: 3 })).toMatchObject({ blocks: 0, tables: 0, candidatesPerQuery: 10 });
    expect(planTables({ n: 10, distance: 3, use: 'batch' }).blocks).toBe(0);
    expect(planTables({ n: 1e6, distance: 64 }).blocks).toBe(0);
    expect(planTables({ n: 1e6, distance: 3 }).family).not.toBe('direct');
    expect(planTables({ n: 1e6, distance: 6, maxTables: 10 }).tables).toBeLessThanOrEqual(10);
  });

  it('is what an index uses when blocks is left out', async () => {
    for (const [, load] of ENTRIES) {
      const api = await load();
      for (const [n, distance] of [[50, 3], [5000, 3], [20_000, 2], [3000, 6]] as const) {
        const index = new api.SimHashIndex({ distance });
        index.addMany(Uint32Array.from({ length: n }, (_, i) => i), Array.from({ length: n }, (_, i) => BigInt(i) * 0x9e37_79b9_7f4a_7c15n % 2n ** 64n));
        const plan = planTables({ n, distance });
        expect([index.blocks, index.parts]).toEqual([plan.blocks, plan.parts]);
        index.free();
        const fixed = new api.SimHashIndex({ distance, blocks: distance + 2 });
        expect(fixed.blocks).toBe(distance + 2);
        fixed.free();
      }
    }
  });

  it('refuses bad options naming them', () => {
    const loose = planTables as (options: unknown) => unknown;
    expectThrows(() => loose({ n: -1, distance: 3 }), RangeError, 'n');
    expectThrows(() => loose({ n: 1.5, distance: 3 }), RangeError, 'n');
    expectThrows(() => loose({ n: '5', distance: 3 }), TypeError, 'n');
    expectThrows(() => loose({ n: 5, distance: 65 }), RangeError, 'distance');
    expectThrows(() => loose({ n: 5, distance: 3, blocks: 3 }), RangeError, 'blocks');
    expectThrows(() => loose({ n: 5, distance: 3, use: 'stream' }), TypeError, 'use');
    expectThrows(() => loose({ n: 5, distance: 3, maxTables: -2 }), RangeError, 'maxTables');
    expectThrows(() => loose(undefined), TypeError, 'options');
  });
});
