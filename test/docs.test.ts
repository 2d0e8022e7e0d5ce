/**
 * Docs are code: every JavaScript block of docs/*.md, and every block of README.md followed by
 * the output it prints, runs as written (an ES module importing `simhash-wasm`, which resolves
 * to this package's built dist/) and prints exactly the `console` block that follows it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'simhash-wasm-docs-'));
mkdirSync(join(scratch, 'node_modules'));
symlinkSync(root, join(scratch, 'node_modules', 'simhash-wasm'), 'dir');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Example {
  readonly line: number;
  readonly code: string;
  /** What the block prints, when a `console` block follows it. */
  readonly output: string | undefined;
}

/** The fenced blocks of a Markdown text: `js` blocks, each with the `console` block right after it. */
function examples(markdown: string): Example[] {
  const fence = /^```(\w*)\n([^]*?)^```\n/gm;
  const blocks: { lang: string; body: string; start: number; end: number }[] = [];
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) {
    blocks.push({ lang: m[1]!, body: m[2]!, start: m.index, end: m.index + m[0].length });
  }
  return blocks.flatMap((block, k) => {
    if (block.lang !== 'js') return [];
    const next = blocks[k + 1];
    const output = next !== undefined && next.lang === 'console' && markdown.slice(block.end, next.start).trim() === '' ? next.body : undefined;
    return [{ line: markdown.slice(0, block.start).split('\n').length, code: block.body, output }];
  });
}

const pages = [
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => ({ name: `docs/${name}`, all: true })),
  { name: 'README.md', all: false },
];

for (const page of pages) {
  const found = examples(readFileSync(join(root, page.name), 'utf8')).filter((example) => page.all || example.output !== undefined);
  describe(page.name, () => {
    it('has examples', () => expect(found.length).toBeGreaterThan(0));
    for (const example of found) {
      it(`runs the example at line ${example.line}${example.output === undefined ? '' : ' and prints what it says'}`, () => {
        const file = join(scratch, `${page.name.replace(/\W/g, '-')}-${example.line}.mjs`);
        writeFileSync(file, example.code);
        const result = spawnSync(process.execPath, [file], { cwd: scratch, encoding: 'utf8', timeout: 60_000 });
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        if (example.output !== undefined) expect(result.stdout).toBe(example.output);
      });
    }
  });
}
