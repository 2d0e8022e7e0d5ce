// The built command line (dist/esm/cli/main.js, which `npm test` builds first), run as users run
// it, on small directories made for each case.

import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, linkSync, lstatSync, openSync, writeSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'esm', 'cli', 'main.js');
const corpus = join(root, 'examples', 'corpus');
let scratch = '';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: readonly string[], input?: string | Buffer): Run {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: scratch, input, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh directory holding `files` (name → content). */
function tree(name: string, files: Record<string, string | Buffer>): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

const licence = (file: string): string => readFileSync(join(corpus, 'licences', file), 'utf8');
/** The MIT licence with a different copyright line: a near-duplicate of `mitA`. */
const mitA = licence('mit-tinybench.txt');
const mitB = licence('mit-fast-check.txt');
const apache = licence('apache-2.0.txt');
const mpl = licence('mpl-2.0.txt');

interface JsonReport {
  distance: number;
  unit: string;
  size: number;
  weighting: string;
  documents: number;
  groups: { members: { id: string | number; distance: number; fingerprint: string }[] }[];
  featureless: (string | number)[];
  skipped: { input: string; reason: string }[];
  skippedCount: number;
}

const groupIds = (report: JsonReport): (string | number)[][] => report.groups.map((g) => g.members.map((m) => m.id));

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`node scripts/build.mjs\` (npm test does) first`);
  scratch = mkdtempSync(join(tmpdir(), 'simhash-wasm-cli-'));
});

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
});

