/**
 * Docs are code: every example of README.md and docs/*.md runs, as written, against the packed
 * tarball installed into an empty project, as a user would copy it:
 *
 * - a `js` block is an ES module (a `cjs` block a CommonJS script) run by Node; when a `console`
 *   block follows it, the example must print exactly that, and otherwise print nothing on
 *   standard error;
 * - a `sh` block is run line by line by bash in a folder of sample files (`docs/`, `notes.txt`,
 *   `crawl.jsonl`, …, made fresh for each block) after `npm install` of the tarball, which is
 *   why its `npm install simhash-wasm` lines are not run again; lines of `npm` commands that need
 *   a clone of the repository (`npm test`, `npm start`, …) are what `.ci/run` runs;
 * - a `js vite` or `js esbuild` block is built by that bundler into a page and run in Chromium
 *   (test/browser/docs.test.ts), a `js worker` block likewise as a module worker, a `js
 *   workerd` block by the test matrix under workerd;
 * - `console`, `json` and `text` blocks are outputs and data, checked where an example prints
 *   them; `ts` blocks are the declarations of docs/api.md, generated from the code and checked
 *   current by test/api-docs.test.ts.
 *
 * Any other kind of block fails the test, so that no example can escape it by its label.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServers } from '../scripts/redis-servers.mjs';
import { docBlocks, docPages, type DocBlock } from './doc-blocks.js';
import { projectWithPackage } from './packed.js';

const root = fileURLToPath(new URL('..', import.meta.url));
let scratch = '';
/** The examples' Redis server: they read `REDIS_URL`, as a service would, and default to 6379. */
let redis: RedisServers | undefined;

beforeAll(async () => {
  scratch = projectWithPackage('simhash-wasm-docs-', true);
  // The Redis examples need the optional peer dependency a user installs beside the package.
  symlinkSync(join(root, 'node_modules', 'ioredis'), join(scratch, 'node_modules', 'ioredis'), 'dir');
  redis = await RedisServers.single();
}, 180_000);

afterAll(async () => {
  await redis?.stop();
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** Sample files for the command-line examples: near-duplicates, unique texts, JSON Lines. */
function sampleFiles(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'examples', 'corpus', 'licences'), join(dir, 'docs'), { recursive: true });
  const mit = readFileSync(join(root, 'examples', 'corpus', 'licences', 'mit-pip.txt'), 'utf8');
  mkdirSync(join(dir, 'published'));
  writeFileSync(join(dir, 'published', 'licence.txt'), mit);
  writeFileSync(join(dir, 'draft.txt'), mit.replace('Copyright', 'Copyright (c)'));
  writeFileSync(join(dir, 'notes.txt'), 'Notes: compare the licences of the vendored packages before the release.\n');
  const pages = [
    { url: 'https://example.org/a', body: mit, fetched: '2026-01-02' },
    { url: 'https://example.org/b', body: mit.replace('Copyright', 'Copyright (c)'), fetched: '2026-03-04' },
    { url: 'https://example.org/c', body: 'A page about something else entirely, with words of its own.', fetched: '2026-02-03' },
  ];
  writeFileSync(join(dir, 'crawl.jsonl'), pages.map((page) => JSON.stringify(page)).join('\n') + '\n');
  writeFileSync(join(dir, 'docs.jsonl'), pages.map((page) => JSON.stringify({ id: page.url, text: page.body })).join('\n') + '\n');
}

function run(example: DocBlock, name: string): { stdout: string; stderr: string; status: number | null } {
  if (example.kind === 'js' || example.kind === 'cjs') {
    const file = join(scratch, `${name}.${example.kind === 'js' ? 'mjs' : 'cjs'}`);
    writeFileSync(file, example.code);
    return spawnSync(process.execPath, [file], { cwd: scratch, encoding: 'utf8', timeout: 120_000, env: { ...process.env, REDIS_URL: redis!.url } });
  }
  const dir = join(scratch, 'sh', name);
  sampleFiles(dir);
  const lines = example.code.split('\n').filter((line) => line.trim() !== '' && !/^npm\s/.test(line.trim()));
  const script = ['set -euo pipefail', `export PATH=${JSON.stringify(join(scratch, 'node_modules', '.bin'))}:"$PATH"`, ...lines].join('\n');
  return spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
}

describe('the docs run on the oldest Node the package supports', () => {
  it('runs under Node 20', () => expect(NODE_MAJOR, 'run the doc tests under Node 20 (engines: >=20)').toBe(20));
});

for (const page of docPages(root)) {
  const blocks = docBlocks(readFileSync(join(root, page), 'utf8'));
  describe(page, () => {
    it('labels every block with a kind the tests know', () => {
      for (const block of blocks) expect([...KINDS], `${page}:${block.line} is a \`${block.info}\` block`).toContain(block.info);
    });
    for (const example of blocks.filter((block) => block.info === 'js' || block.info === 'cjs' || block.info === 'sh')) {
      const name = `${page.replace(/\W/g, '-')}-${example.line}`;
      it(`runs the ${example.kind} example at line ${example.line}${example.output === undefined ? '' : ' and prints what it says'}`, () => {
        const result = run(example, name);
        if (example.kind !== 'sh') expect(result.stderr).toBe('');
        expect(result.status, result.stderr).toBe(0);
        if (example.output !== undefined) expect(result.stdout).toBe(example.output);
      }, 150_000);
    }
  });
}

const KINDS = new Set(['js', 'cjs', 'sh', 'js vite', 'js esbuild', 'js worker', 'js workerd', 'console', 'json', 'text', 'ts']);
