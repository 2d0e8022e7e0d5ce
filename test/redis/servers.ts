/**
 * Real Redis servers for the Redis suites: installed by scripts/ensure-redis.mjs when missing,
 * started on free loopback ports before a suite and killed after it (and on process exit).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { SplitMix64 } from '../oracle.js';
import { Redis } from 'ioredis';
import { RedisServers } from '../../scripts/redis-servers.mjs';
import { connectRedis } from '../../ts/redis/connect.js';
import type { Cluster } from 'ioredis';

/** Makes sure redis-server is installed (or fails with what to install). */
export function ensureRedis(): void {
  const result = spawnSync(process.execPath, ['scripts/ensure-redis.mjs'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr.trim());
}

/**
 * Registers hooks that start servers (`'single'` or `'cluster'` of 3 masters with a replica
 * each) before the suite and stop them after it; returns a getter for them.
 */
export function useServers(kind: 'single' | 'cluster'): () => RedisServers {
  let servers: RedisServers | undefined;
  beforeAll(async () => {
    ensureRedis();
    servers = kind === 'single' ? await RedisServers.single() : await RedisServers.cluster();
  }, 120_000);
  afterAll(async () => {
    await servers?.stop();
  });
  return () => {
    if (servers === undefined) throw new Error('the Redis servers failed to start');
    return servers;
  };
}

/** A client of the servers; the caller disconnects it. */
export async function clientOf(servers: RedisServers): Promise<Redis | Cluster> {
  const client = await connectRedis(servers.url);
  if (servers.clustered) await waitReady(client);
  return client;
}

/** Resolves once a cluster client has loaded the slot table. */
async function waitReady(client: Redis | Cluster): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('error', reject);
  });
}

let counter = 0;
/** An index name no other test of this process uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${++counter}`;
}

/** A relay to a server that loses a share of its replies (see {@link useLossyRelay}). */
export interface LossyRelay {
  /** The relay's port on 127.0.0.1. */
  readonly port: number;
  /** Share of the server's replies lost, 0 to 1 (0 when made). */
  dropRate: number;
  /** Replies lost so far. */
  readonly dropped: number;
}

/**
 * Registers hooks that run, for the suite, a relay to the first server that loses `dropRate` of
 * the server's replies (chosen by a generator seeded with `seed`) by closing both connections
 * instead of passing the reply on: the command ran, the client never hears of it, reconnects and
 * sends it again. Returns a getter for it.
 */
export function useLossyRelay(servers: () => RedisServers, seed: bigint): () => LossyRelay {
  let proxy: Server | undefined;
  const sockets = new Set<Socket>();
  const rng = new SplitMix64(seed);
  const relay = { port: 0, dropRate: 0, dropped: 0 };
  beforeAll(async () => {
    const port = servers().nodes[0]!.port;
    proxy = createServer((downstream) => {
      const upstream = connect(port, '127.0.0.1');
      sockets.add(downstream).add(upstream);
      downstream.pipe(upstream);
      upstream.on('data', (chunk: Buffer) => {
        if (Number(rng.next() % 10_000n) < relay.dropRate * 10_000) {
          relay.dropped++;
          upstream.destroy();
          downstream.destroy();
        } else {
          downstream.write(chunk);
        }
      });
      for (const socket of [upstream, downstream]) socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
    const address = proxy.address();
    if (address === null || typeof address === 'string') throw new Error('the relay has no port');
    relay.port = address.port;
  });
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    proxy?.close();
  });
  return () => relay;
}

/**
 * Registers hooks that connect `count` clients to the servers before the suite and disconnect
 * them after it; returns a getter for them.
 */
export function useClients(servers: () => RedisServers, count: number): () => (Redis | Cluster)[] {
  const clients: (Redis | Cluster)[] = [];
  beforeAll(async () => {
    for (let k = 0; k < count; k++) clients.push(await clientOf(servers()));
  }, 60_000);
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });
  return () => clients;
}

/**
 * `client` with every script it runs (`evalshaBuffer`, `evalBuffer` after NOSCRIPT, and `eval`)
 * passed through `around(script, run)`: `script` is the Lua text (known by its SHA-1 among
 * `scripts` for `evalshaBuffer`, `undefined` for another), `run` sends the call. `around` may
 * delay it, answer in its place, or throw after it ran (a reply lost).
 */
export function aroundScripts(
  client: Redis | Cluster,
  scripts: readonly string[],
  around: (script: string | undefined, run: () => Promise<unknown>) => Promise<unknown>,
): Redis | Cluster {
  const bySha = new Map(scripts.map((script) => [createHash('sha1').update(script).digest('hex'), script]));
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const call = (args: unknown[]): Promise<unknown> => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      if (property === 'evalshaBuffer') return (...args: unknown[]) => around(bySha.get(String(args[0])), () => call(args));
      if (property === 'evalBuffer' || property === 'eval') return (...args: unknown[]) => around(String(args[0]), () => call(args));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

export { RedisServers };
