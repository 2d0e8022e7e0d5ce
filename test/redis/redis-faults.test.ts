/**
 * Faults against real servers: a master killed under a write load, the whole cluster killed and
 * restarted from its AOF files, and a client losing its connection in the middle of addMany.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { SimHashIndex } from '../../ts/wasm/simhash-index.js';
import { init } from '../../ts/wasm/loader.js';
import { RedisSimHashIndex } from '../../ts/redis/redis-index.js';
import { RedisIndexError } from '../../ts/redis/errors.js';
import { SplitMix64, flipBits } from '../oracle.js';
import { clientOf, uniqueName, useServers } from './servers.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` entries from `first` on, a third of them near-duplicates of an earlier one. */
function entries(first: number, count: number, rng: SplitMix64): { ids: Uint32Array; values: BigUint64Array } {
  const ids = new Uint32Array(count);
  const values = new BigUint64Array(count);
  for (let k = 0; k < count; k++) {
    ids[k] = first + k;
    values[k] = k % 3 === 2 ? flipBits(values[k - 1]!, 2, rng) : rng.next();
  }
  return { ids, values };
}

/** Expects the index to hold exactly the model's entries: every value queried back, and the size. */
async function expectExact(index: RedisSimHashIndex, model: SimHashIndex, values: BigUint64Array): Promise<void> {
  expect(await index.size()).toBe(model.size);
  expect(await index.queryMany(values)).toEqual(model.queryMany(values));
}

beforeAll(async () => {
  await init();
});

describe('RedisSimHashIndex on a cluster under faults', () => {
  const servers = useServers('cluster');

  it('loses no write acknowledged with replicas: 1 when a master is killed under load, and stays exact', async () => {
    const s = servers();
    const client = await clientOf(s);
    const index = await RedisSimHashIndex.open({ client, name: uniqueName('failover'), distance: 3, capacity: 20_000, replicas: 1, replicaTimeout: 1000 });
    const rng = new SplitMix64(5n);
    const acknowledged: { ids: Uint32Array; values: BigUint64Array }[] = [];
    const unacknowledged: { ids: Uint32Array; values: BigUint64Array }[] = [];
    let stop = false;
    const load = (async () => {
      const deadline = Date.now() + 90_000;
      for (let first = 0; !stop && Date.now() < deadline; first += 100) {
        const batch = entries(first, 100, rng);
        try {
          await index.addMany(batch.ids, batch.values);
          acknowledged.push(batch);
        } catch (error) {
          expect(error).toBeInstanceOf(RedisIndexError);
          unacknowledged.push(batch);
          await sleep(100);
        }
      }
    })();
    try {
      while (acknowledged.length < 10) await sleep(50);
      const [victim] = await s.masters();
      await victim!.kill();
      const killedAt = acknowledged.length;
      // Failover: the victim's replica takes over once the others see the master is gone.
      await s.waitHealthy(30_000);
      await victim!.start();
      await s.waitHealthy(30_000);
      const recoveredAt = acknowledged.length;
      const deadline = Date.now() + 30_000;
      while (acknowledged.length < recoveredAt + 10 && Date.now() < deadline) await sleep(50);
      expect(acknowledged.length).toBeGreaterThan(killedAt);
    } finally {
      stop = true;
      await load;
    }

    const model = new SimHashIndex({ distance: 3 });
    try {
      const ackedValues = BigUint64Array.from(acknowledged.flatMap((batch) => Array.from(batch.values)));
      for (const batch of acknowledged) model.addMany(batch.ids, batch.values);
      // Every acknowledged entry survived with its fingerprint.
      const found = await index.queryMany(ackedValues, { distance: 0 });
      const ackedIds = acknowledged.flatMap((batch) => Array.from(batch.ids));
      ackedIds.forEach((id, q) => {
        expect(found.ids.subarray(found.offsets[q], found.offsets[q + 1])).toContain(id);
      });
      // Unacknowledged batches may be stored in part; retrying them completes them.
      for (const batch of unacknowledged) {
        await index.addMany(batch.ids, batch.values);
        model.addMany(batch.ids, batch.values);
      }
      const all = BigUint64Array.from([...acknowledged, ...unacknowledged].flatMap((batch) => Array.from(batch.values)));
      await expectExact(index, model, all);
    } finally {
      model.free();
      client.disconnect();
    }
  }, 150_000);

  it('keeps every entry when the whole cluster is killed and restarted from its AOF files', async () => {
    const s = servers();
    const name = uniqueName('restart');
    const client = await clientOf(s);
    const index = await RedisSimHashIndex.open({ client, name, distance: 4, capacity: 10_000, replicas: 1 });
    const batch = entries(0, 3000, new SplitMix64(6n));
    const model = new SimHashIndex({ distance: 4 });
    try {
      await index.addMany(batch.ids, batch.values);
      model.addMany(batch.ids, batch.values);
      for (let id = 0; id < 3000; id += 7) {
        expect(await index.remove(id)).toBe(model.remove(id));
      }
      client.disconnect();
      await s.killAll();
      await s.startAll();
      const again = await clientOf(s);
      try {
        const reopened = await RedisSimHashIndex.open({ client: again, name });
        expect(reopened.distance).toBe(4);
        await expectExact(reopened, model, batch.values);
        expect(await reopened.has(7)).toBe(false);
        expect(await reopened.has(8)).toBe(true);
      } finally {
        again.disconnect();
      }
    } finally {
      model.free();
    }
  }, 120_000);
});

