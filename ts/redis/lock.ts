/**
 * A lock over one index, held by one caller at a time across every process that uses it:
 * `decideMany` holds it from its query to its last write, so that decisions of all processes
 * are made one batch after another.
 */

import type { Cluster, Redis } from 'ioredis';
import { indexError } from './errors.js';
import { Deadline, send } from './requests.js';

/**
 * Takes the lock if it is free or already the caller's (a request re-sent after its reply was
 * lost must not make the caller wait for itself). KEYS: lock; ARGV: token, milliseconds.
 */
const ACQUIRE = `local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** Deletes the lock only if the caller still holds it. KEYS: lock; ARGV: token. */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Extends the lock only if the caller still holds it. KEYS: lock; ARGV: token, milliseconds. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

let tokens = 0;

/** A token no other holder has: this process's random part and a counter. */
const processPart = Math.random().toString(36).slice(2) + Date.now().toString(36);

/**
 * Runs `work` while holding `key`, waiting (polling, up to 200 ms apart) while another holder
 * has it; each request to Redis has `timeout` ms. The lock expires `holdFor` ms after it was
 * last renewed, so a holder that dies delays the others by at most that; while `work` runs it is renewed every third of `holdFor`. `work`
 * calls `stillHeld()` before it writes: that renews the lock once more and fails, before any
 * write, if the lock lapsed (the process stalled longer than `holdFor`) and may be another's.
 */
export async function withLock<T>(
  client: Redis | Cluster,
  key: string,
  holdFor: number,
  timeout: number,
  operation: string,
  work: (stillHeld: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const token = `${processPart}:${++tokens}`;
  try {
    for (let wait = 2; Number(await send(client, new Deadline(timeout), () => client.eval(ACQUIRE, 1, key, token, String(holdFor)))) !== 1; wait = Math.min(200, wait * 2)) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } catch (error) {
    throw indexError(operation, error, false);
  }
  let lost = false;
  // Whether the lock is still this caller's (and now renewed); a failed request throws.
  const renew = async (): Promise<boolean> => {
    if (!lost) lost = Number(await send(client, new Deadline(timeout), () => client.eval(RENEW, 1, key, token, String(holdFor)))) === 0;
    return !lost;
  };
  const timer = setInterval(() => void renew().catch(() => undefined), Math.max(1, Math.floor(holdFor / 3)));
  timer.unref?.();
  const stillHeld = async (): Promise<void> => {
    let held: boolean;
    try {
      held = await renew();
    } catch (error) {
      throw indexError(operation, error, false);
    }
    if (!held) {
      throw indexError(operation, new Error(`the index's lock lapsed (held past ${holdFor} ms without renewal): nothing was written; run it again`), false);
    }
  };
  try {
    return await work(stillHeld);
  } finally {
    clearInterval(timer);
    // A failure to release leaves the lock to expire after `holdFor`.
    await send(client, new Deadline(timeout), () => client.eval(UNLOCK, 1, key, token)).catch(() => undefined);
  }
}
