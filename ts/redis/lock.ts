/**
 * A lock over one index, held by one caller at a time across every process that uses it:
 * `decideMany` holds it from its query to its last write, so that decisions of all processes
 * are made one batch after another.
 */

import type { Cluster, Redis } from 'ioredis';
import { RedisIndexError } from './errors.js';

/** Deletes the lock only if the caller still holds it. KEYS: lock; ARGV: token. */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

let tokens = 0;

/** A token no other holder has: this process's random part and a counter. */
const processPart = Math.random().toString(36).slice(2) + Date.now().toString(36);

/**
 * Runs `work` while holding `key`, waiting (polling, up to 200 ms apart) while another holder
 * has it. The lock expires after `holdFor` ms, so a holder that dies delays the others by at
 * most that; a holder whose work takes longer loses it, and then fails with a
 * {@link RedisIndexError} saying so, after its work, since another holder may have run at the
 * same time.
 */
export async function withLock<T>(client: Redis | Cluster, key: string, holdFor: number, operation: string, work: () => Promise<T>): Promise<T> {
  const token = `${processPart}:${++tokens}`;
  try {
    for (let wait = 2; (await client.set(key, token, 'PX', holdFor, 'NX')) !== 'OK'; wait = Math.min(200, wait * 2)) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } catch (error) {
    throw new RedisIndexError(operation, error, false);
  }
  let result: T;
  try {
    result = await work();
  } catch (error) {
    // Released when the work failed too; a failure to release leaves the lock to expire.
    await client.eval(UNLOCK, 1, key, token).catch(() => undefined);
    throw error;
  }
  const released = (await client.eval(UNLOCK, 1, key, token).catch(() => 1)) as number;
  if (released === 0) {
    throw new RedisIndexError(operation, new Error(`it held the index's lock for longer than ${holdFor} ms, so another process may have decided at the same time`), true);
  }
  return result;
}
