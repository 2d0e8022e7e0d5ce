/**
 * What Redis does to its clients, against real servers with a writer and reader under load and
 * an in-memory oracle: the whole cluster killed and restarted from its AOF files, a master
 * frozen past the node timeout (failed over without the client seeing a disconnect), storms of
 * CLIENT KILL, an outage longer than any reconnection budget, a frozen server, and a proxy that
 * loses replies. In every one: no acknowledged write lost, no wrong answer, no call past its
 * time limit, and the same client works afterwards.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Cluster, Redis } from 'ioredis';
import { init } from '../../ts/wasm/loader.js';
import { SimHashIndex } from '../../ts/wasm/simhash-index.js';
import { connectRedis } from '../../ts/redis/connect.js';
import { RedisSimHashIndex } from '../../ts/redis/redis-index.js';
import { RedisIndexError } from '../../ts/redis/errors.js';
import { waitForReplicas } from '../../ts/redis/replicas.js';
import { Deadline } from '../../ts/redis/requests.js';
import { SplitMix64 } from '../oracle.js';
import { clientOf, uniqueName, useLossyRelay, useServers } from './servers.js';
import { Workload, expectAcknowledgedKept } from './workload.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The time limit the tests give their indexes, and what a call may take past it on a loaded machine. */
const TIMEOUT = 1500;
const SLACK = 1000;

beforeAll(async () => {
  await init();
});

