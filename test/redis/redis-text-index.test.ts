/**
 * RedisTextIndex against real servers: decisions through Redis — from several objects, several
 * processes, on one server and on a cluster — equal decideTexts over the texts in the log's order;
 * replicas that missed entries, lost writes and repaired logs are rebuilt; corrupt entries are
 * named and cut by repair(); lost replies and a master killed mid-load lose no acknowledged write,
 * and a write that failed completes when made again.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster, Redis } from 'ioredis';
import { TextIndex, decideTexts, init } from '../../ts/index.js';
import { RedisIndexError, RedisTextIndex, connectRedis } from '../../ts/redis/index.js';
import { APPEND, CONFIRM, TRUNCATE, decodeEntry } from '../../ts/redis/log-format.js';
import { COMPACT, NAME_SNAPSHOT } from '../../ts/redis/snapshot.js';
import { SplitMix64 } from '../oracle.js';
import { aroundScripts, clientOf, uniqueName, useClients, useLossyRelay, useServers } from './servers.js';

/** Real lines, their recorded edits and exact copies, in a seeded order. */
function stream(seed: bigint, n: number): string[] {
  const rows = readFileSync(new URL('../../quality/sets/short-lines.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { text: string; edit1: string; edit2: string });
  const rng = new SplitMix64(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const kind = rng.below(10);
    if (kind === 0 && out.length > 0) out.push(out[rng.below(out.length)]!);
    else if (kind === 1) out.push('');
    else {
      const row = rows[rng.below(rows.length)]!;
      out.push([row.text, row.text, row.edit1, row.edit2][rng.below(4)]!);
    }
  }
  return out;
}

/** The position a compacted log of index `name` starts from (0 for one never compacted). */
async function startOf(client: Redis | Cluster, name: string): Promise<number> {
  return Number(((await client.get(`textindex:{${name}}:start`)) ?? '0').split(' ')[0]);
}

/**
 * `client` with each compaction of index `name` reading first the entries it is about to drop
 * (appends after it leave them alone) into `dropped`, by position: with what
 * the log holds at the end, the whole history.
 */
function keepingDropped(client: Redis | Cluster, name: string): { client: Redis | Cluster; dropped: Map<number, Buffer> } {
  const dropped = new Map<number, Buffer>();
  const around = aroundScripts(client, [COMPACT], async (script, run) => {
    if (script === COMPACT) {
      const start = await startOf(client, name);
      (await client.lrangeBuffer(`textindex:{${name}}:log`, 0, -1)).forEach((bytes, k) => dropped.set(start + k, bytes));
    }
    return run();
  });
  return { client: around, dropped };
}

/** The ids and texts of the log's decided entries, in the log's order (those a compaction dropped from `dropped`). */
async function loggedOrder(client: Redis | Cluster, name: string, dropped = new Map<number, Buffer>()): Promise<{ ids: number[]; texts: string[]; representative: number[] }> {
  const key = `textindex:{${name}}:log`;
  const start = await startOf(client, name);
  const raw = [...Array.from({ length: start }, (_, position) => dropped.get(position)!), ...(await client.lrangeBuffer(key, 0, -1))];
  const out = { ids: [] as number[], texts: [] as string[], representative: [] as number[] };
  raw.forEach((bytes, position) => {
    const { entry } = decodeEntry(bytes, key, position);
    if (entry.kind !== 'decided') throw new Error(`unexpected ${entry.kind} entry`);
    out.ids.push(...entry.ids);
    out.texts.push(...entry.items.map((item) => item.toString('utf8')));
    out.representative.push(...entry.representative);
  });
  return out;
}

/** decideTexts over the logged texts, its positions turned into the logged ids. */
function batchOver(order: { ids: number[]; texts: string[] }): number[] {
  const decided = decideTexts(order.texts);
  return Array.from(decided.representative, (position) => order.ids[position]!);
}

/** The ids `from .. to`. */
function ids(from: number, to: number): Uint32Array {
  return Uint32Array.from({ length: to - from }, (_, q) => from + q);
}

/** Flips byte `at(length)` of element `position` of list `key`; what it returns puts it back. */
async function flipByte(client: Redis | Cluster, key: string, position: number, at: (length: number) => number): Promise<() => Promise<unknown>> {
  const bytes = (await client.lindexBuffer(key, position))!;
  const spoilt = Buffer.from(bytes);
  const k = at(bytes.length);
  spoilt[k] = spoilt[k]! ^ 0xff;
  await client.lset(key, position, spoilt);
  return () => client.lset(key, position, bytes);
}

async function expectRejects(promise: Promise<unknown>, kind: string, pattern: RegExp): Promise<RedisIndexError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RedisIndexError);
  expect((error as RedisIndexError).kind).toBe(kind);
  expect((error as RedisIndexError).message).toMatch(pattern);
  return error as RedisIndexError;
}

const dist = (path: string): string => JSON.stringify(new URL(`../../dist/esm/${path}`, import.meta.url).href);

