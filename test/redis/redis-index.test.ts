/**
 * RedisSimHashIndex against real servers (one server, and a cluster of 3 masters with a replica
 * each): random histories of adds, removes and queries give exactly what the in-memory
 * SimHashIndex holding the same entries gives, and interrupted writes never make a query return
 * an id for a fingerprint it does not hold.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Cluster, Redis } from 'ioredis';
import { SimHashIndex } from '../../ts/wasm/simhash-index.js';
import { init } from '../../ts/wasm/loader.js';
import { RedisSimHashIndex } from '../../ts/redis/redis-index.js';
import { RedisIndexError } from '../../ts/redis/errors.js';
import { tagSlot } from '../../ts/redis/hash-tags.js';
import { SplitMix64, flipBits, numDifferingBits } from '../oracle.js';
import { fcParams } from '../suite/helpers.js';
import type { QueryOptions, SimHashIndex as SimHashIndexType } from '../../ts/shared/types.js';
import { clientOf, uniqueName, useServers } from './servers.js';

type Op =
  | { kind: 'add'; id: number; near: number; flips: number; seed: number }
  | { kind: 'addMany'; count: number; seed: number }
  | { kind: 'remove'; id: number }
  | { kind: 'query'; near: number; flips: number; seed: number; distance: number | undefined; limit: number | undefined }
  | { kind: 'queryMany'; count: number; seed: number }
  | { kind: 'has'; id: number }
  | { kind: 'size' };

const ID_RANGE = 60;
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), id: fc.nat(ID_RANGE), near: fc.nat(), flips: fc.nat(8), seed: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('addMany' as const), count: fc.nat(80), seed: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.nat(ID_RANGE) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      near: fc.nat(),
      flips: fc.nat(8),
      seed: fc.nat(),
      distance: fc.option(fc.nat(64), { nil: undefined }),
      limit: fc.option(fc.nat(4), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('queryMany' as const), count: fc.nat(30), seed: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('has' as const), id: fc.nat(ID_RANGE) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'size' as const }) },
);

/**
 * Index shapes: distance, a layout (chosen; blocks; or parts, with slack 1 to 3 per part, so
 * that buckets within radius 0 to 2 are read), capacity (which sets the bucket count).
 */
const shape = fc
  .record({
    distance: fc.constantFrom(0, 1, 3, 5, 10),
    layout: fc.oneof(fc.constant(undefined), fc.record({ extraBlocks: fc.nat(2) }), fc.record({ slack: fc.integer({ min: 1, max: 3 }) })),
    capacity: fc.constantFrom(1, 200, 1_000_000),
  })
  .map(({ distance, layout, capacity }) => ({
    distance,
    ...(layout === undefined ? {} : 'extraBlocks' in layout ? { blocks: distance + 1 + layout.extraBlocks } : { parts: Math.ceil((distance + 1) / layout.slack) }),
    capacity,
  }));

/** A few centres so that fingerprints near one another (and duplicates) are common. */
const CENTRES = Array.from({ length: 4 }, (_, k) => new SplitMix64(BigInt(1000 + k)).next());

function fingerprint(near: number, flips: number, seed: number): bigint {
  if (near % 5 === 4) return new SplitMix64(BigInt(seed)).next();
  return flipBits(CENTRES[near % CENTRES.length]!, flips, new SplitMix64(BigInt(seed)));
}

function batch(count: number, seed: number): { ids: Uint32Array; values: BigUint64Array } {
  const rng = new SplitMix64(BigInt(seed));
  const ids = new Uint32Array(count);
  const values = new BigUint64Array(count);
  for (let k = 0; k < count; k++) {
    ids[k] = Number(rng.next() % BigInt(ID_RANGE + 1));
    values[k] = fingerprint(Number(rng.next() % 16n), Number(rng.next() % 9n), Number(rng.next() % 1_000_000n));
  }
  return { ids, values };
}

