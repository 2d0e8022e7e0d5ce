/** Waiting until replicas hold what this client wrote (Redis `WAIT`), and whether they can. */

import type { Cluster, Redis } from 'ioredis';
import { RedisIndexError } from './errors.js';

/**
 * Sends `WAIT replicas timeout` on every master connection the client writes through (WAIT
 * counts the writes of its own connection, so it must go over the same ones) and fails unless
 * each master confirms `replicas` replicas.
 */
export async function waitForReplicas(client: Redis | Cluster, replicas: number, timeout: number, operation: string): Promise<void> {
  const masters = 'nodes' in client && typeof client.nodes === 'function' ? client.nodes('master') : [client as Redis];
  let confirmed: number[];
  try {
    confirmed = await Promise.all(masters.map(async (node) => Number(await node.call('WAIT', replicas, timeout))));
  } catch (error) {
    throw new RedisIndexError(operation, error, true);
  }
  const fewest = Math.min(...confirmed);
  if (fewest < replicas) {
    throw new RedisIndexError(operation, new Error(`only ${fewest} of ${replicas} replicas confirmed the write within ${timeout} ms`), true);
  }
}

/**
 * Refuses `replicas` more than some master has connected (`INFO replication`): every write
 * would wait out its timeout and fail after a partial write, as on a single local server.
 */
export async function checkReplicas(client: Redis | Cluster, replicas: number): Promise<void> {
  if (replicas === 0) return;
  const masters = 'nodes' in client && typeof client.nodes === 'function' ? client.nodes('master') : [client as Redis];
  const counts = await Promise.all(
    masters.map(async (node) => {
      const info = await node.info('replication');
      return { at: `${node.options.host ?? 'localhost'}:${node.options.port ?? 6379}`, connected: Number(/connected_slaves:(\d+)/.exec(info)?.[1] ?? 0) };
    }),
  );
  const short = counts.find(({ connected }) => connected < replicas);
  if (short !== undefined) {
    throw new RangeError(
      `replicas ${replicas}: the master at ${short.at} has ${short.connected} connected replica${short.connected === 1 ? '' : 's'}, so every write would wait and fail; ` +
        'leave replicas out (or 0) for a server without replicas',
    );
  }
}
