/**
 * Every request the index makes to Redis goes through here: bounded by the operation's
 * deadline, sent only over a connection that is up, and sent again after a redirection or a
 * cluster reconfiguration the client had not caught up with.
 */

import type { Cluster, Redis } from 'ioredis';
import { lastConnectionError } from './connect.js';
import { ClientClosed, NoAnswer } from './errors.js';

/**
 * When an operation (or one round of a batch operation) must have its answers. One timer serves
 * every request of the deadline waiting at once (a query makes a request per hash tag, and a
 * timer each cost a sixth of its client time); it is cleared whenever none waits.
 */
export class Deadline {
  readonly at: number;
  readonly limit: number;
  readonly #waiting = new Set<() => void>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(limit: number) {
    this.limit = limit;
    this.at = Date.now() + limit;
  }

  get left(): number {
    return this.at - Date.now();
  }

  /** Calls `expire` at the deadline unless {@link Deadline.release} ran first. */
  watch(expire: () => void): void {
    this.#waiting.add(expire);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      const expired = [...this.#waiting];
      this.#waiting.clear();
      for (const call of expired) call();
    }, Math.max(0, this.left));
  }

  release(expire: () => void): void {
    this.#waiting.delete(expire);
    if (this.#waiting.size === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }
}

/**
 * Errors after which the same request may simply be sent again: the node did not run it (a
 * redirection, a cluster being reconfigured, a replica asked to write, a server loading its
 * data), or the connection went away under it (then it may have run: every request of the
 * index is safe to run twice).
 */
const RETRIABLE = /^(MOVED|ASK|TRYAGAIN|CLUSTERDOWN|LOADING|READONLY|MASTERDOWN)\b|Connection is closed|isn't ready|Stream isn't writeable|Too many Cluster redirections|Failed to refresh slots cache|None of startup nodes is available/;

/** Calls unanswered past their deadline, per client: past a bound, nothing more is sent. */
const overdue = new WeakMap<object, number>();
/**
 * Most requests a client may have outstanding past their deadlines: a server that stopped
 * answering without closing its connections must not make a busy caller queue requests for as
 * long as it is away.
 */
const MOST_OVERDUE = 1024;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends `request` (which makes one call of `client`) and returns its answer, waiting first for
 * the client to be connected, retrying after a retriable error, and failing with a `NoAnswer`
 * once `deadline` has passed; a `ClientClosed` when the client will never reconnect.
 */
export function send<T>(client: Redis | Cluster, deadline: Deadline, request: () => Promise<T>, retry = true): Promise<T> {
  // The usual case, without an async frame: a query sends a request per hash tag.
  if (client.status === 'ready' && (overdue.get(client) ?? 0) < MOST_OVERDUE && deadline.left > 0) {
    let answered: Promise<T>;
    try {
      answered = answerBy(client, deadline, request());
    } catch (error) {
      answered = Promise.reject(error);
    }
    return retry ? answered.catch((error: unknown) => sendAgain(client, deadline, request, error, 0)) : answered;
  }
  return sendFrom(client, deadline, request, retry, 0);
}

/** `send` from its `attempt`-th try on. */
async function sendFrom<T>(client: Redis | Cluster, deadline: Deadline, request: () => Promise<T>, retry: boolean, attempt: number): Promise<T> {
  if (client.status !== 'ready') await connected(client, deadline);
  const outstanding = overdue.get(client) ?? 0;
  if (outstanding >= MOST_OVERDUE) {
    throw new NoAnswer(`${outstanding} earlier requests to Redis are still unanswered past their time limit; nothing more is sent until it answers`);
  }
  try {
    return await answerBy(client, deadline, request());
  } catch (error) {
    if (!retry) throw error;
    return sendAgain(client, deadline, request, error, attempt);
  }
}

/** After `error` met the `attempt`-th try: the request sent again if that may help, else the error. */
async function sendAgain<T>(client: Redis | Cluster, deadline: Deadline, request: () => Promise<T>, error: unknown, attempt: number): Promise<T> {
  if (error instanceof NoAnswer || !(error instanceof Error) || !RETRIABLE.test(error.message)) throw error;
  // Still redirected, or still reconnecting, when time is up: that is no answer in time.
  if (deadline.left <= 0) throw new NoAnswer(`Redis did not answer within ${deadline.limit} ms (last: ${error.message})`);
  // The slot table is stale after a failover the client did not see; the cluster client
  // reloads it on some redirections but not on those inside a pipeline.
  if (isCluster(client)) await Promise.race([refreshSlots(client), sleep(Math.max(0, deadline.left))]);
  await sleep(Math.min(deadline.left, 10 * 2 ** Math.min(attempt, 6)));
  if (deadline.left <= 0) throw new NoAnswer(`Redis did not answer within ${deadline.limit} ms (last: ${error.message})`);
  return sendFrom(client, deadline, request, true, attempt + 1);
}

/** Connections each node client has made (its `ready` events since first asked). */
const connections = new WeakMap<Redis, { made: number }>();

/**
 * How many connections `node` has made since it was first asked: a `WAIT` only counts the
 * writes of the connection it is sent on, so a write is confirmed only if this did not change
 * between the write and its `WAIT`.
 */
export function connectionOf(node: Redis): number {
  let seen = connections.get(node);
  if (seen === undefined) {
    const counter = { made: 0 };
    node.on('ready', () => counter.made++);
    connections.set(node, (seen = counter));
  }
  return seen.made;
}

/** The client's masters: every master of a cluster, or the one server. */
export function mastersOf(client: Redis | Cluster): Redis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}

