// The examples of the docs that only a bundler and a browser can run (test/docs.test.ts runs the
// rest in Node): each `js vite` block is built by Vite and each `js esbuild` block by esbuild
// (with the `.wasm` file loader it names) as a page's script, against the packed tarball, and
// run in Chromium under a strict Content-Security-Policy; it must print exactly the `console`
// block that follows it, and raise no error. A `js worker` block is built by Vite as the module
// worker of a page that posts it two texts, and must answer with what Node computes.

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import type { Browser } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../../ts/index.js';
import { docBlocks, docPages, type DocBlock } from '../doc-blocks.js';
import { projectWithPackage } from '../packed.js';
import { expectQuiet, launchChromium, watchPage } from './chromium.js';
import { serveStatic, STRICT_CSP, type StaticServer } from './server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let consumer = '';
let browser: Browser;
const servers: StaticServer[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  consumer = projectWithPackage('simhash-wasm-browser-docs-', true);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  if (consumer !== '') rmSync(consumer, { recursive: true, force: true });
});

const PAGE = '<!doctype html><meta charset="utf-8"><title>example</title><link rel="icon" href="data:,"><script type="module" src="./main.js"></script>\n';
const WORKER_TEXTS = ['a text to fingerprint in a worker', 'another one'];
/** The page around a `js worker` block: it posts the worker two texts and prints the answer. */
const WORKER_PAGE = `const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onmessage = ({ data }) => console.log(data.join(' '));
worker.postMessage(${JSON.stringify(WORKER_TEXTS)});
`;

/** Builds the example into `<dir>/out` with the bundler its label names. */
async function buildExample(block: DocBlock, dir: string): Promise<string> {
  const out = join(dir, 'out');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), PAGE);
  if (block.info === 'js worker') {
    writeFileSync(join(dir, 'worker.js'), block.code);
    writeFileSync(join(dir, 'main.js'), WORKER_PAGE);
  } else {
    writeFileSync(join(dir, 'main.js'), block.code);
  }
  if (block.info === 'js esbuild') {
    await esbuild({
      entryPoints: [join(dir, 'main.js')],
      absWorkingDir: dir,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      loader: { '.wasm': 'file' },
      outdir: out,
      logLevel: 'warning',
    });
    writeFileSync(join(out, 'index.html'), PAGE);
  } else {
    await viteBuild({ root: dir, configFile: false, logLevel: 'warn', build: { outDir: out, target: 'es2022' } });
  }
  return out;
}

/** What the page served from `dir` prints, once it has printed `lines` lines. */
async function printed(dir: string, lines: number): Promise<string> {
  const server = await serveStatic({ '/': dir }, STRICT_CSP);
  servers.push(server);
  const page = await browser.newPage();
  const watch = watchPage(page);
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'log') logged.push(message.text());
  });
  await page.goto(`${server.origin}/`);
  await expect.poll(() => logged.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(lines);
  expectQuiet(watch, server.origin);
  await page.close();
  return logged.map((line) => `${line}\n`).join('');
}

const BROWSER_KINDS = new Set(['js vite', 'js esbuild', 'js worker']);

for (const page of docPages(root)) {
  const blocks = docBlocks(readFileSync(join(root, page), 'utf8')).filter((block) => BROWSER_KINDS.has(block.info));
  if (blocks.length === 0) continue;
  describe(page, () => {
    for (const block of blocks) {
      it(`builds the ${block.info.slice(3)} example at line ${block.line} and runs it in Chromium`, async () => {
        const expected =
          block.info === 'js worker' ? `${wasm.fingerprintMany(WORKER_TEXTS).join(' ')}\n` : block.output;
        expect(expected, 'a browser example is followed by the console block it prints').toBeDefined();
        const out = await buildExample(block, join(consumer, `${page.replace(/\W/g, '-')}-${block.line}`));
        expect(await printed(out, expected!.split('\n').length - 1)).toBe(expected);
      }, 120_000);
    }
  });
}
