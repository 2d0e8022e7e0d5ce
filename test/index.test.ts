/**
 * SimHashIndex on both entries: random sequences of additions (replacing ids often), batch
 * additions, removals and queries checked against a Map and brute force, with sizes that run
 * through merges, layout switches and compaction; query options; the replace semantics;
 * release; argument errors; and the two entries agreeing on every answer and layout.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Api } from './api.js';
import * as oracle from './index-oracle.js';
import { ENTRIES, Model } from './index-oracle.js';
import { SplitMix64, flipBits } from './oracle.js';
import { u64 } from './suite/arbitraries.js';
import { expectThrows, fcParams, useApi, withInput } from './suite/helpers.js';
import type { SimHashIndex, SimHashIndexOptions } from '../ts/shared/types.js';

/** One step of a random session. */
type Op =
  | { kind: 'add'; id: number; near: number; flips: number; seed: number }
  | { kind: 'addMany'; count: number; seed: number }
  | { kind: 'remove'; id: number }
  | { kind: 'query'; near: number; flips: number; seed: number; distance: number; limit: number | undefined };

/** Few distinct ids, so that additions replace and removals hit. */
const ID_RANGE = 400;

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('add' as const), id: fc.nat(ID_RANGE), near: fc.nat(), flips: fc.nat(6), seed: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('addMany' as const), count: fc.nat(300), seed: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.nat(ID_RANGE) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      near: fc.nat(),
      flips: fc.nat(6),
      seed: fc.nat(),
      distance: fc.nat(64),
      limit: fc.option(fc.nat(5), { nil: undefined }),
    }),
  },
);

/** A value near an earlier one (`flips` bits away), or a fresh one when there is none. */
function near(values: readonly bigint[], pick: number, flips: number, seed: number): bigint {
  const rng = new SplitMix64(BigInt(seed));
  if (values.length === 0) return rng.next();
  return flipBits(values[pick % values.length]!, flips, rng);
}

/** Runs `ops` on a fresh index and the model, checking every query and the size as it goes. */
function session(api: Api, options: SimHashIndexOptions, ops: readonly Op[]): SimHashIndex {
  const index = new api.SimHashIndex(options);
  const model = new Model();
  const values: bigint[] = [];
  for (const o of ops) {
    switch (o.kind) {
      case 'add': {
        const value = near(values, o.near, o.flips, o.seed);
        values.push(value);
        index.add(o.id, value);
        model.set(o.id, value);
        break;
      }
      case 'addMany': {
        const rng = new SplitMix64(BigInt(o.seed));
        const ids = Uint32Array.from({ length: o.count }, () => rng.below(ID_RANGE + 1));
        const batch = Array.from({ length: o.count }, (_, k) => near(values, rng.below(1 << 30), k % 5, o.seed + k));
        withInput(api, batch, (['BigUint64Array', 'bigint[]', 'HashArray'] as const)[o.seed % 3]!, (input) => index.addMany(ids, input));
        ids.forEach((id, k) => model.set(id, batch[k]!));
        values.push(...batch);
        break;
      }
      case 'remove':
        expect(index.remove(o.id)).toBe(model.delete(o.id));
        break;
      case 'query': {
        const value = near(values, o.near, o.flips, o.seed);
        const distance = Math.min(o.distance, index.distance);
        const options = o.limit === undefined ? { distance } : { distance, limit: o.limit };
        expect(oracle.plain(index.query(value, options))).toEqual(model.query(value, distance, o.limit));
        break;
      }
    }
    expect(index.size).toBe(model.size);
  }
  for (const id of [0, 1, 7, ID_RANGE]) expect(index.has(id)).toBe(model.has(id));
  return index;
}

