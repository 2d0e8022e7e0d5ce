/**
 * HashArray and memory: allocate, fill through `.view`, pass to every function, release with
 * `free()` (idempotent) or `Symbol.dispose`; views and results stay right after the storage grows;
 * calls never modify their inputs; inputs that are views into a larger buffer are read at their
 * offset; allocating and freeing many times does not exhaust memory.
 */
import { describe, expect, it } from 'vitest';
import type { Api, LoadApi } from '../api.js';
import * as oracle from '../oracle.js';
import { SplitMix64, U64_MAX, flipBits } from '../oracle.js';
import type { HashArray } from '../../ts/shared/types.js';
import { expectSamePairs, plainPairs, useApi } from './helpers.js';

function randomValues(n: number, seed: bigint): bigint[] {
  const rng = new SplitMix64(seed);
  const out: bigint[] = [];
  while (out.length < n) {
    const v = rng.next();
    out.push(v);
    // Keep some near-duplicates so findAll has work to do.
    if (out.length < n && rng.below(3) === 0) out.push(flipBits(v, rng.below(4), rng));
  }
  return out;
}

function filled(api: Api, values: readonly bigint[]): HashArray {
  const array = api.allocHashArray(values.length);
  array.view.set(values);
  return array;
}

/** Every function that reads a list, applied to `input` (as the caller would), with plain results. */
function everyResult(api: Api, input: Parameters<Api['compute']>[0], n: number, query: bigint) {
  const offsets = Uint32Array.of(0, Math.floor(n / 3), Math.floor(n / 2), n);
  const weights = Float64Array.from({ length: n }, (_, i) => (i % 5) + 0.5);
  return {
    compute: api.compute(input),
    computeWeighted: api.computeWeighted(input, weights),
    computeMany: Array.from(api.computeMany(input, offsets)),
    computeManyWeighted: Array.from(api.computeManyWeighted(input, weights, offsets)),
    hammingDistances: Array.from(api.hammingDistances(query, input)),
    findAll: plainPairs(api.findAll(input, { distance: 3 })),
    findAllBlocks: plainPairs(api.findAll(input, { distance: 3, blocks: 5 })),
  };
}

