// The WebAssembly entry's memory contract for findClusters, findAll's bound and SimHashIndex:
// memory linear in n on a family of mutual near-duplicates, no leaks over thousands of calls,
// answers right after the memory grows, and a trap costing the index but not the instance.

import { beforeAll, describe, expect, it } from 'vitest';
import * as simhash from '../ts/index.js';
import { wasm, withInstance } from '../ts/wasm/loader.js';
import { SplitMix64, flipBits } from './oracle.js';

function memoryBytes(): number {
  return wasm().memory.buffer.byteLength;
}

function randomValues(n: number, seed: bigint): BigUint64Array {
  const rng = new SplitMix64(seed);
  return BigUint64Array.from({ length: n }, () => rng.next());
}

beforeAll(async () => {
  await simhash.init();
});

// First in the file: the instance is fresh, so memory growth measures these calls alone.
describe('a family of 9,000 mutual near-duplicates (40M pairs) among 100,000 fingerprints', () => {
  const rng = new SplitMix64(701n);
  const base = rng.next();
  const values = randomValues(109_000, 702n);
  for (let k = 100_000; k < values.length; k++) values[k] = flipBits(base, rng.below(2), rng);

  it('findAll fails fast on maxPairs without storing 2^25 pairs', () => {
    const before = memoryBytes();
    expect(() => simhash.findAll(values, { distance: 3 })).toThrow(/findClusters/);
    // Input, keys and at most 2^22 stored pairs (32 MiB, half as much again while the vector
    // doubles); storing every pair up to maxPairs grew the memory by some 540 MB.
    expect(memoryBytes() - before).toBeLessThan(96 * 2 ** 20);
  });

  it('findClusters labels them in memory linear in n', () => {
    const before = memoryBytes();
    const labels = simhash.findClusters(values, { distance: 3 });
    const familyLabel = labels[100_000]!;
    for (let k = 100_000; k < values.length; k++) expect(labels[k]).toBe(familyLabel);
    expect(memoryBytes() - before).toBeLessThan(64 * values.length);
  });
});

describe('leaks', () => {
  it('keeps memory flat over 2,000 rounds of building, querying, saving, loading and freeing indexes', () => {
    const values = randomValues(600, 703n);
    const ids = Uint32Array.from(values, (_, k) => k);
    const garbage = new Uint8Array(100).fill(7);
    const round = (): void => {
      const index = new simhash.SimHashIndex({ distance: 3 });
      index.addMany(ids, values);
      for (let q = 0; q < 20; q++) index.query(values[q]!);
      index.queryMany(values.subarray(0, 50), { limit: 2 });
      for (let k = 0; k < 300; k++) index.remove(k);
      const loaded = simhash.SimHashIndex.deserialize(index.serialize());
      expect(() => simhash.SimHashIndex.deserialize(garbage)).toThrow(simhash.IndexFormatError);
      expect(() => index.query(1n, { distance: 9 })).toThrow(RangeError);
      loaded.free();
      index.free();
      simhash.findClusters(values, { distance: 3 });
    };
    for (let i = 0; i < 100; i++) round();
    const settled = memoryBytes();
    for (let i = 0; i < 2000; i++) round();
    expect(memoryBytes()).toBe(settled);
  });
});

describe('memory growth', () => {
  it('answers right after the memory grows between calls', () => {
    const values = randomValues(5000, 704n);
    const index = new simhash.SimHashIndex({ distance: 3 });
    index.addMany(Uint32Array.from(values, (_, k) => k), values);
    const before = Array.from(index.query(values[10]!).ids);
    const pagesBefore = memoryBytes();
    const filler = simhash.allocHashArray(16 * 1024 * 1024);
    expect(memoryBytes()).toBeGreaterThan(pagesBefore);
    expect(Array.from(index.query(values[10]!).ids)).toEqual(before);
    expect(simhash.SimHashIndex.deserialize(index.serialize()).size).toBe(5000);
    filler.free();
    index.free();
  });
});

describe('traps', () => {
  it('an index of a trapped instance refuses further use; the instance is replaced', () => {
    const index = new simhash.SimHashIndex({ distance: 3 });
    index.add(1, 1n);
    expect(() => withInstance((exports) => exports.sh_compute(0xffff_fff0, 1000))).toThrow(WebAssembly.RuntimeError);
    expect(() => index.query(1n)).toThrow(/reset after a trap/);
    expect(() => index.add(2, 2n)).toThrow(TypeError);
    index.free();
    expect(index.freed).toBe(true);
    const fresh = new simhash.SimHashIndex({ distance: 3 });
    fresh.add(1, 1n);
    expect(Array.from(fresh.query(0n).ids)).toEqual([1]);
    fresh.free();
  });
});
