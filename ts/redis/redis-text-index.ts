/**
 * `TextIndex` shared through Redis: the default rule of `decideTexts`, online, for every process
 * that opens the index. Redis holds the index's history as one log (`text-log.ts`); each process
 * holds a `TextIndex` replica, brings it up to the log's end before every call, and appends its own
 * changes under the index's lock. Every process thus applies the same changes in the same order,
 * and the rule, a function of the texts and their order only, gives each the same answers.
 */

import type { Cluster, Redis } from 'ioredis';
import type { MinHashDecisions } from '../shared/decide.js';
import { TEXT_DECISION_VERSION } from '../shared/adaptive.js';
import { checkDecideMany, checkId, type TextQueryResult } from '../shared/text-index.js';
import { checkOptions, describe, optionKeys } from '../shared/validate.js';
import { TextIndex } from '../wasm/text-index.js';
import { CorruptKey, RedisIndexError, indexError } from './errors.js';
import { withLock } from './lock.js';
import { checkClient, checkName, optionalInteger } from './options.js';
import { checkReplicas, connectionsBefore, waitForReplicas } from './replicas.js';
import { Deadline, send } from './requests.js';
import { Script } from './scripts.js';
import { APPEND, CHAIN_BYTES, DESCRIBE, GENESIS, HEAD, TRUNCATE, decodeEntry, encodeEntry, type LogEntry } from './text-log.js';

/** Options of {@link RedisTextIndex.open}. */
export interface RedisTextIndexOptions {
  /** An ioredis `Redis` (one server) or `Cluster` client. The index never closes it. */
  client: Redis | Cluster;
  /**
   * Name of the index: 1 to 100 characters, none of them `{`, `}`, `/` or a space. Its keys are
   * `textindex:{name}:…` (one hash slot), so other names, and a `RedisSimHashIndex` of the same
   * name, share the server or cluster.
   */
  name: string;
  /**
   * `'keep'` (the default when the index is created) keeps short lines that name different items
   * on one template; `'remove'` removes them too. Fixed when the index is created; later opens
   * may leave it out or must give the stored value.
   */
  templates?: 'keep' | 'remove';
  /**
   * Number of replicas of the index's master that must confirm (Redis `WAIT`) each write before
   * it counts as done; a write not confirmed in time fails with a partial {@link RedisIndexError}.
   * Default 0.
   */
  replicas?: number;
  /** Milliseconds `WAIT` may take. Default 2000. */
  replicaTimeout?: number;
  /**
   * Time limit of each request round, in milliseconds, waiting for the connection included: a
   * round that has not settled by then fails with a {@link RedisIndexError} of kind `'timeout'`.
   * Default 5000.
   */
  timeout?: number;
  /**
   * Milliseconds the index's lock outlives its last renewal: a process that dies while writing
   * delays the others by at most this. Default 30,000.
   */
  lockFor?: number;
}

const OPTIONS = optionKeys<RedisTextIndexOptions>({
  client: true, name: true, templates: true, replicas: true, replicaTimeout: true, timeout: true, lockFor: true,
});

/** What {@link RedisTextIndex.repair} found and did. */
export interface TextRepairReport {
  /** Entries of the log that were read and kept. */
  readonly entries: number;
  /** Entries cut from the log's end: the first unreadable one and every one after it. */
  readonly dropped: number;
  /** Whether the head (the log's last chain value) disagreed with the log and was set. */
  readonly head: boolean;
}

/** Texts, and bytes of text, of one log entry: a batch larger than this goes as several. */
const ENTRY_TEXTS = 2048;
const ENTRY_BYTES = 1 << 20;
/** Entries read by the first request while catching up (each at most about 1 MB)… */
const READ_ENTRIES = 16;
/** …and then as many as make about this many bytes, up to {@link MOST_READ_ENTRIES}. */
const READ_BYTES = 8 << 20;
const MOST_READ_ENTRIES = 4096;
/** The log format this build writes and reads. */
const LOG_FORMAT = '1';

const APPEND_SCRIPT = new Script(APPEND);
const HEAD_SCRIPT = new Script(HEAD);
const TRUNCATE_SCRIPT = new Script(TRUNCATE);
const DESCRIBE_SCRIPT = new Script(DESCRIBE);

