/** Waiting until replicas hold what this client wrote (Redis `WAIT`), and whether they can. */

import type { Cluster, Redis } from 'ioredis';
import { type Deadline, connectionOf, mastersOf, send } from './requests.js';

/** Which connection each master had before a write: what its `WAIT` must be sent on. */
export type Connections = Map<Redis, number>;

/** The connections of the client's masters now, before a write. */
export function connectionsBefore(client: Redis | Cluster): Connections {
  return new Map(mastersOf(client).map((node) => [node, connectionOf(node)]));
}

/**
 * Sends `WAIT replicas timeout` on every master connection the client writes through and fails
 * unless each master confirms `replicas` replicas. WAIT counts the writes of the connection it
 * is sent on, so it is sent once, never again on a new connection, and the write counts as
 * confirmed only if every master and its connection are those of `before` (taken before the
 * write): a connection re-made, or a master that changed, in between leaves the write
 * unconfirmed. A cluster client that knows no master fails too.
 */
export async function waitForReplicas(client: Redis | Cluster, replicas: number, timeout: number, deadline: Deadline, before: Connections): Promise<void> {
  const masters = mastersOf(client);
  if (masters.length === 0) throw new Error('no master is known to the client, so no replica confirmed the write');
  const changed = (): boolean => masters.length !== before.size || masters.some((node) => before.get(node) !== connectionOf(node));
  if (changed()) throw new Error('the connection to a master was re-made during the write, so no replica confirmed it');
  const confirmed = await Promise.all(masters.map(async (node) => Number(await send(client, deadline, () => node.call('WAIT', replicas, timeout), false))));
  if (changed()) throw new Error('the connection to a master was re-made during the write, so no replica confirmed it');
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
  const masters = mastersOf(client);
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