describe('RedisSimHashIndex when the connection drops', () => {
  const servers = useServers('single');
  let proxy: Server;
  const sockets = new Set<Socket>();
  let forwarded = 0;
  let cutAfter = Number.POSITIVE_INFINITY;

  beforeAll(async () => {
    // A TCP relay to the server that cuts every connection once `cutAfter` bytes went through.
    const port = servers().nodes[0]!.port;
    proxy = createServer((downstream) => {
      const upstream = connect(port, '127.0.0.1');
      sockets.add(downstream).add(upstream);
      downstream.on('data', (chunk: Buffer) => {
        forwarded += chunk.length;
        if (forwarded > cutAfter) {
          for (const socket of sockets) socket.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(downstream);
      for (const socket of [upstream, downstream]) socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    proxy?.close();
  });

  it('fails addMany with a clear error, and a retry completes it exactly once', async () => {
    const address = proxy.address();
    if (address === null || typeof address === 'string') throw new Error('proxy has no port');
    const name = uniqueName('dropped');
    const batch = entries(0, 20_000, new SplitMix64(7n));
    const cut = new Redis({ host: '127.0.0.1', port: address.port, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    cut.on('error', () => undefined);
    const index = await RedisSimHashIndex.open({ client: cut, name, distance: 3, capacity: 20_000 });
    forwarded = 0;
    cutAfter = 200_000;
    const error = await index.addMany(batch.ids, batch.values).then(
      () => undefined,
      (e: unknown) => e,
    );
    cut.disconnect();
    expect(error).toBeInstanceOf(RedisIndexError);
    expect((error as RedisIndexError).partial).toBe(true);
    expect((error as Error).message).toMatch(/^addMany did not complete \(.+\); some of its changes may be stored: running it again with the same arguments is safe$/);

    const client = await clientOf(servers());
    const model = new SimHashIndex({ distance: 3 });
    try {
      const retried = await RedisSimHashIndex.open({ client, name });
      const stored = await retried.size();
      expect(stored).toBeLessThan(batch.ids.length);
      await retried.addMany(batch.ids, batch.values);
      await retried.addMany(batch.ids, batch.values);
      model.addMany(batch.ids, batch.values);
      await expectExact(retried, model, batch.values);
      expect(await retried.repair()).toMatchObject({ strays: 0, copies: 0, corrupt: [], restored: 0, lost: [], rebuilt: 0, counters: 0 });
    } finally {
      model.free();
      client.disconnect();
    }
  }, 120_000);
});