/** Runs `ops` on both indexes and expects the same answer from each. */
async function replay(index: RedisSimHashIndex, model: SimHashIndexType, ops: readonly Op[]): Promise<void> {
  for (const [step, o] of ops.entries()) {
    const where = `step ${step}: ${JSON.stringify(o)}`;
    switch (o.kind) {
      case 'add': {
        const value = fingerprint(o.near, o.flips, o.seed);
        await index.add(o.id, value);
        model.add(o.id, value);
        break;
      }
      case 'addMany': {
        const { ids, values } = batch(o.count, o.seed);
        await index.addMany(ids, values);
        model.addMany(ids, values);
        break;
      }
      case 'remove':
        expect(await index.remove(o.id), where).toBe(model.remove(o.id));
        break;
      case 'query': {
        const value = fingerprint(o.near, o.flips, o.seed);
        const options: QueryOptions = { limit: o.limit };
        if (o.distance !== undefined) options.distance = Math.min(o.distance, model.distance);
        expect(await index.query(value, options), where).toEqual(model.query(value, options));
        break;
      }
      case 'queryMany': {
        const values = batch(o.count, o.seed).values;
        expect(await index.queryMany(values), where).toEqual(model.queryMany(values));
        break;
      }
      case 'has':
        expect(await index.has(o.id), where).toBe(model.has(o.id));
        break;
      case 'size':
        expect(await index.size(), where).toBe(model.size);
        break;
    }
  }
  expect(await index.size()).toBe(model.size);
}

/** Every entry of the model, queried back at distance 0: the index holds exactly these. */
async function expectSameEntries(index: RedisSimHashIndex, model: SimHashIndexType, values: BigUint64Array): Promise<void> {
  expect(await index.queryMany(values)).toEqual(model.queryMany(values));
  expect(await index.size()).toBe(model.size);
}

