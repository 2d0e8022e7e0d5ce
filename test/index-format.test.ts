/**
 * Saving and loading a SimHashIndex: the byte layout of the README checked byte by byte and
 * against zlib's CRC-32; round trips within and across the two entries (same answers, same
 * bytes); and fuzzing with random and mutated bytes, which must give an IndexFormatError naming
 * the problem (the same in both entries), never a crash, a hang or an index that answers
 * differently from what the bytes say.
 */
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Api } from './api.js';
import * as oracle from './index-oracle.js';
import { ENTRIES, Model } from './index-oracle.js';
import { SplitMix64, flipBits } from './oracle.js';
import { fcParams, useApi } from './suite/helpers.js';
import type { SimHashIndex, SimHashIndexOptions } from '../ts/shared/types.js';

/** An index of `n` entries (near-duplicates included), its ids spread over 0..2^32-1. */
function sample(api: Api, n: number, seed: bigint, options: SimHashIndexOptions = { distance: 3 }): { index: SimHashIndex; model: Model; values: bigint[] } {
  const rng = new SplitMix64(seed);
  const index = new api.SimHashIndex(options);
  const model = new Model();
  const values: bigint[] = [];
  for (let k = 0; k < n; k++) {
    const id = Number(rng.next() >> 32n);
    const value = values.length > 0 && rng.below(3) === 0 ? flipBits(values[rng.below(values.length)]!, rng.below(4), rng) : rng.next();
    values.push(value);
    index.add(id, value);
    model.set(id, value);
  }
  return { index, model, values };
}

/** The answers of `index` to queries near `values` (and far from them) must be `model`'s. */
function expectAnswers(index: SimHashIndex, model: Model, values: readonly bigint[], seed: bigint): void {
  const rng = new SplitMix64(seed);
  expect(index.size).toBe(model.size);
  for (let q = 0; q < 30; q++) {
    const probe = values.length > 0 && q % 3 !== 0 ? flipBits(values[rng.below(values.length)]!, rng.below(5), rng) : rng.next();
    expect(oracle.plain(index.query(probe))).toEqual(model.query(probe, index.distance));
  }
}

/** `bytes` with its checksum recomputed, so that only the fields after it can object. */
function resealed(bytes: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(copy.length - 4, zlibCrc32(copy.subarray(0, copy.length - 4)), true);
  return copy;
}

/** What deserializing `bytes` does: the error's problem and message, or the loaded index's bytes. */
function outcome(api: Api, bytes: Uint8Array): { problem: string; message: string } | { loaded: Uint8Array } {
  try {
    const index = api.SimHashIndex.deserialize(bytes);
    const loaded = index.serialize();
    index.free();
    return { loaded };
  } catch (error) {
    expect(error).toBeInstanceOf(api.IndexFormatError);
    expect(error).toBeInstanceOf(RangeError);
    const e = error as InstanceType<Api['IndexFormatError']>;
    expect(e.message).toMatch(/^bytes /);
    return { problem: e.problem, message: e.message };
  }
}

describe('the byte layout', () => {
  it('is the README table, byte for byte, with zlib’s CRC-32', async () => {
    for (const [, load] of ENTRIES) {
      const api = await load();
      const index = new api.SimHashIndex({ distance: 3, blocks: 5 });
      index.add(0x0102_0304, 0x1112_1314_1516_1718n);
      index.add(7, 0xffff_ffff_ffff_fffen);
      const bytes = index.serialize();
      const expected = [
        ...[0x89, 0x53, 0x48, 0x49, 0x44, 0x58, 0x0d, 0x0a], // magic
        ...[1, 0], // version
        3, // distance
        5, // blocks
        ...[2, 0, 0, 0], // n
        ...[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], // fingerprint of id 7 (smaller id first)
        ...[0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11], // fingerprint of id 0x01020304
        ...[7, 0, 0, 0],
        ...[4, 3, 2, 1],
      ];
      expect(Array.from(bytes.subarray(0, bytes.length - 4))).toEqual(expected);
      const crc = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 4, true);
      expect(crc).toBe(zlibCrc32(bytes.subarray(0, bytes.length - 4)));
      // Planned layouts are saved as 0, so the loading side plans for the size it gets.
      const planned = new api.SimHashIndex({ distance: 2 });
      expect(planned.serialize()[11]).toBe(0);
      expect(planned.serialize().length).toBe(20);
      index.free();
      planned.free();
    }
  });
});

