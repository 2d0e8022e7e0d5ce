// Beyond 2 GiB of WebAssembly memory: pointers come back from WebAssembly as negative i32s and
// must be read as unsigned; and an input too large for the 4 GiB address space must give a
// RangeError, not a trap that would reset the instance and every index in it. A file of its
// own: the memory it grows stays grown for the rest of the instance.

import { expect, it } from 'vitest';
import * as simhash from '../ts/index.js';
import { wasm } from '../ts/wasm/loader.js';

it('keeps indexes, results and views right above 2 GiB, and refuses what cannot fit', async () => {
  await simhash.init();
  // 2 GiB of fingerprints: everything allocated after it lives above 2^31.
  const ballast = simhash.allocHashArray(2 ** 28 - 16);
  expect(wasm().memory.buffer.byteLength).toBeGreaterThan(2 ** 31);

  const index = new simhash.SimHashIndex({ distance: 3 });
  index.add(7, 0x1234n);
  index.add(8, 0x1235n);
  expect(Array.from(index.query(0x1234n).ids)).toEqual([7, 8]);
  expect(Array.from(index.queryMany([0x1234n]).ids)).toEqual([7, 8]);
  const copy = simhash.SimHashIndex.deserialize(index.serialize());
  expect(copy.size).toBe(2);
  copy.free();

  const texts = ['one two three four', 'one two three four five', 'something else entirely here'];
  const fingerprints = simhash.fingerprintMany(texts);
  expect(fingerprints[0]).not.toBe(0n);
  expect(Array.from(simhash.findAll(fingerprints, { distance: 20 }).left).length).toBeGreaterThan(0);

  // A view of WebAssembly memory passed as a plain array is read in place, not copied (a copy
  // could grow the memory and detach the view being copied).
  const owned = simhash.allocHashArray(100_000);
  owned.view.fill(5n);
  expect(simhash.compute(owned.view.subarray(10, 20))).toBe(5n);
  expect(simhash.findAll(owned.view.subarray(0, 300), { distance: 0 }).left.length).toBe((300 * 299) / 2);
  owned.free();

  // 200 MB of text in character units needs more than the 4 GiB WebAssembly can address.
  const huge = 'abcdefghij'.repeat(2e7);
  expect(() => simhash.fingerprint(huge, { unit: 'char' })).toThrow(RangeError);
  expect(() => simhash.features(huge, { unit: 'char' })).toThrow(RangeError);
  // The instance was not reset: the index still answers.
  expect(Array.from(index.query(0x1234n).ids)).toEqual([7, 8]);
  index.free();
  ballast.free();
}, 120_000);
