// The worker pool in Chromium, from the package's own ES modules (dist/esm/parallel, unbundled)
// under the strict Content-Security-Policy: module Web Workers, each with its own instance, on
// a page that is not cross-origin isolated (so inputs are copied to each worker rather than
// shared). Results must equal Node's synchronous API.

import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as wasm from '../../ts/index.js';
import { launchChromium, watchPage, expectQuiet } from './chromium.js';
import { serveStatic, STRICT_CSP, type StaticServer } from './server.js';

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    serveStatic(
      {
        '/': fileURLToPath(new URL('./fixtures/', import.meta.url)),
        '/pkg/': fileURLToPath(new URL('../../dist/', import.meta.url)),
      },
      STRICT_CSP,
    ),
    launchChromium(),
  ]);
  await wasm.init();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('runs fingerprintMany, findAll, findClusters and a sharded index in module Web Workers', async () => {
  const texts = Array.from({ length: 3000 }, (_, i) => `the quick brown fox ${i % 300} jumps over the lazy dog ${i % 7}`);
  const values = Array.from({ length: 4000 }, (_, i) => BigInt.asUintN(64, BigInt(i % 2500) * 0x9e37_79b9_7f4a_7c15n) ^ BigInt(i % 3));
  const page = await browser.newPage();
  const watched = watchPage(page);
  await page.goto(`${server.origin}/parallel.html`);
  // A string, so that the test runner's transform leaves its dynamic import alone.
  const script = `(async ([texts, values]) => {
    const { createPool } = await import('/pkg/esm/parallel/index.js');
    const fingerprints = values.map(BigInt);
    const pool = await createPool({ threads: 2 });
    const fps = await pool.fingerprintMany(texts);
    const pairs = await pool.findAll(fingerprints, { distance: 3 });
    const labels = await pool.findClusters(fingerprints, { distance: 3 });
    const index = await pool.createIndex({ distance: 3 });
    await index.addMany(Uint32Array.from(fingerprints, (_, i) => i), fingerprints);
    const answers = await index.queryMany(fingerprints.slice(0, 200));
    await pool.close();
    return {
      isolated: globalThis.crossOriginIsolated ?? null,
      threads: pool.threads,
      fps: Array.from(fps, String),
      left: Array.from(pairs.left),
      right: Array.from(pairs.right),
      labels: Array.from(labels),
      offsets: Array.from(answers.offsets),
      ids: Array.from(answers.ids),
    };
  })(${JSON.stringify([texts, values.map(String)])})`;
  const got = (await page.evaluate(script)) as {
    isolated: boolean | null;
    threads: number;
    fps: string[];
    left: number[];
    right: number[];
    labels: number[];
    offsets: number[];
    ids: number[];
  };
  const fingerprints = BigUint64Array.from(values);
  const pairs = wasm.findAll(fingerprints, { distance: 3 });
  const one = new wasm.SimHashIndex({ distance: 3 });
  one.addMany(Uint32Array.from(fingerprints, (_, i) => i), fingerprints);
  const answers = one.queryMany(fingerprints.slice(0, 200));
  one.free();
  expect(got.isolated).toBe(false);
  expect(got.threads).toBe(2);
  expect(got.fps).toEqual(Array.from(wasm.fingerprintMany(texts), String));
  expect(pairs.left.length).toBeGreaterThan(1000);
  expect(got.left).toEqual(Array.from(pairs.left));
  expect(got.right).toEqual(Array.from(pairs.right));
  expect(got.labels).toEqual(Array.from(wasm.findClusters(fingerprints, { distance: 3 })));
  expect(got.offsets).toEqual(Array.from(answers.offsets));
  expect(got.ids).toEqual(Array.from(answers.ids));
  expectQuiet(watched, server.origin);
  await page.close();
});
