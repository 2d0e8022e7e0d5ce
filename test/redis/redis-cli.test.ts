// `simhash-wasm dedup --redis URL --index NAME` (the built command line, as users run it) against
// a real cluster: one process gives the groups the plain command gives, and several processes
// running at once over parts of the input give, merged, the same groups.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SplitMix64 } from '../oracle.js';
import { uniqueName, useServers } from './servers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist', 'esm', 'cli', 'main.js');
const scratch = mkdtempSync(join(tmpdir(), 'simhash-redis-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** JSON Lines documents: families of edited copies of a random text, and unrelated texts. */
function corpus(): string[] {
  const rng = new SplitMix64(42n);
  const words = Array.from({ length: 400 }, (_, k) => `w${k.toString(36)}`);
  const text = (length: number): string[] => Array.from({ length }, () => words[rng.below(words.length)]!);
  const lines: string[] = [];
  for (let family = 0; family < 30; family++) {
    const base = text(120);
    const copies = 1 + rng.below(4);
    for (let c = 0; c < copies; c++) {
      const copy = base.slice();
      if (c > 0) copy[rng.below(copy.length)] = words[rng.below(words.length)]!;
      lines.push(JSON.stringify({ id: `doc-${family}-${c}`, text: copy.join(' ') }));
    }
  }
  for (let k = 0; k < 40; k++) lines.push(JSON.stringify({ id: `single-${k}`, text: text(120).join(' ') }));
  // Shuffled so that each part given to a process holds pieces of many families.
  for (let k = lines.length - 1; k > 0; k--) {
    const j = rng.below(k + 1);
    [lines[k], lines[j]] = [lines[j]!, lines[k]!];
  }
  return lines;
}

function file(name: string, lines: readonly string[]): string {
  const path = join(scratch, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

interface Report {
  groups: { members: { id: string; distance: number }[] }[];
}

/** Groups as sorted lists of ids, sorted, for comparing runs. */
function groupsOf(reports: readonly Report[]): string[][] {
  // Merge groups sharing a document: what every process saw, put together.
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let at = id;
    while (parent.get(at) !== at) at = parent.get(at)!;
    return at;
  };
  for (const report of reports) {
    for (const group of report.groups) {
      const ids = group.members.map((member) => member.id);
      for (const id of ids) if (!parent.has(id)) parent.set(id, id);
      for (const id of ids.slice(1)) parent.set(find(id), find(ids[0]!));
    }
  }
  const byRoot = new Map<string, string[]>();
  for (const id of parent.keys()) byRoot.set(find(id), [...(byRoot.get(find(id)) ?? []), id]);
  return Array.from(byRoot.values(), (ids) => ids.sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

function runSync(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, 'dedup', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runAsync(args: readonly string[]): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'dedup', ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout) as Report) : reject(new Error(`dedup exited ${code}: ${stderr}`))));
  });
}

describe('dedup --redis', () => {
  const servers = useServers('cluster');
  const lines = corpus();
  const all = file('all.jsonl', lines);
  const options = ['--jsonl', '--id', 'id', '--json', '--distance', '6'];

  it('gives the groups of the plain command, from one process or from several at once', async () => {
    const plain = runSync([all, ...options]);
    expect(plain.status, plain.stderr).toBe(0);
    const expected = groupsOf([JSON.parse(plain.stdout) as Report]);
    expect(expected.length).toBeGreaterThan(10);

    const one = runSync([all, ...options, '--redis', servers().url, '--index', uniqueName('cli-one')]);
    expect(one.status, one.stderr).toBe(0);
    expect(groupsOf([JSON.parse(one.stdout) as Report])).toEqual(expected);

    const index = uniqueName('cli-many');
    const parts = [0, 1, 2, 3].map((p) => file(`part-${p}.jsonl`, lines.filter((_, k) => k % 4 === p)));
    const reports = await Promise.all(parts.map((part) => runAsync([part, ...options, '--redis', servers().url, '--index', index])));
    expect(groupsOf(reports)).toEqual(expected);

    // Run again over everything, the shared index already holding it all: the same groups,
    // each led by its smallest id (every member of a group lists its distance from the first).
    const again = runSync([all, ...options, '--redis', servers().url, '--index', index]);
    expect(again.status, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout) as Report;
    expect(groupsOf([report])).toEqual(expected);
    expect(report.groups.every((group) => group.members[0]!.distance === 0)).toBe(true);
  }, 120_000);

  it('runs the example crawler loop', () => {
    const name = uniqueName('crawler');
    const run = (): string => spawnSync(process.execPath, [join(root, 'examples', 'crawler-redis.mjs'), servers().url, name], { encoding: 'utf8', timeout: 60_000 }).stdout;
    const first = run().split('\n');
    expect(first[0]).toMatch(/^page (\d+): new$/);
    const original = /^page (\d+)/.exec(first[0]!)![1];
    expect(first[1]).toMatch(new RegExp(`^page \\d+: near-duplicate of ${original} \\(\\d bits apart\\)$`));
    expect(first[2]).toMatch(/: new$/);
    expect(first[3]).toBe(`3 pages in index '${name}'`);
    // A second crawler finds every page of the first.
    const second = run().split('\n');
    expect(second.slice(0, 3).every((line) => / near-duplicate of \d+ \(0 bits apart\)$/.test(line))).toBe(true);
    expect(second[3]).toBe(`6 pages in index '${name}'`);
  });

  it('refuses --index without --redis, and a URL that is not redis://', () => {
    const noUrl = runSync([all, '--index', 'x']);
    expect(noUrl.status).toBe(2);
    expect(noUrl.stderr).toMatch(/--index names a shared index: add --redis URL/);
    const badUrl = runSync([all, '--redis', 'http://127.0.0.1:1']);
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toMatch(/--redis must be a redis:\/\/ URL/);
  });
});