for (const [name, load] of ENTRIES) {
  describe(`${name}: serialize and deserialize`, () => {
    const api = useApi(load);

    it('round-trips within the entry and into the other one: same answers, same bytes, same layout', async () => {
      const others = await Promise.all(ENTRIES.map(([, l]) => l()));
      for (const [n, options] of [[0, { distance: 3 }], [1, { distance: 0 }], [300, { distance: 3 }], [5000, { distance: 3 }], [2000, { distance: 4, blocks: 6 }], [700, { distance: 64 }]] as const) {
        const { index, model, values } = sample(api(), n, BigInt(n) + 501n, options);
        const bytes = index.serialize();
        expect(bytes).toBeInstanceOf(Uint8Array);
        for (const other of others) {
          const loaded = other!.SimHashIndex.deserialize(bytes);
          expect(loaded.distance).toBe(index.distance);
          // A fixed layout is saved and kept; otherwise the loading side plans for the size it
          // gets, which the saving side (planned at its last doubling) need not have.
          const planned = 'blocks' in options ? { family: 'tables', blocks: options.blocks, parts: 0 } : api().planTables({ n, distance: options.distance });
          expect([loaded.blocks, loaded.parts]).toEqual(planned.family === 'direct' ? [0, 0] : [planned.blocks, planned.parts]);
          expectAnswers(loaded, model, values, 502n);
          expect(loaded.serialize()).toEqual(bytes);
          // Still a working index: it grows, shrinks and saves again.
          loaded.add(12345, 999n);
          expect(loaded.remove(12345)).toBe(true);
          expect(loaded.serialize()).toEqual(bytes);
          loaded.free();
        }
        index.free();
      }
    });

    it('loads an index saved with a layout of 4,097 to 65,536 tables, as earlier releases wrote, with the planner\'s layout', () => {
      const { index, model, values } = sample(api(), 3000, 505n, { distance: 4 });
      const planned = index.serialize();
      index.free();
      // The same entries as an earlier release saved them, with blocks 20: C(20, 4) = 4,845 tables.
      const legacy = planned.slice();
      legacy[11] = 20;
      const loaded = api().SimHashIndex.deserialize(resealed(legacy));
      expect(loaded.blocks).not.toBe(20);
      expectAnswers(loaded, model, values, 506n);
      expect(loaded.serialize()).toEqual(planned);
      loaded.free();
      // Headers of an empty index naming tens of thousands of tables load at once, no table built.
      for (const [d, b] of [[5, 25], [3, 64], [6, 20]] as const) {
        const empty = planned.slice(0, 20);
        new DataView(empty.buffer).setUint32(12, 0, true);
        empty[10] = d;
        empty[11] = b;
        expect('loaded' in outcome(api(), resealed(empty)), `distance ${d} blocks ${b}`).toBe(true);
      }
    });

    it('writes the same bytes for the same entries, whatever the order and history that led there', () => {
      const a = new (api().SimHashIndex)({ distance: 3 });
      const b = new (api().SimHashIndex)({ distance: 3 });
      for (let id = 0; id < 1000; id++) a.add(id, BigInt(id) * 0x9e37_79b9n);
      for (let id = 1999; id >= 0; id--) b.add(id, BigInt(id) * 0x9e37_79b9n + 1n);
      for (let id = 1999; id >= 1000; id--) b.remove(id);
      b.addMany(Uint32Array.from({ length: 1000 }, (_, id) => id), Array.from({ length: 1000 }, (_, id) => BigInt(id) * 0x9e37_79b9n));
      expect(b.serialize()).toEqual(a.serialize());
      a.free();
      b.free();
    });

    it('refuses foreign, truncated, extended, damaged and inconsistent bytes with a named problem', () => {
      const { index } = sample(api(), 50, 503n);
      const good = index.serialize();
      index.free();
      const problem = (bytes: Uint8Array): string => {
        const result = outcome(api(), bytes);
        if (!('problem' in result)) throw new Error('expected an IndexFormatError');
        return result.problem;
      };
      expect(problem(new Uint8Array(0))).toBe('length');
      expect(problem(new TextEncoder().encode('{"not": "an index"}'))).toBe('magic');
      expect(problem(Uint8Array.of(0x50, 0x4b, 0x03, 0x04))).toBe('magic');
      for (const length of [1, 7, 8, 15, 16, 100, good.length - 1]) expect(problem(good.subarray(0, length))).toBe('length');
      const extended = new Uint8Array(good.length + 1);
      extended.set(good);
      expect(problem(extended)).toBe('length');
      const version = good.slice();
      version[8] = 3;
      expect(problem(version)).toBe('version');
      expect(outcome(api(), version)).toMatchObject({ message: expect.stringMatching(/version 3/) });
      const damaged = good.slice();
      damaged[40] = damaged[40]! ^ 1;
      expect(problem(damaged)).toBe('checksum');
      const distance = good.slice();
      distance[10] = 65;
      expect(problem(resealed(distance))).toBe('header');
      const blocks = good.slice();
      blocks[11] = 2;
      expect(problem(resealed(blocks))).toBe('header');
      // Layouts beyond the 2^16 tables any release wrote, in a header of an empty index: refused
      // before any table is built (they once cost seconds and hundreds of MiB).
      for (const [d, b] of [[10, 64], [8, 30], [7, 40]] as const) {
        const empty = good.slice(0, 20);
        new DataView(empty.buffer).setUint32(12, 0, true);
        empty[10] = d;
        empty[11] = b;
        expect(problem(resealed(empty)), `distance ${d} blocks ${b}`).toBe('header');
      }
      const ids = good.slice();
      ids.copyWithin(16 + 8 * 50 + 4, 16 + 8 * 50, 16 + 8 * 50 + 4);
      expect(problem(resealed(ids))).toBe('ids');
      // A header announcing 2^32 - 1 entries is refused at once, without allocating for them.
      const huge = good.slice(0, 20);
      new DataView(huge.buffer).setUint32(12, 0xffff_ffff, true);
      expect(problem(huge)).toBe('length');
      // Not a Uint8Array at all is a TypeError.
      const loose = api().SimHashIndex.deserialize as (bytes: unknown) => unknown;
      expect(() => loose(good.buffer)).toThrow(TypeError);
      expect(() => loose(Array.from(good))).toThrow(/bytes must be a Uint8Array/);
    });

    it('fuzz: random bytes and mutations of a saved index either fail with an IndexFormatError or load exactly what they say', () => {
      const { index } = sample(api(), 40, 504n);
      const good = index.serialize();
      index.free();
      const mutation = fc.oneof(
        fc.uint8Array({ maxLength: 600 }).map((bytes) => bytes),
        fc.uint8Array({ maxLength: 600 }).map((bytes) => {
          const withMagic = bytes.slice();
          withMagic.set(good.subarray(0, Math.min(withMagic.length, 16)));
          return withMagic;
        }),
        fc.array(fc.record({ at: fc.nat(good.length - 1), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 }).map((edits) => {
          const edited = good.slice();
          for (const { at, value } of edits) edited[at] = value;
          return edited;
        }),
        fc.array(fc.record({ at: fc.nat(good.length - 1), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 }).map((edits) => {
          // Edits behind a valid checksum: only the field checks stand between them and a load.
          const edited = good.slice();
          for (const { at, value } of edits) if (at < good.length - 4) edited[at] = value;
          return resealed(edited);
        }),
        fc.nat(good.length).map((length) => good.slice(0, length)),
        fc.uint8Array({ minLength: 1, maxLength: 40 }).map((tail) => {
          const longer = new Uint8Array(good.length + tail.length);
          longer.set(good);
          longer.set(tail, good.length);
          return longer;
        }),
      );
      fc.assert(
        fc.property(mutation, (bytes) => {
          const result = outcome(api(), bytes);
          if ('loaded' in result) {
            // Only bytes that are a valid index load, and they load as exactly that index.
            expect(result.loaded).toEqual(bytes);
          }
        }),
        fcParams(505, 1500),
      );
    });

    it('both entries name the same problem with the same message', async () => {
      const [wasm, pure] = await Promise.all(ENTRIES.map(([, l]) => l()));
      const { index } = sample(api(), 20, 506n);
      const good = index.serialize();
      index.free();
      fc.assert(
        fc.property(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 }), fc.boolean(), (at, value, reseal) => {
          const edited = good.slice();
          edited[at] = value;
          const bytes = reseal && at < good.length - 4 ? resealed(edited) : edited;
          expect(outcome(wasm!, bytes)).toEqual(outcome(pure!, bytes));
        }),
        fcParams(507, 300),
      );
    });
  });
}