for (const [name, load] of ENTRIES) {
  describe(`${name}: SimHashIndex`, () => {
    const api = useApi(load);

    it('≡ a Map and brute force through random additions, replacements, batches, removals and queries', () => {
      const configurations: SimHashIndexOptions[] = [{ distance: 3 }, { distance: 3, blocks: 4 }, { distance: 3, blocks: 7 }, { distance: 0 }, { distance: 1, blocks: 2 }, { distance: 6 }, { distance: 64 }];
      fc.assert(
        fc.property(fc.nat(configurations.length - 1), fc.array(op, { maxLength: 400 }), (c, ops) => {
          session(api(), configurations[c]!, ops).free();
        }),
        fcParams(401, 60),
      );
    });

    it('stays exact while growing to 20,000 entries and shrinking through removals (merges, new layouts, compaction)', () => {
      const rng = new SplitMix64(402n);
      const index = new (api().SimHashIndex)({ distance: 3 });
      const model = new Model();
      const values: bigint[] = [];
      const check = (): void => {
        for (let q = 0; q < 40; q++) {
          const value = near(values, rng.below(1 << 30), rng.below(5), rng.below(1 << 30));
          const distance = rng.below(4);
          expect(oracle.plain(index.query(value, { distance }))).toEqual(model.query(value, distance));
        }
        expect(index.size).toBe(model.size);
      };
      const layouts = new Set<string>();
      for (let id = 0; id < 20_000; id++) {
        const value = near(values, rng.below(1 << 30), rng.below(3) === 0 ? rng.below(4) : 40, rng.below(1 << 30));
        values.push(value);
        index.add(id, value);
        model.set(id, value);
        layouts.add(`${index.blocks} blocks, ${index.parts} parts`);
        if (id % 2500 === 0) check();
      }
      check();
      for (let id = 0; id < 20_000; id++) {
        if (id % 7 === 0) continue;
        index.remove(id);
        model.delete(id);
        if (id % 3001 === 0) check();
      }
      check();
      // Small sizes compare directly; the planner then switched to a filter.
      expect(layouts.has('0 blocks, 0 parts')).toBe(true);
      expect(layouts.size).toBeGreaterThan(1);
      index.free();
    });

    it('queryMany ≡ query for each fingerprint, in every input form, with distance and limit', () => {
      const rng = new SplitMix64(403n);
      const index = new (api().SimHashIndex)({ distance: 4 });
      const values = Array.from({ length: 3000 }, () => rng.next());
      for (let k = 0; k < 600; k++) values.push(flipBits(values[rng.below(values.length)]!, rng.below(6), rng));
      index.addMany(Uint32Array.from(values, (_, k) => k * 3), BigUint64Array.from(values));
      const queries = Array.from({ length: 200 }, () => flipBits(values[rng.below(values.length)]!, rng.below(6), rng));
      for (const options of [undefined, { distance: 2 }, { limit: 1 }, { distance: 4, limit: 3 }, { limit: 0 }]) {
        const result = withInput(api(), queries, (['BigUint64Array', 'bigint[]', 'HashArray'] as const)[rng.below(3)]!, (input) => index.queryMany(input, options));
        expect(result.offsets.length).toBe(queries.length + 1);
        expect(result.offsets[0]).toBe(0);
        queries.forEach((q, k) => {
          const one = index.query(q, options);
          const range = [result.offsets[k]!, result.offsets[k + 1]!] as const;
          expect(Array.from(result.ids.subarray(...range))).toEqual(Array.from(one.ids));
          expect(Array.from(result.distances.subarray(...range))).toEqual(Array.from(one.distances));
        });
      }
      expect(index.queryMany([]).offsets).toEqual(Uint32Array.of(0));
      index.free();
    });

    it('adding an id that is present replaces its fingerprint; addMany keeps the last of repeated ids', () => {
      fc.assert(
        fc.property(u64, u64, u64, (a, b, c) => {
          const index = new (api().SimHashIndex)({ distance: 0 });
          index.add(7, a);
          index.add(7, b);
          expect(index.size).toBe(1);
          expect(Array.from(index.query(b).ids)).toEqual([7]);
          if (a !== b) expect(Array.from(index.query(a).ids)).toEqual([]);
          index.addMany(Uint32Array.of(9, 7, 9), [a, c, b]);
          expect(index.size).toBe(2);
          const model = new Model();
          model.set(7, c);
          model.set(9, b);
          expect(oracle.plain(index.query(b))).toEqual(model.query(b, 0));
          index.free();
        }),
        fcParams(404, 100),
      );
    });

    it('ids span 0..2^32-1; results are sorted by (distance, id); distances up to the index distance', () => {
      const index = new (api().SimHashIndex)({ distance: 64 });
      const ids = [0xffff_ffff, 0, 5, 0x8000_0000];
      const values = [0n, 3n, 0xffff_ffff_ffff_ffffn, 1n];
      ids.forEach((id, k) => index.add(id, values[k]!));
      expect(oracle.plain(index.query(0n))).toEqual({ ids: [0xffff_ffff, 0x8000_0000, 0, 5], distances: [0, 1, 2, 64] });
      expect(oracle.plain(index.query(0n, { distance: 1, limit: 5 }))).toEqual({ ids: [0xffff_ffff, 0x8000_0000], distances: [0, 1] });
      expect(index.has(0xffff_ffff)).toBe(true);
      expect(index.remove(0xffff_ffff)).toBe(true);
      expect(index.remove(0xffff_ffff)).toBe(false);
      expect(index.distance).toBe(64);
      index.free();
    });

    it('free() and Symbol.dispose release it; every later use throws a TypeError', () => {
      const index = new (api().SimHashIndex)({ distance: 3 });
      index.add(1, 1n);
      expect(index.freed).toBe(false);
      index[Symbol.dispose]();
      expect(index.freed).toBe(true);
      index.free();
      for (const use of [() => index.add(2, 2n), () => index.query(1n), () => index.size, () => index.has(1), () => index.remove(1), () => index.serialize(), () => index.queryMany([1n]), () => index.addMany(Uint32Array.of(1), [1n]), () => index.blocks]) {
        expect(use).toThrow(TypeError);
        expect(use).toThrow(/freed/);
      }
    });

    it('refuses bad arguments with a TypeError or RangeError naming them, and keeps working', () => {
      const Index = api().SimHashIndex as unknown as new (options: unknown) => SimHashIndex;
      expectThrows(() => new Index(undefined), TypeError, 'options');
      expectThrows(() => new Index({ distance: 65 }), RangeError, 'distance');
      expectThrows(() => new Index({ distance: 3, blocks: 2 }), RangeError, 'blocks');
      expectThrows(() => new Index({ distance: '3' }), TypeError, 'distance');
      const index = new Index({ distance: 3 });
      const loose = index as unknown as Record<string, (...args: unknown[]) => unknown>;
      expectThrows(() => loose['add']!(-1, 1n), RangeError, 'id');
      expectThrows(() => loose['add']!(2 ** 32, 1n), RangeError, 'id');
      expectThrows(() => loose['add']!(1.5, 1n), RangeError, 'id');
      expectThrows(() => loose['add']!('1', 1n), TypeError, 'id');
      expectThrows(() => loose['add']!(1, 1), TypeError, 'fingerprint');
      expectThrows(() => loose['add']!(1, -1n), RangeError, 'fingerprint');
      expectThrows(() => loose['add']!(1, 2n ** 64n), RangeError, 'fingerprint');
      expectThrows(() => loose['addMany']!([1], [1n]), TypeError, 'ids');
      expectThrows(() => loose['addMany']!(Uint32Array.of(1, 2), [1n]), RangeError, 'fingerprints');
      expectThrows(() => loose['addMany']!(Uint32Array.of(1, 2), [1n, 'x']), TypeError, 'fingerprints[1]');
      expectThrows(() => loose['query']!(1n, { distance: 4 }), RangeError, 'distance');
      expectThrows(() => loose['query']!(1n, { limit: -1 }), RangeError, 'limit');
      expectThrows(() => loose['query']!(1n, { limit: '1' }), TypeError, 'limit');
      expectThrows(() => loose['query']!(1n, 5), TypeError, 'options');
      expectThrows(() => loose['queryMany']!('x'), TypeError, 'fingerprints');
      expectThrows(() => loose['has']!(undefined), TypeError, 'id');
      expectThrows(() => loose['remove']!(-3), RangeError, 'id');
      // Nothing was added by the failed calls.
      expect(index.size).toBe(0);
      index.add(1, 5n);
      expect(Array.from(index.query(4n).ids)).toEqual([1]);
      index.free();
    });
  });
}

describe('both entries agree', () => {
  it('on every answer, the layout and the saved bytes after the same session', async () => {
    const [wasm, pure] = await Promise.all(ENTRIES.map(([, load]) => load()));
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 600 }), fc.constantFrom<SimHashIndexOptions>({ distance: 3 }, { distance: 2, blocks: 5 }), (ops, options) => {
        const a = session(wasm!, options, ops);
        const b = session(pure!, options, ops);
        expect(a.blocks).toBe(b.blocks);
        expect(a.serialize()).toEqual(b.serialize());
        a.free();
        b.free();
      }),
      fcParams(405, 25),
    );
  });
});
