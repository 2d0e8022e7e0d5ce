/**
 * permutationLayout and permute: every reference layout and permuted sample from simhash-cpp,
 * then the properties the search relies on (a bijection on bits, and the pigeonhole guarantee
 * that two values within `distance` bits share the leading blocks of some table).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LoadApi } from '../api.js';
import * as oracle from '../oracle.js';
import { SplitMix64, U64_MAX, binomial, flipBits } from '../oracle.js';
import { loadPermutationCases } from '../vectors.js';
import { u64, validBlocks } from './arbitraries.js';
import { fcParams, useApi } from './helpers.js';

export function describePermutationSuite(name: string, load: LoadApi): void {
  describe(`${name}: permutation layout`, () => {
    const api = useApi(load);

    describe('golden vectors (simhash-cpp Permutation)', () => {
      const vectors = loadPermutationCases();
      it('has the reference cases', () => {
        expect(vectors.length).toBeGreaterThanOrEqual(12);
      });

      for (const c of vectors) {
        it(`blocks=${c.blocks} distance=${c.distance}`, () => {
          const layout = api().permutationLayout(c.blocks, c.distance);
          expect(layout.blocks).toBe(c.blocks);
          expect(layout.distance).toBe(c.distance);
          expect(layout.blockBitRanges.map((r) => [r[0], r[1]])).toEqual(c.blockBitRanges);
          expect(layout.blockMasks).toEqual(c.blockMasks);
          expect(layout.tables.length).toBe(c.permutations.length);
          c.permutations.forEach((p, t) => {
            const table = layout.tables[t]!;
            expect([...table.order], `table ${t} order`).toEqual(p.order);
            expect(table.prefixBits, `table ${t} prefixBits`).toBe(p.searchMaskBits);
            expect(table.searchMask, `table ${t} searchMask`).toBe(p.searchMask);
            c.samples.forEach((sample, i) => {
              expect(api().permute(sample, layout, t), `table ${t} sample ${sample}`).toBe(p.apply[i]);
            });
          });
        });
      }
    });

    describe('layout properties', () => {
      const layouts = fc
        .integer({ min: 1, max: 64 })
        .chain((blocks) => fc.tuple(fc.constant(blocks), fc.integer({ min: 0, max: blocks - 1 })))
        .filter(([blocks, distance]) => binomial(blocks, distance) <= 200);

      it('blocks tile the 64 bits as simhash-cpp splits them; C(blocks, distance) tables in lexicographic order', () => {
        fc.assert(
          fc.property(layouts, ([blocks, distance]) => {
            const layout = api().permutationLayout(blocks, distance);
            expect(layout.blockBitRanges.length).toBe(blocks);
            let union = 0n;
            layout.blockBitRanges.forEach(([low, high], i) => {
              expect(low).toBe(Math.floor((64 * i) / blocks));
              expect(high).toBe(Math.floor((64 * (i + 1)) / blocks) - 1);
              let mask = 0n;
              for (let bit = low; bit <= high; bit++) mask |= 1n << BigInt(bit);
              expect(layout.blockMasks[i]).toBe(mask);
              expect(union & mask).toBe(0n);
              union |= mask;
            });
            expect(union).toBe(U64_MAX);
            expect(layout.tables.length).toBe(binomial(blocks, distance));
            const leadingCount = blocks - distance;
            let previousKey = '';
            for (const table of layout.tables) {
              const leading = table.order.slice(0, leadingCount);
              const rest = table.order.slice(leadingCount);
              expect([...table.order].sort((a, b) => a - b)).toEqual(Array.from({ length: blocks }, (_, i) => i));
              expect(leading).toEqual([...leading].sort((a, b) => a - b));
              expect(rest).toEqual([...rest].sort((a, b) => a - b));
              const width = leading.reduce((sum, b) => sum + layout.blockBitRanges[b]![1] - layout.blockBitRanges[b]![0] + 1, 0);
              expect(table.prefixBits).toBe(width);
              expect(table.searchMask).toBe(width === 0 ? 0n : (U64_MAX >> BigInt(64 - width)) << BigInt(64 - width));
              // Lexicographic order of the leading subsets (fixed-width keys compare as strings).
              const subsetKey = leading.map((b) => String(b).padStart(2, '0')).join(',');
              expect(subsetKey > previousKey).toBe(true);
              previousKey = subsetKey;
            }
          }),
          fcParams(301, 150),
        );
      });

      it('permute moves bits without losing any: popcount kept, xor-linear, injective', () => {
        fc.assert(
          fc.property(layouts, u64, u64, fc.nat(), ([blocks, distance], x, y, pick) => {
            const layout = api().permutationLayout(blocks, distance);
            const t = pick % layout.tables.length;
            const px = api().permute(x, layout, t);
            const py = api().permute(y, layout, t);
            expect(px >= 0n && px <= U64_MAX).toBe(true);
            expect(oracle.popcount(px)).toBe(oracle.popcount(x));
            expect(api().permute(x ^ y, layout, t)).toBe(px ^ py);
            if (x !== y) expect(px).not.toBe(py);
            // The block placed first lands in the top bits.
            const first = layout.tables[t]!.order[0]!;
            const [low, high] = layout.blockBitRanges[first]!;
            const width = BigInt(high - low + 1);
            expect(px >> (64n - width)).toBe((x >> BigInt(low)) & ((1n << width) - 1n));
          }),
          fcParams(302, 300),
        );
      });

      it('two values within distance bits agree under the search mask of at least one table', () => {
        fc.assert(
          fc.property(fc.integer({ min: 0, max: 8 }), u64, fc.nat(), fc.nat(), (distance, x, pick, seed) => {
            const choices = validBlocks(distance, 200);
            const blocks = choices[pick % choices.length]!;
            const layout = api().permutationLayout(blocks, distance);
            const y = flipBits(x, distance, new SplitMix64(BigInt(seed)));
            const agreeing = layout.tables.filter(
              (table, t) => ((api().permute(x, layout, t) ^ api().permute(y, layout, t)) & table.searchMask) === 0n,
            );
            expect(agreeing.length).toBeGreaterThan(0);
          }),
          fcParams(303, 200),
        );
      });
    });
  });
}
