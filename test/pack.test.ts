// The published tarball, installed into an empty project, works from ESM and from CommonJS,
// through the inlined module and through the separate .wasm file.

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as pure from '../ts/pure/index.js';
import { projectWithPackage } from './packed.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let consumer = '';

const hashes = [0xabcdn, 0xbcden, 0xcdefn, 0xffff_ffff_ffff_fff0n];
const fingerprints = [0n, 1n, 3n, 0xffn, 0xffff_ffff_ffff_ffffn, 1n];

beforeAll(() => {
  consumer = projectWithPackage('simhash-wasm-consumer-', false);
}, 60_000);

afterAll(() => {
  if (consumer !== '') rmSync(consumer, { recursive: true, force: true });
});

const program = (load: string): string => `
${load}
const hashes = [${hashes.map((h) => `${h}n`).join(', ')}];
const fingerprints = [${fingerprints.map((h) => `${h}n`).join(', ')}];
const pairs = api.findAll(fingerprints, { distance: 2 });
console.log(JSON.stringify({
  compute: api.compute(hashes).toString(),
  pure: pureApi.compute(hashes).toString(),
  left: Array.from(pairs.left),
  right: Array.from(pairs.right),
}));
`;

function runConsumer(file: string, source: string): { compute: string; pure: string; left: number[]; right: number[] } {
  writeFileSync(join(consumer, file), source);
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8' })) as {
    compute: string;
    pure: string;
    left: number[];
    right: number[];
  };
}

function expected(): { compute: string; pure: string; left: number[]; right: number[] } {
  const pairs = pure.findAll(fingerprints, { distance: 2 });
  const c = pure.compute(hashes).toString();
  return { compute: c, pure: c, left: Array.from(pairs.left), right: Array.from(pairs.right) };
}

it('works from ESM with the inlined module', () => {
  const got = runConsumer(
    'inline.mjs',
    program(`import * as api from 'simhash-wasm';
import * as pureApi from 'simhash-wasm/pure';
await api.init();`),
  );
  expect(got).toEqual(expected());
});

it('works from ESM with the separate .wasm file', () => {
  const got = runConsumer(
    'file.mjs',
    program(`import * as api from 'simhash-wasm';
import * as pureApi from 'simhash-wasm/pure';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
const wasmPath = createRequire(import.meta.url).resolve('simhash-wasm/simhash.wasm');
await api.init(await readFile(wasmPath));`),
  );
  expect(got).toEqual(expected());
});

it('works from CommonJS, synchronously', () => {
  const got = runConsumer(
    'sync.cjs',
    program(`const api = require('simhash-wasm');
const pureApi = require('simhash-wasm/pure');
api.initSync();`),
  );
  expect(got).toEqual(expected());
});

it('works from CommonJS without any explicit initialisation', () => {
  const got = runConsumer(
    'lazy.cjs',
    program(`const api = require('simhash-wasm');
const pureApi = require('simhash-wasm/pure');`),
  );
  expect(got).toEqual(expected());
});

it('from the slim entry, refuses to work before init(source), then loads the .wasm file from a file: URL', () => {
  const got = runConsumer(
    'slim.mjs',
    program(`import * as api from 'simhash-wasm/slim';
import * as pureApi from 'simhash-wasm/pure';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
let refusal = 'nothing';
try {
  api.compute([1n]);
} catch (error) {
  refusal = String(error);
}
if (!/^TypeError: .*init\\(source\\)/.test(refusal)) throw new Error('slim before init: want a TypeError naming init(source), got ' + refusal);
await api.init(pathToFileURL(createRequire(import.meta.url).resolve('simhash-wasm/simhash.wasm')));`),
  );
  expect(got).toEqual(expected());
});

it('runs a worker pool from ESM through simhash-wasm/parallel, which CommonJS cannot require', () => {
  writeFileSync(
    join(consumer, 'parallel.mjs'),
    `import { createPool } from 'simhash-wasm/parallel';
const pool = await createPool({ threads: 2 });
const pairs = await pool.findAll([${fingerprints.map((h) => `${h}n`).join(', ')}], { distance: 2 });
await pool.close();
console.log(JSON.stringify({ left: Array.from(pairs.left), right: Array.from(pairs.right) }));`,
  );
  const got = JSON.parse(execFileSync(process.execPath, ['parallel.mjs'], { cwd: consumer, encoding: 'utf8' })) as unknown;
  const { left, right } = expected();
  expect(got).toEqual({ left, right });
  writeFileSync(join(consumer, 'parallel.cjs'), `require('simhash-wasm/parallel');`);
  expect(() => execFileSync(process.execPath, ['parallel.cjs'], { cwd: consumer, stdio: 'pipe' })).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED|No "exports" main/);
});

it('carries the published manifest: no development scripts or dependencies, and a command that runs', () => {
  const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules', 'simhash-wasm', 'package.json'), 'utf8')) as Record<string, unknown>;
  expect(manifest['scripts']).toBeUndefined();
  expect(manifest['devDependencies']).toBeUndefined();
  expect(manifest['bin']).toEqual({ 'simhash-wasm': 'dist/esm/cli/main.js' });
  const help = execFileSync(join(consumer, 'node_modules', '.bin', 'simhash-wasm'), ['--help'], { cwd: consumer, encoding: 'utf8' });
  expect(help).toMatch(/simhash-wasm dedup/);
  // The working copy's manifest is back as it was.
  expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.prepare).toBe('node scripts/build.mjs');
});

it('publishes with nothing for npm to correct in its manifest (npm drops a "./" bin path when publishing)', () => {
  // --ignore-scripts: only the manifest is in question here; --dry-run --offline sends nothing.
  const result = spawnSync(npm, ['publish', '--dry-run', '--offline', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  expect(result.stderr).not.toMatch(/auto-corrected|errors corrected|invalid and removed/);
  expect(result.stderr).toMatch(/simhash-wasm@/);
}, 60_000);
