// Views of WebAssembly memory given as input: a live HashArray's view (or part of it) is passed
// in place; a freed one's kept view is refused, because the call's own allocations may reuse its
// bytes and the answer would be computed on other data.

import { expect, it } from 'vitest';
import * as simhash from '../ts/index.js';

await simhash.init();

it('refuses the kept view of a freed HashArray instead of reading reused memory', () => {
  const array = simhash.allocHashArray(64);
  const view = array.view;
  for (let i = 0; i < 64; i++) view[i] = BigInt(i % 8) * 0x0101_0101_0101_0101n;
  const expected = simhash.findAll(view.slice(), { distance: 0 });
  expect(simhash.findAll(view, { distance: 0 })).toEqual(expected);
  array.free();
  expect(() => simhash.findAll(view, { distance: 0 })).toThrow(TypeError);
  expect(() => simhash.findAll(view, { distance: 0 })).toThrow(/fingerprints is a view of WebAssembly memory that no live HashArray owns/);
  expect(() => simhash.compute(view)).toThrow(/hashes is a view of WebAssembly memory/);
});

it('still passes a live HashArray view and its subarrays in place', () => {
  const array = simhash.allocHashArray(16);
  array.view.set(Array.from({ length: 16 }, (_, i) => BigInt(i)));
  const part = array.view.subarray(4, 12);
  expect(simhash.compute(part)).toBe(simhash.compute(part.slice()));
  expect(simhash.hammingDistances(0n, part)).toEqual(simhash.hammingDistances(0n, part.slice()));
  array.free();
});

it('names the argument when an array cannot fit in WebAssembly memory', () => {
  // 2^29 values are 4 GiB: more than a wasm32 memory can hold, refused before allocating.
  expect(() => simhash.allocHashArray(2 ** 29)).toThrow(RangeError);
  expect(() => simhash.allocHashArray(2 ** 29)).toThrow(/^length needs 4294967296 bytes of WebAssembly memory/);
});
