/** Connecting to a Redis server or cluster from a URL, with a client that never gives up on it. */

import { Cluster, Redis } from 'ioredis';
import { checkOptions, describe, optionKeys } from '../shared/validate.js';

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** Milliseconds the first connection may take before `connectRedis` fails. Default 5000. */
  connectTimeout?: number;
}

/** Longest pause between two reconnection attempts, in milliseconds. */
const MOST_BACKOFF = 1000;

/**
 * Connects to the server at `url` (`redis://[user:password@]host:port[/db]`) and, when it is a
 * Redis Cluster node, to the whole cluster through it: the client to give
 * `RedisSimHashIndex.open`. The caller closes it (`quit()` or `disconnect()`).
 *
 * The client reconnects for as long as it is open, however long the server or cluster is away
 * (attempts back off to one a second), and never queues commands while it is disconnected: an
 * index operation made then waits for the connection up to its own time limit
 * (`RedisSimHashIndexOptions.timeout`) and fails with a `RedisIndexError` saying so, so a long
 * outage costs no memory. Connection errors are kept for those messages instead of being
 * printed by the client.
 *
 * @throws {TypeError | RangeError} for an invalid URL or option; an `Error` naming the URL
 * (without its password) and the reason when no server answers in `connectTimeout`.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<Redis | Cluster> {
  if (typeof url !== 'string') throw new TypeError(`url must be a string, got ${describe(url)}`);
  if (!/^rediss?:\/\//.test(url)) throw new RangeError(`url must start with redis:// or rediss://, got '${url}'`);
  const opts = checkOptions(options, optionKeys<ConnectRedisOptions>({ connectTimeout: true }), 'connectRedis');
  const connectTimeout = opts.connectTimeout ?? 5000;
  if (typeof connectTimeout !== 'number' || !Number.isInteger(connectTimeout) || connectTimeout < 1) {
    throw new RangeError(`options.connectTimeout must be a positive integer, got ${describe(connectTimeout)}`);
  }
  const retryStrategy = (times: number): number => Math.min(MOST_BACKOFF, 50 * times);
  const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout });
  // The cause of a failed connection comes as an error event (which, unheard, ioredis prints as
  // unhandled); the rejection itself only says the connection is closed.
  let cause: Error | undefined;
  probe.on('error', (error: Error) => (cause ??= error));
  let clustered: boolean;
  let timer: NodeJS.Timeout | undefined;
  try {
    // A frozen server accepts the connection (the kernel does) and never answers.
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${connectTimeout} ms`)), connectTimeout);
    });
    clustered = await Promise.race([probe.connect().then(async () => /cluster_enabled:1/.test(await probe.info('cluster'))), silent]);
  } catch (error) {
    const reason = (cause ?? (error as Error)).message;
    throw new Error(`could not connect to Redis at ${redacted(url)}: ${reason}`, { cause: cause ?? error });
  } finally {
    clearTimeout(timer);
    probe.disconnect();
  }
  if (!clustered) {
    return listened(
      new Redis(url, {
        retryStrategy,
        connectTimeout,
        // No queue while disconnected: the index waits for the connection itself, bounded by its
        // time limit, and a command in flight when the connection drops is re-sent (the
        // index's scripts may run twice).
        enableOfflineQueue: false,
        maxRetriesPerRequest: null,
        enableAutoPipelining: true,
      }),
    );
  }
  const parsed = new URL(url);
  return listened(
    new Cluster([{ host: parsed.hostname, port: Number(parsed.port || 6379) }], {
      // No auto-pipelining on a cluster: it checks the slot of every key of every command it
      // batches (a CRC16 and an array per key), and fails a batch met by different MOVED
      // replies without reloading the slot table. The index already sends one command per hash
      // tag and round; sent one by one, queries cost 25–30 % less client CPU.
      enableAutoPipelining: false,
      enableOfflineQueue: false,
      clusterRetryStrategy: retryStrategy,
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
      retryDelayOnMoved: 0,
      maxRedirections: 16,
      // No periodic reload of the slot table (`slotsRefreshInterval`): ioredis 5 re-arms its
      // timer when a reload ends after `disconnect()`, which keeps the process alive for good.
      // The index reloads the table itself when a request meets a redirection.
      slotsRefreshTimeout: 1000,
      redisOptions: {
        ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
        ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
        connectTimeout,
        maxRetriesPerRequest: null,
      },
    }),
  );
}

/** The last connection error of each client made here, for the index's error messages. */
const lastErrors = new WeakMap<object, Error>();

/**
 * Keeps a client's connection errors instead of letting ioredis print them as unhandled: the
 * operations that meet the outage report it themselves.
 */
function listened<T extends Redis | Cluster>(client: T): T {
  client.on('error', (error: Error) => lastErrors.set(client, error));
  return client;
}

/** The last connection error a client made by {@link connectRedis} met, if any. */
export function lastConnectionError(client: object): Error | undefined {
  return lastErrors.get(client);
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