describe('RedisSimHashIndex on a cluster when servers fail', () => {
  const servers = useServers('cluster');

  it('comes back by itself after every node is killed and restarted from its AOF files', async () => {
    const s = servers();
    const client = await clientOf(s);
    try {
      const index = await RedisSimHashIndex.open({ client, name: uniqueName('all-killed'), distance: 3, capacity: 20_000, replicas: 1, timeout: TIMEOUT });
      const load = new Workload(index, 0, 1n).start();
      try {
        await load.progress(10, 20_000);
        await s.killAll();
        await sleep(2 * TIMEOUT);
        await s.startAll();
        // The same client, never told anything: it must find the cluster again.
        await load.progress(20, 30_000);
      } finally {
        await load.stop();
      }
      expect(load.errors.get('timeout') ?? 0, 'calls made while every node was down').toBeGreaterThan(0);
      expect(load.slowest).toBeLessThanOrEqual(TIMEOUT + SLACK);
      expect(load.wrong).toBe(0);
      await expectAcknowledgedKept(index, [load], 3);
    } finally {
      client.disconnect();
    }
  }, 120_000);

  it('follows a failover it never saw: a master frozen past the node timeout, then resumed', async () => {
    const s = servers();
    const client = await clientOf(s);
    try {
      const index = await RedisSimHashIndex.open({ client, name: uniqueName('frozen-master'), distance: 3, capacity: 20_000, replicas: 1, timeout: TIMEOUT });
      const first = new Workload(index, 0, 2n).start();
      try {
        await first.progress(10, 20_000);
      } finally {
        await first.stop();
      }
      // Idle while a master freezes and its replica takes over (node timeout 1 s): the client
      // meets no CLUSTERDOWN, no MOVED and no closed connection, and still sends to the frozen one.
      const [victim] = await s.masters();
      victim!.pause();
      const stored = BigUint64Array.from(first.acked.flatMap((batch) => Array.from(batch.values)));
      const storedIds = first.acked.flatMap((batch) => Array.from(batch.ids));
      try {
        const deadline = Date.now() + 30_000;
        const others = s.nodes.filter((node) => node !== victim);
        const promoted = async (): Promise<number> => (await Promise.all(others.map((node) => node.cli('ROLE').catch(() => '')))).filter((role) => role.startsWith('master')).length;
        while ((await promoted()) < 3) {
          if (Date.now() > deadline) throw new Error('no failover');
          await sleep(100);
        }
        // A call that timed out reloads the slot table: the next are answered while the old
        // master is still frozen (writes are not: the promoted master has no replica).
        let found: Awaited<ReturnType<typeof index.queryMany>> | undefined;
        for (let attempt = 0; found === undefined && attempt < 5; attempt++) {
          found = await index.queryMany(stored, { distance: 0 }).catch((error: unknown) => {
            expect(error).toMatchObject({ name: 'RedisIndexError', kind: 'timeout' });
            return undefined;
          });
        }
        expect(found, 'queries answered while the old master was frozen').toBeDefined();
        storedIds.forEach((id, q) => expect(Array.from(found!.ids.subarray(found!.offsets[q], found!.offsets[q + 1]))).toEqual([id]));
      } finally {
        victim!.resume();
      }
      await s.waitHealthy(30_000);
      const load = new Workload(index, 1_000_000, 3n).start();
      try {
        await load.progress(10, 30_000);
        // The client that sent to the frozen master now answers every call.
        const before = [...load.errors.values()].reduce((a, b) => a + b, 0);
        await load.progress(30, 30_000);
        const after = [...load.errors.values()].reduce((a, b) => a + b, 0);
        expect(after - before, 'errors once the cluster was healthy again').toBe(0);
      } finally {
        await load.stop();
      }
      for (const w of [first, load]) {
        expect(w.slowest).toBeLessThanOrEqual(TIMEOUT + SLACK);
        expect(w.wrong).toBe(0);
      }
      await expectAcknowledgedKept(index, [first, load], 3);
      // The demoted master is a replica now, and the client knows it.
      const roles = await Promise.all((client as Cluster).nodes('master').map((node) => node.role()));
      expect(roles.every((role) => role[0] === 'master')).toBe(true);
    } finally {
      client.disconnect();
    }
  }, 120_000);

  it('stays exact through storms of CLIENT KILL on every node, with two writers', async () => {
    const s = servers();
    const name = uniqueName('storm');
    const clients = [await clientOf(s), await clientOf(s)];
    try {
      const indexes = await Promise.all(clients.map((client) => RedisSimHashIndex.open({ client, name, distance: 3, capacity: 20_000, replicas: 1, timeout: TIMEOUT })));
      const loads = indexes.map((index, k) => new Workload(index, 1_000_000 * k, BigInt(10 + k)).start());
      try {
        await Promise.all(loads.map((load) => load.progress(10, 20_000)));
        const stormEnds = Date.now() + 3000;
        while (Date.now() < stormEnds) {
          await Promise.all(s.nodes.map((node) => node.cli('CLIENT', 'KILL', 'TYPE', 'normal').catch(() => '')));
          await sleep(100);
        }
        const errors = (): number => loads.reduce((sum, load) => sum + [...load.errors.values()].reduce((a, b) => a + b, 0), 0);
        await Promise.all(loads.map((load) => load.progress(5, 30_000)));
        const settled = errors();
        await Promise.all(loads.map((load) => load.progress(30, 30_000)));
        expect(errors() - settled, 'errors after the storm').toBe(0);
      } finally {
        await Promise.all(loads.map((load) => load.stop()));
      }
      for (const load of loads) {
        expect(load.slowest).toBeLessThanOrEqual(TIMEOUT + SLACK);
        expect(load.wrong).toBe(0);
      }
      await expectAcknowledgedKept(indexes[0]!, loads, 3);
      for (const client of clients) expect((client as Cluster).nodes('master')).toHaveLength(3);
    } finally {
      for (const client of clients) client.disconnect();
    }
  }, 120_000);
});

describe('waitForReplicas', () => {
  it('never takes a write as confirmed by a cluster client that knows no master', async () => {
    const lost = { status: 'ready', nodes: () => [] } as unknown as Cluster;
    await expect(waitForReplicas(lost, 1, 100, new Deadline(1000), new Map())).rejects.toThrow(/no master is known/);
  });
});

