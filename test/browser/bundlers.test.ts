// The package as an app gets it: packed, installed into an empty project, bundled for the
// browser by Vite (no configuration) and by esbuild, and run in Debian's Chromium under a strict
// Content-Security-Policy, on the page and in a module worker, from the inlined module and from
// the separate .wasm file; and the worker pool bundled by Vite, as shipped. The bundles must hold
// no Node built-in, and the results equal Node's.

import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import type { Browser } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../../ts/index.js';
import { projectWithPackage } from '../packed.js';
import { artifact, expectQuiet, launchChromium, watchPage } from './chromium.js';
import { summarise, type Summary } from './consumer/summarise.js';
import { serveStatic, STRICT_CSP, type StaticServer } from './server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/** The module specifiers `code` imports or requires, static or dynamic. */
function specifiers(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"]+)\1/g)) found.push(match[2]!);
  return found;
}

describe('the entries a browser loads', () => {
  it.each(['esm/index.js', 'esm/pure/index.js', 'cjs/index.js', 'cjs/pure/index.js'])(
    'dist/%s reaches only its own files: no Node built-in, no dependency',
    (entry) => {
      const seen = new Set<string>();
      const visit = (file: string): void => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
          expect(specifier, `${relative(root, file)} imports ${specifier}`).toMatch(/^\.\.?\//);
          visit(join(dirname(file), specifier.endsWith('.js') ? specifier : `${specifier}.js`));
        }
      };
      visit(join(root, 'dist', entry));
      // The walk must have followed the entry's imports, or it proves nothing.
      expect(seen.size).toBeGreaterThan(3);
    },
  );
});

let consumer = '';
let browser: Browser;
const servers: StaticServer[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  consumer = projectWithPackage('simhash-wasm-browser-consumer-', true);
  cpSync(fileURLToPath(new URL('./consumer/', import.meta.url)), consumer, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  if (consumer !== '') rmSync(consumer, { recursive: true, force: true });
});

/**
 * What the app served from `dir` shows at `?query`, and the .wasm files it fetched; a screenshot
 * on the way.
 */
async function showApp(dir: string, query: string, screenshot: string): Promise<{ shown: unknown; modules: string[] }> {
  const server = await serveStatic({ '/': dir }, STRICT_CSP);
  servers.push(server);
  const page = await browser.newPage();
  const watch = watchPage(page);
  await page.goto(`${server.origin}/?${query}`);
  const result = page.locator('#result');
  await result.filter({ hasText: /\S/ }).waitFor();
  await page.screenshot({ path: artifact(screenshot), fullPage: true });
  const shown: unknown = JSON.parse((await result.textContent()) ?? '');
  expectQuiet(watch, server.origin);
  await page.close();
  return { shown, modules: watch.requests.filter((url) => url.endsWith('.wasm')) };
}

/** What the app shows when served from `dir` with `?wasm=<how>`. */
async function runApp(dir: string, how: 'inline' | 'file', screenshot: string): Promise<unknown> {
  const { shown, modules } = await showApp(dir, `wasm=${how}`, screenshot);
  // The file variant must really fetch the file, the inline one must not.
  expect(modules.length > 0).toBe(how === 'file');
  return shown;
}

function expectNoNodeBuiltins(dir: string): void {
  const scripts = filesUnder(dir).filter((file) => file.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const file of scripts) {
    const code = readFileSync(file, 'utf8');
    expect(code, relative(dir, file)).not.toMatch(/['"]node:/);
    expect(code, relative(dir, file)).not.toMatch(/\brequire\s*\(/);
  }
}

const expected = (): { page: Summary; worker: Summary } => ({ page: summarise(wasm), worker: summarise(wasm) });

describe('an app bundled by Vite with no configuration', () => {
  let out = '';
  beforeAll(async () => {
    out = join(consumer, 'dist-vite');
    await viteBuild({ root: consumer, configFile: false, logLevel: 'warn', build: { outDir: out } });
  }, 60_000);

  it('has no Node built-in in its bundles, and ships the .wasm file it asked for', () => {
    expectNoNodeBuiltins(out);
    expect(filesUnder(out).some((file) => file.endsWith('.wasm'))).toBe(true);
  });

  it.each(['inline', 'file'] as const)('computes what Node computes, on the page and in a worker, from the %s module', async (how) => {
    expect(await runApp(out, how, `vite-app-${how}.png`)).toEqual(expected());
  });
});

describe('an app bundled by esbuild for the browser', () => {
  let out = '';
  beforeAll(async () => {
    out = join(consumer, 'dist-esbuild');
    await esbuild({
      entryPoints: [join(consumer, 'main-esbuild.js'), join(consumer, 'worker.js')],
      absWorkingDir: consumer,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      loader: { '.wasm': 'file' },
      outdir: out,
      logLevel: 'warning',
    });
    writeFileSync(
      join(out, 'index.html'),
      readFileSync(join(consumer, 'index.html'), 'utf8').replace('./main-vite.js', './main-esbuild.js'),
    );
  });

  it('has no Node built-in in its bundles', () => {
    expectNoNodeBuiltins(out);
  });

  it.each(['inline', 'file'] as const)('computes what Node computes, on the page and in a worker, from the %s module', async (how) => {
    expect(await runApp(out, how, `esbuild-app-${how}.png`)).toEqual(expected());
  });
});

describe('an app using the worker pool, bundled by Vite with no configuration', () => {
  let out = '';
  beforeAll(async () => {
    out = join(consumer, 'dist-vite-pool');
    await viteBuild({ root: join(consumer, 'pool'), configFile: false, logLevel: 'error', build: { outDir: out } });
  }, 60_000);

  it('bundles the pool worker as a chunk of its own, which carries no copy of the module', () => {
    expectNoNodeBuiltins(out);
    const scripts = filesUnder(out).filter((file) => file.endsWith('.js'));
    const workers = scripts.filter((file) => /[\\/]worker-[\w-]+\.js$/.test(file));
    expect(workers, 'the pool worker').toHaveLength(1);
    const worker = readFileSync(workers[0]!, 'latin1');
    // Bundled, not copied: a copy of the script would import its neighbours, absent here.
    expect(specifiers(worker).filter((specifier) => specifier.startsWith('.'))).toEqual([]);
    // The module in base64, as the default entry inlines it: once, in the page's script.
    const inlined = readFileSync(join(root, 'dist', 'simhash.wasm')).subarray(0, 48).toString('base64');
    const copies = (file: string): number => readFileSync(file, 'latin1').split(inlined).length - 1;
    expect(scripts.map(copies).reduce((sum, n) => sum + n, 0), 'inlined copies of the module').toBe(1);
    expect(copies(workers[0]!)).toBe(0);
    expect(worker.length, 'the worker is small without the module').toBeLessThan(60_000);
  });

  it.each(['first', 'after'] as const)('gets from the pool what the synchronous API computes, with init() %s the pool starts', async (init) => {
    const { shown, modules } = await showApp(out, `init=${init}`, `vite-pool-init-${init}.png`);
    expect(shown).toEqual({ pool: summarise(wasm), sync: summarise(wasm) });
    // After init(), the pool gives its workers the module init() compiled and fetches nothing;
    // before it, the pool loads the .wasm file Vite emitted, once for all its workers.
    expect(modules).toHaveLength(init === 'first' ? 0 : 1);
  });
});
