// Owned arrays are passed by pointer. Observable from outside: a fresh instance (vitest runs
// each file in its own module graph) has no spare room, so a copied 32 MiB input must grow the
// memory by at least that much, while the owned one must not grow it at all.

import { expect, it } from 'vitest';
import * as simhash from '../ts/index.js';
import { wasm } from '../ts/wasm/loader.js';

it('computes over an owned array without copying it, and copies a plain one once', async () => {
  await simhash.init();
  const length = 4 * 1024 * 1024;
  const owned = simhash.allocHashArray(length);
  const view = owned.view;
  for (let i = 0; i < length; i += 7) view[i] = BigInt(i) * 0x9e37_79b9n;
  const plain = owned.view.slice();

  const before = wasm().memory.buffer.byteLength;
  const fromOwned = simhash.compute(owned);
  expect(wasm().memory.buffer.byteLength).toBe(before);

  const fromPlain = simhash.compute(plain);
  expect(wasm().memory.buffer.byteLength).toBeGreaterThanOrEqual(before + length * 8);
  expect(fromOwned).toBe(fromPlain);
  owned.free();
});