/** Waits (polling) until the client can send, or fails at the deadline. */
async function connected(client: Redis | Cluster, deadline: Deadline): Promise<void> {
  for (let wait = 5; client.status !== 'ready'; wait = Math.min(100, 2 * wait)) {
    if (client.status === 'end') {
      throw new ClientClosed('the Redis client is closed and will not reconnect: open the index again with a connected client');
    }
    if (client.status === 'wait') {
      // A client made with lazyConnect connects on its first command; connect it now.
      client.connect().catch(() => undefined);
    }
    const left = deadline.left;
    if (left <= 0) {
      const last = lastConnectionError(client);
      throw new NoAnswer(
        `not connected to Redis for ${deadline.limit} ms (the client is ${client.status}${last === undefined ? '' : `; last error: ${last.message}`}); ` +
          'it reconnects by itself: try again later, or raise the index\'s timeout',
      );
    }
    await sleep(Math.min(wait, left));
  }
}

/** `pending`'s answer, or a `NoAnswer` at the deadline (the request stays counted until it settles). */
function answerBy<T>(client: Redis | Cluster, deadline: Deadline, pending: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const expire = (): void => {
      late = true;
      overdue.set(client, (overdue.get(client) ?? 0) + 1);
      // A master frozen with its connections open gives no redirection: once its replica has
      // taken over, only a reload of the slot table sends the next requests there.
      if (isCluster(client)) refreshSlots(client).catch(() => undefined);
      reject(new NoAnswer(`Redis did not answer within ${deadline.limit} ms`));
    };
    if (deadline.left <= 0) expire();
    else deadline.watch(expire);
    pending.then(
      (value) => {
        deadline.release(expire);
        if (late) overdue.set(client, overdue.get(client)! - 1);
        else resolve(value);
      },
      (error: unknown) => {
        deadline.release(expire);
        if (late) overdue.set(client, overdue.get(client)! - 1);
        else reject(error);
      },
    );
  });
}

/**
 * Reloads a cluster client's slot table: one reload at a time per client, and none within
 * {@link REFRESH_GAP} ms of the last (a reload resets the client's connections to nodes that
 * left the table, and a storm of failing requests must not turn into a storm of reloads).
 */
const refreshing = new WeakMap<Cluster, Promise<void>>();
const refreshed = new WeakMap<Cluster, number>();
const REFRESH_GAP = 500;
function refreshSlots(client: Cluster): Promise<void> {
  let pending = refreshing.get(client);
  if (pending === undefined) {
    if (Date.now() - (refreshed.get(client) ?? 0) < REFRESH_GAP) return Promise.resolve();
    pending = new Promise<void>((resolve) => {
      // Not in ioredis's declared API, but public and stable: the reload it runs on MOVED.
      (client as unknown as { refreshSlotsCache(callback: () => void): void }).refreshSlotsCache(() => resolve());
    }).finally(() => {
      refreshing.delete(client);
      refreshed.set(client, Date.now());
    });
    refreshing.set(client, pending);
  }
  return pending;
}

/** Whether `client` is a cluster client. */
export function isCluster(client: Redis | Cluster): client is Cluster {
  return 'nodes' in client && typeof client.nodes === 'function';
}
