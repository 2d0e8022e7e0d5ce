/** Waiting until replicas hold what this client wrote (Redis `WAIT`), and whether they can. */

import type { Cluster, Redis } from 'ioredis';
import { type Deadline, isCluster, send } from './requests.js';

/**
 * Sends `WAIT replicas timeout` on every master connection the client writes through (WAIT
 * counts the writes of its own connection, so it must go over the same ones) and fails unless
 * each master confirms `replicas` replicas. A cluster client that knows no master (its slot
 * table lost in a storm of disconnections) fails too: a write is never taken as confirmed
 * without an answer from each master.
 */
export async function waitForReplicas(client: Redis | Cluster, replicas: number, timeout: number, deadline: Deadline): Promise<void> {
  const masters = isCluster(client) ? client.nodes('master') : [client];
  if (masters.length === 0) throw new Error(`no master is known to the client, so no replica confirmed the write`);
  const confirmed = await Promise.all(masters.map(async (node) => Number(await send(client, deadline, () => node.call('WAIT', replicas, timeout)))));
  const fewest = Math.min(...confirmed);
  if (fewest < replicas) {
    throw new Error(`only ${fewest} of ${replicas} replicas confirmed the write within ${timeout} ms`);
  }
}

/**
 * Refuses `replicas` more than some master has connected (`INFO replication`): every write
 * would wait out its timeout and fail after a partial write, as on a single local server.
 */
export async function checkReplicas(client: Redis | Cluster, replicas: number, deadline: Deadline): Promise<void> {
  if (replicas === 0) return;
  const masters = isCluster(client) ? client.nodes('master') : [client];
  const counts = await Promise.all(
    masters.map(async (node) => {
      const info = await send(client, deadline, () => node.info('replication'));
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