/** A batch being written: its answers so far, and the entries of it appended, in order (`to`: the batch's texts up to it). */
interface Recent {
  readonly kind: 'decided' | 'added';
  readonly ids: Uint32Array;
  readonly texts: readonly string[];
  readonly representative: Uint32Array;
  readonly similarity: Float64Array;
  readonly stored: { position: number; self: Buffer; to: number }[];
}

/** The log's state as a reader saw it: its length and last chain value. */
interface Head {
  readonly length: number;
  readonly chain: Buffer;
}

/**
 * The default rule's index of kept texts (`TextIndex`), shared by every process that opens it in
 * Redis or Redis Cluster. Calls of all processes are applied in one order, the log's: an index
 * answers as a `TextIndex` that took every call of every process in that order, so `decideMany`
 * over batches from any processes equals `decideTexts` over all their texts in the order they
 * were decided. Every process keeps a replica of the whole index in memory (as much as a
 * `TextIndex` holding every text decided) and replays the others' changes before each call;
 * opening an index replays its whole log.
 */
export class RedisTextIndex {
  /** The index's name. */
  readonly name: string;
  /** Whether template siblings are kept (`'keep'`) or removed too, as stored when it was created. */
  readonly templates: 'keep' | 'remove';
  readonly #client: Redis | Cluster;
  readonly #keys: { log: string; head: string; lock: string };
  readonly #replicas: number;
  readonly #replicaTimeout: number;
  readonly #timeout: number;
  readonly #lockFor: number;
  /** The replica and the log position it has reached. */
  #local: TextIndex;
  #length = 0;
  #chain: Buffer = GENESIS;
  /** The replica holds the log's last entry as this process wrote it, not yet seen in Redis. */
  #unconfirmed = false;
  /** The replica may hold what no entry says (a change to it failed part-way): rebuild it. */
  #stale = false;
  /** The batch of the last write of this object that failed, and the entries of it written. */
  #recent: Recent | undefined;
  /** Calls of this object take turns on the replica. */
  #turn: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(name: string, client: Redis | Cluster, templates: 'keep' | 'remove', replicas: number, replicaTimeout: number, timeout: number, lockFor: number) {
    this.name = name;
    this.templates = templates;
    this.#client = client;
    this.#keys = { log: `textindex:{${name}}:log`, head: `textindex:{${name}}:head`, lock: `textindex:{${name}}:lock` };
    this.#replicas = replicas;
    this.#replicaTimeout = replicaTimeout;
    this.#timeout = timeout;
    this.#lockFor = lockFor;
    this.#local = new TextIndex({ templates });
  }

  /**
   * Opens index `options.name`, creating it when it does not exist, and replays its log.
   *
   * @throws {TypeError | RangeError} for invalid options, or options that contradict those the
   * index was created with.
   * @throws {RedisIndexError} when Redis cannot be reached, or a key of the index is corrupt.
   */
  static async open(options: RedisTextIndexOptions): Promise<RedisTextIndex> {
    const opts = checkOptions(options, OPTIONS, 'RedisTextIndex.open');
    const client = checkClient(opts.client);
    const name = checkName(opts.name);
    if (opts.templates !== undefined && opts.templates !== 'keep' && opts.templates !== 'remove') {
      throw new RangeError(`options.templates must be 'keep' or 'remove', got ${describe(opts.templates)}`);
    }
    const replicas = optionalInteger(opts.replicas, 'options.replicas', 0, 16, 0);
    const replicaTimeout = optionalInteger(opts.replicaTimeout, 'options.replicaTimeout', 1, 3_600_000, 2000);
    const timeout = optionalInteger(opts.timeout, 'options.timeout', 1, 3_600_000, 5000);
    const lockFor = optionalInteger(opts.lockFor, 'options.lockFor', 1, 3_600_000, 30_000);
    const deadline = new Deadline(timeout);
    try {
      await checkReplicas(client, replicas, deadline);
    } catch (error) {
      if (error instanceof RangeError) throw error;
      throw indexError('RedisTextIndex.open', error, false);
    }
    const key = `textindex:{${name}}:meta`;
    const wanted = { format: LOG_FORMAT, rule: `v${TEXT_DECISION_VERSION}`, templates: opts.templates ?? 'keep' };
    let reply: unknown;
    try {
      reply = await send(client, deadline, () => DESCRIBE_SCRIPT.run(client, [key], Object.entries(wanted).flat().map((s) => Buffer.from(s))));
    } catch (error) {
      throw indexError('RedisTextIndex.open', error, false);
    }
    const stored = parseDescription(reply, key);
    if (stored.format !== LOG_FORMAT || stored.rule !== wanted.rule) {
      throw new RangeError(`index '${name}' holds a log of format ${stored.format} decided by rule ${stored.rule}; this version reads format ${LOG_FORMAT} and decides by rule ${wanted.rule}`);
    }
    if (opts.templates !== undefined && opts.templates !== stored.templates) {
      throw new RangeError(`index '${name}' was created with templates '${stored.templates}', not '${opts.templates}'`);
    }
    const index = new RedisTextIndex(name, client, stored.templates as 'keep' | 'remove', replicas, replicaTimeout, timeout, lockFor);
    try {
      await index.#sync('RedisTextIndex.open');
    } catch (error) {
      index.close();
      throw error;
    }
    return index;
  }

  /** `true` once {@link RedisTextIndex.close} has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Decides `texts` in order, as `TextIndex.decideMany` does, against every text decided by any
   * process before it, and adds those it keeps under their ids. It holds the index's lock from
   * the first decision to the last write, so the batches of all processes are decided one after
   * another. A batch is written in entries of up to 2,048 texts (1 MB): when it fails part-way
   * (a partial {@link RedisIndexError}), the entries before are decided and stored, and the error
   * says how many texts they hold.
   *
   * @throws {TypeError | RangeError} as `TextIndex.decideMany` (ids must be new); {@link RedisIndexError}
   * when Redis fails.
   */
  async decideMany(ids: Uint32Array, texts: readonly string[]): Promise<MinHashDecisions> {
    this.#checkOpen();
    const batch = checkDecideMany(ids, texts, () => false);
    return this.#writeBatch('decideMany', 'decided', batch.ids, batch.texts);
  }

  /**
   * Keeps `texts` under `ids` without judging them, as `TextIndex.addMany` does; written as
   * `decideMany` writes.
   *
   * @throws As {@link RedisTextIndex.decideMany}.
   */
  async addMany(ids: Uint32Array, texts: readonly string[]): Promise<void> {
    this.#checkOpen();
    const batch = checkDecideMany(ids, texts, () => false);
    await this.#writeBatch('addMany', 'added', batch.ids, batch.texts);
  }

  /** {@link RedisTextIndex.addMany} of one text. */
  async add(id: number, text: string): Promise<void> {
    await this.addMany(Uint32Array.of(checkId(id)), [text]);
  }

  /**
   * Removes the kept text `id` (see `TextIndex.remove`); `true` if a kept text held it when the
   * call began. A call that failed and is made again answers whether `id` is held then.
   */
  async remove(id: number): Promise<boolean> {
    this.#checkOpen();
    const checked = checkId(id);
    return this.#locked('remove', async (stillHeld) => {
      this.#recent = undefined;
      if (!this.#local.has(checked)) return false;
      await stillHeld();
      await this.#append('remove', () => {
        this.#local.remove(checked);
        return { kind: 'removed', ids: Uint32Array.of(checked) };
      }, 0, 0);
      return true;
    });
  }

  /**
   * The kept texts the rule calls near-duplicates of `text`, most similar first, as
   * `TextIndex.query` answers over every text decided so far. Adds nothing.
   */
  async query(text: string): Promise<TextQueryResult> {
    this.#checkOpen();
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
    return this.#read('query', () => this.#local.query(text));
  }

  /** Whether a kept text holds `id`. */
  async has(id: number): Promise<boolean> {
    this.#checkOpen();
    const checked = checkId(id);
    return this.#read('has', () => this.#local.has(checked));
  }

  /** Number of kept texts. */
  async size(): Promise<number> {
    this.#checkOpen();
    return this.#read('size', () => this.#local.size);
  }

  /** Number of texts decided or added, kept or not. */
  async decided(): Promise<number> {
    this.#checkOpen();
    return this.#read('decided', () => this.#local.decided);
  }

  /**
   * Checks every entry of the log and cuts it before the first one that cannot be read (with
   * every entry after it: the ones after were decided knowing it), then sets the head to the last
   * entry kept. Run it when a call failed with kind `'corrupt'`. It holds the lock, so writers
   * wait; a repair that fails leaves the log as it was or cut (it is one step), and runs again.
   */
  async repair(): Promise<TextRepairReport> {
    this.#checkOpen();
    return this.#turnOf(() =>
      withLock(this.#client, this.#keys.lock, this.#lockFor, this.#timeout, 'repair', async (stillHeld) => {
        let head: Head;
        let corruptHead = false;
        try {
          head = await this.#head(new Deadline(this.#timeout));
        } catch (error) {
          const failure = indexError('repair', error, false);
          if (failure.kind !== 'corrupt' || failure.key !== this.#keys.head) throw failure;
          corruptHead = true;
          head = { length: await this.#request('repair', (d) => send(this.#client, d, () => this.#client.llen(this.#keys.log))), chain: GENESIS };
        }
        let good = 0;
        let chain = GENESIS;
        for (let from = 0; from < head.length; from += READ_ENTRIES) {
          const raw = await this.#range('repair', from, Math.min(head.length, from + READ_ENTRIES));
          let broken = false;
          for (const [k, bytes] of raw.entries()) {
            try {
              const read = decodeEntry(bytes, this.#keys.log, from + k);
              if (!read.prev.equals(chain)) throw new CorruptKey(this.#keys.log, `holds at position ${from + k} an entry that does not follow the one before it`);
              chain = Buffer.from(read.self);
              good++;
            } catch (error) {
              if (!(error instanceof CorruptKey)) throw error;
              broken = true;
              break;
            }
          }
          if (broken) break;
        }
        const moved = corruptHead || good < head.length || !chain.equals(head.chain);
        if (moved) {
          await stillHeld();
          const cut = await this.#request('repair', (d) =>
            send(this.#client, d, () => TRUNCATE_SCRIPT.run(this.#client, [this.#keys.log, this.#keys.head], [Buffer.from(String(good)), chain, Buffer.from(String(head.length))])),
          );
          if (Number(cut) !== 1) throw new RedisIndexError('repair', new Error('the log changed while it was read (a write not under the lock?): run repair() again'), false);
          this.#rebuild();
          await this.#sync('repair');
        }
        return { entries: good, dropped: head.length - good, head: moved && good === head.length };
      }),
    );
  }

  /** Releases the replica. The index never closes the client: its owner does. Idempotent. */
  close(): void {
    this.#closed = true;
    this.#local.free();
  }

  /** Same as {@link RedisTextIndex.close}, for `using` declarations. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** Runs `work` after every earlier call of this object on the replica has settled. */
  #turnOf<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(work, work);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  /** Brings the replica to the log's end, then answers from it. */
  #read<T>(operation: string, answer: () => T): Promise<T> {
    return this.#turnOf(async () => {
      await this.#sync(operation);
      return answer();
    });
  }

  /** Runs `work` on the replica under the index's lock, once the replica has reached the log's end. */
  #locked<T>(operation: string, work: (stillHeld: () => Promise<void>) => Promise<T>): Promise<T> {
    return this.#turnOf(() =>
      withLock(this.#client, this.#keys.lock, this.#lockFor, this.#timeout, operation, async (stillHeld) => {
        await this.#sync(operation);
        return work(stillHeld);
      }),
    );
  }

  /**
   * Decides (`'decided'`) or adds (`'added'`) a batch, entry by entry: each applied to the
   * replica, then appended. A call that failed part-way and is made again with the same
   * arguments, by this object and before any other write, resumes after the entries the log
   * holds.
   */
  #writeBatch(operation: string, kind: 'decided' | 'added', ids: Uint32Array, texts: readonly string[]): Promise<MinHashDecisions> {
    return this.#locked(operation, async (stillHeld) => {
      const recent = await this.#resumable(operation, kind, ids, texts);
      const start = recent.stored.at(-1)?.to ?? 0;
      checkDecideMany(ids.subarray(start), texts.slice(start), (id) => this.#local.has(id));
      this.#recent = recent;
      for (const { from, to } of pieces(ids, texts)) {
        if (to <= start) continue;
        try {
          await stillHeld();
        } catch (error) {
          throw start === 0 && from === start ? error : partialError(operation, error, from, 0);
        }
        await this.#append(operation, () => {
          const entry: LogEntry = kind === 'decided'
            ? this.#decide(ids.slice(from, to), texts.slice(from, to), recent, from)
            : { kind, ids: ids.slice(from, to), texts: texts.slice(from, to) };
          if (kind === 'added') this.#local.addMany(entry.ids, (entry as { texts: readonly string[] }).texts);
          return entry;
        }, from, to - from, (position, self) => recent.stored.push({ position, self, to }));
      }
      this.#recent = undefined;
      return { representative: recent.representative, similarity: recent.similarity };
    });
  }

  /** Decides a piece of `recent`'s batch on the replica, filing its answers at `from`. */
  #decide(ids: Uint32Array, texts: readonly string[], recent: Recent, from: number): LogEntry {
    const decided = this.#local.decideMany(ids, texts);
    recent.representative.set(decided.representative, from);
    recent.similarity.set(decided.similarity, from);
    return { kind: 'decided', ids, texts, representative: decided.representative };
  }

  /**
   * The record of this batch: the one of the failed call before, with the entries of it that the
   * log holds, when it was this very batch; else a new one.
   */
  async #resumable(operation: string, kind: 'decided' | 'added', ids: Uint32Array, texts: readonly string[]): Promise<Recent> {
    const recent = this.#recent;
    this.#recent = undefined;
    const fresh: Recent = { kind, ids, texts, representative: new Uint32Array(ids.length), similarity: new Float64Array(ids.length), stored: [] };
    if (recent === undefined || recent.kind !== kind || recent.ids.length !== ids.length || recent.ids.some((id, q) => id !== ids[q] || recent.texts[q] !== texts[q])) return fresh;
    const stored: Recent['stored'] = [];
    for (const entry of recent.stored) {
      if (entry.position >= this.#length) break;
      const [bytes] = await this.#range(operation, entry.position, entry.position + 1);
      if (!bytes!.subarray(CHAIN_BYTES, 2 * CHAIN_BYTES).equals(entry.self)) break;
      stored.push(entry);
    }
    return { ...recent, ids, texts, stored };
  }

  /**
   * Applies the entry `prepare` makes to the replica and appends it after the log's end, then
   * waits for the replicas; answers its chain value. A failure leaves the replica an entry ahead
   * of what Redis may hold: the next call checks which. `written` texts of the call are stored
   * before it, and it holds `texts`; `sending` learns the entry's position and chain value before
   * it goes.
   */
  async #append(operation: string, prepare: () => LogEntry, written: number, texts: number, sending?: (position: number, self: Buffer) => void): Promise<void> {
    let entry: LogEntry;
    try {
      entry = prepare();
    } catch (error) {
      // The replica may hold part of what failed (memory ran out inside a batch).
      this.#stale = true;
      throw written === 0 ? error : partialError(operation, error, written, 0);
    }
    const prev = this.#chain;
    const position = this.#length;
    const bytes = encodeEntry(prev, entry);
    const self = Buffer.from(bytes.subarray(CHAIN_BYTES, 2 * CHAIN_BYTES));
    this.#length = position + 1;
    this.#chain = self;
    this.#unconfirmed = true;
    sending?.(position, self);
    const deadline = new Deadline(this.#timeout);
    let appended: number;
    try {
      const before = this.#replicas > 0 ? connectionsBefore(this.#client) : undefined;
      appended = Number(
        await send(this.#client, deadline, () => APPEND_SCRIPT.run(this.#client, [this.#keys.log, this.#keys.head], [Buffer.from(String(position)), prev, self, bytes])),
      );
      if (appended !== 0 && before !== undefined) await waitForReplicas(this.#client, this.#replicas, this.#replicaTimeout, deadline, before);
    } catch (error) {
      throw partialError(operation, error, written, texts);
    }
    if (appended === 0) {
      // Another writer appended while this one held a lock that had lapsed: the replica holds an
      // entry the log does not, and the next call rebuilds it.
      throw partialError(operation, new Error('another process wrote to the log while this call held a lock that had lapsed: this entry was not written'), written, 0);
    }
    this.#unconfirmed = false;
  }

  /**
   * Brings the replica to the log's end, entry by entry, checking that each follows the one
   * before. A replica that holds what the log does not (an entry whose write failed, writes lost
   * in a failover, a repaired log) is rebuilt from the log's start; a log that does not follow
   * itself, or a head that disagrees with it, is corrupt.
   */
  async #sync(operation: string): Promise<void> {
    let rebuilt = false;
    const rebuild = (): void => {
      this.#rebuild();
      rebuilt = true;
    };
    if (this.#stale) rebuild();
    let head = await this.#request(operation, (deadline) => this.#head(deadline));
    if (this.#unconfirmed) {
      if (head.length >= this.#length && (await this.#holdsLast(operation))) this.#unconfirmed = false;
      else rebuild();
    }
    let step = READ_ENTRIES;
    for (;;) {
      if (head.length === this.#length) {
        if (head.chain.equals(this.#chain)) return;
        if (rebuilt || this.#length === 0) {
          throw indexError(operation, new CorruptKey(this.#keys.head, `disagrees with the log's last entry (at position ${this.#length - 1})`), false);
        }
        rebuild();
        continue;
      }
      if (head.length < this.#length) {
        rebuild();
        continue;
      }
      const raw = await this.#range(operation, this.#length, Math.min(head.length, this.#length + step));
      let bytes = 0;
      for (const entryBytes of raw) {
        const position = this.#length;
        const read = this.#decode(operation, entryBytes, position);
        if (!read.prev.equals(this.#chain)) {
          if (rebuilt || position === 0) {
            throw indexError(operation, new CorruptKey(this.#keys.log, `holds at position ${position} an entry that does not follow the one before it`), false);
          }
          rebuild();
          break;
        }
        this.#apply(operation, read.entry, position);
        this.#length = position + 1;
        this.#chain = Buffer.from(read.self);
        bytes += entryBytes.length;
      }
      // Small entries (single texts) go many to a request, large ones (whole batches) few.
      step = bytes < READ_BYTES / 2 ? Math.min(MOST_READ_ENTRIES, 2 * step) : Math.max(1, step >> 1);
      if (this.#length === head.length) head = await this.#request(operation, (deadline) => this.#head(deadline));
    }
  }

  /** Whether the log's entry at the replica's last position is the one this replica holds. */
  async #holdsLast(operation: string): Promise<boolean> {
    const [bytes] = await this.#range(operation, this.#length - 1, this.#length);
    return bytes !== undefined && bytes.subarray(CHAIN_BYTES, 2 * CHAIN_BYTES).equals(this.#chain);
  }

  /** Applies one entry of the log to the replica; one that does not apply as written is corrupt. */
  #apply(operation: string, entry: LogEntry, position: number): void {
    const corrupt = (problem: string): RedisIndexError =>
      indexError(operation, new CorruptKey(this.#keys.log, `holds at position ${position} ${problem}`), false);
    if (entry.kind === 'removed') {
      for (const id of entry.ids) this.#local.remove(id);
      return;
    }
    try {
      checkDecideMany(entry.ids, entry.texts, (id) => this.#local.has(id));
    } catch (error) {
      throw corrupt(`an entry that cannot apply (${(error as Error).message})`);
    }
    if (entry.kind === 'added') {
      this.#local.addMany(entry.ids, entry.texts);
      return;
    }
    const decided = this.#local.decideMany(entry.ids, entry.texts);
    const differs = decided.representative.findIndex((id, q) => id !== entry.representative[q]);
    if (differs >= 0) {
      throw corrupt(`a batch whose text ${differs} its writer decided otherwise (representative ${entry.representative[differs]}, here ${decided.representative[differs]}): it was written by another build of the rule`);
    }
  }

  #decode(operation: string, bytes: Buffer, position: number): ReturnType<typeof decodeEntry> {
    try {
      return decodeEntry(bytes, this.#keys.log, position);
    } catch (error) {
      throw indexError(operation, error, false);
    }
  }

  /** A new, empty replica, to replay the log from its start. */
  #rebuild(): void {
    this.#local.free();
    this.#local = new TextIndex({ templates: this.templates });
    this.#length = 0;
    this.#chain = GENESIS;
    this.#unconfirmed = false;
    this.#stale = false;
  }

  /** The log's length and head. @throws {CorruptKey} for a corrupt log or head. */
  async #head(deadline: Deadline): Promise<Head> {
    const reply = await send(this.#client, deadline, () => HEAD_SCRIPT.run(this.#client, [this.#keys.log, this.#keys.head], []));
    if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw new Error(`the log's head was answered as ${describe(reply)}`);
    const chain = reply[1] === null ? GENESIS : (reply[1] as Buffer);
    return { length: reply[0], chain };
  }

  /** Entries `from .. to` of the log. */
  async #range(operation: string, from: number, to: number): Promise<Buffer[]> {
    const raw = await this.#request(operation, (deadline) => send(this.#client, deadline, () => this.#client.lrangeBuffer(this.#keys.log, from, to - 1)));
    if (raw.length !== to - from) {
      throw indexError(operation, new Error(`the log was cut while it was read (${raw.length} of ${to - from} entries from position ${from}): try again`), false);
    }
    return raw;
  }

  /** One request round with its own time limit, its failure as the operation's error. */
  async #request<T>(operation: string, request: (deadline: Deadline) => Promise<T>): Promise<T> {
    try {
      return await request(new Deadline(this.#timeout));
    } catch (error) {
      throw indexError(operation, error, false);
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw new TypeError(`index '${this.name}' has been closed`);
  }
}

/** Consecutive pieces `from .. to` of a batch, each of at most {@link ENTRY_TEXTS} texts and about {@link ENTRY_BYTES}. */
function pieces(ids: Uint32Array, texts: readonly string[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let from = 0;
  let bytes = 0;
  for (let q = 0; q < ids.length; q++) {
    // Three bytes a UTF-16 unit at most.
    bytes += 3 * texts[q]!.length + 12;
    if (q > from && (q - from >= ENTRY_TEXTS || bytes > ENTRY_BYTES)) {
      out.push({ from, to: q });
      from = q;
      bytes = 3 * texts[q]!.length + 12;
    }
  }
  if (from < ids.length) out.push({ from, to: ids.length });
  return out;
}

/** The error of a write that stored the first `written` texts of its batch, and perhaps `unsure` more. */
function partialError(operation: string, cause: unknown, written: number, unsure: number): RedisIndexError {
  const error = indexError(operation, cause, written + unsure > 0);
  if (written + unsure === 0) return error;
  const stored = unsure === 0 ? `the first ${written} texts of the batch are stored` : `the first ${written} texts of the batch are stored, and perhaps the ${unsure} after them`;
  return new RedisIndexError(operation, new Error(`${(cause as Error)?.message ?? String(cause)}; ${stored}`, { cause }), true, error.kind, error.key);
}

/** The stored description: field → value. @throws {RedisIndexError} for a corrupt one. */
function parseDescription(reply: unknown, key: string): Record<'format' | 'rule' | 'templates', string> {
  const fields = new Map<string, string>();
  if (Array.isArray(reply)) for (let k = 0; k + 1 < reply.length; k += 2) fields.set(String(reply[k]), String(reply[k + 1]));
  const format = fields.get('format');
  const rule = fields.get('rule');
  const templates = fields.get('templates');
  if (format === undefined || rule === undefined || (templates !== 'keep' && templates !== 'remove')) {
    throw indexError('RedisTextIndex.open', new CorruptKey(key, 'is not the description of a text index (format, rule, templates)'), false);
  }
  return { format, rule, templates };
}