describe('RedisSimHashIndex on one server when it fails', () => {
  const servers = useServers('single');

  it('comes back after an outage of any length, failing each call meanwhile within its time limit', async () => {
    const s = servers();
    const client = await connectRedis(s.url);
    // ioredis prints the connection errors nobody listens to.
    const printed = vi.spyOn(console, 'error');
    try {
      const index = await RedisSimHashIndex.open({ client, name: uniqueName('outage'), distance: 3, capacity: 20_000, timeout: TIMEOUT });
      const load = new Workload(index, 0, 3n).start();
      try {
        await load.progress(10, 20_000);
        await s.nodes[0]!.kill();
        await sleep(7000);
        await s.nodes[0]!.start();
        await load.progress(20, 30_000);
      } finally {
        await load.stop();
      }
      expect(load.errors.get('timeout')).toBeGreaterThan(0);
      expect(load.slowest).toBeLessThanOrEqual(TIMEOUT + SLACK);
      expect(load.wrong).toBe(0);
      await expectAcknowledgedKept(index, [load], 3);
      expect(printed.mock.calls.flat().map(String).filter((text) => text.includes('Unhandled error'))).toEqual([]);
    } finally {
      printed.mockRestore();
      client.disconnect();
    }
  }, 60_000);

  it('stops sending once 1,024 requests are unanswered past their limit, and sends again once they are answered', async () => {
    const s = servers();
    const client = await connectRedis(s.url);
    try {
      const index = await RedisSimHashIndex.open({ client, name: uniqueName('overdue'), distance: 3, capacity: 1000, timeout: 300 });
      await index.add(1, 42n);
      s.nodes[0]!.pause();
      let refused: unknown;
      try {
        // Each has() is one request: 1,100 of them wait out their limit on the frozen server.
        const waited = await Promise.all(Array.from({ length: 1100 }, (_, k) => index.has(k).then(() => undefined, (e: unknown) => e)));
        expect(waited.every((e) => e instanceof RedisIndexError && e.kind === 'timeout')).toBe(true);
        const started = Date.now();
        refused = await index.has(1).then(() => undefined, (e: unknown) => e);
        expect(Date.now() - started, 'refused without waiting').toBeLessThan(100);
      } finally {
        s.nodes[0]!.resume();
      }
      expect(refused).toMatchObject({ name: 'RedisIndexError', kind: 'timeout' });
      expect((refused as Error).message).toMatch(/\d+ earlier requests to Redis are still unanswered past their time limit; nothing more is sent until it answers/);
      // The server answers the 1,100 late; the client sends again.
      const deadline = Date.now() + 10_000;
      while (!(await index.has(1).catch(() => false)) && Date.now() < deadline) await sleep(50);
      expect(await index.has(1)).toBe(true);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it("fails every call of a closed client at once, with kind 'closed'", async () => {
    const client = await connectRedis(servers().url);
    const index = await RedisSimHashIndex.open({ client, name: uniqueName('closed'), distance: 3, capacity: 1000 });
    client.disconnect();
    const started = Date.now();
    const error = await index.query(42n).then(() => undefined, (e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toMatchObject({ name: 'RedisIndexError', kind: 'closed' });
    expect((error as Error).message).toContain('the Redis client is closed and will not reconnect');
  });

  it('bounds every call while the server is frozen with its connections open, and the timeout error says so', async () => {
    const s = servers();
    const client = await connectRedis(s.url);
    try {
      const index = await RedisSimHashIndex.open({ client, name: uniqueName('frozen'), distance: 3, capacity: 20_000, timeout: TIMEOUT });
      await index.add(1, 42n);
      s.nodes[0]!.pause();
      let error: unknown;
      const started = Date.now();
      try {
        error = await index.query(42n).then(() => undefined, (e: unknown) => e);
        // A write's first step reads the record: failing there, it has written nothing.
        const writing = await index.add(2, 43n).then(() => undefined, (e: unknown) => e);
        expect(writing).toMatchObject({ name: 'RedisIndexError', kind: 'timeout', partial: false });
      } finally {
        s.nodes[0]!.resume();
      }
      expect(Date.now() - started).toBeLessThanOrEqual(2 * TIMEOUT + SLACK);
      expect(error).toBeInstanceOf(RedisIndexError);
      expect((error as RedisIndexError).kind).toBe('timeout');
      expect((error as Error).message).toBe(`query failed (Redis did not answer within ${TIMEOUT} ms)`);
      expect(Array.from((await index.query(42n)).ids)).toEqual([1]);
      await index.add(2, 43n);
      expect(Array.from((await index.query(43n, { distance: 0 })).ids)).toEqual([2]);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  describe('through a proxy that loses replies', () => {
    const relay = useLossyRelay(servers, 77n);
    const rng = new SplitMix64(78n);

    it('answers every remove as the first sending would have, and leaves no member behind', async () => {
      const client = await connectRedis(`redis://127.0.0.1:${relay().port}`);
      const direct = await clientOf(servers());
      try {
        const name = uniqueName('lost-replies');
        const index = await RedisSimHashIndex.open({ client, name, distance: 3, capacity: 2000, timeout: 10_000 });
        const values = BigUint64Array.from({ length: 600 }, () => rng.next());
        const ids = Uint32Array.from(values, (_, k) => k);
        await index.addMany(ids, values);
        const model = new SimHashIndex({ distance: 3 });
        model.addMany(ids, values);
        relay().dropRate = 0.1;
        const answers: boolean[] = [];
        try {
          // Every third id is removed twice: the second must answer false.
          for (let k = 0; k < 600; k += 8) {
            const slice = Array.from({ length: 8 }, (_, j) => k + j);
            answers.push(...(await Promise.all(slice.map((id) => index.remove(id)))));
            for (const id of slice) if (id % 3 === 0) answers.push(await index.remove(id));
          }
          expect(await index.queryMany(values)).toEqual(new SimHashIndex({ distance: 3 }).queryMany(values));
        } finally {
          relay().dropRate = 0;
        }
        const expected: boolean[] = [];
        for (let k = 0; k < 600; k += 8) {
          for (let j = 0; j < 8; j++) expected.push(model.remove(k + j));
          for (let j = 0; j < 8; j++) if ((k + j) % 3 === 0) expected.push(model.remove(k + j));
        }
        expect(answers).toEqual(expected);
        model.free();
        // decideMany takes the index's lock: a lock request re-sent after its reply was lost
        // must find the lock its own, not wait out its 30 s expiry.
        relay().dropRate = 0.1;
        try {
          for (let k = 0; k < 20; k++) {
            const started = Date.now();
            const decided = await index.decideMany(Uint32Array.of(10_000 + k), BigUint64Array.of(rng.next()));
            expect(decided.representative[0]).toBe(10_000 + k);
            expect(Date.now() - started, 'one decideMany').toBeLessThan(10_000);
          }
        } finally {
          relay().dropRate = 0;
        }
        for (let k = 0; k < 20; k++) await index.remove(10_000 + k);
        // Not a member left: a repair over a direct connection finds nothing to remove.
        const checker = await RedisSimHashIndex.open({ client: direct, name });
        expect(await checker.size()).toBe(0);
        expect(await checker.repair()).toEqual({ strays: 0, copies: 0, corrupt: [], restored: 0, lost: [], rebuilt: 0, counters: 0 });
      } finally {
        client.disconnect();
        direct.disconnect();
      }
    }, 120_000);
  });
});

/** Writes a key by hand, as something other than the index might. */
type Corrupter = (client: Redis | Cluster, key: string) => Promise<unknown>;

describe('RedisSimHashIndex with corrupt keys', () => {
  const servers = useServers('single');
  const rng = new SplitMix64(123n);

  /**
   * An index of 400 entries, and the name of a twin holding the same entries that nothing
   * corrupts: a repaired index must hold exactly what the twin holds, key for key.
   */
  async function fresh(client: Redis | Cluster): Promise<{ index: RedisSimHashIndex; name: string; twin: string; ids: Uint32Array; values: BigUint64Array; model: SimHashIndex }> {
    const name = uniqueName('corrupt');
    const twin = uniqueName('twin');
    const values = BigUint64Array.from({ length: 400 }, () => rng.next());
    const ids = Uint32Array.from(values, (_, k) => 3 * k);
    const [index, clean] = await Promise.all([name, twin].map((n) => RedisSimHashIndex.open({ client, name: n, distance: 3, capacity: 400 })));
    await index!.addMany(ids, values);
    await clean!.addMany(ids, values);
    const model = new SimHashIndex({ distance: 3 });
    model.addMany(ids, values);
    return { index: index!, name, twin, ids, values, model };
  }

  /** Every data key of index `name` (on one server: one tag) by what follows its tag, with what it holds. */
  async function contents(client: Redis | Cluster, name: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const key of await (client as Redis).keys(`simhash:{${name}/*`)) {
      const suffix = key.slice(key.indexOf('}:') + 2);
      if (/^t\d+:\d+$/.test(suffix)) {
        // Members in no order: compare them sorted.
        const bucket = (await client.getBuffer(key))!;
        const members = Array.from({ length: bucket.length / 12 }, (_, k) => bucket.subarray(12 * k, 12 * k + 12).toString('hex')).sort();
        out.set(suffix, members.join());
      } else if (/^r\d+$/.test(suffix)) {
        const fields = await (client as Redis).hgetallBuffer(key);
        out.set(suffix, Object.entries(fields).map(([f, v]) => `${Buffer.from(f, 'latin1').toString('hex')}=${v.toString('hex')}`).sort().join());
      } else {
        out.set(suffix, String(await client.get(key)));
      }
    }
    return out;
  }

  const keysOf = async (client: Redis | Cluster, name: string, pattern: RegExp): Promise<string[]> =>
    (await (client as Redis).keys(`simhash:{${name}/*`)).filter((key) => pattern.test(key)).sort();

  const cases: { what: string; pattern: RegExp; corrupt: Corrupter; restored: boolean }[] = [
    { what: 'a record value of 20 bytes', pattern: /:r\d+$/, restored: true, corrupt: async (c, key) => c.hset(key, (await firstField(c, key))!, Buffer.alloc(20, 7)) },
    { what: 'a record value of 3 bytes', pattern: /:r\d+$/, restored: true, corrupt: async (c, key) => c.hset(key, (await firstField(c, key))!, Buffer.alloc(3, 7)) },
    { what: 'a record hash turned into a string', pattern: /:r\d+$/, restored: true, corrupt: (c, key) => c.set(key, 'not a hash') },
    { what: 'a bucket turned into a hash', pattern: /:t\d+:\d+$/, restored: false, corrupt: async (c, key) => (await c.del(key), c.hset(key, 'a', 'b')) },
    { what: 'a bucket of 13 bytes too many', pattern: /:t\d+:\d+$/, restored: false, corrupt: (c, key) => c.append(key, 'thirteen byte') },
  ];

  for (const { what, pattern, corrupt, restored } of cases) {
    it(`names ${what} in every error, and repair() rebuilds it without touching other entries`, async () => {
      const client = await clientOf(servers());
      try {
        const { index, name, twin, values, model } = await fresh(client);
        const [key] = await keysOf(client, name, pattern);
        await corrupt(client, key!);
        // Queries that read the key fail naming it; none answers without what it held.
        const failed = await index.queryMany(values).then(() => undefined, (e: unknown) => e);
        expect(failed).toBeInstanceOf(RedisIndexError);
        expect((failed as RedisIndexError).kind).toBe('corrupt');
        expect((failed as RedisIndexError).key).toBe(key);
        expect((failed as Error).message).toContain(`key '${key}'`);
        expect((failed as Error).message).toContain('run repair()');
        const report = await index.repair();
        expect(report.corrupt).toEqual([key]);
        expect(report.lost).toEqual([]);
        expect(report.restored > 0).toBe(restored);
        expect(report.rebuilt > 0).toBe(!restored);
        expect(await contents(client, name)).toEqual(await contents(client, twin));
        expect(await index.queryMany(values)).toEqual(model.queryMany(values));
        expect(await index.size()).toBe(model.size);
        expect(await index.repair()).toEqual({ strays: 0, copies: 0, corrupt: [], restored: 0, lost: [], rebuilt: 0, counters: 0 });
        model.free();
      } finally {
        client.disconnect();
      }
    });
  }

  it('restores an entry whose record value is corrupt when the entry is written again', async () => {
    const client = await clientOf(servers());
    try {
      const { index, name, ids, values, model } = await fresh(client);
      const [key] = await keysOf(client, name, /:r\d+$/);
      const field = (await firstField(client, key!))!;
      const id = field.readUInt32BE(0);
      await client.hset(key!, field, Buffer.alloc(5));
      await expect(index.has(id)).rejects.toMatchObject({ kind: 'corrupt', key });
      const k = ids.indexOf(id);
      await index.add(id, values[k]!);
      expect(await index.has(id)).toBe(true);
      expect(await index.queryMany(values)).toEqual(model.queryMany(values));
      model.free();
    } finally {
      client.disconnect();
    }
  });

  it('names a counter that is not a count, and repair() sets it from the records', async () => {
    const client = await clientOf(servers());
    try {
      const { index, name, model } = await fresh(client);
      const [key] = await keysOf(client, name, /:n$/);
      await client.set(key!, 'garbage');
      await expect(index.size()).rejects.toMatchObject({ kind: 'corrupt', key, message: expect.stringContaining(`key '${key}' holds 'garbage', not an entry count`) });
      await expect(index.add(100_000, 5n)).rejects.toMatchObject({ kind: 'corrupt', key, partial: true });
      const report = await index.repair();
      expect(report).toMatchObject({ corrupt: [key], counters: 1, lost: [] });
      // The add refused by the record script stored no record: its members were strays.
      expect(report.strays).toBeGreaterThan(0);
      expect(await index.size()).toBe(model.size);
      expect(await index.has(100_000)).toBe(false);
      model.free();
    } finally {
      client.disconnect();
    }
  });

  it('repair() never deletes a member a readable record holds, whatever else is corrupt', async () => {
    const client = await clientOf(servers());
    try {
      const { index, name, twin, values, model } = await fresh(client);
      const spoilt = await spoil(client, name);
      const bucket = (await keysOf(client, name, /:t\d+:\d+$/)).find((key) => !spoilt.includes(key))!;
      await client.del(bucket);
      await client.hset(bucket, 'f', 'v');
      const report = await index.repair();
      expect(report.corrupt).toEqual([...spoilt, bucket].sort());
      expect(report.lost).toEqual([]);
      expect(await contents(client, name)).toEqual(await contents(client, twin));
      expect(await index.queryMany(values)).toEqual(model.queryMany(values));
      expect(await index.size()).toBe(model.size);
      model.free();
    } finally {
      client.disconnect();
    }
  });

  it('repair() stopped at any request leaves what a second run finishes, losing nothing', async () => {
    const client = await clientOf(servers());
    try {
      for (let stopAfter = 1; ; stopAfter += 1 + (stopAfter >> 2)) {
        const { index, name, twin, values, model } = await fresh(client);
        await spoil(client, name);
        await client.set((await keysOf(client, name, /:n$/))[0]!, 'garbage');
        // A repair through a client that fails every request after the first `stopAfter`.
        const stopping = await RedisSimHashIndex.open({ client: failingAfter(client, stopAfter), name });
        const first = await stopping.repair().then(() => undefined, (e: unknown) => e);
        const report = await index.repair();
        expect(report.lost).toEqual([]);
        expect(await contents(client, name)).toEqual(await contents(client, twin));
        expect(await index.queryMany(values)).toEqual(model.queryMany(values));
        model.free();
        if (first === undefined) break;
        expect(first).toMatchObject({ name: 'RedisIndexError', operation: 'repair', partial: true });
      }
    } finally {
      client.disconnect();
    }
  }, 120_000);
});

/** `client` with every request after the first `count` failing, as if the connection had died. */
function failingAfter(client: Redis | Cluster, count: number): Redis | Cluster {
  let left = count;
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || property === 'on' || property === 'once') return value;
      return (...args: unknown[]) => {
        if (left-- <= 0) return Promise.reject(new Error('the test stopped this client'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * Spoils three keys of index `name` in three ways (a record value of 20 bytes, a record hash
 * made a string, a bucket one byte too long); returns them.
 */
async function spoil(client: Redis | Cluster, name: string): Promise<string[]> {
  const all = await (client as Redis).keys(`simhash:{${name}/*`);
  const records = all.filter((key) => /:r\d+$/.test(key)).sort();
  const bucket = all.filter((key) => /:t\d+:\d+$/.test(key)).sort()[0]!;
  await client.hset(records[0]!, (await firstField(client, records[0]!))!, Buffer.alloc(20, 1));
  await client.set(records[1]!, 'x');
  await client.append(bucket, 'x');
  return [records[0]!, records[1]!, bucket];
}

async function firstField(client: Redis | Cluster, key: string): Promise<Buffer | undefined> {
  const [, flat] = await (client as Redis).hscanBuffer(key, 0, 'COUNT', 10);
  return flat[0];
}