/** A process that decides `texts` under `ids` in batches of `batch` through index `name` and prints its answers. */
function deciderProcess(url: string, name: string, replicas: number, ids: number[], texts: string[], batch: number): Promise<{ ids: number[]; representative: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'text-index-'));
  const input = join(dir, 'input.json');
  writeFileSync(input, JSON.stringify({ ids, texts }));
  const script = `
    import { readFileSync } from 'node:fs';
    import { connectRedis, RedisTextIndex } from ${dist('redis/index.js')};
    const { ids, texts } = JSON.parse(readFileSync(${JSON.stringify(input)}, 'utf8'));
    const client = await connectRedis(${JSON.stringify(url)});
    const index = await RedisTextIndex.open({ client, name: ${JSON.stringify(name)}, replicas: ${replicas} });
    const representative = [];
    for (let start = 0; start < ids.length; start += ${batch}) {
      // A failed call (a write its replica did not confirm in time, on two busy cores) is made again.
      for (let attempt = 0; ; attempt++) {
        try {
          const got = await index.decideMany(Uint32Array.from(ids.slice(start, start + ${batch})), texts.slice(start, start + ${batch}));
          representative.push(...got.representative);
          break;
        } catch (error) {
          if (error.name !== 'RedisIndexError' || attempt === 20) throw error;
        }
      }
    }
    index.close();
    client.disconnect();
    process.stdout.write(JSON.stringify({ ids, representative }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.stderr.on('data', (chunk) => (err += String(chunk)));
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code === 0) resolve(JSON.parse(out) as { ids: number[]; representative: number[] });
      else reject(new Error(`decider exited ${code}: ${err}`));
    });
  });
}

beforeAll(async () => {
  await init();
});

for (const kind of ['single', 'cluster'] as const) {
  describe(`RedisTextIndex on ${kind === 'single' ? 'one server' : 'a cluster of 3 masters + 3 replicas'}`, () => {
    const servers = useServers(kind);
    const replicas = kind === 'cluster' ? 1 : 0;
    const clients = useClients(servers, 2);
    let client: Redis | Cluster;
    let other: Redis | Cluster;
    beforeAll(() => ([client, other] = clients() as [Redis | Cluster, Redis | Cluster]));

    it('decides batches from two objects, taking turns at random, as decideTexts over the stream; queries agree with a TextIndex fed the same', async () => {
      const texts = stream(BigInt(kind === 'single' ? 1 : 2), 1500);
      const name = uniqueName('texts');
      const a = await RedisTextIndex.open({ client, name, replicas });
      const b = await RedisTextIndex.open({ client: other, name, replicas });
      const local = new TextIndex();
      try {
        const rng = new SplitMix64(7n);
        const representative = new Uint32Array(texts.length);
        for (let start = 0; start < texts.length; ) {
          const end = Math.min(texts.length, start + rng.below(150));
          const ids = Uint32Array.from({ length: end - start }, (_, q) => start + q);
          const writer = rng.below(2) === 0 ? a : b;
          const got = await writer.decideMany(ids, texts.slice(start, end));
          representative.set(got.representative, start);
          expect(Array.from(got.representative)).toEqual(Array.from(local.decideMany(ids, texts.slice(start, end)).representative));
          const probe = texts[rng.below(texts.length)]!;
          const reader = writer === a ? b : a;
          expect(await reader.query(probe)).toEqual(local.query(probe));
          start = end;
        }
        expect(Array.from(representative)).toEqual(Array.from(decideTexts(texts).representative));
        for (const index of [a, b]) {
          expect(await index.size()).toBe(local.size);
          expect(await index.decided()).toBe(texts.length);
        }
        const order = await loggedOrder(client, name);
        expect(order.representative).toEqual(batchOver(order));
      } finally {
        a.close();
        b.close();
        local.free();
      }
    }, 120_000);

    it('four processes deciding at once, while a fifth compacts the log again and again, decide as decideTexts over the texts in the order of the log', async () => {
      const texts = stream(BigInt(kind === 'single' ? 3 : 4), 2400);
      const name = uniqueName('procs');
      const compacting = keepingDropped(client, name);
      const compactor = await RedisTextIndex.open({ client: compacting.client, name, replicas });
      let done = false;
      let compactions = 0;
      const compactLoop = (async () => {
        while (!done) {
          if ((await compactor.compact()).dropped > 0) compactions++;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      let answers: { ids: number[]; representative: number[] }[];
      try {
        answers = await Promise.all(
          [0, 1, 2, 3].map((p) => {
            const ids = texts.map((_, i) => i).filter((i) => i % 4 === p);
            return deciderProcess(servers().url, name, replicas, ids, ids.map((i) => texts[i]!), 40 + 20 * p);
          }),
        );
      } finally {
        done = true;
        await compactLoop;
        compactor.close();
      }
      expect(compactions).toBeGreaterThan(0);
      expect(await startOf(client, name)).toBeGreaterThan(0);
      const order = await loggedOrder(client, name, compacting.dropped);
      expect(order.ids.slice().sort((x, y) => x - y)).toEqual(texts.map((_, i) => i));
      const expected = new Map(batchOver(order).map((rep, k) => [order.ids[k]!, rep]));
      for (const answer of answers) answer.ids.forEach((id, q) => expect([id, answer.representative[q]]).toEqual([id, expected.get(id)]));
      // A process opening the index afterwards holds what they kept.
      const late = await RedisTextIndex.open({ client, name });
      try {
        expect(await late.size()).toBe(new Set(expected.values()).size);
      } finally {
        late.close();
      }
    }, 180_000);

    it('adds, removes and replays: a reopened index answers as the one that wrote', async () => {
      const name = uniqueName('ops');
      const a = await RedisTextIndex.open({ client, name, templates: 'remove', replicas });
      try {
        await a.addMany(Uint32Array.of(10, 11), ['Stub TypeScript definitions entry for ajv', 'A functional CSS framework']);
        await a.add(12, 'Fast JSON schema validator');
        const decided = await a.decideMany(Uint32Array.of(13, 14), ['Stub TypeScript definitions entry for conf', 'A functional CSS framework.']);
        expect(Array.from(decided.representative)).toEqual([10, 11]);
        expect(await a.remove(11)).toBe(true);
        expect(await a.remove(11)).toBe(false);
        const b = await RedisTextIndex.open({ client: other, name });
        try {
          expect(b.templates).toBe('remove');
          expect(await b.has(11)).toBe(false);
          expect(await b.has(12)).toBe(true);
          expect(Array.from(await b.hasMany(Uint32Array.of(10, 11, 12, 13, 14, 99)))).toEqual([1, 0, 1, 0, 0, 0]);
          expect(await b.size()).toBe(2);
          expect((await b.query('A functional CSS framework')).ids.length).toBe(0);
          expect(Array.from((await b.query('stub typescript definitions entry for ajv')).ids)).toEqual([10]);
          // An id held by a kept text is refused; removed ones may come back.
          await expect(b.decideMany(Uint32Array.of(12), ['x'])).rejects.toThrow(/ids\[0\] = 12 is held by a kept text/);
          await b.add(11, 'Another CSS framework');
          expect(await a.has(11)).toBe(true);
        } finally {
          b.close();
        }
      } finally {
        a.close();
      }
    }, 60_000);

    it("with known: 'answer', decides each text once: ids decided before are answered as then, the others decided", async () => {
      const texts = stream(BigInt(kind === 'single' ? 13 : 14), 400);
      const name = uniqueName('answer');
      const a = await RedisTextIndex.open({ client, name, replicas });
      const b = await RedisTextIndex.open({ client: other, name });
      try {
        const first = await a.decideMany(Uint32Array.from({ length: 300 }, (_, q) => q), texts.slice(0, 300));
        const decided = await a.decided();
        // Ids 200..399 again and anew, from another process: 200..299 answered, 300..399 decided.
        const ids = Uint32Array.from({ length: 200 }, (_, q) => 200 + q);
        const again = await b.decideMany(ids, texts.slice(200, 400), { known: 'answer' });
        expect(Array.from(again.representative.subarray(0, 100))).toEqual(Array.from(first.representative.subarray(200, 300)));
        expect(Array.from(again.similarity.subarray(0, 100))).toEqual(Array.from(first.similarity.subarray(200, 300)));
        expect(await a.decided()).toBe(decided + 100);
        expect(Array.from((await a.decideMany(ids, texts.slice(200, 400), { known: 'answer' })).representative)).toEqual(Array.from(again.representative));
        expect(await b.decided()).toBe(decided + 100);
        // Over everything, what one run over the 400 texts decides.
        expect([...first.representative.subarray(0, 200), ...again.representative]).toEqual(Array.from(decideTexts(texts).representative));
        // A removed id is decided anew.
        const kept = ids.find((id, q) => again.representative[q] === id)!;
        expect(await a.remove(kept)).toBe(true);
        expect(await b.decided()).toBe(decided + 100);
        await b.decideMany(Uint32Array.of(kept), ['an entirely new line about something else'], { known: 'answer' });
        expect(await a.decided()).toBe(decided + 101);
        await expect(b.decideMany(Uint32Array.of(1), ['x'], { known: 'sometimes' as never })).rejects.toThrow(/options.known must be 'refuse' or 'answer'/);
        // A call waiting for its turn when the index is closed fails, naming it.
        const waiting = b.size();
        b.close();
        await expect(waiting).rejects.toThrow(/has been closed/);
      } finally {
        a.close();
        b.close();
      }
    }, 60_000);

    it('opens from a snapshot, replaying only the entries after it, and passes over one that is damaged or that the log no longer holds', async () => {
      const texts = stream(BigInt(kind === 'single' ? 15 : 16), 1200);
      const name = uniqueName('snapshot');
      const log = `textindex:{${name}}:log`;
      const snapshotKey = `textindex:{${name}}:snapshot`;
      const expected = decideTexts(texts);
      const spoil = (key: string, position: number, at: number): Promise<() => Promise<unknown>> => flipByte(client, key, position, () => at);
      const a = await RedisTextIndex.open({ client, name, replicas });
      const opened: RedisTextIndex[] = [];
      const open = async (): Promise<RedisTextIndex> => {
        const index = await RedisTextIndex.open({ client: other, name, replicas });
        opened.push(index);
        return index;
      };
      try {
        for (let start = 0; start < 600; start += 100) await a.decideMany(ids(start, start + 100), texts.slice(start, start + 100));
        const report = await a.snapshot();
        expect({ ...report, bytes: report.bytes > 0 }).toEqual({ position: 6, bytes: true, named: true });
        // The same position again leaves the first one named.
        expect((await a.snapshot()).named).toBe(false);
        for (let start = 600; start < 900; start += 100) await a.decideMany(ids(start, start + 100), texts.slice(start, start + 100));

        // The log's first entry spoilt: an open from the snapshot never reads it, and goes on as
        // one run over every text decides; ids decided before the snapshot are answered as then.
        const restore = await spoil(log, 0, 40);
        const b = await open();
        expect(await b.decided()).toBe(900);
        const rest = await b.decideMany(ids(900, 1200), texts.slice(900, 1200));
        expect(Array.from(rest.representative)).toEqual(Array.from(expected.representative.subarray(900)));
        const again = await b.decideMany(ids(0, 100), texts.slice(0, 100), { known: 'answer' });
        expect(Array.from(again.representative)).toEqual(Array.from(expected.representative.subarray(0, 100)));
        expect(Array.from(again.similarity)).toEqual(Array.from(expected.similarity.subarray(0, 100)));
        expect(Array.from(again.representative).some((r, q) => r !== q)).toBe(true);
        expect(await b.decided()).toBe(1200);
        // Without the snapshot, an open replays the log and finds the spoilt entry.
        const named = (await client.get(snapshotKey))!;
        await client.rename(snapshotKey, `${snapshotKey}-aside`);
        await expectRejects(RedisTextIndex.open({ client, name }), 'corrupt', /at position 0/);
        await client.rename(`${snapshotKey}-aside`, snapshotKey);
        await restore();

        // A snapshot whose bytes were changed is passed over: the log is replayed.
        const [, id] = named.split(' ');
        await spoil(`${snapshotKey}:${id}`, 0, 100);
        const c = await open();
        expect(await c.decided()).toBe(1200);
        expect(await c.query(texts[1000]!)).toEqual(await b.query(texts[1000]!));

        // A snapshot past a cut log: repair() drops it, and an open replays what is left (b's 300
        // texts went as one entry).
        expect((await c.snapshot()).position).toBe(10);
        await spoil(log, 8, 40);
        expect(await c.repair()).toEqual({ entries: 8, dropped: 2, head: false });
        expect(await client.exists(snapshotKey)).toBe(0);
        const d = await open();
        expect(await d.decided()).toBe(800);
        const tail = await d.decideMany(ids(800, 1200), texts.slice(800, 1200));
        expect(Array.from(tail.representative)).toEqual(Array.from(expected.representative.subarray(800)));
        // A snapshot the log no longer holds (cut under it without repair()) is found by the
        // chain of the first entry after it, and the log is replayed from its start.
        const e = await open();
        expect((await e.snapshot()).position).toBe(9);
        const [eighth] = await client.lrangeBuffer(log, 7, 7);
        await client.ltrim(log, 0, 6);
        await client.set(`textindex:{${name}}:head`, Buffer.from(eighth!.subarray(0, 16)));
        const more = stream(17n, 300).map((t) => `${t} again`);
        for (let start = 0; start < 300; start += 100) await d.decideMany(ids(2000 + start, 2100 + start), more.slice(start, start + 100));
        expect(await client.llen(log)).toBe(10);
        const f = await open();
        expect(await f.decided()).toBe(await d.decided());
        expect(await f.size()).toBe(await d.size());
      } finally {
        a.close();
        for (const index of opened) index.close();
      }
    }, 120_000);

    it('names a snapshot once though its naming is sent twice, refuses one whose log was cut while it was written, and passes over one whose answers were changed', async () => {
      const texts = stream(BigInt(kind === 'single' ? 18 : 19), 400);
      const name = uniqueName('naming');
      const log = `textindex:{${name}}:log`;
      const snapshotKey = `textindex:{${name}}:snapshot`;
      let mode: 'twice' | 'cut' | undefined;
      const around = aroundScripts(client, [NAME_SNAPSHOT], async (script, run) => {
        if (script !== NAME_SNAPSHOT || mode === undefined) return run();
        if (mode === 'twice') {
          // Run, its reply lost, and sent again.
          await run();
          return run();
        }
        mode = undefined;
        const [first] = await client.lrangeBuffer(log, 0, 0);
        await client.ltrim(log, 0, 0);
        await client.set(`textindex:{${name}}:head`, Buffer.from(first!.subarray(16, 32)));
        return run();
      });
      const a = await RedisTextIndex.open({ client: around, name, replicas });
      const flip = (key: string, position: number, at: (length: number) => number): Promise<() => Promise<unknown>> => flipByte(client, key, position, at);
      try {
        for (let start = 0; start < 300; start += 100) await a.decideMany(Uint32Array.from({ length: 100 }, (_, q) => start + q), texts.slice(start, start + 100));
        mode = 'twice';
        expect(await a.snapshot()).toMatchObject({ position: 3, named: true });
        mode = undefined;
        const [, id] = (await client.get(snapshotKey))!.split(' ');
        expect([await client.exists(`${snapshotKey}:${id}`), await client.ttl(`${snapshotKey}:${id}`)]).toEqual([1, -1]);

        // The answers of removed ids (the snapshot's last bytes but its checksum) changed: the
        // snapshot is passed over, so an open replays the log, and meets its spoilt first entry.
        const restoreSnapshot = await flip(`${snapshotKey}:${id}`, 0, (length) => length - 40);
        const restoreLog = await flip(log, 0, () => 40);
        await expectRejects(RedisTextIndex.open({ client: other, name }), 'corrupt', /at position 0/);
        await restoreSnapshot();
        const b = await RedisTextIndex.open({ client: other, name });
        expect(await b.decided()).toBe(300);
        b.close();
        await restoreLog();

        // The log cut (to its first entry) between the snapshot's pieces and its naming: refused,
        // and repair() then drops the snapshot named before, which the log no longer holds.
        await a.decideMany(Uint32Array.from({ length: 100 }, (_, q) => 300 + q), texts.slice(300, 400));
        mode = 'cut';
        await expectRejects(a.snapshot(), 'failed', /the log was cut, or compacted past the snapshot, while it was written/);
        expect(await client.get(snapshotKey)).toMatch(/^3 /);
        expect((await a.repair()).entries).toBe(1);
        expect(await client.exists(snapshotKey)).toBe(0);
        expect(await client.keys(`textindex:{${name}}:snapshot*`)).toEqual([]);
      } finally {
        a.close();
      }
    }, 60_000);

    it('compacts: Redis keeps only the entries after the snapshot the log starts from, and replicas behind it, opened after it or answering known ids answer as one run over every text', async () => {
      const texts = stream(BigInt(kind === 'single' ? 21 : 22), 1400);
      const name = uniqueName('compact');
      const log = `textindex:{${name}}:log`;
      const snapshotKey = `textindex:{${name}}:snapshot`;
      const expected = decideTexts(texts);
      const decide = async (index: RedisTextIndex, from: number, to: number): Promise<void> => {
        const got = await index.decideMany(ids(from, to), texts.slice(from, to));
        expect(Array.from(got.representative)).toEqual(Array.from(expected.representative.subarray(from, to)));
      };
      const a = await RedisTextIndex.open({ client, name, replicas });
      const b = await RedisTextIndex.open({ client: other, name, replicas });
      const opened: RedisTextIndex[] = [a, b];
      try {
        for (let from = 0; from < 300; from += 100) await decide(a, from, from + 100);
        await decide(b, 300, 400);
        await decide(a, 400, 500);
        await decide(a, 500, 600);
        // b's replica is at position 4; the log is compacted to 6 under it.
        const report = await a.compact();
        expect({ ...report, bytes: report.bytes > 0 }).toEqual({ position: 6, dropped: 6, bytes: true });
        expect(await client.llen(log)).toBe(0);
        expect(await startOf(client, name)).toBe(6);
        await decide(b, 600, 700);
        const c = await RedisTextIndex.open({ client: other, name, replicas });
        opened.push(c);
        expect(await c.decided()).toBe(700);
        expect(await c.query(texts[650]!)).toEqual(await b.query(texts[650]!));
        await decide(a, 700, 800);

        // A snapshot taken after the compaction is named beside the start and opened from; the
        // next compaction makes it the start and deletes the list of the one before.
        await decide(c, 800, 900);
        expect((await b.snapshot()).position).toBe(9);
        const listOf = async (key: string): Promise<string> => `${snapshotKey}:${(await client.get(key))!.split(' ')[1]}`;
        const [named, first] = [await listOf(snapshotKey), await listOf(`textindex:{${name}}:start`)];
        expect(named).not.toBe(first);
        expect([await client.exists(named), await client.exists(first)]).toEqual([1, 1]);
        const d = await RedisTextIndex.open({ client, name, replicas });
        opened.push(d);
        expect(await d.decided()).toBe(900);
        // b's snapshot is of the log's end: d compacts to it without taking its own.
        expect(await d.compact()).toEqual({ position: 9, dropped: 3, bytes: 0 });
        expect(await client.llen(log)).toBe(0);
        expect(await listOf(`textindex:{${name}}:start`)).toBe(named);
        expect([await client.exists(named), await client.exists(first)]).toEqual([1, 0]);
        // Nothing written since: compacting again drops nothing.
        expect(await d.compact()).toEqual({ position: 9, dropped: 0, bytes: 0 });

        // Ids decided before any compaction are answered as then, from the snapshot's answers.
        const again = await c.decideMany(ids(0, 200), texts.slice(0, 200), { known: 'answer' });
        expect(Array.from(again.representative)).toEqual(Array.from(expected.representative.subarray(0, 200)));
        expect(Array.from(again.similarity)).toEqual(Array.from(expected.similarity.subarray(0, 200)));
        expect(Array.from(again.representative).some((r, q) => r !== q)).toBe(true);
        for (let from = 900; from < 1400; from += 100) await decide([a, b, c, d][(from / 100) % 4]!, from, from + 100);
        expect(await client.llen(log)).toBe(5);
        for (const index of opened) expect(await index.size()).toBe(new Set(expected.representative).size);
      } finally {
        for (const index of opened) index.close();
      }
    }, 120_000);

    it('refuses options it does not know and templates other than the stored ones', async () => {
      const name = uniqueName('options');
      await expect(RedisTextIndex.open({ client, name, treshold: 1 } as never)).rejects.toThrow(/unknown option 'treshold' of RedisTextIndex.open/);
      await expect(RedisTextIndex.open({ client, name, templates: 'drop' as never })).rejects.toThrow(RangeError);
      (await RedisTextIndex.open({ client, name })).close();
      await expect(RedisTextIndex.open({ client, name, templates: 'remove' })).rejects.toThrow(/created with templates 'keep', not 'remove'/);
      const index = await RedisTextIndex.open({ client, name });
      index.close();
      await expect(index.size()).rejects.toThrow(/has been closed/);
    });
  });
}

describe('RedisTextIndex when Redis loses, spoils or cuts what it wrote (one server)', () => {
  const servers = useServers('single');
  const clients = useClients(servers, 2);
  let client: Redis | Cluster;
  let other: Redis | Cluster;
  beforeAll(() => ([client, other] = clients() as [Redis | Cluster, Redis | Cluster]));

  it('a replica whose last entries the log lost (a failover) is rebuilt from the log and answers as it', async () => {
    const texts = stream(5n, 600);
    const name = uniqueName('lost');
    const a = await RedisTextIndex.open({ client, name });
    const b = await RedisTextIndex.open({ client: other, name });
    try {
      for (let start = 0; start < 300; start += 100) await a.decideMany(Uint32Array.from({ length: 100 }, (_, q) => start + q), texts.slice(start, start + 100));
      await b.size();
      // The log loses its last entry, as a master that failed before its replica had it would.
      const key = `textindex:{${name}}:log`;
      const kept = await client.llen(key);
      const last = await client.lrangeBuffer(key, kept - 2, kept - 2);
      await client.ltrim(key, 0, kept - 2);
      await client.set(`textindex:{${name}}:head`, last[0]!.subarray(16, 32));
      expect(await client.llen(key)).toBe(2);
      for (let start = 300; start < 600; start += 150) await b.decideMany(Uint32Array.from({ length: 150 }, (_, q) => 1000 + start + q), texts.slice(start, start + 150));
      // `a` holds an entry the log lost and `b` wrote two others after it: the first of them does
      // not follow what `a` holds, and `a` starts again from the log.
      const order = await loggedOrder(client, name);
      const local = new TextIndex();
      try {
        local.decideMany(Uint32Array.from(order.ids), order.texts);
        for (const probe of texts.slice(0, 50)) expect(await a.query(probe)).toEqual(local.query(probe));
        expect(await a.size()).toBe(local.size);
      } finally {
        local.free();
      }
    } finally {
      a.close();
      b.close();
    }
  }, 60_000);

  it('names a spoilt entry and a spoilt head; repair() cuts the log before the first spoilt entry', async () => {
    const texts = stream(6n, 200);
    const name = uniqueName('spoilt');
    const a = await RedisTextIndex.open({ client, name });
    try {
      for (let start = 0; start < 200; start += 50) await a.decideMany(Uint32Array.from({ length: 50 }, (_, q) => start + q), texts.slice(start, start + 50));
      const key = `textindex:{${name}}:log`;
      const spoilt = Buffer.from((await client.lindexBuffer(key, 2))!);
      spoilt[spoilt.length - 1] = spoilt[spoilt.length - 1]! ^ 1;
      await client.lset(key, 2, spoilt);
      const error = await expectRejects(RedisTextIndex.open({ client, name }), 'corrupt', /position 2 an entry whose checksum does not match/);
      expect(error.key).toBe(key);
      // A fresh process cannot open it, and repairs it without opening; a repair whose reply is
      // lost, sent again, finds its work done.
      let lost = 0;
      const lossy = aroundScripts(client, [TRUNCATE], async (script, run) => {
        const reply = await run();
        if (script === TRUNCATE && lost++ === 0) throw new Error('Connection is closed.');
        return reply;
      });
      const report = await RedisTextIndex.repair({ client: lossy, name });
      expect(lost).toBe(2);
      expect(report).toEqual({ entries: 2, dropped: 2, head: false });
      expect(await a.decided()).toBe(100);
      const b = await RedisTextIndex.open({ client, name });
      try {
        expect(await b.decided()).toBe(100);
        expect(await a.decided()).toBe(100);
        expect(await b.has(150)).toBe(false);
      } finally {
        b.close();
      }
      await client.set(`textindex:{${name}}:head`, 'not a chain value');
      await expectRejects(a.size(), 'corrupt', /holds 17 bytes, not a 16-byte chain value/);
      expect(await a.repair()).toEqual({ entries: 2, dropped: 0, head: true });
      expect(await a.decided()).toBe(100);
    } finally {
      a.close();
    }
  }, 60_000);

  it('after a compaction, repair() cuts a spoilt entry back to the start, and a spoilt start empties the index; a compaction sent twice drops once', async () => {
    const texts = stream(23n, 700);
    const expected = decideTexts(texts);
    const name = uniqueName('compacted-repair');
    const key = `textindex:{${name}}:log`;
    const startKey = `textindex:{${name}}:start`;
    const snapshotKey = `textindex:{${name}}:snapshot`;
    let twice = false;
    const around = aroundScripts(client, [COMPACT], async (script, run) => {
      if (script !== COMPACT || !twice) return run();
      // Run, its reply lost, and sent again.
      await run();
      return run();
    });
    const a = await RedisTextIndex.open({ client: around, name });
    try {
      for (let from = 0; from < 400; from += 100) await a.decideMany(ids(from, from + 100), texts.slice(from, from + 100));
      twice = true;
      expect(await a.compact()).toMatchObject({ position: 4 });
      twice = false;
      expect([await client.llen(key), await startOf(client, name)]).toEqual([0, 4]);
      for (let from = 400; from < 700; from += 100) await a.decideMany(ids(from, from + 100), texts.slice(from, from + 100));
      expect((await a.snapshot()).position).toBe(7);

      // The entry at position 5 spoilt: an open loads the snapshot at 7 and never reads it; a
      // repair cuts back to 5 and drops that snapshot; the start stays.
      await flipByte(client, key, 1, () => 40);
      const opened = await RedisTextIndex.open({ client, name });
      expect(await opened.decided()).toBe(700);
      opened.close();
      expect(await RedisTextIndex.repair({ client, name })).toEqual({ entries: 5, dropped: 2, head: false });
      expect(await client.exists(snapshotKey)).toBe(0);
      const b = await RedisTextIndex.open({ client, name });
      try {
        expect(await b.decided()).toBe(500);
        const redone = await b.decideMany(ids(500, 700), texts.slice(500, 700));
        expect(Array.from(redone.representative)).toEqual(Array.from(expected.representative.subarray(500, 700)));

        // The start's snapshot spoilt: the log before it is gone, so the index cannot be opened,
        // nor rebuilt by a (whose replica holds the entries the repair cut); b, up to date, goes on.
        const [, id] = (await client.get(startKey))!.split(' ');
        await flipByte(client, `${snapshotKey}:${id}`, 0, () => 100);
        const pattern = /names a snapshot that does not read \(its checksum does not match its bytes\), and the log's entries before position 4 are gone/;
        expect((await expectRejects(RedisTextIndex.open({ client, name }), 'corrupt', pattern)).key).toBe(startKey);
        await expectRejects(a.decided(), 'corrupt', pattern);
        expect(await b.decided()).toBe(700);
        expect(await RedisTextIndex.repair({ client, name })).toEqual({ entries: 0, dropped: 6, head: false });
        expect([await client.exists(key), await client.exists(startKey), await client.exists(`${snapshotKey}:${id}`)]).toEqual([0, 0, 0]);
        expect(await b.decided()).toBe(0);
      } finally {
        b.close();
      }
      const c = await RedisTextIndex.open({ client, name });
      try {
        expect(await c.decided()).toBe(0);
        expect(await a.decided()).toBe(0);
      } finally {
        c.close();
      }
      // A start that names no snapshot at all is named, and emptied likewise.
      await a.decideMany(ids(0, 100), texts.slice(0, 100));
      await client.set(startKey, 'nothing');
      await expectRejects(a.size(), 'corrupt', /does not name a snapshot/);
      expect(await a.repair()).toEqual({ entries: 0, dropped: 1, head: false });
      expect(await a.decided()).toBe(0);
    } finally {
      a.close();
    }
  }, 60_000);

  it('a write whose reply is lost fails partial; made again with the same arguments it resumes after what the log holds', async () => {
    const texts = stream(8n, 5000);
    const name = uniqueName('lost-reply');
    // Every third append runs in Redis, but its caller hears a failure.
    let appends = 0;
    let lost = 0;
    const lossy = aroundScripts(client, [APPEND], async (script, run) => {
      const reply = await run();
      if (script === APPEND && ++appends % 3 === 0) {
        lost++;
        throw new Error('the reply was lost');
      }
      return reply;
    });
    const a = await RedisTextIndex.open({ client: lossy, name });
    try {
      const representative = new Uint32Array(texts.length);
      let partial = 0;
      for (let start = 0; start < texts.length; start += 2500) {
        const ids = Uint32Array.from({ length: 2500 }, (_, q) => start + q);
        const batch = texts.slice(start, start + 2500);
        let got;
        for (let attempt = 0; got === undefined; attempt++) {
          try {
            got = await a.decideMany(ids, batch);
          } catch (error) {
            expect(error).toBeInstanceOf(RedisIndexError);
            expect((error as RedisIndexError).partial).toBe(true);
            expect(attempt).toBeLessThan(5);
            partial++;
          }
        }
        representative.set(got.representative, start);
      }
      expect(lost).toBeGreaterThan(0);
      expect(partial).toBe(lost);
      const order = await loggedOrder(client, name);
      expect(order.ids).toEqual(texts.map((_, i) => i));
      expect(Array.from(representative)).toEqual(Array.from(decideTexts(texts).representative));
      expect(order.representative).toEqual(batchOver(order));
    } finally {
      a.close();
    }
  }, 120_000);

  it('a writer whose lock lapsed cannot append after another: its call fails, nothing of it is stored, and its next call answers as the log', async () => {
    const texts = stream(11n, 300);
    const name = uniqueName('lapsed');
    // The writer believes its lock renewed while Redis lets it lapse, and its append arrives late.
    let armed = false;
    const stalled = aroundScripts(client, [APPEND], async (script, run) => {
      if (armed && script?.includes('PEXPIRE')) return 1;
      if (armed && script === APPEND) await new Promise((resolve) => setTimeout(resolve, 400));
      return run();
    });
    const a = await RedisTextIndex.open({ client: stalled, name, lockFor: 100 });
    const b = await RedisTextIndex.open({ client: other, name });
    try {
      await a.decideMany(Uint32Array.from({ length: 100 }, (_, q) => q), texts.slice(0, 100));
      armed = true;
      const late = a.decideMany(Uint32Array.from({ length: 100 }, (_, q) => 100 + q), texts.slice(100, 200));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await b.decideMany(Uint32Array.from({ length: 100 }, (_, q) => 200 + q), texts.slice(200, 300));
      const error = await expectRejects(late, 'failed', /another process wrote to the log after the entry this call read \(a lock lapsed\)/);
      expect(error.partial).toBe(false);
      armed = false;
      const order = await loggedOrder(client, name);
      expect(order.ids).toEqual([...Array.from({ length: 100 }, (_, q) => q), ...Array.from({ length: 100 }, (_, q) => 200 + q)]);
      // `a` holds a batch the log does not: its next call starts again from the log.
      const local = new TextIndex();
      try {
        local.decideMany(Uint32Array.from(order.ids), order.texts);
        expect(await a.size()).toBe(local.size);
        expect(await a.has(150)).toBe(false);
        for (const probe of texts.slice(100, 140)) expect(await a.query(probe)).toEqual(local.query(probe));
      } finally {
        local.free();
      }
    } finally {
      armed = false;
      a.close();
      b.close();
    }
  }, 60_000);

  describe('through a proxy that loses replies', () => {
    const relay = useLossyRelay(servers, 78n);

    it('decides, adds and removes as if no reply was lost: each entry once in the log, each remove answered as first asked', async () => {
      const relayed = await connectRedis(`redis://127.0.0.1:${relay().port}`);
      const texts = stream(10n, 1200);
      const name = uniqueName('relay');
      const index = await RedisTextIndex.open({ client: relayed, name, timeout: 10_000 });
      const local = new TextIndex();
      try {
        relay().dropRate = 0.1;
        const removes: boolean[] = [];
        const expected: boolean[] = [];
        for (let start = 0; start < texts.length; start += 40) {
          const ids = Uint32Array.from({ length: 40 }, (_, q) => start + q);
          let got;
          while (got === undefined) got = await index.decideMany(ids, texts.slice(start, start + 40)).catch(() => undefined);
          expect(Array.from(got.representative)).toEqual(Array.from(local.decideMany(ids, texts.slice(start, start + 40)).representative));
          const id = start + 3;
          for (let twice = 0; twice < 2; twice++) {
            let answer;
            while (answer === undefined) answer = await index.remove(id).catch(() => undefined);
            removes.push(answer);
            expected.push(local.remove(id));
          }
        }
        relay().dropRate = 0;
        expect(relay().dropped).toBeGreaterThan(0);
        expect(removes).toEqual(expected);
        const raw = await client.lrangeBuffer(`textindex:{${name}}:log`, 0, -1);
        const decidedIds = raw.flatMap((bytes, k) => {
          const { entry } = decodeEntry(bytes, 'log', k);
          return entry.kind === 'decided' ? Array.from(entry.ids) : [];
        });
        expect(decidedIds).toEqual(texts.map((_, i) => i));
        const late = await RedisTextIndex.open({ client, name });
        try {
          expect(await late.size()).toBe(local.size);
          for (const probe of texts.slice(0, 40)) expect(await late.query(probe)).toEqual(local.query(probe));
        } finally {
          late.close();
        }
      } finally {
        relay().dropRate = 0;
        index.close();
        local.free();
        relayed.disconnect();
      }
    }, 180_000);
  });
});

