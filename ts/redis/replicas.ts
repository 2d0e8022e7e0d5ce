/** Waiting until replicas hold what this client wrote (Redis `WAIT`). */

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