export function describeHashArraySuite(name: string, load: LoadApi): void {
  describe(`${name}: HashArray and memory`, () => {
    const api = useApi(load);

    it('allocHashArray(n) has length n and a BigUint64Array view of n elements', () => {
      for (const n of [0, 1, 2, 7, 1000, 65_537]) {
        const array = api().allocHashArray(n);
        try {
          expect(array.length).toBe(n);
          expect(array.freed).toBe(false);
          expect(array.view).toBeInstanceOf(BigUint64Array);
          expect(array.view.length).toBe(n);
        } finally {
          array.free();
        }
      }
    });

    it('values written through .view are read back and used by every function, as from a BigUint64Array', () => {
      const values = randomValues(500, 0x4a5an);
      const array = filled(api(), values);
      try {
        expect(Array.from(array.view)).toEqual(values);
        const fromArray = everyResult(api(), array, values.length, values[0]!);
        const fromTyped = everyResult(api(), BigUint64Array.from(values), values.length, values[0]!);
        const fromList = everyResult(api(), values, values.length, values[0]!);
        expect(fromArray).toEqual(fromTyped);
        expect(fromList).toEqual(fromTyped);
        // And they are right, not only equal.
        expect(fromArray.compute).toBe(oracle.compute(values));
        expectSamePairs(api().findAll(array, { distance: 3 }), oracle.findAll(values, 3));
      } finally {
        array.free();
      }
    });

    it('element-wise writes, and extreme values, survive the round trip', () => {
      const array = api().allocHashArray(4);
      try {
        array.view[0] = 0n;
        array.view[1] = U64_MAX;
        array.view[2] = 1n << 63n;
        array.view[3] = 1n;
        expect(Array.from(array.view)).toEqual([0n, U64_MAX, 1n << 63n, 1n]);
        expect(api().compute(array)).toBe(oracle.compute([0n, U64_MAX, 1n << 63n, 1n]));
        expect(Array.from(api().hammingDistances(0n, array))).toEqual([0, 64, 1, 1]);
      } finally {
        array.free();
      }
    });

    it('free() marks it freed and is idempotent; a freed array is refused with a TypeError', () => {
      const array = filled(api(), [1n, 2n, 3n]);
      array.free();
      expect(array.freed).toBe(true);
      expect(() => array.free()).not.toThrow();
      expect(() => array[Symbol.dispose]()).not.toThrow();
      expect(array.freed).toBe(true);
      expect(() => api().compute(array)).toThrow(TypeError);
      expect(() => api().findAll(array, { distance: 1 })).toThrow(TypeError);
      // The library still works, with a fresh array too.
      const fresh = filled(api(), [1n, 2n, 3n]);
      expect(api().compute(fresh)).toBe(oracle.compute([1n, 2n, 3n]));
      fresh.free();
    });

    it('[Symbol.dispose]() releases like free(), and free() after it is fine', () => {
      const array = filled(api(), [5n, 6n]);
      expect(typeof array[Symbol.dispose]).toBe('function');
      array[Symbol.dispose]();
      expect(array.freed).toBe(true);
      expect(() => array.free()).not.toThrow();
      expect(() => api().compute(array)).toThrow(TypeError);
    });

    it('a using declaration releases on scope exit, also when the body throws', () => {
      let kept: HashArray | undefined;
      {
        using array = filled(api(), [7n, 8n, 9n]);
        kept = array;
        expect(api().compute(array)).toBe(oracle.compute([7n, 8n, 9n]));
        expect(array.freed).toBe(false);
      }
      expect(kept.freed).toBe(true);
      let thrownFrom: HashArray | undefined;
      expect(() => {
        using array = filled(api(), [1n]);
        thrownFrom = array;
        throw new Error('body failed');
      }).toThrow('body failed');
      expect(thrownFrom?.freed).toBe(true);
    });

    it('freeing one array leaves the others intact', () => {
      const a = filled(api(), randomValues(100, 1n));
      const b = filled(api(), randomValues(100, 2n));
      const c = filled(api(), randomValues(100, 3n));
      try {
        b.free();
        const d = filled(api(), randomValues(100, 4n)); // may reuse b's storage
        expect(Array.from(a.view)).toEqual(randomValues(100, 1n));
        expect(Array.from(c.view)).toEqual(randomValues(100, 3n));
        expect(Array.from(d.view)).toEqual(randomValues(100, 4n));
        expect(api().compute(c)).toBe(oracle.compute(randomValues(100, 3n)));
        d.free();
      } finally {
        a.free();
        c.free();
      }
    });

    it('after a large allocation (memory growth) earlier arrays and earlier results still read right', () => {
      const values = randomValues(2000, 0x960e7n);
      const small = filled(api(), values);
      const before = {
        findAll: api().findAll(small, { distance: 3 }),
        many: api().computeMany(small, Uint32Array.of(0, 1000, 2000)),
        distances: api().hammingDistances(values[0]!, small),
      };
      const snapshot = {
        findAll: plainPairs(before.findAll),
        many: Array.from(before.many),
        distances: Array.from(before.distances),
      };
      // 4 Mi elements = 32 MiB: more than an instance starts with, so its memory has to grow.
      const big = api().allocHashArray(4 * 1024 * 1024);
      try {
        big.view.fill(U64_MAX);
        big.view[big.length - 1] = 0n;
        expect(big.view[0]).toBe(U64_MAX);
        expect(Array.from(small.view)).toEqual(values);
        expect(api().compute(small)).toBe(oracle.compute(values));
        expectSamePairs(api().findAll(small, { distance: 3 }), oracle.findAll(values, 3));
        // Results returned before the growth are still intact (they are not views into storage).
        expect(plainPairs(before.findAll)).toEqual(snapshot.findAll);
        expect(Array.from(before.many)).toEqual(snapshot.many);
        expect(Array.from(before.distances)).toEqual(snapshot.distances);
        // The big array itself is usable.
        expect(api().compute(big)).toBe(U64_MAX);
      } finally {
        big.free();
        small.free();
      }
    });

    it('results of later calls do not overwrite earlier results', () => {
      const a = randomValues(300, 11n);
      const b = randomValues(300, 12n);
      const ra = api().findAll(a, { distance: 3 });
      const ma = api().computeMany(a, Uint32Array.of(0, 100, 300));
      const ha = api().hammingDistances(a[0]!, a);
      api().findAll(b, { distance: 3 });
      api().computeMany(b, Uint32Array.of(0, 100, 300));
      api().hammingDistances(b[0]!, b);
      expectSamePairs(ra, oracle.findAll(a, 3));
      expect(Array.from(ma)).toEqual(oracle.computeMany(a, Uint32Array.of(0, 100, 300)));
      expect(Array.from(ha)).toEqual(oracle.hammingDistances(a[0]!, a));
    });

    it('no call modifies its inputs (typed arrays, arrays, HashArrays, weights, offsets)', () => {
      const values = randomValues(400, 0x1d1en).reverse();
      const typed = BigUint64Array.from(values);
      const list = values.slice();
      const array = filled(api(), values);
      try {
        for (const input of [typed, list, array]) {
          everyResult(api(), input, values.length, values[1]!);
          api().findAll(input, { distance: 64 });
          api().findAll(input, { distance: 0, blocks: 64 });
        }
        expect(Array.from(typed)).toEqual(values);
        expect(list).toEqual(values);
        expect(Array.from(array.view)).toEqual(values);
        const weights = Float64Array.from(values, (_, i) => i % 3);
        const offsets = Uint32Array.of(0, 10, 10, 400);
        api().computeManyWeighted(typed, weights, offsets);
        expect(Array.from(weights)).toEqual(values.map((_, i) => i % 3));
        expect(Array.from(offsets)).toEqual([0, 10, 10, 400]);
      } finally {
        array.free();
      }
    });

    it('a BigUint64Array that is a view at an offset into a larger buffer is read at its offset', () => {
      const values = randomValues(300, 0x0ff5e7n);
      const buffer = new ArrayBuffer(8 * (values.length + 7));
      const whole = new BigUint64Array(buffer);
      whole.fill(U64_MAX);
      const view = new BigUint64Array(buffer, 8 * 3, values.length);
      view.set(values);
      const expected = everyResult(api(), values, values.length, values[2]!);
      expect(everyResult(api(), view, values.length, values[2]!)).toEqual(expected);
      expect(everyResult(api(), whole.subarray(3, 3 + values.length), values.length, values[2]!)).toEqual(expected);
    });

    it('allocating and freeing 520 arrays of 8 MiB (4.3 GB in total) does not exhaust memory', () => {
      const n = 1024 * 1024;
      for (let round = 0; round < 520; round++) {
        const array = api().allocHashArray(n);
        array.view[n - 1] = BigInt(round);
        if (round % 130 === 0) expect(api().hammingDistances(0n, array)[n - 1]).toBe(oracle.popcount(BigInt(round)));
        array.free();
      }
      expect(api().compute([1n, 1n, 0n])).toBe(1n);
    });
  });
}