describe('dedup', () => {
  it('groups planted near-duplicates and leaves unrelated documents out, recursing into directories', () => {
    const dir = tree('planted', {
      'a.txt': mitA,
      'nested/deeper/b.txt': mitB,
      'c.txt': apache,
      'd.txt': mpl,
      'e.txt': mpl.replace('Mozilla Public License', 'Mozilla Public Licence'),
      '.hidden/f.txt': mitA,
    });
    const { status, stdout, stderr } = run(['dedup', dir, '--method', 'simhash']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain('Group 1 (2 documents)');
    expect(stdout).toMatch(/\n {6}kept {2}[0-9a-f]{16} {2}\S*planted\/a\.txt\n +\d+ {2}[0-9a-f]{16} {2}\S*planted\/nested\/deeper\/b\.txt\n/);
    expect(stdout).toMatch(/Group 2 \(2 documents\)[^]*planted\/d\.txt[^]*planted\/e\.txt/);
    expect(stdout).not.toContain('c.txt');
    expect(stdout).not.toContain('.hidden');
    expect(stdout).toMatch(/^5 documents: 2 to remove as near-duplicates of 2 kept, 1 unique \(distance ≤ \d+ bits, word 3-shingles, binary weighting\)\.$/m);
  });

  it('prints one JSON object with --json', () => {
    const dir = tree('json', { 'a.txt': mitA, 'b.txt': mitB, 'c.txt': apache });
    const { status, stdout } = run(['dedup', dir, '--json', '--method', 'simhash', '--distance', '12', '--unit', 'char', '--size', '5']);
    expect(status).toBe(0);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report).toMatchObject({ distance: 12, unit: 'char', size: 5, weighting: 'binary', documents: 3, featureless: [], skipped: [], skippedCount: 0 });
    expect(groupIds(report)).toEqual([[join(dir, 'a.txt'), join(dir, 'b.txt')]]);
    const [first, second] = report.groups[0]?.members ?? [];
    expect(first?.distance).toBe(0);
    expect(second?.distance).toBeLessThanOrEqual(12);
    expect(first?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('reads JSON Lines with --field and --id, and reports the records it cannot use', () => {
    const lines = [
      JSON.stringify({ key: 'first', body: mitA }),
      '',
      JSON.stringify({ key: 2, body: mitB }),
      'not json',
      JSON.stringify({ key: 'no-body' }),
      JSON.stringify({ body: apache }),
      JSON.stringify({ key: 'apache', body: apache }),
    ];
    const dir = tree('jsonl', { 'docs.jsonl': `${lines.join('\r\n')}\n` });
    const file = join(dir, 'docs.jsonl');
    const { status, stdout, stderr } = run(['dedup', file, '--jsonl', '--field', 'body', '--id', 'key', '--json']);
    expect(status).toBe(1);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.documents).toBe(4);
    // A record without its id is decided under its input:line, with a warning.
    expect(groupIds(report)).toEqual([['first', 2], [`${file}:6`, 'apache']]);
    expect(stderr).toContain(`simhash-wasm: warning: ${file}:6 has no string or number field 'key': decided as ${file}:6`);
    expect(report.skipped).toEqual([
      { input: `${file}:4`, reason: 'not valid JSON' },
      { input: `${file}:5`, reason: "no string field 'body'" },
    ]);
    expect(report.skippedCount).toBe(2);
    expect(stderr).toContain(`simhash-wasm: skipped ${file}:4: not valid JSON`);
    // The same when the pool's workers parse the records (SimHash, in input order).
    const simhash = ['dedup', file, '--jsonl', '--field', 'body', '--id', 'key', '--json', '--method', 'simhash'];
    const [alone, pooled] = [run([...simhash, '--threads', '1']), run([...simhash, '--threads', '2'])];
    expect(JSON.parse(pooled.stdout)).toEqual(JSON.parse(alone.stdout));
    expect(pooled.stderr).toBe(alone.stderr);
    expect(pooled.stderr).toContain(`${file}:6 has no string or number field 'key'`);
  });

  it('reads nested fields by path, and lists every document read in the decisions, those without words too', () => {
    const lines = [
      JSON.stringify({ doc: { body: mitA, meta: { id: 'a' } } }),
      JSON.stringify({ doc: { body: mitB, meta: { id: 'b' } } }),
      JSON.stringify({ doc: { body: '...', meta: { id: 'empty' } } }),
      JSON.stringify({ 'doc.body': apache, doc: { body: mitA, meta: { id: 'whole-key' } } }),
    ];
    const input = `${lines.join('\n')}\n`;
    for (const threads of ['1', '2']) {
      const result = run(['dedup', '-', '--jsonl', '--field', 'doc.body', '--id', 'doc.meta.id', '--json', '--threads', threads], input);
      expect([result.status, result.stderr]).toEqual([0, '']);
      const report = JSON.parse(result.stdout) as JsonReport & { decisions: unknown[] };
      expect(report.documents).toBe(4);
      expect(report.featureless).toEqual(['empty']);
      // A key of the whole name comes first: the fourth record's text is the Apache licence.
      expect(report.decisions).toEqual([
        { id: 'a', kept: true },
        { id: 'b', kept: false, representative: 'a', similarity: expect.any(Number) as number },
        { id: 'whole-key', kept: true },
        { id: 'empty', kept: true, words: false },
      ]);
    }
  });

  it('names JSON Lines records by input and line without --id, and reads them from standard input', () => {
    const input = `${JSON.stringify({ text: mitA })}\n${JSON.stringify({ text: mitB })}`;
    const { status, stdout } = run(['dedup', '-', '--jsonl'], input);
    expect(status).toBe(0);
    expect(stdout).toMatch(/<stdin>:1\n.*<stdin>:2\n/);
  });

  it('reads one document from standard input with -', () => {
    const dir = tree('stdin', { 'a.txt': mitA });
    const { status, stdout } = run(['dedup', join(dir, 'a.txt'), '-'], mitB);
    expect(status).toBe(0);
    expect(stdout).toMatch(/Group 1 \(2 documents\)\n.*\n.*a\.txt\n.*<stdin>\n/);
  });

  it('skips binary files with a warning and exits 1, and replaces invalid UTF-8', () => {
    const dir = tree('binary', {
      'a.txt': mitA,
      'b.txt': Buffer.concat([Buffer.from(mitB), Buffer.from([0xff, 0xfe, 0x80])]),
      'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
    });
    const { status, stdout, stderr } = run(['dedup', dir]);
    expect(status).toBe(1);
    expect(stderr).toBe(`simhash-wasm: skipped ${join(dir, 'image.png')}: binary file\n`);
    expect(stdout).toContain('Group 1 (2 documents)');
    expect(stdout).toMatch(/^2 documents:/m);
  });

  it('reports missing paths and broken links, and still reads the rest', () => {
    const dir = tree('unreadable', { 'a.txt': mitA, 'b.txt': mitB });
    symlinkSync(join(dir, 'gone.txt'), join(dir, 'link.txt'));
    const missing = join(scratch, 'no-such-file.txt');
    const { status, stdout, stderr } = run(['dedup', dir, missing]);
    expect(status).toBe(1);
    expect(stderr).toContain(`simhash-wasm: skipped ${join(dir, 'link.txt')}: broken symbolic link\n`);
    expect(stderr).toContain(`simhash-wasm: skipped ${missing}: no such file or directory\n`);
    expect(stdout).toContain('Group 1 (2 documents)');
  });

  it('handles an empty directory and empty standard input', () => {
    const dir = tree('empty', {});
    const fromDir = run(['dedup', dir]);
    // Exit status 3: no document was read.
    expect(fromDir).toEqual({ status: 3, stdout: 'No documents to compare.\n', stderr: '' });
    const json = JSON.parse(run(['dedup', dir, '--json']).stdout) as JsonReport;
    expect(json).toMatchObject({ documents: 0, groups: [], featureless: [] });
    const fromStdin = run(['dedup', '-', '--jsonl'], '');
    expect(fromStdin.status).toBe(3);
  });

  it('lists documents without words apart instead of grouping them', () => {
    const dir = tree('featureless', { 'empty.txt': '', 'dots.txt': '... --- !!!\n', 'spaces.txt': ' \n\t\n', 'a.txt': mitA });
    const table = run(['dedup', dir]);
    expect(table.status).toBe(0);
    expect(table.stdout).not.toContain('Group');
    expect(table.stdout).toContain(
      `Without words, so never compared (kept): 3 documents\n  ${join(dir, 'dots.txt')}\n  ${join(dir, 'empty.txt')}\n  ${join(dir, 'spaces.txt')}\n`,
    );
    expect(table.stdout).toMatch(/^4 documents: no near-duplicates, 1 unique, 3 without words/m);
    const json = JSON.parse(run(['dedup', dir, '--json']).stdout) as JsonReport;
    expect(json.groups).toEqual([]);
    expect(json.featureless).toEqual(['dots.txt', 'empty.txt', 'spaces.txt'].map((f) => join(dir, f)));
  });
});

describe('inputs that are huge, endless or unwritable', () => {
  /** Runs through a shell, for pipes and redirections; bounded in time either way. */
  function shell(command: string): Run & { signal: NodeJS.Signals | null } {
    const result = spawnSync('sh', ['-c', command], { cwd: scratch, encoding: 'utf8', timeout: 30_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, signal: result.signal };
  }
  const node = JSON.stringify(process.execPath);
  const command = JSON.stringify(cli);

  it('skips /dev/zero and /dev/urandom after reading their first chunk, instead of reading forever', () => {
    for (const device of ['/dev/zero', '/dev/urandom']) {
      const result = shell(`${node} ${command} dedup ${device} --json`);
      expect(result.signal, device).toBeNull();
      // Nothing else was read: exit status 3, not 1.
      expect(result.status, device).toBe(3);
      const report = JSON.parse(result.stdout) as JsonReport;
      expect(report.skipped[0]?.input).toBe(device);
      // /dev/urandom has a NUL byte in its first KB with probability 98%; otherwise it is cut at --max-bytes.
      expect(report.skipped[0]?.reason).toMatch(/^(binary file|larger than)/);
    }
  });

  it('stops reading an endless text stream at --max-bytes', () => {
    const result = shell(`yes 'an endless line of text' | ${node} ${command} dedup - --max-bytes 1M --json`);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(3);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.skipped).toEqual([{ input: '<stdin>', reason: 'larger than 1048576 bytes (--max-bytes; split it, or use --jsonl)' }]);
  });

  it('skips a file larger than --max-bytes by name and still groups the others', () => {
    const dir = tree('oversized', { 'a.txt': mitA, 'big.txt': apache.repeat(4), 'b.txt': mitB });
    const { status, stdout, stderr } = run(['dedup', dir, '--max-bytes', '20K', '--json']);
    expect(status).toBe(1);
    expect(stderr).toContain(`skipped ${join(dir, 'big.txt')}: larger than 20480 bytes`);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.documents).toBe(2);
    expect(groupIds(report)).toEqual([[join(dir, 'a.txt'), join(dir, 'b.txt')]]);
  });

  it('exits 2 naming the failure when the report cannot be written', () => {
    const result = shell(`${node} ${command} dedup ${JSON.stringify(join(corpus, 'licences'))} > /dev/full`);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('cannot write the report to standard output: ENOSPC');
  });

  it('ends quietly when the reader goes away early', () => {
    const result = shell(`${node} ${command} dedup ${JSON.stringify(corpus)} | head -c 10`);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('hints at --jsonl when a .jsonl file is read as one document', () => {
    const dir = tree('lines', { 'records.jsonl': '{"text": "one"}\n{"text": "two"}\n' });
    const { stderr } = run(['dedup', join(dir, 'records.jsonl')]);
    expect(stderr).toContain('records.jsonl is read as one document; add --jsonl to read one document per line');
    expect(run(['dedup', '--jsonl', join(dir, 'records.jsonl')]).stderr).not.toContain('--jsonl');
  });
});

describe('usage', () => {
  it.each([
    [[], 'missing command'],
    [['dedupe', 'x'], "unknown command 'dedupe'"],
    [['dedup'], 'at least one file'],
    [['dedup', 'x', '--method', 'simhash', '--distance', '65'], '--distance must be an integer in 0..64'],
    [['dedup', 'x', '--distance'], '--distance needs a value'],
    [['dedup', 'x', '--method', 'simhash', '--size', '0'], '--size must be an integer in 1..64'],
    [['dedup', 'x', '--method', 'minhash', '--unit', 'line'], '--unit must be word or char'],
    [['dedup', 'x', '--method', 'simhash', '--weighting', 'idf'], '--weighting must be tf or binary'],
    [['dedup', 'x', '--field', 'body'], '--field and --id apply to JSON Lines input'],
    [['dedup', 'x', '--frobnicate'], 'unknown option --frobnicate'],
    [['dedup', '-', '-'], 'standard input) can be given only once'],
    [['dedup', 'x', '--method', 'simhash', '--distance', '-1'], "--distance must be an integer in 0..64, got '-1'"],
    [['dedup', 'x', '--method', 'simhash', '--size', '-3'], "--size must be an integer in 1..64, got '-3'"],
    [['dedup', 'x', '--max-bytes', '0'], '--max-bytes must be a size in bytes'],
    [['dedup', 'x', '--max-bytes', '1T'], '--max-bytes must be a size in bytes'],
    [['dedup', 'x', '--max-bytes', '513M'], '--max-bytes must be a size in bytes'],
    // An option of one method never switches methods, nor is ignored: the default is adaptive.
    [['dedup', 'x', '--distance', '10'], '--distance applies to --method simhash, not to --method adaptive (the default method, adaptive, chooses by length): add --method simhash'],
    [['dedup', 'x', '--threshold', '0.5'], '--threshold applies to --method minhash, not to --method adaptive'],
    [['dedup', 'x', '--unit', 'char'], '--unit applies to --method simhash or --method minhash, not to --method adaptive'],
    [['dedup', 'x', '--size', '2'], '--size applies to --method simhash or --method minhash'],
    [['dedup', 'x', '--weighting', 'tf'], '--weighting applies to --method simhash'],
    [['dedup', 'x', '--method', 'adaptive', '--distance', '3'], '--distance applies to --method simhash, not to --method adaptive: add'],
    [['dedup', 'x', '--method', 'minhash', '--distance', '3'], '--distance applies to --method simhash, not to --method minhash'],
    [['dedup', 'x', '--method', 'minhash', '--weighting', 'tf'], '--weighting applies to --method simhash, not to --method minhash'],
    [['dedup', 'x', '--method', 'simhash', '--threshold', '0.5'], '--threshold applies to --method minhash, not to --method simhash'],
  ])('%j exits 2 with a usage message', (args, message) => {
    const { status, stdout, stderr } = run(args);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('usage: simhash-wasm dedup');
  });

  it('groups by MinHash with --method minhash --threshold, in the table and as JSON', () => {
    // 5 % of the words of a licence replaced: a near-duplicate MinHash finds at 0.6.
    const words = apache.split(/\s+/);
    const edited = words.map((w, i) => (i % 20 === 7 ? 'changed' : w)).join(' ');
    const dir = tree('minhash', { 'a.txt': apache, 'b.txt': edited, 'c.txt': mpl, 'd.txt': mitA, 'e.txt': '...' });
    const table = run(['dedup', dir, '--method', 'minhash']);
    expect(table.stderr).toBe('');
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/Group 1 \(2 documents\)\n {2}similarity {2}document\n {8}kept {2}\S*minhash\/a\.txt\n {7}0\.\d{3} {2}\S*minhash\/b\.txt\n/);
    expect(table.stdout).toMatch(/^5 documents: 1 to remove as near-duplicates of 1 kept, 2 unique, 1 without words \(MinHash similarity ≥ 0\.6, word 3-shingles\)\.$/m);
    const strict = JSON.parse(run(['dedup', dir, '--method', 'minhash', '--threshold', '0.95', '--json']).stdout) as {
      method: string;
      threshold: number;
      groups: unknown[];
    };
    expect(strict).toMatchObject({ method: 'minhash', threshold: 0.95, groups: [] });
    const json = JSON.parse(run(['dedup', dir, '--method', 'minhash', '--json']).stdout) as { groups: { members: { id: string; similarity: number }[] }[] };
    expect(json.groups[0]?.members.map((m) => m.id)).toEqual([join(dir, 'a.txt'), join(dir, 'b.txt')]);
    expect(json.groups[0]?.members[1]?.similarity).toBeGreaterThanOrEqual(0.6);
  });

  it('plans MinHash bands to miss few pairs: its groups are the library components with false negatives weighted 0.9', async () => {
    const { findClustersMinHash, init, minhashMany } = await import('../ts/index.js');
    await init();
    const corpus = join(root, 'examples', 'corpus');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(corpus);
    const signatures = minhashMany(files.map((file) => readFileSync(file, 'utf8')));
    /** Groups of two or more paths, each sorted, in sorted order. */
    const groupsOf = (roots: Uint32Array): string[][] => {
      const byRoot = new Map<number, string[]>();
      roots.forEach((r, i) => byRoot.set(r, [...(byRoot.get(r) ?? []), files[i]!]));
      return [...byRoot.values()].filter((g) => g.length > 1).map((g) => g.sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
    };
    const wide = groupsOf(findClustersMinHash(signatures, { threshold: 0.8, falsePositiveWeight: 0.1, falseNegativeWeight: 0.9 }));
    const plain = groupsOf(findClustersMinHash(signatures, { threshold: 0.8 }));
    // The corpus has pairs the default plan misses, so the comparison tells the plans apart.
    expect(wide).not.toEqual(plain);
    const out = run(['dedup', corpus, '--method', 'minhash', '--threshold', '0.8', '--json']);
    expect(out.status).toBe(0);
    const json = JSON.parse(out.stdout) as { groups: { members: { id: string }[] }[] };
    const got = json.groups.map((g) => g.members.map((m) => m.id).sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
    expect(got).toEqual(wide);
  });

  it('refuses options of the other method and bad thresholds', () => {
    expect(run(['dedup', '.', '--method', 'minhash', '--distance', '3']).stderr).toContain('--distance applies to --method simhash, not to --method minhash');
    expect(run(['dedup', '.', '--threshold', '0.8']).stderr).toContain('--threshold applies to --method minhash');
    expect(run(['dedup', '.', '--method', 'minhash', '--threshold', '1.5']).status).toBe(2);
    expect(run(['dedup', '.', '--method', 'lsh']).stderr).toContain("--method must be adaptive, simhash or minhash, got 'lsh'");
    expect(run(['dedup', '.', '--method', 'adaptive', '--distance', '3']).stderr).toContain('--distance applies to --method simhash, not to --method adaptive: add --method simhash');
  });

  it('prints help, with the exit codes, and the version', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Exit status');
    expect(help.stdout).toMatch(/--distance N {2}.*\n.*\(default \d+\)/);
    expect(run(['dedup', '-h']).stdout).toBe(help.stdout);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(run(['--version'])).toEqual({ status: 0, stdout: `simhash-wasm ${manifest.version}\n`, stderr: '' });
  });
});

describe('decisions', () => {
  /** `count` edits of a licence, each changing 2.5 % more of its words: neighbours are close, the ends far apart. */
  function chain(text: string, count: number): string[] {
    const words = text.split(/\s+/);
    return Array.from({ length: count }, (_, j) => words.map((w, i) => (((i * 2654435761) % 1000) / 10 < 2.5 * j ? `edit${i}` : w)).join(' '));
  }

  interface Decision {
    id: string | number;
    kept: boolean;
    representative?: string | number;
    distance?: number;
    similarity?: number;
  }

  for (const method of ['adaptive', 'simhash', 'minhash'] as const) {
    it(`${method}: deleting what --removed lists leaves no two near-duplicates, and every removed file had a kept twin within the threshold`, async () => {
      const api = await import('../ts/index.js');
      await api.init();
      const files: Record<string, string> = {};
      chain(apache, 10).forEach((text, j) => (files[`apache/${j}.txt`] = text));
      chain(mpl, 6).forEach((text, j) => (files[`mpl/${j}.txt`] = text));
      files['mit.txt'] = mitA;
      files['mit-copy.txt'] = mitA;
      const dir = tree(`delete-${method}`, files);
      const args = ['dedup', dir, '--method', method];
      const json = JSON.parse(run([...args, '--json']).stdout) as { decisions: Decision[]; groups: { members: { id: string }[] }[] };
      const removedList = run([...args, '--removed', '--null']);
      expect(removedList.status).toBe(0);
      const removed = removedList.stdout.split('\0').slice(0, -1);
      expect(removed).toEqual(json.decisions.filter((d) => !d.kept).map((d) => d.id));
      expect(removed.length).toBeGreaterThan(2);

      const text = (path: string): string => readFileSync(path, 'utf8');
      const near =
        method === 'adaptive'
          ? (a: string, b: string) => api.decideTexts([text(a), text(b)]).representative[1] === 0
          : method === 'simhash'
          ? (a: string, b: string) => api.numDifferingBits(api.fingerprint(text(a), { weighting: 'binary' }), api.fingerprint(text(b), { weighting: 'binary' })) <= 10
          : (a: string, b: string) => api.estimateJaccard(api.minhash(text(a)), api.minhash(text(b))) >= 0.6;
      for (const decision of json.decisions.filter((d) => !d.kept)) {
        expect(removed).not.toContain(decision.representative);
        expect(near(String(decision.id), String(decision.representative))).toBe(true);
      }
      // Components join the chain, whose ends are far beyond the threshold: nothing to delete by.
      if (method !== 'adaptive') {
        const components = JSON.parse(run([...args, '--groups', 'components', '--json']).stdout) as { groups: { members: { id: string }[] }[] };
        const apacheGroup = components.groups.find((g) => g.members[0]!.id.endsWith(join('apache', '0.txt')))!;
        expect(apacheGroup.members.length).toBeGreaterThanOrEqual(8);
        expect(near(apacheGroup.members[0]!.id, apacheGroup.members.at(-1)!.id)).toBe(false);
      }

      for (const path of removed) rmSync(path);
      const remaining = Object.keys(files).map((f) => join(dir, f)).filter((path) => existsSync(path));
      expect(remaining.length + removed.length).toBe(Object.keys(files).length);
      for (const a of remaining) for (const b of remaining) if (a < b) expect(near(a, b), `${a} ~ ${b}`).toBe(false);
      // Run again on what is left: nothing more to remove.
      expect(run([...args, '--removed']).stdout).toBe('');
    });
  }

  it('decides by length by default: an edited one-line title is found as an edited page is', () => {
    const titles = ['Fix a crash when the configuration file is missing', 'Fix the crash when the configuraton file is missing.', 'Fix a hang when the configuration file is missing', 'Update the Brazilian Portuguese translation'];
    const records = [...titles.map((text, i) => ({ id: `t${i}`, text })), { id: 'page', text: apache }, { id: 'page-edited', text: apache.replace('Apache', 'Apachee') }];
    const input = records.map((r) => JSON.stringify(r)).join('\n');
    const byDefault = JSON.parse(run(['dedup', '-', '--jsonl', '--id', 'id', '--json'], input).stdout) as { method: string; decisions: Decision[] };
    expect(byDefault.method).toBe('adaptive');
    expect(byDefault.decisions.filter((d) => !d.kept).map((d) => [d.id, d.representative])).toEqual([
      ['t1', 't0'],
      ['page-edited', 'page'],
    ]);
    // A hang is not a crash: the line names a different fault, and is kept.
    // SimHash over word 3-shingles misses the edited title: a one-word edit changes most of its shingles.
    const simhash = JSON.parse(run(['dedup', '-', '--jsonl', '--id', 'id', '--json', '--method', 'simhash'], input).stdout) as { decisions: Decision[] };
    expect(simhash.decisions.filter((d) => !d.kept).map((d) => d.id)).toEqual(['page-edited']);
    expect(JSON.parse(run(['dedup', '-', '--jsonl', '--json', '--method', 'simhash', '--distance', '3'], input).stdout)).toMatchObject({ method: 'simhash', distance: 3 });
  });

  it('--keep chooses the document of a family that is kept; the distances are to it', () => {
    const dir = tree('keep', { '1.txt': apache, '2.txt': `${apache} and some more words at the end of it all`, '3.txt': apache.slice(0, -200) });
    const kept = (...extra: string[]): string[] => {
      const report = JSON.parse(run(['dedup', dir, '--method', 'simhash', '--json', ...extra]).stdout) as { decisions: Decision[]; keep: string };
      return report.decisions.filter((d) => d.kept).map((d) => String(d.id).slice(dir.length + 1));
    };
    expect(kept()).toEqual(['1.txt']);
    expect(kept('--keep', 'last')).toEqual(['3.txt']);
    expect(kept('--keep', 'longest')).toEqual(['2.txt']);
    // Characters are code points: ten astral letters (twenty UTF-16 units) are shorter than fifteen ASCII ones.
    const records = [JSON.stringify({ id: 'astral', text: `${mitA} ${'𝒜'.repeat(10)}` }), JSON.stringify({ id: 'ascii', text: `${mitA} abcdefghijklmno` })];
    expect(run(['dedup', '-', '--jsonl', '--id', 'id', '--keep', 'longest', '--removed'], `${records.join('\n')}\n`).stdout).toBe('astral\n');
    expect(kept('--keep', 'shortest')).toEqual(['3.txt']);
    utimesSync(join(dir, '1.txt'), new Date('2020-01-01'), new Date('2020-01-01'));
    utimesSync(join(dir, '2.txt'), new Date('2024-01-01'), new Date('2024-01-01'));
    utimesSync(join(dir, '3.txt'), new Date('2022-01-01'), new Date('2022-01-01'));
    expect(kept('--keep', 'newest')).toEqual(['2.txt']);
    expect(kept('--keep', 'oldest')).toEqual(['1.txt']);
    const table = run(['dedup', dir, '--method', 'simhash', '--keep', 'longest']).stdout;
    expect(table).toMatch(/Group 1 \(3 documents\)\n {2}distance {2}fingerprint {7}document\n {6}kept {2}[0-9a-f]{16} {2}\S*2\.txt\n/);
    expect(table).toContain('keeping the longest');
  });

  it('--keep newest with --jsonl reads each record time from --keep-field, and warns of repeated ids with both places', () => {
    const lines = [
      { id: 'a', t: '2021-05-01T00:00:00Z', text: apache },
      { id: 'b', t: 1_700_000_000_000, text: apache.replace('Apache', 'Apachee') },
      { id: 7, t: 5, text: mpl },
      { id: 7, t: 6, text: mitA },
      { id: 'c', text: mitB },
    ].map((record) => JSON.stringify(record));
    for (const threads of ['1', '2']) {
      const result = run(['dedup', '-', '--jsonl', '--id', 'id', '--method', 'simhash', '--keep', 'newest', '--keep-field', 't', '--json', '--threads', threads], `${lines.join('\n')}\n`);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`skipped <stdin>:5: no number or date in field 't'`);
      expect(result.stderr).toContain('warning: <stdin>:4 has the id 7 of <stdin>:3');
      const report = JSON.parse(result.stdout) as { decisions: Decision[] };
      expect(report.decisions.find((d) => d.id === 'a')).toEqual({ id: 'a', kept: false, representative: 'b', distance: expect.any(Number) as number });
      // An id keeps its JSON type.
      expect(report.decisions.filter((d) => d.id === 7)).toHaveLength(2);
    }
    // The number 7 and the string "7" print alike: the run stops, naming both records.
    const mixed = [...lines.slice(0, 3), JSON.stringify({ id: '7', t: 6, text: mitA })];
    for (const threads of ['1', '2']) {
      const result = run(['dedup', '-', '--jsonl', '--id', 'id', '--method', 'simhash', '--removed', '--threads', threads], `${mixed.join('\n')}\n`);
      expect([result.status, result.stdout]).toEqual([2, '']);
      expect(result.stderr).toContain('--id: <stdin>:3 has the number 7 and <stdin>:4 the string "7", printed alike');
    }
    const lastOnPool = run(['dedup', '-', '--jsonl', '--id', 'id', '--method', 'simhash', '--keep', 'last', '--removed', '--threads', '2'], `${lines.slice(0, 2).join('\n')}\n`);
    expect(lastOnPool.stdout).toBe('a\n');
  });

  it('reads a file reached by several paths once, under its real path, and lists the links as aliases', () => {
    const dir = tree('aliases', { 'GFDL-1.3': licence('gfdl-1.3.txt'), 'gfdl-1.2': licence('gfdl-1.2.txt'), 'other.txt': mitA });
    symlinkSync('GFDL-1.3', join(dir, 'GFDL'));
    linkSync(join(dir, 'other.txt'), join(dir, 'other-hard.txt'));
    const report = JSON.parse(run(['dedup', dir, '--json']).stdout) as { decisions: Decision[]; aliases: { path: string; of: string }[]; documents: number };
    expect(report.documents).toBe(3);
    expect(report.aliases).toEqual([
      { path: join(dir, 'GFDL'), of: join(dir, 'GFDL-1.3') },
      { path: join(dir, 'other.txt'), of: join(dir, 'other-hard.txt') },
    ]);
    expect(report.decisions.map((d) => d.id)).not.toContain(join(dir, 'GFDL'));
    const table = run(['dedup', dir]).stdout;
    expect(table).toContain(`Other paths of files read above (links; removed with their file, never on their own): 2\n  ${join(dir, 'GFDL')} -> ${join(dir, 'GFDL-1.3')}\n`);
    // The same file named twice is read once, and is no alias of itself.
    expect(JSON.parse(run(['dedup', join(dir, 'gfdl-1.2'), join(dir, 'gfdl-1.2'), '--json']).stdout)).toMatchObject({ documents: 1, aliases: [] });
  });

  it('deletes through the documented recipe leaving no link dangling, and a second run finds nothing to remove', () => {
    const dir = tree('recipe', { 'a.txt': mitA, 'b.txt': mitA.replace('Permission', 'Permissions'), 'c.txt': apache });
    symlinkSync('b.txt', join(dir, 'b-link.txt'));
    linkSync(join(dir, 'b.txt'), join(dir, 'b-hard.txt'));
    const removed = run(['dedup', dir, '--removed', '--null']).stdout.split('\0').filter(Boolean);
    expect(removed.sort()).toEqual([join(dir, 'b-hard.txt'), join(dir, 'b-link.txt'), join(dir, 'b.txt')].sort());
    const cli = join(root, 'dist', 'esm', 'cli', 'main.js');
    const recipe = (): ReturnType<typeof spawnSync> =>
      spawnSync('sh', ['-c', `"${process.execPath}" "${cli}" dedup "${dir}" --removed --null | xargs -0 -r rm --`], { encoding: 'utf8' });
    const first = recipe();
    expect([first.status, first.stderr]).toEqual([0, '']);
    expect(readdirSync(dir).sort()).toEqual(['a.txt', 'c.txt']);
    // Nothing left to remove: the recipe runs nothing and succeeds, and the run reads every input.
    const second = recipe();
    expect([second.status, second.stderr]).toEqual([0, '']);
    expect(run(['dedup', dir]).status).toBe(0);
  });

  it('--include and --exclude choose the files read inside directories', () => {
    const dir = tree('globs', { 'a.txt': mitA, 'b.md': mitB, 'sub/c.txt': mitA, 'sub/deep/d.txt': mitB, 'sub/e.log': apache });
    const read = (...extra: string[]): string[] => {
      const report = JSON.parse(run(['dedup', dir, '--json', ...extra]).stdout) as { decisions: Decision[] };
      return report.decisions.map((d) => String(d.id).slice(dir.length + 1)).sort();
    };
    expect(read('--include', '*.txt')).toEqual(['a.txt', 'sub/c.txt', 'sub/deep/d.txt']);
    expect(read('--include', 'sub/**', '--exclude', '*.log')).toEqual(['sub/c.txt', 'sub/deep/d.txt']);
    expect(read('--include', '*.{md,log}')).toEqual(['b.md', 'sub/e.log']);
    // As in .gitignore: a name without / leaves out a directory and everything below it.
    expect(read('--exclude', 'sub')).toEqual(['a.txt', 'b.md']);
    expect(read('--exclude', 'deep/')).toEqual(['a.txt', 'b.md', 'sub/c.txt', 'sub/e.log']);
    expect(read('--exclude', 'sub/*')).toEqual(['a.txt', 'b.md']);
    expect(read('--include', 'sub/*.txt')).toEqual(['sub/c.txt']);
  });

  it.each([
    [['--removed', '--json'], '--removed and --json'],
    [['--null'], '--null ends the lines of --removed'],
    [['--removed', '--groups', 'components'], '--removed needs decisions'],
    [['--keep', 'biggest'], '--keep must be one of'],
    [['--groups', 'cliques'], '--groups must be decisions or components'],
    [['--keep-field', 't'], '--keep-field names the JSON Lines field'],
    [['--jsonl', '--keep', 'oldest'], '--keep oldest with --jsonl needs --keep-field'],
    [['--include', '{a,b'], "--include: the glob '{a,b' has an unclosed '{'"],
    [['--method', 'simhash', '--redis', 'redis://127.0.0.1:1', '--keep', 'last'], '--keep does not apply'],
  ])('%j is a usage error (exit 2)', (extra, message) => {
    const result = run(['dedup', 'x', ...extra]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('lists the removed records of a family of 100,000 identical ones, for both methods, to a slow reader, quietly', () => {
    const records = `${JSON.stringify({ text: mitA })}\n`.repeat(100_000);
    for (const method of ['simhash', 'minhash']) {
      // 1.5 MB of output to a reader that starts late: the pipe fills and drains many times.
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} dedup - --jsonl --method ${method} --removed | (sleep 1; sed -n '1p;$p;$=')`;
      const result = spawnSync('sh', ['-c', command], { cwd: scratch, input: records, encoding: 'utf8', timeout: 60_000 });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toBe('<stdin>:2\n<stdin>:100000\n99999\n');
    }
  });

  it('--output writes the JSON Lines inputs without the removed records, byte for byte, for every method and reading path, standard input included', () => {
    const line = (text: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ text, ...extra });
    // Lines of every kind: near and exact copies, a record without words, a blank line, a line
    // that is not JSON, CRLF, astral and combining characters, and no newline at the end.
    const first = [
      line('Fix a crash when the configuration file is missing', { n: 1 }),
      '',
      line('fix the crash when the configuraton file is missing.', { nested: { a: [1, 2] } }),
      'not json',
      `${line('Update the Brazilian Portuguese translation 😀 e\u0301')}\r`,
      line('* * *'),
      line('Fix a crash when the configuration file is missing', { n: 2 }),
    ].join('\n');
    const second = [line('Update the Brazilian Portuguese translation 😀 e\u0301'), line(mitA), line(mitB), line('A library for parsing TOML files'), ''].join('\n');
    const piped = [line('A library for parsing TOML files'), line('Fix a crash when the configuration file is missing'), line('Unrelated words about gardening in spring'), ''].join('\n');
    const dir = tree('output', { 'a.jsonl': first, 'b.jsonl': second, 'c.jsonl': Buffer.from([0x7b, 0x00, 0x01, 0x0a]) });
    const inputs: [name: string, text: string][] = [[join(dir, 'a.jsonl'), first], [join(dir, 'b.jsonl'), second], ['<stdin>', piped]];
    for (const method of [['--method', 'adaptive'], ['--method', 'simhash'], ['--method', 'simhash', '--threads', '1'], ['--method', 'minhash']]) {
      const out = join(dir, 'kept.jsonl');
      const result = run(['dedup', join(dir, 'a.jsonl'), join(dir, 'b.jsonl'), join(dir, 'c.jsonl'), '-', '--jsonl', '--removed', '--null', '--output', out, ...method], piped);
      expect(result.status, `${method.join(' ')}: exit 1, a line and an input skipped`).toBe(1);
      const removed = new Set(result.stdout.split('\0').filter(Boolean));
      expect(removed.size, method.join(' ')).toBeGreaterThanOrEqual(2);
      // The inputs' lines but the removed records, each ended by a newline; the binary input left out.
      const expected = inputs
        .flatMap(([name, text]) => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').flatMap((l, i) => (removed.has(`${name}:${i + 1}`) ? [] : [`${l}\n`])))
        .join('');
      expect(readFileSync(out, 'utf8'), method.join(' ')).toBe(expected);
      expect(readdirSync(dir).filter((f) => f.includes('partial')), 'no partial file left').toEqual([]);
    }
    // The output may be an input: it is read whole before it is replaced.
    const again = run(['dedup', join(dir, 'a.jsonl'), '--jsonl', '--output', join(dir, 'a.jsonl')]);
    expect(again.status).toBe(1);
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8').split('\n')).toEqual([first.split('\n')[0], '', 'not json', first.split('\n')[4], first.split('\n')[5], '']);
  });

  it('--output refuses what it cannot do, and a run that cannot write it fails naming it, leaving nothing behind', () => {
    const dir = tree('output-refused', { 'a.jsonl': `${JSON.stringify({ text: 'one line' })}\n` });
    const file = join(dir, 'a.jsonl');
    for (const [args, message] of [
      [[file, '--output', join(dir, 'o')], /--output writes the records of JSON Lines input that are kept: add --jsonl/],
      [[file, '--jsonl', '--method', 'simhash', '--groups', 'components', '--output', join(dir, 'o')], /--output needs decisions/],
      [[file, '--jsonl', '--output', '-'], /--output must name a file/],
    ] as const) {
      const result = run(['dedup', ...args]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const missing = run(['dedup', file, '--jsonl', '--output', join(dir, 'no', 'such', 'dir', 'o.jsonl')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot write --output .*o\.jsonl/);
    // A directory fails before anything is read; a pipe named as a file cannot be read twice.
    mkdirSync(join(dir, 'out'));
    const directory = run(['dedup', file, '--jsonl', '--output', join(dir, 'out')]);
    expect([directory.status, directory.stdout]).toEqual([2, '']);
    expect(directory.stderr).toMatch(/cannot write --output .*out: it is a directory/);
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} dedup <(cat ${JSON.stringify(file)}) --jsonl --output ${JSON.stringify(join(dir, 'o.jsonl'))}`;
    const piped = spawnSync('bash', ['-c', command], { cwd: scratch, encoding: 'utf8' });
    expect(piped.status).toBe(2);
    expect(piped.stderr).toMatch(/--output reads its inputs twice, and .* is not a regular file/);
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'out']);
    // A symbolic link as the output stays a link to the file written.
    writeFileSync(join(dir, 'target.jsonl'), 'old\n');
    symlinkSync(join(dir, 'target.jsonl'), join(dir, 'link.jsonl'));
    expect(run(['dedup', file, '--jsonl', '--output', join(dir, 'link.jsonl')]).status).toBe(0);
    expect(readFileSync(join(dir, 'target.jsonl'), 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(lstatSync(join(dir, 'link.jsonl')).isSymbolicLink()).toBe(true);
  });

  it('--output copies records across the megabyte reads of a large input, dropped and kept lines spanning them', () => {
    // 40 records of 100–300 KB, a third of them copies of an earlier one: lines cross every read.
    const records: string[] = [];
    for (let i = 0; i < 40; i++) {
      const copy = i % 3 === 2;
      const text = copy ? JSON.parse(records[i - 2]!).text : `${mitA} ${'word'.repeat(25_000 + 12_500 * (i % 5))} ${i}`;
      records.push(JSON.stringify({ text, i }));
    }
    const dir = tree('output-large', { 'big.jsonl': `${records.join('\n')}\n` });
    const result = run(['dedup', join(dir, 'big.jsonl'), '--jsonl', '--removed', '--output', join(dir, 'kept.jsonl')]);
    expect(result.status).toBe(0);
    const removed = new Set(result.stdout.split('\n').filter(Boolean));
    expect(removed.size).toBeGreaterThanOrEqual(10);
    const expected = records.filter((_, i) => !removed.has(`${join(dir, 'big.jsonl')}:${i + 1}`)).map((r) => `${r}\n`).join('');
    expect(readFileSync(join(dir, 'kept.jsonl'), 'utf8')).toBe(expected);
  });

  it('skips a JSON Lines record longer than the longest string JavaScript holds, names it, and reads the records after it, on every reading path', () => {
    const path = join(scratch, 'huge-record.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, '{"id":"a","text":"the first record of the file"}\n{"id":"huge","text":"');
    const block = Buffer.alloc(1 << 24, 'x');
    // 33 × 16 MiB: more bytes than V8's longest string (2^29 − 24 characters).
    for (let i = 0; i < 33; i++) writeSync(fd, block);
    writeSync(fd, '"}\n{"id":"c","text":"the first record of the file"}\n{"id":"d","text":"one more record"}');
    closeSync(fd);
    try {
      // Adaptive and MinHash read on this thread; SimHash hands the bytes to the pool's workers.
      for (const method of [['--method', 'adaptive'], ['--method', 'minhash'], ['--method', 'simhash'], ['--method', 'simhash', '--threads', '1']]) {
        const result = run(['dedup', path, '--jsonl', '--id', 'id', '--json', ...method]);
        expect(result.stderr, method.join(' ')).toMatch(/skipped .*huge-record\.jsonl:2: a line of 553,648,1\d\d (bytes|characters), longer than the longest string JavaScript can hold/);
        const report = JSON.parse(result.stdout) as { documents: number };
        expect(report.documents, method.join(' ')).toBe(3);
        expect(result.status, 'exit 1: an input was skipped').toBe(1);
      }
    } finally {
      rmSync(path);
    }
  }, 120_000);

  it('--redis without ioredis installed says to install it, before reading anything', () => {
    // The built command alone, where no node_modules can provide ioredis.
    const alone = join(scratch, 'no-ioredis');
    mkdirSync(alone, { recursive: true });
    cpSync(join(root, 'dist'), join(alone, 'dist'), { recursive: true });
    writeFileSync(join(alone, 'package.json'), readFileSync(join(root, 'package.json')));
    const result = spawnSync(process.execPath, [join(alone, 'dist', 'esm', 'cli', 'main.js'), 'dedup', corpus, '--method', 'simhash', '--redis', 'redis://127.0.0.1:1'], { encoding: 'utf8' });
    expect(result.stderr).toBe('simhash-wasm: --redis needs the ioredis package, an optional peer dependency: npm install ioredis\n');
    expect(result.status).toBe(2);
  });

  it('exit status tells a usage error, no document read and some inputs skipped apart', () => {
    const dir = tree('status', { 'a.txt': mitA });
    expect(run(['dedup', dir]).status).toBe(0);
    expect(run(['dedup', dir, join(dir, 'missing.txt')]).status).toBe(1);
    expect(run(['dedup', join(dir, 'missing.txt')]).status).toBe(3);
    expect(run(['dedup']).status).toBe(2);
  });
});