describe('RedisTextIndex through a failover (cluster, replicas: 1)', () => {
  const servers = useServers('cluster');

  it('keeps every acknowledged batch when every node is killed and restarted from its AOF, and the same object goes on', async () => {
    const client = await clientOf(servers());
    const texts = stream(12n, 1200);
    const name = uniqueName('restart');
    const index = await RedisTextIndex.open({ client, name, replicas: 1, timeout: 3000 });
    try {
      for (let start = 0; start < 600; start += 200) await index.decideMany(Uint32Array.from({ length: 200 }, (_, q) => start + q), texts.slice(start, start + 200));
      await servers().killAll();
      await expect(index.size()).rejects.toThrow(RedisIndexError);
      await servers().startAll();
      for (let start = 600; start < 1200; start += 200) {
        for (let attempt = 0; ; attempt++) {
          try {
            await index.decideMany(Uint32Array.from({ length: 200 }, (_, q) => start + q), texts.slice(start, start + 200));
            break;
          } catch (error) {
            expect(error).toBeInstanceOf(RedisIndexError);
            if (attempt > 60) throw error;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      }
      const order = await loggedOrder(client, name);
      expect(order.ids).toEqual(texts.map((_, i) => i));
      expect(order.representative).toEqual(batchOver(order));
    } finally {
      index.close();
      client.disconnect();
    }
  }, 180_000);

  it('a write whose reply is lost is confirmed by the replicas before the call made again resolves', async () => {
    const client = await clientOf(servers());
    let confirms = 0;
    let lose = true;
    // Counted once they ran (a first call by SHA-1 may meet NOSCRIPT).
    const lossy = aroundScripts(client, [APPEND, CONFIRM], async (script, run) => {
      const reply = await run();
      if (script === CONFIRM) confirms++;
      if (script === APPEND && lose) {
        lose = false;
        throw new Error('the reply was lost');
      }
      return reply;
    });
    const name = uniqueName('confirm');
    const index = await RedisTextIndex.open({ client: lossy, name, replicas: 1 });
    try {
      const texts = stream(15n, 100);
      const ids = Uint32Array.from({ length: 100 }, (_, q) => q);
      await expect(index.decideMany(ids, texts)).rejects.toThrow(RedisIndexError);
      expect(confirms).toBe(0);
      const got = await index.decideMany(ids, texts);
      expect(confirms).toBe(1);
      expect(Array.from(got.representative)).toEqual(Array.from(decideTexts(texts).representative));
      expect((await loggedOrder(client, name)).ids).toEqual(Array.from(ids));
    } finally {
      index.close();
      client.disconnect();
    }
  }, 60_000);

  it('loses no acknowledged batch when the master holding the index is killed mid-load', async () => {
    const client = await clientOf(servers());
    const texts = stream(9n, 4000);
    const name = uniqueName('failover');
    const index = await RedisTextIndex.open({ client, name, replicas: 1, timeout: 3000 });
    const acknowledged: { ids: number[]; representative: number[] }[] = [];
    try {
      const slot = Number(await client.cluster('KEYSLOT', `textindex:{${name}}:log`));
      await client.ping();
      const owner = (client as Cluster).slots[slot]![0]!;
      const victim = servers().nodes.find((node) => `127.0.0.1:${node.port}` === owner);
      expect(victim).toBeDefined();
      let restarted: Promise<void> | undefined;
      for (let start = 0; start < texts.length; start += 200) {
        const ids = Uint32Array.from({ length: 200 }, (_, q) => start + q);
        if (start === 1000) {
          await victim!.kill();
          // Its replica takes over; until the old master is back as the new one's replica, no
          // write can be confirmed by a replica, and every write fails.
          restarted = (async () => {
            await servers().waitHealthy(30_000);
            await victim!.start();
            await servers().waitHealthy(30_000);
          })();
        }
        for (let attempt = 0; ; attempt++) {
          try {
            const got = await index.decideMany(ids, texts.slice(start, start + 200));
            acknowledged.push({ ids: Array.from(ids), representative: Array.from(got.representative) });
            break;
          } catch (error) {
            expect(error).toBeInstanceOf(RedisIndexError);
            if (attempt > 240) throw error;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      }
      expect(restarted).toBeDefined();
      await restarted;
      const order = await loggedOrder(client, name);
      const expected = new Map(batchOver(order).map((rep, k) => [order.ids[k]!, rep]));
      for (const batch of acknowledged) batch.ids.forEach((id, q) => expect([id, batch.representative[q]]).toEqual([id, expected.get(id)]));
      expect(order.ids.length).toBe(texts.length);
    } finally {
      index.close();
      client.disconnect();
    }
  }, 180_000);
});
