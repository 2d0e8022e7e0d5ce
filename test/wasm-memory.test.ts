// The WebAssembly entry's memory contract: views survive growth, calls do not leak, a trap
// costs one call and not the instance.

import { beforeAll, describe, expect, it } from 'vitest';
import * as simhash from '../ts/index.js';
import { wasm, withInstance } from '../ts/wasm/loader.js';

function memoryBytes(): number {
  return wasm().memory.buffer.byteLength;
}

function randomU64s(n: number, seed: number): BigUint64Array {
  const out = new BigUint64Array(n);
  const words = new Uint32Array(out.buffer);
  let s = seed >>> 0;
  for (let i = 0; i < words.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    words[i] = s ^ (s >>> 13);
  }
  return out;
}

beforeAll(async () => {
  await simhash.init();
});

describe('memory growth', () => {
  it('keeps owned arrays readable and re-creates their views after the memory grows', () => {
    const values = randomU64s(1000, 1);
    const owned = simhash.allocHashArray(values.length);
    owned.view.set(values);
    const before = owned.view;
    const pagesBefore = memoryBytes();
    // Large enough to force growth whatever the allocator had in reserve.
    const big = simhash.allocHashArray(16 * 1024 * 1024);
    expect(memoryBytes()).toBeGreaterThan(pagesBefore);
    // The old view was detached by the growth; the getter gives a live one.
    expect(before.length).toBe(0);
    expect(owned.view.length).toBe(values.length);
    expect(Array.from(owned.view)).toEqual(Array.from(values));
    expect(simhash.compute(owned)).toBe(simhash.compute(values));
    big.free();
    owned.free();
  });

  it('gives the same results for copied and owned inputs across a growth in the middle of a call', () => {
    const values = randomU64s(200_000, 2);
    const expected = simhash.findAll(values, { distance: 2, blocks: 5 });
    const owned = simhash.allocHashArray(values.length);
    owned.view.set(values);
    const filler = simhash.allocHashArray(8 * 1024 * 1024);
    const got = simhash.findAll(owned, { distance: 2, blocks: 5 });
    expect(got).toEqual(expected);
    filler.free();
    owned.free();
  });
});

describe('leaks', () => {
  it('keeps memory flat over 10,000 calls of every function', () => {
    const hashes = randomU64s(512, 3);
    const hashList = Array.from(hashes.subarray(0, 64));
    const weights = new Float64Array(hashes.length).fill(0.5);
    const offsets = Uint32Array.of(0, 100, 300, 512);
    const run = (): void => {
      simhash.compute(hashes);
      simhash.compute(hashList);
      simhash.computeWeighted(hashes, weights);
      simhash.computeMany(hashes, offsets);
      simhash.computeManyWeighted(hashes, weights, offsets);
      simhash.hammingDistances(5n, hashes);
      simhash.findAll(hashes, { distance: 3, blocks: 4 });
      simhash.findAll(hashList, { distance: 20 });
      const owned = simhash.allocHashArray(64);
      owned.free();
      // Error paths must release their temporaries too.
      expect(() => simhash.computeWeighted(hashes, new Float64Array(3))).toThrow(RangeError);
      expect(() => simhash.compute([1n, -1n])).toThrow(RangeError);
      expect(() => simhash.findAll(new BigUint64Array(100), { distance: 0, maxPairs: 10 })).toThrow(RangeError);
    };
    for (let i = 0; i < 200; i++) run();
    const settled = memoryBytes();
    for (let i = 0; i < 10_000; i++) run();
    expect(memoryBytes()).toBe(settled);
  });
});

describe('traps', () => {
  it('replaces a trapped instance and refuses arrays of the old one', () => {
    const values = randomU64s(100, 4);
    const expected = simhash.compute(values);
    const stale = simhash.allocHashArray(4);
    // Reading far past the end of memory traps inside the module.
    expect(() => withInstance((exports) => exports.sh_compute(0xffff_fff0, 1000))).toThrow(WebAssembly.RuntimeError);
    expect(simhash.compute(values)).toBe(expected);
    expect(() => simhash.compute(stale)).toThrow(TypeError);
    expect(() => stale.view).toThrow(/reset after a trap/);
    stale.free();
    expect(stale.freed).toBe(true);
  });
});