describe('connectRedis', () => {
  it('says which server could not be reached and why, without the password, and nothing else is printed', () => {
    const script = `
      import { connectRedis } from ${JSON.stringify(new URL('../../dist/esm/redis/index.js', import.meta.url).href)};
      try { await connectRedis('redis://reader:s3cret@127.0.0.1:1'); } catch (error) { console.log(error.message); }
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('could not connect to Redis at redis://reader:***@127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1');
  });
});

for (const kind of ['single', 'cluster'] as const) {
  describe(`RedisSimHashIndex on ${kind === 'single' ? 'one server' : 'a cluster of 3 masters + 3 replicas'}`, () => {
    const servers = useServers(kind);
    let client: Redis | Cluster;
    beforeAll(async () => {
      await init();
      client = await clientOf(servers());
    }, 60_000);
    afterAll(() => client?.disconnect());

    it('answers every history of adds, removes and queries as the in-memory index does', async () => {
      await fc.assert(
        fc.asyncProperty(shape, fc.array(op, { maxLength: 25 }), async (s, ops) => {
          const index = await RedisSimHashIndex.open({ client, name: uniqueName('history'), ...s, replicas: kind === 'cluster' ? 1 : 0 });
          const model = new SimHashIndex({ distance: s.distance });
          try {
            await replay(index, model, ops);
          } finally {
            model.free();
          }
        }),
        fcParams(0x7ed15, kind === 'single' ? 40 : 20),
      );
    }, 180_000);

    it('answers exactly at distance 10 with part layouts, where near pairs rarely share a bucket', async () => {
      // Entries 0 to 10 bits from a few centres, queries likewise: most answers are pairs whose
      // buckets differ in some part, found only through its ball.
      const rng = new SplitMix64(0xd10n);
      const centres = Array.from({ length: 6 }, () => rng.next());
      const near = (k: number): bigint => flipBits(centres[k % centres.length]!, Number(rng.next() % 11n), rng);
      const ids = Uint32Array.from({ length: 400 }, (_, k) => k);
      const values = BigUint64Array.from(ids, (k) => near(k));
      const probes = BigUint64Array.from({ length: 120 }, (_, k) => near(k));
      const model = new SimHashIndex({ distance: 10 });
      model.addMany(ids, values);
      try {
        for (const layout of [{ parts: 4 }, { parts: 6 }, { parts: 11 }, {}]) {
          const index = await RedisSimHashIndex.open({ client, name: uniqueName('d10'), distance: 10, capacity: 1_000_000, ...layout });
          expect(index.parts, JSON.stringify(layout)).toBeGreaterThan(0);
          await index.addMany(ids, values);
          const answers = await index.queryMany(probes);
          expect(answers, JSON.stringify(layout)).toEqual(model.queryMany(probes));
          expect(answers.ids.length).toBeGreaterThan(probes.length * 5);
          expect(await index.query(probes[0]!, { distance: 4 })).toEqual(model.query(probes[0]!, { distance: 4 }));
        }
      } finally {
        model.free();
      }
    });

    it('decideMany ≡ decide in input order from one client, and keeps the rule between concurrent clients', async () => {
      const rng = new SplitMix64(0xdec1den);
      const distance = 5;
      const centres = Array.from({ length: 25 }, () => rng.next());
      const values = Array.from({ length: 600 }, (_, k) => (k % 4 === 0 ? rng.next() : flipBits(centres[rng.below(centres.length)]!, rng.below(5), rng)));
      const { decide } = await import('../../ts/wasm/decide.js');
      const expected = decide(values, { distance });
      const batches = (from: number, to: number, size: number): Array<[Uint32Array, bigint[]]> => {
        const out: Array<[Uint32Array, bigint[]]> = [];
        for (let start = from; start < to; start += size) {
          const end = Math.min(to, start + size);
          out.push([Uint32Array.from({ length: end - start }, (_, k) => start + k), values.slice(start, end)]);
        }
        return out;
      };

      const one = await RedisSimHashIndex.open({ client, name: uniqueName('decide'), distance });
      const representative: number[] = [];
      for (const [ids, batch] of batches(0, values.length, 64)) representative.push(...(await one.decideMany(ids, batch)).representative);
      expect(representative).toEqual(Array.from(expected.representative));
      expect(await one.size()).toBe(expected.representative.filter((r, i) => r === i).length);

      // Three clients, each with interleaved documents, decide at the same time against one index.
      const name = uniqueName('decide-many');
      const clients = [client, await clientOf(servers()), await clientOf(servers())];
      try {
        const indexes = await Promise.all(clients.map((c) => RedisSimHashIndex.open({ client: c, name, distance })));
        const results = await Promise.all(
          indexes.map(async (index, c) => {
            const out: Array<[number, number, number]> = [];
            for (const [ids, batch] of batches(0, values.length, 25).filter((_, b) => b % 3 === c)) {
              const got = await index.decideMany(ids, batch);
              ids.forEach((id, q) => out.push([id, got.representative[q]!, got.distance[q]!]));
            }
            return out;
          }),
        );
        const decided = results.flat();
        expect(decided.length).toBe(values.length);
        const kept = decided.filter(([id, r]) => id === r).map(([id]) => id);
        const keptSet = new Set(kept);
        for (const [id, r, bits] of decided) {
          if (id === r) continue;
          expect(keptSet.has(r)).toBe(true);
          expect(bits).toBe(numDifferingBits(values[id]!, values[r]!));
          expect(bits).toBeLessThanOrEqual(distance);
        }
        for (const a of kept) for (const b of kept) if (a < b) expect(numDifferingBits(values[a]!, values[b]!), `${a} ~ ${b}`).toBeGreaterThan(distance);
        expect(await indexes[0]!.size()).toBe(kept.length);
      } finally {
        clients[1]!.disconnect();
        clients[2]!.disconnect();
      }
    });

    it('decideMany waits out a holder that died with the lock, and writes nothing once its own lock lapsed', async () => {
      const name = uniqueName('decide-lock');
      const index = await RedisSimHashIndex.open({ client, name, distance: 3 });
      // A holder that died: its lock expires after 300 ms, and then the call goes on.
      await client.set(`simhash:{${name}}:lock`, 'a dead process', 'PX', 300);
      const started = Date.now();
      expect(Array.from((await index.decideMany(Uint32Array.of(1, 2), [0n, 1n])).representative)).toEqual([1, 1]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      // A lock of 1 ms lapses before the call writes: it fails and writes nothing.
      const values = Array.from({ length: 3000 }, (_, k) => (BigInt(k) * 0x9e37_79b9_7f4a_7c15n) & ((1n << 64n) - 1n));
      const error = await index.decideMany(Uint32Array.from(values, (_, k) => 100 + k), values, { lockFor: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RedisIndexError);
      expect((error as RedisIndexError).message).toMatch(/lock lapsed .*nothing was written/);
      expect(await index.size()).toBe(1);
      await expect(index.decideMany(Uint32Array.of(1), [1n], { lockFor: 0 })).rejects.toThrow(/options.lockFor must be an integer in 1..3600000/);
      await expect(index.decideMany(Uint32Array.of(5, 5), [1n, 2n])).rejects.toThrow(/ids must be distinct within a batch/);
    });

    it('serves every process that opens it by name, and keeps indexes of other names apart', async () => {
      const name = uniqueName('shared');
      const other = await clientOf(servers());
      try {
        const first = await RedisSimHashIndex.open({ client, name, distance: 3 });
        const second = await RedisSimHashIndex.open({ client: other, name });
        const unrelated = await RedisSimHashIndex.open({ client: other, name: `${name}x`, distance: 3 });
        expect(second.distance).toBe(3);
        expect(second.blocks).toBe(first.blocks);
        await first.add(7, 0xf0f0n);
        await unrelated.add(8, 0xf0f0n);
        expect(await second.query(0xf0f1n)).toEqual({ ids: Uint32Array.of(7), distances: Uint8Array.of(1) });
        await expect(RedisSimHashIndex.open({ client: other, name, distance: 4 })).rejects.toThrow(/created with distance 3, not 4/);
        await expect(RedisSimHashIndex.open({ client: other, name: uniqueName('absent') })).rejects.toThrow(/does not exist/);
      } finally {
        other.disconnect();
      }
    });

    it('restores lost members when an entry is written again unchanged, without copying the others', async () => {
      const name = uniqueName('heal');
      const index = await RedisSimHashIndex.open({ client, name, distance: 3, capacity: 2000 });
      const { ids, values } = batch(400, 21);
      const model = new SimHashIndex({ distance: 3 });
      try {
        await index.addMany(ids, values);
        model.addMany(ids, values);
        const probes = batch(200, 22).values;
        const buckets = async (): Promise<{ keys: string[]; bytes: number }> => {
          const keys: string[] = [];
          for (const node of kind === 'cluster' ? (client as Cluster).nodes('master') : [client as Redis]) {
            keys.push(...(await node.keys(`simhash:{${name}/*}:t*`)));
          }
          const lengths = await Promise.all(keys.map((key) => client.strlen(key)));
          return { keys, bytes: lengths.reduce((a, b) => a + b, 0) };
        };
        const before = await buckets();
        expect(before.bytes).toBeGreaterThan(0);
        // Writing everything again unchanged adds nothing.
        await index.addMany(ids, values);
        expect((await buckets()).bytes).toBe(before.bytes);
        // Half the buckets lost (as a repair racing a write could make them), then written again.
        await Promise.all(before.keys.filter((_, k) => k % 2 === 0).map((key) => client.del(key)));
        // The loss shows in the buckets; the answers may hide it, a pair being in several tables.
        expect((await buckets()).bytes).toBeLessThan(before.bytes);
        await index.addMany(ids, values);
        expect(await index.queryMany(probes)).toEqual(model.queryMany(probes));
        expect((await buckets()).bytes).toBe(before.bytes);
      } finally {
        model.free();
      }
    });

    it('spreads its hash tags over the masters in equal shares', async () => {
      const name = uniqueName('tags');
      await RedisSimHashIndex.open({ client, name, distance: 3 });
      const tags = String(await client.hget(`simhash:{${name}}:meta`, 'tags')).split(',');
      if (kind === 'single') {
        expect(tags).toEqual(['0']);
        return;
      }
      const cluster = client as Cluster;
      const masters = cluster.nodes('master').length;
      expect(tags.length).toBe(4 * masters);
      const perMaster = new Map<string, number>();
      for (const tag of tags) {
        const owner = String(cluster.slots[tagSlot(`${name}/${tag}`)]?.[0]);
        perMaster.set(owner, (perMaster.get(owner) ?? 0) + 1);
      }
      expect([...perMaster.values()]).toEqual(Array.from({ length: masters }, () => 4));
    });

    it('sends concurrent single queries as one batch, each answered as the in-memory index does', async () => {
      const name = uniqueName('batched');
      const writer = await RedisSimHashIndex.open({ client, name, distance: 4, capacity: 1000 });
      const model = new SimHashIndex({ distance: 4 });
      try {
        const { ids, values } = batch(300, 5);
        await writer.addMany(ids, values);
        model.addMany(ids, values);
        const counted = countingCalls(client);
        const reader = await RedisSimHashIndex.open({ client: counted.client, name });
        const probes = batch(64, 6).values;
        const options: QueryOptions[] = [{}, { distance: 2 }, { limit: 1 }];
        const before = counted.calls();
        const answers = await Promise.all(Array.from(probes, (value, k) => reader.query(value, options[k % 3])));
        answers.forEach((answer, k) => expect(answer, `query ${k}`).toEqual(model.query(probes[k]!, options[k % 3])));
        const batched = counted.calls() - before;
        // The same queries one after another: every one makes its own script calls.
        for (const [k, value] of probes.entries()) expect(await reader.query(value, options[k % 3])).toEqual(answers[k]);
        const oneByOne = counted.calls() - before - batched;
        // On a cluster a batch still makes a call per hash tag it touches (64 tags), so it saves
        // less there.
        expect(batched * (kind === 'single' ? 4 : 1.5)).toBeLessThan(oneByOne);
        // A failing batch rejects each query in it.
        const failing = await RedisSimHashIndex.open({ client: failingAfter(client, 1), name });
        const failed = await Promise.allSettled([failing.query(probes[0]!), failing.query(probes[1]!)]);
        expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected']);
      } finally {
        model.free();
      }
    });

    it('rejects bad arguments naming them, and use after close', async () => {
      await expect(RedisSimHashIndex.open({ client, name: 'a{b}', distance: 3 })).rejects.toThrow(RangeError);
      await expect(RedisSimHashIndex.open({ client, name: 'pages/v2', distance: 3 })).rejects.toThrow(/without braces, slashes or spaces/);
      await expect(RedisSimHashIndex.open({ client, name: 'ok', distance: 65 })).rejects.toThrow(/distance/);
      await expect(RedisSimHashIndex.open({ client: {} as Redis, name: 'ok', distance: 3 })).rejects.toThrow(/client must be/);
      await expect(RedisSimHashIndex.open({ client, name: 'ok', distance: 10, blocks: 13 })).rejects.toThrow(/makes 286 tables; at most 128/);
      await expect(RedisSimHashIndex.open({ client, name: 'ok', blocks: 5 })).rejects.toThrow(/blocks needs distance/);
      await expect(RedisSimHashIndex.open({ client, name: 'ok', parts: 5 })).rejects.toThrow(/parts needs distance/);
      await expect(RedisSimHashIndex.open({ client, name: 'ok', distance: 3, blocks: 5, parts: 2 })).rejects.toThrow(/at most one/);
      await expect(RedisSimHashIndex.open({ client, name: 'ok', distance: 3, parts: 0 })).rejects.toThrow(/parts must be an integer in 1..64/);
      await expect(RedisSimHashIndex.open({ client, name: 'ok', distance: 12, parts: 1 })).rejects.toThrow(/buckets per query .* at most 4096/);
      if (kind === 'single') {
        // More replicas than the server has: refused at open, before a key is written.
        const name = uniqueName('replicas');
        await expect(RedisSimHashIndex.open({ client, name, distance: 3, replicas: 1 })).rejects.toThrow(
          /^replicas 1: the master at .* has 0 connected replicas, so every write would wait and fail/,
        );
        expect(await (client as Redis).keys(`simhash:{${name}*`)).toEqual([]);
      } else {
        await expect(RedisSimHashIndex.open({ client, name: uniqueName('replicas'), distance: 3, replicas: 2 })).rejects.toThrow(/has 1 connected replica,/);
      }
      const index = await RedisSimHashIndex.open({ client, name: uniqueName('args'), distance: 3 });
      await expect(index.add(-1, 1n)).rejects.toThrow(/id must be an integer/);
      await expect(index.add(1, 2n ** 64n)).rejects.toThrow(RangeError);
      await expect(index.addMany(Uint32Array.of(1, 2), [1n])).rejects.toThrow(/one fingerprint per id/);
      await expect(index.query(1n, { distance: 4 })).rejects.toThrow(/must not exceed/);
      index.close();
      await expect(index.size()).rejects.toThrow(TypeError);
    });

    it('calls an addMany partial when a later round fails before writing', async () => {
      if (kind === 'cluster') return; // Call counts per round are fixed on one server only.
      const name = uniqueName('rounds');
      await RedisSimHashIndex.open({ client, name, distance: 3, capacity: 64 });
      const count = 20_000; // two rounds of 16,384 entries at most
      const ids = Uint32Array.from({ length: count }, (_, k) => k);
      const values = batch(count, 31).values;
      // Round one: read, append, set (3 calls); the fourth call is round two's read.
      const failing = await RedisSimHashIndex.open({ client: failingAfter(client, 1 + 3), name });
      const error = await failing.addMany(ids, values).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(RedisIndexError);
      expect((error as RedisIndexError).partial).toBe(true);
      const index = await RedisSimHashIndex.open({ client, name });
      expect(await index.size()).toBe(16_384);
    });

    it('never answers with an id for a fingerprint it does not hold when a write stops part-way', async () => {
      // A client whose script calls fail from the k-th on stands for a writer that crashes at
      // that point of a multi-key update; every k from 0 to the last call is tried.
      const rng = new SplitMix64(99n);
      const before = Array.from({ length: 40 }, (_, k) => (k < 20 ? flipBits(CENTRES[0]!, k % 4, rng) : rng.next()));
      const after = before.map((value, k) => (k % 2 === 0 ? flipBits(value, 6, rng) : flipBits(CENTRES[1]!, 2, rng)));
      const ids = Uint32Array.from(before, (_, k) => k);
      const probes = BigUint64Array.from([...before, ...after]);
      for (let k = 0; ; k += 1 + (k >> 2)) {
        const name = uniqueName('crash');
        const index = await RedisSimHashIndex.open({ client, name, distance: 4, capacity: 64 });
        await index.addMany(ids, BigUint64Array.from(before));
        // open runs one script call; the writer dies after k calls of the write.
        const crashing = await RedisSimHashIndex.open({ client: failingAfter(client, k + 1), name });
        const error = await crashing.addMany(ids, BigUint64Array.from(after)).then(
          () => undefined,
          (e: unknown) => e,
        );
        await crashing.remove(3).catch(() => undefined);
        if (error !== undefined) {
          expect(error).toBeInstanceOf(RedisIndexError);
          // The first calls only read the records: a failure there has written nothing.
          if (k === 0) expect((error as RedisIndexError).partial).toBe(false);
        }
        const untouched = error !== undefined && !(error as RedisIndexError).partial;
        // Each id holds its old or its new fingerprint, as its record says, or none once removed;
        // the answers to every probe are exactly those of an in-memory index holding that.
        const model = new SimHashIndex({ distance: 4 });
        for (const id of ids) {
          const isNew = (await index.query(after[id]!, { distance: 0 })).ids.includes(id);
          const isOld = (await index.query(before[id]!, { distance: 0 })).ids.includes(id);
          expect(isNew && isOld).toBe(false);
          if (untouched && id !== 3) expect(isOld, `id ${id} after a write that was not partial`).toBe(true);
          expect(await index.has(id)).toBe(isNew || isOld);
          if (isNew || isOld) model.add(id, isNew ? after[id]! : before[id]!);
        }
        await expectSameEntries(index, model, probes);
        // Repair removes only strays: the answers stay, and the retry completes the write.
        await index.repair();
        await expectSameEntries(index, model, probes);
        await index.addMany(ids, BigUint64Array.from(after));
        model.addMany(ids, BigUint64Array.from(after));
        await expectSameEntries(index, model, probes);
        expect(await index.repair()).toMatchObject({ strays: 0, copies: 0, corrupt: [], lost: [] });
        model.free();
        if (error === undefined) break;
      }
    }, 120_000);
  });
}

/**
 * `client` with every call the index makes to Redis (scripts: `evalshaBuffer`, or `evalBuffer`
 * after NOSCRIPT; bucket reads: `mgetBuffer`) passed through `intercept`, which gets the method
 * name and either calls on or fails.
 */
function interceptCalls(client: Redis | Cluster, intercept: (method: string, call: () => Promise<unknown>) => Promise<unknown>): Redis | Cluster {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if ((property === 'evalshaBuffer' || property === 'evalBuffer' || property === 'mgetBuffer') && typeof value === 'function') {
        return (...args: unknown[]) => intercept(property, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `client`, counting the calls made through it. */
function countingCalls(client: Redis | Cluster): { client: Redis | Cluster; calls: () => number } {
  let calls = 0;
  const counted = interceptCalls(client, (_, call) => {
    calls++;
    return call();
  });
  return { client: counted, calls: () => calls };
}

/** `client` with every call from the `k`-th on failing, as if the writer had died. */
function failingAfter(client: Redis | Cluster, k: number): Redis | Cluster {
  let calls = 0;
  return interceptCalls(client, (method, call) => (method !== 'evalBuffer' && calls++ >= k ? Promise.reject(new Error('writer died')) : call()));
}
