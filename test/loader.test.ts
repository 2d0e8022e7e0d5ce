// Loading the module from every kind of source, each in a fresh Node process (one instance per
// realm: a test in this process could not un-load it): what works, and what a bad source says.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const wasmFile = join(dist, 'simhash.wasm');

/** Runs `body` as an ES module in a fresh Node, with `entry` imported as `s`; returns its output. */
function fresh(entry: string, body: string): { status: number | null; stdout: string; stderr: string } {
  const script = `import * as s from ${JSON.stringify(pathToFileURL(join(dist, entry)).href)};\n${body}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

const USE = `console.log(s.findAll([1n, 3n, 1n << 40n], { distance: 1 }).left.length);`;

describe('init sources (fresh process each)', () => {
  it('reads a file: URL in Node', () => {
    const result = fresh('esm/index.js', `await s.init(new URL(${JSON.stringify(pathToFileURL(wasmFile).href)}));\n${USE}`);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('1');
  });

  it('takes a file: URL as a string too', () => {
    const result = fresh('esm/index.js', `await s.init(${JSON.stringify(pathToFileURL(wasmFile).href)});\n${USE}`);
    expect(result.stdout).toBe('1');
  });

  it('refuses bytes that are not a WebAssembly module with a TypeError naming source', () => {
    const result = fresh('esm/index.js', `try { s.initSync(new Uint8Array([1, 2, 3])); } catch (e) { console.log(e.constructor.name, e.message); }`);
    expect(result.stdout).toMatch(/^TypeError initSync: source is not a valid WebAssembly module/);
    const rejected = fresh('esm/index.js', `await s.init(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 9])).catch((e) => console.log(e.constructor.name, e.message));`);
    expect(rejected.stdout).toMatch(/^TypeError init: source is not a valid WebAssembly module/);
  });

  it('refuses a valid module that is not simhash-wasm', () => {
    // The smallest valid module: magic and version, no sections.
    const result = fresh('esm/index.js', `await s.init(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).catch((e) => console.log(e.constructor.name, e.message));`);
    expect(result.stdout).toMatch(/^TypeError simhash-wasm: the WebAssembly module given to init is not simhash-wasm/);
  });

  it('after loading, still refuses a value that cannot be a source', () => {
    const result = fresh('esm/index.js', `await s.init(); await s.init(42).catch((e) => console.log(e.constructor.name, e.message));`);
    expect(result.stdout).toMatch(/^TypeError init: source must be/);
  });
});

describe('simhash-wasm/slim (no inlined module)', () => {
  it('ships no module bytes', () => {
    const bytes = readFileSync(join(dist, 'slim', 'wasm', 'generated', 'wasm-bytes.js'), 'utf8');
    expect(bytes).toContain('wasmBase64 = null');
    expect(bytes.length).toBeLessThan(200);
  });

  it('says to call init(source) when used without it', () => {
    const result = fresh('slim/index.js', `try { ${USE} } catch (e) { console.log(e.constructor.name, e.message); }`);
    expect(result.stdout).toMatch(/^TypeError simhash-wasm\/slim has no inlined WebAssembly module: call init\(source\)/);
    const bare = fresh('slim/index.js', `await s.init().catch((e) => console.log(e.constructor.name, e.message));`);
    expect(bare.stdout).toMatch(/^TypeError simhash-wasm\/slim has no inlined WebAssembly module: call init\(source\)/);
  });

  it('works once given the module by URL, bytes or compiled module', () => {
    const url = JSON.stringify(pathToFileURL(wasmFile).href);
    expect(fresh('slim/index.js', `await s.init(new URL(${url}));\n${USE}`).stdout).toBe('1');
    expect(fresh('slim/index.js', `import { readFileSync } from 'node:fs'; s.initSync(readFileSync(new URL(${url})));\n${USE}`).stdout).toBe('1');
    expect(
      fresh('slim/index.js', `import { readFileSync } from 'node:fs'; await s.init(new WebAssembly.Module(readFileSync(new URL(${url}))));\n${USE}`).stdout,
    ).toBe('1');
  });
});
