// The package's own ES modules (dist/esm, unbundled) in Debian's Chromium under a strict
// Content-Security-Policy: every kind of `init` source, a module worker, what happens where the
// browser refuses synchronous compilation, and where the policy forbids WebAssembly. Results
// must equal Node's, call for call.

import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../../ts/index.js';
import { expectQuiet, launchChromium, watchPage } from './chromium.js';
import { computeAll, type ParityInputs, type ParityResults } from './fixtures/compute.js';
import { parityInputs } from './parity-inputs.js';
import { serveStatic, STRICT_CSP, type StaticServer } from './server.js';

/** What harness.js answers: a value, or the error's kind and message. */
type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly name: string; readonly message: string; readonly cause: string | null };

/** `window.harness` of fixtures/harness.js. */
interface Harness {
  init(kind: string): Promise<Outcome<undefined>>;
  initSync(): Promise<Outcome<undefined>>;
  compute(inputs: ParityInputs): Promise<Outcome<ParityResults>>;
  inWorker(how: string, inputs: ParityInputs): Promise<Outcome<ParityResults>>;
}

const mounts = {
  '/': fileURLToPath(new URL('./fixtures/', import.meta.url)),
  '/pkg/': fileURLToPath(new URL('../../dist/', import.meta.url)),
};
const small = parityInputs(500);
const large = parityInputs(20_000);

let strict: StaticServer;
let blocked: StaticServer;
let browser: Browser;

beforeAll(async () => {
  [strict, blocked, browser] = await Promise.all([
    serveStatic(mounts, STRICT_CSP),
    serveStatic(mounts, STRICT_CSP.replace(" 'wasm-unsafe-eval'", '')),
    launchChromium(),
  ]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([strict?.close(), blocked?.close()]);
});

/** A fresh page (so a fresh realm, not yet initialised) of `server`'s harness. */
async function harnessPage(server: StaticServer, prepare?: (page: Page) => Promise<unknown>): Promise<Page> {
  const page = await browser.newPage();
  await prepare?.(page);
  await page.goto(`${server.origin}/`);
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
  return page;
}

type HarnessWindow = { readonly harness: Harness };

const initIn = (page: Page, kind: string) => page.evaluate((k) => (window as unknown as HarnessWindow).harness.init(k), kind);
const initSyncIn = (page: Page) => page.evaluate(() => (window as unknown as HarnessWindow).harness.initSync());
const computeIn = (page: Page, inputs: ParityInputs) => page.evaluate((i) => (window as unknown as HarnessWindow).harness.compute(i), inputs);
const inWorker = (page: Page, how: string, inputs: ParityInputs) =>
  page.evaluate(([h, i]) => (window as unknown as HarnessWindow).harness.inWorker(h, i), [how, inputs] as const);

const inNode = (inputs: ParityInputs): Outcome<ParityResults> => ({ ok: true, value: computeAll(wasm, inputs) });

const SOURCES = ['inline', 'string URL', 'URL', 'Response', 'Promise<Response>', 'ArrayBuffer', 'Uint8Array', 'WebAssembly.Module'];

describe('the ES modules in Chromium, under a strict Content-Security-Policy', () => {
  it.each(SOURCES)('init(%s) loads the module', async (kind) => {
    const page = await harnessPage(strict);
    const watch = watchPage(page);
    expect(await initIn(page, kind)).toEqual({ ok: true });
    expect(await computeIn(page, small)).toEqual(inNode(small));
    expectQuiet(watch, strict.origin);
    await page.close();
  });

  it('computes what Node computes: text in many scripts and options, batches, and findAll over 20,000 fingerprints', async () => {
    const page = await harnessPage(strict);
    expect(await initIn(page, 'inline')).toEqual({ ok: true });
    const got = await computeIn(page, large);
    const expected = inNode(large);
    // The planted near copies make every search find pairs, so the comparison means something.
    for (const pairs of expected.ok ? expected.value.findAll.slice(1) : []) expect(pairs.left.length).toBeGreaterThan(1000);
    expect(got).toEqual(expected);
    await page.close();
  });

  it.each(['initSync', 'init', 'init(url)'])('runs in a module Worker loaded with %s', async (how) => {
    const page = await harnessPage(strict);
    expect(await inWorker(page, how, small)).toEqual(inNode(small));
    await page.close();
  });

  it('compiles synchronously on the main thread of current Chromium: initSync(), or a first call without init()', async () => {
    const page = await harnessPage(strict);
    expect(await initSyncIn(page)).toEqual({ ok: true });
    expect(await computeIn(page, small)).toEqual(inNode(small));
    await page.close();
    const lazy = await harnessPage(strict);
    expect(await computeIn(lazy, small)).toEqual(inNode(small));
    await lazy.close();
  });

  it('where the main thread may not compile or instantiate synchronously (older Chromium, emulated), init() works and initSync() says why', async () => {
    const page = await harnessPage(strict, (p) =>
      // What Chromium did for modules over 4 KB before it raised the limit to 8 MB.
      p.addInitScript(() => {
        // Function expressions, not arrows: `new` must reach them to be refused.
        const refuse = (what: string, instead: string) =>
          function refused(): never {
            throw new RangeError(
              `WebAssembly.${what} is disallowed on the main thread, if the buffer size is larger than 4KB. Use WebAssembly.${instead}.`,
            );
          };
        const { Module, Instance } = WebAssembly;
        const module = refuse('Compile', 'compile');
        const instance = refuse('Instance', 'instantiate');
        // Modules made by WebAssembly.compile must still pass `instanceof WebAssembly.Module`.
        module.prototype = Module.prototype;
        instance.prototype = Instance.prototype;
        Object.assign(WebAssembly, { Module: module, Instance: instance });
      }),
    );
    expect(await initSyncIn(page)).toMatchObject({ ok: false, name: 'RangeError', message: expect.stringContaining('main thread') });
    expect(await computeIn(page, small)).toMatchObject({
      ok: false,
      message: expect.stringContaining('await init() before the first call'),
      cause: expect.stringContaining('main thread'),
    });
    expect(await initIn(page, 'inline')).toEqual({ ok: true });
    expect(await computeIn(page, small)).toEqual(inNode(small));
    await page.close();
  });
});

describe("a Content-Security-Policy without 'wasm-unsafe-eval'", () => {
  it('makes init() reject with a CompileError naming the policy, in the page and in a worker', async () => {
    const page = await harnessPage(blocked);
    for (const kind of ['inline', 'string URL']) {
      expect(await initIn(page, kind)).toMatchObject({
        ok: false,
        name: 'CompileError',
        message: expect.stringMatching(/Content Security Policy/i),
      });
    }
    expect(await computeIn(page, small)).toMatchObject({ ok: false, message: expect.stringContaining('await init()') });
    expect(await inWorker(page, 'init', small)).toMatchObject({ ok: false, name: 'CompileError' });
    await page.close();
  });
});
