/**
 * Real Redis servers for the Redis suites: installed by scripts/ensure-redis.mjs when missing,
 * started on free loopback ports before a suite and killed after it (and on process exit).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
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

export { RedisServers };
