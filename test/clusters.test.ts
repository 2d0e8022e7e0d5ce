/**
 * findClusters on both entries: ≡ connected components of the all-pairs oracle on random and
 * adversarial inputs for every distance and many `blocks`, chains that only transitivity
 * joins, a large family of mutual near-duplicates, the edges (n = 0, 1, 2, distance 0 and 64),
 * argument errors, and findAll's maxPairs error pointing here.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as oracle from './index-oracle.js';
import { ENTRIES } from './index-oracle.js';
import { SplitMix64, U64_MAX, flipBits } from './oracle.js';
import { blocksToTry, distance as distanceArb, materialize, steps, u64 } from './suite/arbitraries.js';
import { expectThrows, fcParams, inEveryForm, useApi } from './suite/helpers.js';

/** Property tests skip layouts with more tables than this (valid, just slow). */
const MAX_TABLES = 600;

/** `count` values each `distance` bits from the one before: connected only through the chain. */
function chain(rng: SplitMix64, count: number, distance: number): bigint[] {
  const values = [rng.next()];
  while (values.length < count) values.push(flipBits(values[values.length - 1]!, distance, rng));
  return values;
}

/** Fisher–Yates with `rng`. */
function shuffled<T>(values: readonly T[], rng: SplitMix64): T[] {
  const out = values.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

for (const [name, load] of ENTRIES) {
  describe(`${name}: findClusters`, () => {
    const api = useApi(load);

    it('≡ the oracle on random and adversarial inputs, every distance, automatic and explicit blocks, every input form', () => {
      fc.assert(
        fc.property(distanceArb, steps(40), fc.nat(), (distance, s, pick) => {
          const values = materialize(s, distance);
          const expected = oracle.clusters(values, distance);
          const choices = blocksToTry(distance, MAX_TABLES);
          const blocks = choices[pick % choices.length];
          const options = blocks === undefined ? { distance } : { distance, blocks };
          for (const labels of inEveryForm(api(), values, (input) => api().findClusters(input, options))) {
            expect(labels).toBeInstanceOf(Uint32Array);
            expect(Array.from(labels)).toEqual(expected);
          }
        }),
        fcParams(301, 200),
      );
    });

    it('joins chains whose ends are far apart, and keeps interleaved chains apart', () => {
      const rng = new SplitMix64(302n);
      for (const [distance, blocks] of [[3, 4], [3, 6], [2, 5], [6, 8], [1, undefined]] as const) {
        const values = shuffled([...chain(rng, 60, distance), ...chain(rng, 60, distance), ...chain(rng, 30, distance + 1)], rng);
        const options = blocks === undefined ? { distance } : { distance, blocks };
        expect(Array.from(api().findClusters(values, options))).toEqual(oracle.clusters(values, distance));
      }
    });

    it('a family of 1,500 mutual near-duplicates among 8,000 random fingerprints is one component', () => {
      const rng = new SplitMix64(303n);
      const base = rng.next();
      const values: bigint[] = Array.from({ length: 8000 }, () => rng.next());
      for (let k = 0; k < 1500; k++) values.push(flipBits(base, rng.below(2), rng));
      const mixed = shuffled(values, rng);
      const expected = oracle.clusters(mixed, 3);
      const labels = api().findClusters(mixed, { distance: 3 });
      expect(Array.from(labels)).toEqual(expected);
      const family = new oracle.Model();
      family.set(0, base);
      const first = mixed.findIndex((v) => family.query(v, 1).ids.length > 0);
      expect(labels.filter((label) => label === first).length).toBeGreaterThanOrEqual(1500);
    });

    it('edges: n = 0, 1, 2; equal values at distance 0; everything at distance 64', () => {
      fc.assert(
        fc.property(u64, u64, (x, y) => {
          expect(Array.from(api().findClusters([], { distance: 3 }))).toEqual([]);
          expect(Array.from(api().findClusters([x], { distance: 0 }))).toEqual([0]);
          for (const distance of [0, 1, 3, 63, 64]) {
            expect(Array.from(api().findClusters([x, y], { distance }))).toEqual(oracle.clusters([x, y], distance));
          }
        }),
        fcParams(304, 50),
      );
      const repeated = [5n, 7n, 5n, U64_MAX, 7n, 5n];
      expect(Array.from(api().findClusters(repeated, { distance: 0, blocks: 1 }))).toEqual([0, 1, 0, 3, 1, 0]);
      expect(Array.from(api().findClusters(repeated, { distance: 64 }))).toEqual([0, 0, 0, 0, 0, 0]);
    });

    it('refuses bad arguments with a TypeError or RangeError naming them', () => {
      const call = api().findClusters as (...args: unknown[]) => unknown;
      expectThrows(() => call([1n], { distance: 65 }), RangeError, 'distance');
      expectThrows(() => call([1n], { distance: '3' }), TypeError, 'distance');
      expectThrows(() => call([1n], { distance: 3, blocks: 3 }), RangeError, 'blocks');
      expectThrows(() => call([1n], { distance: 3, blocks: 4.5 }), RangeError, 'blocks');
      expectThrows(() => call([1n], null), TypeError, 'options');
      expectThrows(() => call('abc', { distance: 3 }), TypeError, 'fingerprints');
      expectThrows(() => call([1n, -1n], { distance: 3 }), RangeError, 'fingerprints[1]');
      // Still working afterwards.
      expect(Array.from(api().findClusters([1n, 3n], { distance: 1 }))).toEqual([0, 0]);
    });

    it("findAll's maxPairs error points to findClusters", () => {
      const family = new BigUint64Array(300).fill(12345n);
      expect(() => api().findAll(family, { distance: 3, maxPairs: 1000 })).toThrow(/findClusters/);
      expect(new Set(api().findClusters(family, { distance: 3 }))).toEqual(new Set([0]));
    });
  });
}
