/** Connecting to a Redis server or cluster from a URL, with bounded retries. */

import { Cluster, Redis } from 'ioredis';
import { checkOptions, describe } from '../shared/validate.js';

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /**
   * How long, in milliseconds, a command may wait for a lost connection to come back before it
   * fails (reconnection attempts back off up to 500 ms apart). Default 5000.
   */
  reconnectFor?: number;
}

/**
 * Connects to the server at `url` (`redis://[user:password@]host:port[/db]`) and, when it is a
 * Redis Cluster node, to the whole cluster through it: the client to give
 * `RedisSimHashIndex.open`. The caller closes it (`quit()` or `disconnect()`).
 *
 * Commands sent while the connection is down are held and re-sent once it is back, for at most
 * `reconnectFor` ms; then they fail, and so do the index operations that sent them.
 *
 * @throws {TypeError | RangeError} for an invalid URL or option; the client's error when no
 * server answers.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<Redis | Cluster> {
  if (typeof url !== 'string') throw new TypeError(`url must be a string, got ${describe(url)}`);
  if (!/^rediss?:\/\//.test(url)) throw new RangeError(`url must start with redis:// or rediss://, got '${url}'`);
  const opts = checkOptions(options);
  const reconnectFor = opts.reconnectFor ?? 5000;
  if (typeof reconnectFor !== 'number' || !Number.isInteger(reconnectFor) || reconnectFor < 0) {
    throw new RangeError(`reconnectFor must be a non-negative integer, got ${describe(reconnectFor)}`);
  }
  const retryStrategy = (times: number): number | null => (elapsed(times) > reconnectFor ? null : Math.min(500, 50 * times));
  const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  // The cause of a failed connection comes as an error event (which, unheard, ioredis prints as
  // unhandled); the rejection itself only says the connection is closed.
  let cause: Error | undefined;
  probe.on('error', (error: Error) => (cause ??= error));
  let clustered: boolean;
  try {
    await probe.connect();
    clustered = /cluster_enabled:1/.test(await probe.info('cluster'));
  } catch (error) {
    const reason = (cause ?? (error as Error)).message;
    throw new Error(`could not connect to Redis at ${redacted(url)}: ${reason}`, { cause: cause ?? error });
  } finally {
    probe.disconnect();
  }
  if (!clustered) {
    const client = new Redis(url, { retryStrategy, maxRetriesPerRequest: null, enableAutoPipelining: true });
    return client;
  }
  const parsed = new URL(url);
  return new Cluster([{ host: parsed.hostname, port: Number(parsed.port || 6379) }], {
    enableAutoPipelining: true,
    clusterRetryStrategy: retryStrategy,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    maxRedirections: 32,
    redisOptions: {
      ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
      ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
      maxRetriesPerRequest: Math.max(1, Math.ceil(reconnectFor / 250)),
    },
  });
}

/** `url` without its password. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Milliseconds the first `times` reconnection attempts have waited. */
function elapsed(times: number): number {
  let total = 0;
  for (let k = 1; k <= times; k++) total += Math.min(500, 50 * k);
  return total;
}
