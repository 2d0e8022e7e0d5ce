// `simhash-wasm dedup --redis URL --index NAME` (the built command line, as users run it) against
// a real cluster, by SimHash and by the default rule: one process decides as the plain command
// does, and several processes running at once over parts of the input keep the rule between them;
// `--compact` leaves the default method's and MinHash's logs compacted, and later runs answer alike.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SplitMix64 } from '../oracle.js';
import { clientOf, uniqueName, useServers } from './servers.js';

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
  decisions: { id: string; kept: boolean; representative?: string; distance?: number }[];
}

/** Each document's decision, from the reports of every process. */
function decisionsOf(reports: readonly Report[]): Map<string, Report['decisions'][number]> {
  const all = new Map<string, Report['decisions'][number]>();
  for (const report of reports) {
    for (const decision of report.decisions) {
      // A process lists the representatives other processes kept as kept documents too.
      if (all.has(decision.id) && decision.kept && !all.get(decision.id)!.kept) continue;
      all.set(decision.id, decision);
    }
  }
  return all;
}

/** The log under `base` (`prefix:{name}`) holds no entry and starts from a snapshot; disconnects `check`. */
async function expectCompacted(check: Awaited<ReturnType<typeof clientOf>>, base: string): Promise<void> {
  try {
    expect(await check.llen(`${base}:log`)).toBe(0);
    expect(await check.get(`${base}:start`)).toMatch(/^[1-9]\d* /);
  } finally {
    check.disconnect();
  }
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
  const options = ['--jsonl', '--id', 'id', '--json', '--method', 'simhash', '--distance', '6'];

  it('decides as the plain command does from one process, and keeps the rule with several at once', async () => {
    const api = await import('../../ts/index.js');
    await api.init();
    const textOf = new Map(lines.map((line) => JSON.parse(line) as { id: string; text: string }).map((r) => [r.id, r.text]));
    const bits = (a: string, b: string): number =>
      api.numDifferingBits(api.fingerprint(textOf.get(a)!, { weighting: 'binary' }), api.fingerprint(textOf.get(b)!, { weighting: 'binary' }));
    /** The rule's guarantees over the decisions of every process. */
    const expectTheRule = (decisions: Map<string, Report['decisions'][number]>): string[] => {
      expect([...decisions.keys()].sort()).toEqual([...textOf.keys()].sort());
      const kept = [...decisions.values()].filter((d) => d.kept).map((d) => d.id);
      for (const d of decisions.values()) {
        if (d.kept) continue;
        expect(decisions.get(d.representative!)?.kept, d.id).toBe(true);
        expect(bits(d.id, d.representative!)).toBe(d.distance);
        expect(d.distance).toBeLessThanOrEqual(6);
      }
      for (const a of kept) for (const b of kept) if (a < b) expect(bits(a, b), `${a} ~ ${b}`).toBeGreaterThan(6);
      return kept.sort();
    };

    const plain = runSync([all, ...options]);
    expect(plain.status, plain.stderr).toBe(0);
    const expected = JSON.parse(plain.stdout) as Report;
    expect(expected.groups.length).toBeGreaterThan(10);

    const one = runSync([all, ...options, '--redis', servers().url, '--index', uniqueName('cli-one')]);
    expect(one.status, one.stderr).toBe(0);
    expect((JSON.parse(one.stdout) as Report).decisions).toEqual(expected.decisions);

    // Four processes at once, each with a quarter of the documents, take turns a batch at a time.
    const index = uniqueName('cli-many');
    const parts = [0, 1, 2, 3].map((p) => file(`part-${p}.jsonl`, lines.filter((_, k) => k % 4 === p)));
    const reports = await Promise.all(parts.map((part) => runAsync([part, ...options, '--redis', servers().url, '--index', index])));
    const kept = expectTheRule(decisionsOf(reports));

    // Run again over everything, the shared index holding what was kept: the same documents
    // stay kept, and every other one is removed for one of them.
    const again = runSync([all, ...options, '--redis', servers().url, '--index', index]);
    expect(again.status, again.stderr).toBe(0);
    expect(expectTheRule(decisionsOf([JSON.parse(again.stdout) as Report]))).toEqual(kept);
  }, 120_000);

  it('decides by the default rule through a RedisTextIndex: from one process as the plain command, from four at once as one run in the order of the log', async () => {
    const api = await import('../../ts/index.js');
    await api.init();
    const { decodeEntry } = await import('../../ts/redis/log-format.js');
    // Real short lines with their recorded edits and some exact copies, shuffled.
    const rows = readFileSync(join(root, 'quality', 'sets', 'short-lines.jsonl'), 'utf8').trim().split('\n').slice(0, 300)
      .map((line) => JSON.parse(line) as { id: string; text: string; edit1: string; edit2: string });
    const rng = new SplitMix64(5n);
    const records = rows.flatMap((row) => [
      { id: `${row.id}`, text: row.text },
      ...(rng.below(2) === 0 ? [{ id: `${row.id}-e1`, text: row.edit1 }] : []),
      ...(rng.below(4) === 0 ? [{ id: `${row.id}-copy`, text: row.text }] : []),
    ]);
    for (let k = records.length - 1; k > 0; k--) {
      const j = rng.below(k + 1);
      [records[k], records[j]] = [records[j]!, records[k]!];
    }
    const texts = file('lines.jsonl', records.map((r) => JSON.stringify(r)));
    const textOf = new Map(records.map((r) => [r.id, r.text]));
    const flags = ['--jsonl', '--id', 'id', '--json'];
    const plain = runSync([texts, ...flags]);
    expect(plain.status, plain.stderr).toBe(0);
    const expected = (JSON.parse(plain.stdout) as Report).decisions;
    expect(expected.filter((d) => !d.kept).length).toBeGreaterThan(50);
    const one = runSync([texts, ...flags, '--redis', servers().url, '--index', uniqueName('cli-text-one')]);
    expect(one.status, one.stderr).toBe(0);
    const simplified = (decisions: Report['decisions']): unknown[] => decisions.map((d) => [d.id, d.kept, d.representative]);
    expect(simplified((JSON.parse(one.stdout) as Report).decisions)).toEqual(simplified(expected));

    const index = uniqueName('cli-text-many');
    const parts = [0, 1, 2, 3].map((p) => file(`lines-${p}.jsonl`, records.filter((_, k) => k % 4 === p).map((r) => JSON.stringify(r))));
    const reports = await Promise.all(parts.map((part) => runAsync([part, ...flags, '--redis', servers().url, '--index', index])));
    // The log's order of documents, named through the registry, decided in one run.
    const client = await clientOf(servers());
    try {
      const key = `textindex:{${index}}:log`;
      const order = (await client.lrangeBuffer(key, 0, -1)).flatMap((bytes, k) => Array.from(decodeEntry(bytes, key, k).entry.ids));
      const names = await client.hmget(`textindex:{${index}}:ids`, ...order.map(String));
      const oneRun = api.decideTexts(names.map((name) => textOf.get(name!)!));
      const wanted = new Map(names.map((name, k) => [name!, names[oneRun.representative[k]!]!]));
      const got = decisionsOf(reports);
      expect(got.size).toBe(records.length);
      for (const [id, decision] of got) expect([id, decision.kept ? id : decision.representative]).toEqual([id, wanted.get(id)]);
    } finally {
      client.disconnect();
    }
    // Run again over everything: each document is answered as it was decided, not decided again
    // (the rule counts what it decides, so deciding twice would drift).
    const again = runSync([texts, ...flags, '--redis', servers().url, '--index', index]);
    expect(again.status, again.stderr).toBe(0);
    const before = new Map([...decisionsOf(reports)].map(([id, d]) => [id, d.kept ? id : d.representative]));
    const after = new Map([...decisionsOf([JSON.parse(again.stdout) as Report])].map(([id, d]) => [id, d.kept ? id : d.representative]));
    expect(after).toEqual(before);
    // With --compact the run leaves the log compacted; the next run, from its start, answers alike.
    const compacted = runSync([texts, ...flags, '--redis', servers().url, '--index', index, '--compact']);
    expect(compacted.status, compacted.stderr).toBe(0);
    await expectCompacted(await clientOf(servers()), `textindex:{${index}}`);
    const later = runSync([texts, ...flags, '--redis', servers().url, '--index', index]);
    expect(later.status, later.stderr).toBe(0);
    for (const run of [compacted, later]) {
      expect(new Map([...decisionsOf([JSON.parse(run.stdout) as Report])].map(([id, d]) => [id, d.kept ? id : d.representative]))).toEqual(before);
    }
  }, 180_000);

  it('decides by MinHash through a RedisMinHashIndex: from one process as the plain command; four at once keep the rule; a run again answers as decided', async () => {
    const flags = [all, '--jsonl', '--id', 'id', '--json', '--method', 'minhash', '--threshold', '0.8'];
    const plain = runSync(flags);
    expect(plain.status, plain.stderr).toBe(0);
    const expected = (JSON.parse(plain.stdout) as Report).decisions;
    expect(expected.filter((d) => !d.kept).length).toBeGreaterThan(10);
    const simplified = (decisions: Iterable<Report['decisions'][number]>): unknown[] => [...decisions].map((d) => [d.id, d.kept, d.representative]).sort();
    const one = runSync([...flags, '--redis', servers().url, '--index', uniqueName('cli-minhash-one')]);
    expect(one.status, one.stderr).toBe(0);
    expect(simplified((JSON.parse(one.stdout) as Report).decisions)).toEqual(simplified(expected));
    const index = uniqueName('cli-minhash-many');
    const parts = [0, 1, 2, 3].map((p) => file(`minhash-part-${p}.jsonl`, lines.filter((_, k) => k % 4 === p)));
    const reports = await Promise.all(parts.map((part) => runAsync([part, ...flags.slice(1), '--redis', servers().url, '--index', index])));
    const decided = decisionsOf(reports);
    expect(decided.size).toBe(lines.length);
    for (const d of decided.values()) if (!d.kept) expect(decided.get(d.representative!)?.kept, d.id).toBe(true);
    const again = runSync([...flags, '--redis', servers().url, '--index', index]);
    expect(again.status, again.stderr).toBe(0);
    expect(simplified(decisionsOf([JSON.parse(again.stdout) as Report]).values())).toEqual(simplified(decided.values()));
    // With --compact the log starts from a snapshot; a later run answers alike from it.
    const compacted = runSync([...flags, '--redis', servers().url, '--index', index, '--compact']);
    expect(compacted.status, compacted.stderr).toBe(0);
    await expectCompacted(await clientOf(servers()), `minhashindex:{${index}}`);
    const later = runSync([...flags, '--redis', servers().url, '--index', index]);
    expect(later.status, later.stderr).toBe(0);
    for (const run of [compacted, later]) expect(simplified(decisionsOf([JSON.parse(run.stdout) as Report]).values())).toEqual(simplified(decided.values()));
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

  it('refuses two documents of one name, which would share one entry of the shared index', () => {
    const twice = file('twice.jsonl', [JSON.stringify({ id: 'x', text: 'one text here' }), JSON.stringify({ id: 'x', text: 'another text entirely' })]);
    const result = runSync([twice, '--jsonl', '--id', 'id', '--method', 'simhash', '--redis', servers().url, '--index', uniqueName('twice')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--redis: documents 1 and 2 are both named 'x'");
  });

  it('refuses --index without --redis, and a URL that is not redis://', () => {
    const noUrl = runSync([all, '--index', 'x']);
    expect(noUrl.status).toBe(2);
    expect(noUrl.stderr).toMatch(/--index names a shared index: add --redis URL/);
    const badUrl = runSync([all, '--method', 'simhash', '--redis', 'http://127.0.0.1:1']);
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toMatch(/--redis must be a redis:\/\/ URL/);
    const compactAlone = runSync([all, '--compact']);
    expect([compactAlone.status, compactAlone.stderr]).toEqual([2, expect.stringMatching(/--compact compacts a shared index: add --redis URL/)]);
    const compactSimHash = runSync([all, '--method', 'simhash', '--redis', 'redis://127.0.0.1:1', '--compact']);
    expect([compactSimHash.status, compactSimHash.stderr]).toEqual([2, expect.stringMatching(/--method simhash keeps none to compact/)]);
  });

  it('fails in bounded time, naming the server and the reason, when it is down or frozen', async () => {
    const down = runSync([all, ...options, '--redis', 'redis://127.0.0.1:1', '--index', uniqueName('down')]);
    expect(down.status).toBe(2);
    expect(down.stderr).toContain('could not connect to Redis at redis://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1');
    expect(down.stderr).not.toContain('Unhandled error event');
    const node = servers().nodes[0]!;
    node.pause();
    let frozen: ReturnType<typeof runSync>;
    const started = Date.now();
    try {
      frozen = runSync([all, ...options, '--redis', servers().url, '--index', uniqueName('frozen')]);
    } finally {
      node.resume();
    }
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(frozen.status).toBe(2);
    expect(frozen.stderr).toContain(`could not connect to Redis at ${servers().url}: no answer within 5000 ms`);
    await servers().waitHealthy(30_000);
  }, 60_000);
});
