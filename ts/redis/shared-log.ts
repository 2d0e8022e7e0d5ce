/**
 * The machinery every index shared through a log in Redis has in common (`RedisTextIndex`,
 * `RedisMinHashIndex`): a method's in-memory index as this process's replica, brought to the
 * log's end before every call; writes under the index's lock, applied to the replica and appended
 * to the log; resumable writes, rebuilt replicas, corrupt keys named, `repair()`. A method adds
 * only its replica (how it decides, adds and removes items given as bytes) and its public class.
 */

import { randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { MinHashDecisions } from '../shared/decide.js';
import { checkId } from '../shared/text-index.js';
import { checkOptions, describe } from '../shared/validate.js';
import { CorruptKey, RedisIndexError, indexError } from './errors.js';
import { withLock } from './lock.js';
import { checkReplicas, connectionsBefore, waitForReplicas } from './replicas.js';
import { Deadline, send } from './requests.js';
import { Script } from './scripts.js';
import { APPEND, CHAIN_BYTES, CONFIRM, DESCRIBE, GENESIS, HEAD, READ, TRUNCATE, WIPE, decodeEntry, encodeEntry, type LogEntry } from './log-format.js';
import { COMPACT, DROP_SNAPSHOT, NAME_SNAPSHOT, PUSH_PIECE, SNAPSHOT_PIECE, UNNAMED_SECONDS, decodeSnapshot, encodeSnapshot, parseSnapshotName, snapshotName, type Snapshot } from './snapshot.js';

/**
 * This process's copy of an index, as a method keeps it in memory. Items travel as bytes (one
 * `Buffer` each): the replica reads them as its method's texts or signatures.
 */
export interface Replica {
  /** The method's `decideMany` over `items`; throws a `RangeError` for an id it holds. */
  decideMany(ids: Uint32Array, items: readonly Buffer[]): MinHashDecisions;
  /** The method's `addMany`. */
  addMany(ids: Uint32Array, items: readonly Buffer[]): void;
  remove(id: number): boolean;
  has(id: number): boolean;
  readonly size: number;
  free(): void;
  /** The replica in its method's save format, for a snapshot (a method without one has none). */
  save?(): Uint8Array;
}

/** The in-memory index of a method, as much of it as every replica uses alike. */
interface MethodIndex {
  remove(id: number): boolean;
  has(id: number): boolean;
  readonly size: number;
}

/** A replica over a method's index `index`: membership, size and removal go to it as they are. */
export abstract class IndexReplica<I extends MethodIndex> implements Replica {
  constructor(readonly index: I) {}

  abstract decideMany(ids: Uint32Array, items: readonly Buffer[]): MinHashDecisions;
  abstract addMany(ids: Uint32Array, items: readonly Buffer[]): void;
  abstract free(): void;

  remove(id: number): boolean {
    return this.index.remove(id);
  }

  has(id: number): boolean {
    return this.index.has(id);
  }

  get size(): number {
    return this.index.size;
  }
}

/** The settings of {@link SharedLog.open} every shared index takes. */
export interface SharedLogSettings<R extends Replica> {
  readonly client: Redis | Cluster;
  readonly name: string;
  /** Keys are `${prefix}:{name}:…`. */
  readonly prefix: string;
  /** What the index's description must hold (format, rule, the method's settings): created so when absent, else compared. */
  readonly description: Readonly<Record<string, string>>;
  /** Fields of `description` a caller gave, to be compared with an existing index (the others may differ: defaults). */
  readonly given: ReadonlySet<string>;
  readonly replicas: number;
  readonly replicaTimeout: number;
  readonly timeout: number;
  readonly lockFor: number;
  /** What an item is called in errors: `'text'`, `'signature'`. */
  readonly noun: string;
  /** The operation's name in errors, e.g. `'RedisTextIndex.open'`. */
  readonly operation: string;
  /** A new, empty replica for the stored description. */
  readonly replica: (description: Readonly<Record<string, string>>) => R;
  /** The replica a snapshot saved (`Replica.save`), for the stored description; throws for bytes that are none. */
  readonly load?: (description: Readonly<Record<string, string>>, bytes: Uint8Array) => R;
}

/** What {@link SharedLog.snapshot} wrote. */
export interface SnapshotReport {
  /** Entries of the log the snapshot holds. */
  readonly position: number;
  /** Its bytes. */
  readonly bytes: number;
  /** Whether it is the index's snapshot now (`false`: one of this position or a later one was already). */
  readonly named: boolean;
}

/** What {@link SharedLog.compact} did. */
export interface CompactReport {
  /** The position the log starts from now: entries before it are held by its snapshot alone. */
  readonly position: number;
  /** Entries this call dropped from Redis (0 when the log was compacted to that position before). */
  readonly dropped: number;
  /** Bytes of the snapshot this call took (0: one of the log's end was named already). */
  readonly bytes: number;
}

/** What {@link SharedLog.repair} found and did. */
export interface LogRepairReport {
  /** Entries of the log that were read and kept. */
  readonly entries: number;
  /** Entries cut from the log's end: the first unreadable one and every one after it. */
  readonly dropped: number;
  /** Whether the head (the log's last chain value) disagreed with the log and was set. */
  readonly head: boolean;
}

/**
 * Items, and bytes of items, of one log entry: a batch larger than this goes as several (an item
 * larger than {@link ENTRY_BYTES} goes alone).
 */
const ENTRY_ITEMS = 2048;
const ENTRY_BYTES = 256 << 10;
/** Entries read by the first request while catching up… */
const READ_ENTRIES = 16;
/**
 * …and then as many as make about this many bytes at the largest entry read so far, up to
 * {@link MOST_READ_ENTRIES}: a read is at most that many entries of at most about
 * {@link ENTRY_BYTES} each (64 MB), whatever the log holds.
 */
const READ_BYTES = 8 << 20;
const MOST_READ_ENTRIES = 256;

const APPEND_SCRIPT = new Script(APPEND);
const HEAD_SCRIPT = new Script(HEAD);
const CONFIRM_SCRIPT = new Script(CONFIRM);
const TRUNCATE_SCRIPT = new Script(TRUNCATE);
const READ_SCRIPT = new Script(READ);
const COMPACT_SCRIPT = new Script(COMPACT);
const WIPE_SCRIPT = new Script(WIPE);
const DESCRIBE_SCRIPT = new Script(DESCRIBE);
const PUSH_PIECE_SCRIPT = new Script(PUSH_PIECE);
const NAME_SNAPSHOT_SCRIPT = new Script(NAME_SNAPSHOT);
const DROP_SNAPSHOT_SCRIPT = new Script(DROP_SNAPSHOT);
/** Pieces of a snapshot read by one request (32 MB). */
const READ_PIECES = 4;

/** A batch being written: its answers so far, and the entries of it appended, in order (`to`: the batch's items up to it). */
interface Recent {
  readonly kind: 'decided' | 'added';
  readonly ids: Uint32Array;
  readonly items: readonly Buffer[];
  readonly representative: Uint32Array;
  readonly similarity: Float64Array;
  readonly stored: { position: number; self: Buffer; to: number }[];
}

/** The log's state as a reader saw it: its length, last chain value, and the snapshot it starts from. */
interface Head {
  readonly length: number;
  readonly chain: Buffer;
  readonly start: Start | undefined;
}

/** The snapshot a compacted log starts from: its name, position (the log's first entry's) and chain value, and its list. */
interface Start {
  readonly name: string;
  readonly position: number;
  readonly chain: Buffer;
  readonly list: string;
}

/**
 * One index's log in Redis and this process's replica of it. Calls of one object take turns on
 * the replica; calls of all processes are applied in the log's order.
 */
export class SharedLog<R extends Replica> {
  /** The description stored with the index. */
  readonly description: Readonly<Record<string, string>>;
  readonly #settings: SharedLogSettings<R>;
  readonly #client: Redis | Cluster;
  readonly #keys: { log: string; head: string; lock: string; snapshot: string; start: string };
  readonly #make: () => R;
  /** The replica and the log position it has reached. */
  #local: R;
  #length = 0;
  #chain: Buffer = GENESIS;
  /** The replica holds the log's last entry as this process wrote it, not yet seen in Redis. */
  #unconfirmed = false;
  /** The replica may hold what no entry says (a change to it failed part-way): rebuild it. */
  #stale = false;
  /** An entry this object appended has not been confirmed by `WAIT` (its write failed after the script ran, or its answer was lost). */
  #unreplicated = false;
  /**
   * What `answer` gives again: a kept item is held by the replica; an item removed as a
   * near-duplicate has its representative and similarity here (a slot of the two arrays), until
   * its id is decided again. Kept items, most of an index, cost nothing here.
   */
  readonly #removed = new RemovedItems();
  /** The batch of the last write of this object that failed, and the entries of it written. */
  #recent: Recent | undefined;
  /** Calls of this object take turns on the replica. */
  #turn: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(settings: SharedLogSettings<R>, description: Readonly<Record<string, string>>, make: () => R) {
    this.#settings = settings;
    this.#client = settings.client;
    this.description = description;
    const base = `${settings.prefix}:{${settings.name}}`;
    this.#keys = { log: `${base}:log`, head: `${base}:head`, lock: `${base}:lock`, snapshot: `${base}:snapshot`, start: `${base}:start` };
    this.#make = make;
    this.#local = make();
  }

  /**
   * Opens the log of `settings.name`, creating its description when absent, and replays it
   * (unless `replay` is false: for `repair()` of a log that cannot be replayed).
   *
   * @throws {RangeError} when the stored description differs from what was given, or was written
   * by another format or rule. @throws {RedisIndexError} when Redis fails or a key is corrupt.
   */
  static async open<R extends Replica>(settings: SharedLogSettings<R>, replay = true): Promise<SharedLog<R>> {
    const { client, name, operation } = settings;
    const deadline = new Deadline(settings.timeout);
    try {
      await checkReplicas(client, settings.replicas, deadline);
    } catch (error) {
      if (error instanceof RangeError) throw error;
      throw indexError(operation, error, false);
    }
    const key = `${settings.prefix}:{${name}}:meta`;
    let reply: unknown;
    try {
      reply = await send(client, deadline, () => DESCRIBE_SCRIPT.run(client, [key], Object.entries(settings.description).flat().map((s) => Buffer.from(s))));
    } catch (error) {
      throw indexError(operation, error, false);
    }
    const stored = parseDescription(reply, key, Object.keys(settings.description), operation);
    for (const field of ['format', 'rule']) {
      if (stored[field] !== settings.description[field]) {
        throw new RangeError(`index '${name}' holds a log of format ${stored.format} decided by rule ${stored.rule}; this version reads format ${settings.description.format} and decides by rule ${settings.description.rule}`);
      }
    }
    for (const field of settings.given) {
      if (stored[field] !== settings.description[field]) throw new RangeError(`index '${name}' was created with ${field} '${stored[field]}', not '${settings.description[field]}'`);
    }
    const log = new SharedLog<R>(settings, stored, () => settings.replica(stored));
    if (!replay) return log;
    try {
      await log.#loadSnapshot(operation);
      await log.#sync(operation);
    } catch (error) {
      log.close();
      throw error;
    }
    return log;
  }

  /** `repair()` of the log of `settings.name` without replaying it (a log that does not replay cannot be opened). */
  static async repairUnopened<R extends Replica>(settings: SharedLogSettings<R>): Promise<LogRepairReport> {
    const log = await SharedLog.open(settings, false);
    try {
      return await log.repair();
    } finally {
      log.close();
    }
  }

  /** `true` once {@link SharedLog.close} has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Brings the replica to the log's end, then answers from it. */
  read<T>(operation: string, answer: (replica: R) => T): Promise<T> {
    this.#checkOpen();
    return this.#turnOf(async () => {
      await this.#sync(operation);
      return answer(this.#local);
    });
  }

  /**
   * Decides (`'decided'`) or adds (`'added'`) a batch, entry by entry: each applied to the
   * replica, then appended. A call that failed part-way and is made again with the same
   * arguments, by this object and before any other write, resumes after the entries the log
   * holds. With `answer`, an item whose id the log decided or added before (and did not remove
   * since) is answered as it was then and not written again; the others are written as usual.
   */
  writeBatch(operation: string, kind: 'decided' | 'added', ids: Uint32Array, items: readonly Buffer[], answer = false): Promise<MinHashDecisions> {
    this.#checkOpen();
    return this.#locked(operation, async (stillHeld) => {
      if (!answer) return this.#writeNew(operation, kind, ids, items, stillHeld);
      checkNew(ids, () => false, this.#settings.noun);
      const representative = new Uint32Array(ids.length);
      const similarity = new Float64Array(ids.length);
      const fresh: number[] = [];
      ids.forEach((id, q) => {
        if (this.#local.has(id)) {
          representative[q] = id;
          similarity[q] = 1;
        } else if (!this.#removed.answer(id, representative, similarity, q)) {
          fresh.push(q);
        }
      });
      if (fresh.length === 0) return { representative, similarity };
      const written = await this.#writeNew(operation, kind, Uint32Array.from(fresh, (q) => ids[q]!), fresh.map((q) => items[q]!), stillHeld);
      fresh.forEach((q, k) => {
        representative[q] = written.representative[k]!;
        similarity[q] = written.similarity[k]!;
      });
      return { representative, similarity };
    });
  }

  /** {@link SharedLog.writeBatch} of items whose ids must be new. */
  async #writeNew(operation: string, kind: 'decided' | 'added', ids: Uint32Array, items: readonly Buffer[], stillHeld: () => Promise<void>): Promise<MinHashDecisions> {
    const recent = await this.#resumable(operation, kind, ids, items);
    const start = recent.stored.at(-1)?.to ?? 0;
    checkNew(ids.subarray(start), (id) => this.#local.has(id), this.#settings.noun);
    this.#recent = recent;
    for (const { from, to } of pieces(items)) {
      if (to <= start) continue;
      try {
        await stillHeld();
      } catch (error) {
        throw start === 0 && from === start ? error : partialError(operation, error, from, 0, this.#settings.noun);
      }
      await this.#append(operation, () => {
        const pieceIds = ids.slice(from, to);
        const pieceItems = items.slice(from, to);
        if (kind === 'added') {
          this.#local.addMany(pieceIds, pieceItems);
          this.#note(pieceIds);
          return { kind: 'added', ids: pieceIds, items: pieceItems };
        }
        const decided = this.#local.decideMany(pieceIds, pieceItems);
        this.#note(pieceIds, decided);
        recent.representative.set(decided.representative, from);
        recent.similarity.set(decided.similarity, from);
        return { kind: 'decided', ids: pieceIds, items: pieceItems, representative: decided.representative };
      }, from, to - from, (position, self) => recent.stored.push({ position, self, to }));
    }
    this.#recent = undefined;
    return { representative: recent.representative, similarity: recent.similarity };
  }

  /** Files the decisions of `ids`: those removed as near-duplicates (none when `decided` is left out, as for added items). */
  #note(ids: Uint32Array, decided?: MinHashDecisions): void {
    ids.forEach((id, q) => {
      if (decided !== undefined && decided.representative[q] !== id) this.#removed.set(id, decided.representative[q]!, decided.similarity[q]!);
      else this.#removed.delete(id);
    });
  }

  /** Removes `id` when the replica (at the log's end) holds it; whether it did. */
  remove(id: number): Promise<boolean> {
    this.#checkOpen();
    return this.#locked('remove', async (stillHeld) => {
      this.#recent = undefined;
      if (!this.#local.has(id)) return false;
      await stillHeld();
      await this.#append('remove', () => {
        this.#local.remove(id);
        this.#removed.delete(id);
        return { kind: 'removed', ids: Uint32Array.of(id) };
      }, 0, 0);
      return true;
    });
  }

  /**
   * Saves the replica, brought to the log's end, as the index's snapshot: later opens load it
   * and replay only the entries after it. Written without the lock (writers go on meanwhile),
   * in pieces to a list of its own, then named unless a snapshot of this position or a later one
   * is named already.
   */
  snapshot(operation: string): Promise<SnapshotReport> {
    this.#checkOpen();
    if (this.#local.save === undefined) throw new TypeError(`this index has no snapshots`);
    return this.#turnOf(async () => {
      await this.#sync(operation);
      const position = this.#length;
      const bytes = encodeSnapshot({ position, chain: this.#chain, replica: this.#local.save!(), removed: this.#removed.entries() });
      const id = randomBytes(16).toString('hex');
      const list = `${this.#keys.snapshot}:${id}`;
      for (let piece = 0; piece * SNAPSHOT_PIECE < bytes.length; piece++) {
        const part = bytes.subarray(piece * SNAPSHOT_PIECE, (piece + 1) * SNAPSHOT_PIECE);
        const held = Number(await this.#request(operation, (d) => send(this.#client, d, () => PUSH_PIECE_SCRIPT.run(this.#client, [list], [Buffer.from(String(piece)), part, Buffer.from(String(UNNAMED_SECONDS))]))));
        if (held !== piece + 1) throw new RedisIndexError(operation, new Error(`the snapshot being written holds ${held} pieces where ${piece + 1} were sent (it expired?): take it again`), false);
      }
      const name = snapshotName(position, id, this.#chain);
      for (;;) {
        const now = await this.#snapshotName(operation);
        if (now === name) return { position, bytes: bytes.length, named: true };
        const named = parseSnapshotName(now);
        const old = named === undefined ? list : `${this.#keys.snapshot}:${named.id}`;
        const answer = Number(
          await this.#request(operation, (d) =>
            send(this.#client, d, () => NAME_SNAPSHOT_SCRIPT.run(this.#client, [this.#keys.snapshot, list, old, this.#keys.log, this.#keys.start], [Buffer.from(now), Buffer.from(name)])),
          ),
        );
        if (answer === 3) throw new RedisIndexError(operation, new Error('the snapshot being written expired before it was named: take it again'), false);
        if (answer === 4) throw new RedisIndexError(operation, new Error('the log was cut, or compacted past the snapshot, while it was written (a repair? another compact()?): take it again'), false);
        // 0: another snapshot was named between the read and the script; read it again.
        if (answer !== 0) return { position, bytes: bytes.length, named: answer === 1 };
      }
    });
  }

  /**
   * Checks every entry of the log and cuts it before the first one that cannot be read (with
   * every entry after it: the ones after were decided knowing it), then sets the head to the last
   * entry kept. Run it when a call failed with kind `'corrupt'`. It holds the lock, so writers
   * wait; a repair that fails leaves the log as it was or cut (it is one step), and runs again.
   */
  async repair(): Promise<LogRepairReport> {
    this.#checkOpen();
    return this.#turnOf(() =>
      withLock(this.#client, this.#keys.lock, this.#settings.lockFor, this.#settings.timeout, 'repair', async (stillHeld) => {
        const { head, corruptHead, lostStart } = await this.#stateForRepair();
        if (lostStart !== undefined) {
          await stillHeld();
          const keys = [this.#keys.log, this.#keys.head, this.#keys.start, ...(lostStart === '' ? [] : [lostStart])];
          const wiped = await this.#request('repair', (d) => send(this.#client, d, () => WIPE_SCRIPT.run(this.#client, keys, [Buffer.from(head.start?.name ?? '')])));
          if (Number(wiped) !== 1) throw new RedisIndexError('repair', new Error('the log was compacted while it was read: run repair() again'), false);
          this.#rebuild();
          await this.#dropStaleSnapshot();
          return { entries: 0, dropped: head.length, head: false };
        }
        const { good, chain } = await this.#readable(head);
        const moved = corruptHead || good < head.length || !chain.equals(head.chain);
        if (moved) {
          await stillHeld();
          const cut = await this.#request('repair', (d) =>
            send(this.#client, d, () =>
              TRUNCATE_SCRIPT.run(this.#client, this.#logKeys(), [Buffer.from(String(good)), chain, Buffer.from(String(head.length)), corruptHead ? Buffer.from('*') : head.chain]),
            ),
          );
          if (Number(cut) !== 1) throw new RedisIndexError('repair', new Error('the log changed while it was read (a write not under the lock?): run repair() again'), false);
          this.#rebuild();
          await this.#sync('repair');
        }
        // Also when nothing was cut now: a repair that failed after its cut runs again.
        await this.#dropStaleSnapshot();
        return { entries: good, dropped: head.length - good, head: moved && good === head.length };
      }),
    );
  }

  /**
   * The log as `repair()` finds it: its head (a corrupt one read as the genesis value), and,
   * when the snapshot a compacted log starts from does not read, that snapshot's list (`''`:
   * the start itself is spoilt).
   */
  async #stateForRepair(): Promise<{ head: Head; corruptHead: boolean; lostStart: string | undefined }> {
    try {
      const head = await this.#head(new Deadline(this.#settings.timeout));
      return { head, corruptHead: false, lostStart: head.start !== undefined && !(await this.#startReads(head.start)) ? head.start.list : undefined };
    } catch (error) {
      const failure = indexError('repair', error, false);
      if (failure.kind !== 'corrupt' || (failure.key !== this.#keys.head && failure.key !== this.#keys.start)) throw failure;
    }
    // A key the scripts refuse: read the others one by one.
    const [length, name] = await this.#request('repair', (d) =>
      send(this.#client, d, () => Promise.all([this.#client.llen(this.#keys.log), this.#client.get(this.#keys.start).catch(() => '')])),
    );
    const named = name === null ? undefined : parseSnapshotName(name);
    const start = named === undefined ? undefined : this.#startOf(name!);
    const lostStart = name === null ? undefined : start === undefined ? '' : (await this.#startReads(start)) ? undefined : start.list;
    const head = { length: length + (start?.position ?? 0), chain: GENESIS, start };
    return { head, corruptHead: true, lostStart };
  }

  /** Whether the start's snapshot reads and loads (the replica it loads is freed). */
  async #startReads(start: Start): Promise<boolean> {
    const read = await this.#readStart('repair', start);
    if (typeof read === 'string') return false;
    read.replica.free();
    return true;
  }

  /** How many of the log's entries read in order from its start, each following the one before, and the last one's chain value. */
  async #readable(head: Head): Promise<{ good: number; chain: Buffer }> {
    let good = head.start?.position ?? 0;
    let chain = head.start?.chain ?? GENESIS;
    for (let from = good; from < head.length; from += READ_ENTRIES) {
      const raw = await this.#range('repair', from, Math.min(head.length, from + READ_ENTRIES));
      for (const [k, bytes] of raw.entries()) {
        try {
          const read = decodeEntry(bytes, this.#keys.log, from + k);
          if (!read.prev.equals(chain)) throw new CorruptKey(this.#keys.log, `holds at position ${from + k} an entry that does not follow the one before it`);
          chain = Buffer.from(read.self);
          good++;
        } catch (error) {
          if (!(error instanceof CorruptKey)) throw error;
          return { good, chain };
        }
      }
    }
    return { good, chain };
  }

  /**
   * Compacts the log: takes a snapshot at its end (as {@link SharedLog.snapshot}), then makes
   * the snapshot named then the one the log starts from and drops the entries it holds from
   * Redis, in one script. It takes no lock: appends go on after the entries it drops, a reader
   * learns the start with every read, and a repair refuses to cut below the start. Replicas
   * behind the start load its snapshot and replay what follows.
   */
  async compact(operation: string): Promise<CompactReport> {
    const end = await this.read(operation, () => ({ position: this.#length, chain: this.#chain }));
    const before = parseSnapshotName(await this.#snapshotName(operation));
    // A snapshot of the log's end named already (the last compaction's, or another process's) is not taken again.
    const bytes = before !== undefined && before.position === end.position && before.chain.equals(end.chain) ? 0 : (await this.snapshot(operation)).bytes;
    return this.#turnOf(async () => {
      const name = await this.#snapshotName(operation);
      const named = parseSnapshotName(name);
      if (named === undefined) throw new RedisIndexError(operation, new Error('the snapshot was dropped before the log was compacted (a repair?): compact again'), false);
      const list = `${this.#keys.snapshot}:${named.id}`;
      const old = (await this.#request(operation, (d) => this.#head(d))).start?.list ?? list;
      const dropped = Number(
        await this.#request(operation, (d) => send(this.#client, d, () => COMPACT_SCRIPT.run(this.#client, [this.#keys.snapshot, this.#keys.start, this.#keys.log, old], [Buffer.from(name)]))),
      );
      if (dropped < 0) throw new RedisIndexError(operation, new Error('the log or its snapshot changed while it was compacted (a repair? another compact()?): compact again'), false);
      return { position: named.position, dropped, bytes };
    });
  }

  /** Releases the replica; calls still waiting for their turn fail. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#local.free();
  }

  /** Runs `work` after every earlier call of this object on the replica has settled (failing if the object was closed meanwhile). */
  #turnOf<T>(work: () => Promise<T>): Promise<T> {
    const turn = (): Promise<T> => {
      this.#checkOpen();
      return work();
    };
    const run = this.#turn.then(turn, turn);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs `work` on the replica under the index's lock, once the replica has reached the log's
   * end and every entry this object appended is confirmed by the replicas. The replica is
   * brought up first without the lock, so a rebuild from the log's start does not hold up the
   * other writers; under the lock only what was appended meanwhile is read.
   */
  #locked<T>(operation: string, work: (stillHeld: () => Promise<void>) => Promise<T>): Promise<T> {
    return this.#turnOf(async () => {
      await this.#sync(operation);
      return withLock(this.#client, this.#keys.lock, this.#settings.lockFor, this.#settings.timeout, operation, async (stillHeld) => {
        await this.#sync(operation);
        if (this.#unreplicated && this.#settings.replicas > 0) await this.#confirm(operation);
        return work(stillHeld);
      });
    });
  }

  /**
   * Waits for the replicas to hold the log as it is now: a write of the head's own value on the
   * connection to its master, then `WAIT` (which counts only the writes of the connection it is
   * sent on; the master streams the log's entries to its replicas before that write).
   */
  async #confirm(operation: string): Promise<void> {
    const deadline = new Deadline(this.#settings.timeout);
    try {
      const before = connectionsBefore(this.#client);
      await send(this.#client, deadline, () => CONFIRM_SCRIPT.run(this.#client, [this.#keys.head], []));
      await waitForReplicas(this.#client, this.#settings.replicas, this.#settings.replicaTimeout, deadline, before);
    } catch (error) {
      throw indexError(operation, error, false);
    }
    this.#unreplicated = false;
  }

  /**
   * The record of this batch: the one of the failed call before, with the entries of it that the
   * log holds, when it was this very batch; else a new one.
   */
  async #resumable(operation: string, kind: 'decided' | 'added', ids: Uint32Array, items: readonly Buffer[]): Promise<Recent> {
    const recent = this.#recent;
    this.#recent = undefined;
    const fresh: Recent = { kind, ids, items, representative: new Uint32Array(ids.length), similarity: new Float64Array(ids.length), stored: [] };
    if (recent === undefined || recent.kind !== kind || recent.ids.length !== ids.length || recent.ids.some((id, q) => id !== ids[q] || !recent.items[q]!.equals(items[q]!))) return fresh;
    const stored: Recent['stored'] = [];
    for (const entry of recent.stored) {
      if (entry.position >= this.#length) break;
      const raw = await this.#read(operation, entry.position, entry.position + 1);
      if (raw === undefined) {
        // Compacted away: the replica, at the log's end, holds or answers each of its items if it was stored.
        const from = stored.at(-1)?.to ?? 0;
        if (!ids.subarray(from, entry.to).every((id) => this.#local.has(id) || this.#removed.has(id))) break;
      } else if (!raw[0]!.subarray(CHAIN_BYTES, 2 * CHAIN_BYTES).equals(entry.self)) {
        break;
      }
      stored.push(entry);
    }
    return { ...recent, ids, items, stored };
  }

  /**
   * Applies the entry `prepare` makes to the replica and appends it after the log's end, then
   * waits for the replicas. A failure leaves the replica an entry ahead of what Redis may hold:
   * the next call checks which (and, with replicas, confirms it before writing more). `written` items of the call are stored
   * before it, and it holds `items`; `sending` learns the entry's position and chain value before
   * it goes.
   */
  async #append(operation: string, prepare: () => LogEntry, written: number, items: number, sending?: (position: number, self: Buffer) => void): Promise<void> {
    let entry: LogEntry;
    try {
      entry = prepare();
    } catch (error) {
      // The replica may hold part of what failed (memory ran out inside a batch).
      this.#stale = true;
      throw written === 0 ? error : partialError(operation, error, written, 0, this.#settings.noun);
    }
    const prev = this.#chain;
    const position = this.#length;
    const bytes = encodeEntry(prev, entry);
    const self = Buffer.from(bytes.subarray(CHAIN_BYTES, 2 * CHAIN_BYTES));
    this.#length = position + 1;
    this.#chain = self;
    this.#unconfirmed = true;
    this.#unreplicated = this.#settings.replicas > 0;
    sending?.(position, self);
    const deadline = new Deadline(this.#settings.timeout);
    let appended: number;
    try {
      const before = this.#settings.replicas > 0 ? connectionsBefore(this.#client) : undefined;
      appended = Number(
        await send(this.#client, deadline, () => APPEND_SCRIPT.run(this.#client, this.#logKeys(), [Buffer.from(String(position)), prev, self, bytes])),
      );
      if (appended !== 0 && before !== undefined) await waitForReplicas(this.#client, this.#settings.replicas, this.#settings.replicaTimeout, deadline, before);
    } catch (error) {
      throw partialError(operation, error, written, items, this.#settings.noun);
    }
    if (appended === 0) {
      // Another writer appended after the entry this one last read (its lock lapsed, or the
      // other's did): the replica holds an entry the log may not, and the next call checks.
      this.#unreplicated = false;
      throw partialError(operation, new Error('another process wrote to the log after the entry this call read (a lock lapsed): this entry is not stored after it'), written, 0, this.#settings.noun);
    }
    this.#unconfirmed = false;
    this.#unreplicated = false;
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
      if (head.length >= this.#length && (await this.#holdsLast(operation, head))) this.#unconfirmed = false;
      else rebuild();
    }
    let step = READ_ENTRIES;
    let largest = 1;
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
      if (head.start !== undefined && this.#length < head.start.position) {
        // The entries after the replica were compacted away: go on from the snapshot that replaced them.
        await this.#loadStart(operation, head.start);
        rebuilt = true;
        continue;
      }
      const raw = await this.#read(operation, this.#length, Math.min(head.length, this.#length + step));
      if (raw === undefined) {
        head = await this.#request(operation, (deadline) => this.#head(deadline));
        continue;
      }
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
        largest = Math.max(largest, entryBytes.length);
      }
      // Small entries (single texts) go many to a request, large ones (whole batches) few.
      step = Math.max(1, Math.min(MOST_READ_ENTRIES, Math.floor(READ_BYTES / largest)));
      if (this.#length === head.length) head = await this.#request(operation, (deadline) => this.#head(deadline));
    }
  }

  /** Whether the log (as `head` saw it) holds the replica's last entry as the replica does. */
  async #holdsLast(operation: string, head: Head): Promise<boolean> {
    const first = head.start?.position ?? 0;
    if (this.#length === first && head.start !== undefined) return this.#chain.equals(head.start.chain);
    const raw = this.#length > first ? await this.#read(operation, this.#length - 1, this.#length) : undefined;
    return raw !== undefined && raw[0]!.subarray(CHAIN_BYTES, 2 * CHAIN_BYTES).equals(this.#chain);
  }

  /**
   * Applies one entry of the log to the replica. An entry that does not apply as written (an id
   * refused, or a decision made otherwise) is corrupt; any failure once the replica was touched
   * leaves it to be rebuilt by the next call.
   */
  #apply(operation: string, entry: LogEntry, position: number): void {
    const corrupt = (problem: string): RedisIndexError =>
      indexError(operation, new CorruptKey(this.#keys.log, `holds at position ${position} ${problem}`), false);
    if (entry.kind === 'removed') {
      for (const id of entry.ids) {
        this.#local.remove(id);
        this.#removed.delete(id);
      }
      return;
    }
    try {
      checkNew(entry.ids, (id) => this.#local.has(id), this.#settings.noun);
    } catch (error) {
      throw corrupt(`an entry that cannot apply (${(error as Error).message})`);
    }
    let decided: MinHashDecisions | undefined;
    try {
      if (entry.kind === 'added') this.#local.addMany(entry.ids, entry.items);
      else decided = this.#local.decideMany(entry.ids, entry.items);
    } catch (error) {
      this.#stale = true;
      throw error instanceof RangeError ? corrupt(`an entry that cannot apply (${error.message})`) : error;
    }
    this.#note(entry.ids, decided);
    if (decided === undefined || entry.kind !== 'decided') return;
    const writer = entry.representative;
    const differs = decided.representative.findIndex((id, q) => id !== writer[q]);
    if (differs >= 0) {
      this.#stale = true;
      throw corrupt(`a batch whose item ${differs} its writer decided otherwise (representative ${writer[differs]}, here ${decided.representative[differs]}): it was written by another build of the rule`);
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
    this.#local = this.#make();
    this.#length = 0;
    this.#chain = GENESIS;
    this.#unconfirmed = false;
    this.#stale = false;
    this.#removed.clear();
  }

  /**
   * Loads the index's snapshot, if it has one that reads, as the replica at its position (the
   * next sync checks that the log goes on from it, else rebuilds the replica from the start). A
   * snapshot that does not read is passed over: the log holds everything it does.
   */
  async #loadSnapshot(operation: string): Promise<void> {
    const load = this.#settings.load;
    if (load === undefined) return;
    const snapshot = await this.#readSnapshot(operation);
    if (snapshot === undefined) return;
    let replica: R;
    try {
      replica = load(this.description, snapshot.replica);
    } catch {
      return;
    }
    this.#install(replica, snapshot);
  }

  /** `replica`, loaded from `snapshot`, as this process's replica at the snapshot's position. */
  #install(replica: R, snapshot: Snapshot): void {
    this.#local.free();
    this.#local = replica;
    this.#length = snapshot.position;
    this.#chain = snapshot.chain;
    this.#unconfirmed = false;
    this.#stale = false;
    this.#removed.clear();
    for (const [id, representative, similarity] of snapshot.removed) this.#removed.set(id, representative, similarity);
  }

  /**
   * Loads the snapshot a compacted log starts from as the replica, at the log's first position.
   * It holds what the compacted entries did, so one that does not read is a corrupt index (and
   * `repair()` empties it); one deleted while it was read (a compaction moved the start) is
   * followed to the new start.
   */
  async #loadStart(operation: string, start: Start): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const read = await this.#readStart(operation, start);
      if (typeof read !== 'string') {
        this.#install(read.replica, read.snapshot);
        return;
      }
      const now = (await this.#request(operation, (deadline) => this.#head(deadline))).start;
      if (now === undefined) {
        // Emptied meanwhile (a repair): the log starts from its first entry again.
        this.#rebuild();
        return;
      }
      if (now.name === start.name || attempt === 2) {
        throw indexError(operation, new CorruptKey(this.#keys.start, `names ${read}, and the log's entries before position ${start.position} are gone (repair() empties the index)`), false);
      }
      start = now;
    }
  }

  /** The replica the start's snapshot holds, or what it is instead. */
  async #readStart(operation: string, start: Start): Promise<{ replica: R; snapshot: Snapshot } | string> {
    const load = this.#settings.load;
    if (load === undefined) return 'a snapshot, which this kind of index cannot load';
    const snapshot = decodeSnapshot(await this.#request(operation, () => this.#listBytes(start.list)));
    if (typeof snapshot === 'string') return `a snapshot that does not read (${snapshot})`;
    if (snapshot.position !== start.position || !snapshot.chain.equals(start.chain)) return 'a snapshot of another position';
    try {
      return { replica: load(this.description, snapshot.replica), snapshot };
    } catch (error) {
      return `a snapshot that does not load (${(error as Error).message})`;
    }
  }

  /** The snapshot `…:snapshot` names, or `undefined` for none (or one that does not read, twice: a later one, named meanwhile, deletes it). */
  async #readSnapshot(operation: string): Promise<Snapshot | undefined> {
    for (let attempt = 0; attempt < 2; attempt++) {
      let bytes: Buffer | undefined;
      try {
        bytes = await this.#snapshotBytes();
      } catch (error) {
        // A key of another type holds no snapshot; Redis failing fails the call.
        if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return undefined;
        throw indexError(operation, error, false);
      }
      if (bytes === undefined) return undefined;
      const snapshot = decodeSnapshot(bytes);
      if (typeof snapshot !== 'string') return snapshot;
    }
    return undefined;
  }

  /** The bytes of the list `…:snapshot` names (`undefined` when it names none), each request with its own time limit. */
  async #snapshotBytes(): Promise<Buffer | undefined> {
    const named = parseSnapshotName((await send(this.#client, new Deadline(this.#settings.timeout), () => this.#client.get(this.#keys.snapshot))) ?? '');
    if (named === undefined) return undefined;
    return this.#listBytes(`${this.#keys.snapshot}:${named.id}`);
  }

  /** The bytes of snapshot list `list` (none when absent), each request with its own time limit. */
  async #listBytes(list: string): Promise<Buffer> {
    const pieces: Buffer[] = [];
    for (;;) {
      const raw = await send(this.#client, new Deadline(this.#settings.timeout), () => this.#client.lrangeBuffer(list, pieces.length, pieces.length + READ_PIECES - 1));
      pieces.push(...raw);
      if (raw.length < READ_PIECES) return Buffer.concat(pieces);
    }
  }

  /** What `…:snapshot` holds now (`''`: nothing). */
  async #snapshotName(operation: string): Promise<string> {
    return (await this.#request(operation, (d) => send(this.#client, d, () => this.#client.get(this.#keys.snapshot)))) ?? '';
  }

  /** Deletes the snapshot if the log no longer holds it (a cut log). */
  async #dropStaleSnapshot(): Promise<void> {
    const now = await this.#snapshotName('repair');
    const named = parseSnapshotName(now);
    if (named === undefined) return;
    await this.#request('repair', (d) => send(this.#client, d, () => DROP_SNAPSHOT_SCRIPT.run(this.#client, [this.#keys.snapshot, `${this.#keys.snapshot}:${named.id}`, this.#keys.log, this.#keys.start], [Buffer.from(now)])));
  }

  /** The log's length and head. @throws {CorruptKey} for a corrupt log or head. */
  async #head(deadline: Deadline): Promise<Head> {
    const reply = await send(this.#client, deadline, () => HEAD_SCRIPT.run(this.#client, this.#logKeys(), []));
    if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw new Error(`the log's head was answered as ${describe(reply)}`);
    const chain = reply[1] === null ? GENESIS : (reply[1] as Buffer);
    return { length: reply[0], chain, start: reply[2] === null || reply[2] === undefined ? undefined : this.#startOf(String(reply[2])) };
  }

  /** The start `name` gives (the scripts checked its form). */
  #startOf(name: string): Start {
    const named = parseSnapshotName(name);
    if (named === undefined) throw new CorruptKey(this.#keys.start, 'does not name a snapshot');
    return { name, position: named.position, chain: named.chain, list: `${this.#keys.snapshot}:${named.id}` };
  }

  /** The keys of the scripts over the log: log, head, start. */
  #logKeys(): string[] {
    return [this.#keys.log, this.#keys.head, this.#keys.start];
  }

  /**
   * Entries `from .. to` of the log, or `undefined` when the log was compacted past `from`.
   *
   * @throws {RedisIndexError} when the log holds fewer (it was cut while read).
   */
  async #read(operation: string, from: number, to: number): Promise<Buffer[] | undefined> {
    const reply = await this.#request(operation, (deadline) =>
      send(this.#client, deadline, () => READ_SCRIPT.run(this.#client, this.#logKeys(), [Buffer.from(String(from)), Buffer.from(String(to))])),
    );
    if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw indexError(operation, new Error(`the log's entries were answered as ${describe(reply)}`), false);
    if (from < reply[0]) return undefined;
    const raw = reply.slice(1) as Buffer[];
    if (raw.length !== to - from) {
      throw indexError(operation, new Error(`the log was cut while it was read (${raw.length} of ${to - from} entries from position ${from}): try again`), false);
    }
    return raw;
  }

  /** {@link SharedLog.#read} of entries the log must hold: one compacted away meanwhile fails the call. */
  async #range(operation: string, from: number, to: number): Promise<Buffer[]> {
    const raw = await this.#read(operation, from, to);
    if (raw === undefined) throw indexError(operation, new Error(`the log was compacted past position ${from} while it was read: try again`), false);
    return raw;
  }

  /** One request round with its own time limit, its failure as the operation's error. */
  async #request<T>(operation: string, request: (deadline: Deadline) => Promise<T>): Promise<T> {
    try {
      return await request(new Deadline(this.#settings.timeout));
    } catch (error) {
      throw indexError(operation, error, false);
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw new TypeError(`index '${this.#settings.name}' has been closed`);
  }
}

/** Options of `decideMany` of the indexes shared through a log. */
export interface LogDecideOptions {
  /**
   * What becomes of an id the log decided before: `'refuse'` (default) refuses one a kept item
   * holds, as the in-memory index does; `'answer'` answers any id the log decided or added (and
   * did not remove since) as it was decided then, kept or removed for its representative, and
   * decides only the others — for a caller that may send an item twice (a retried job, a second
   * run over the same input), so that each item is decided once.
   */
  readonly known?: 'refuse' | 'answer';
}

/** Whether `options` of `operation` ask known ids to be answered. */
export function answersKnown(options: unknown, operation: string): boolean {
  if (options === undefined) return false;
  const o = checkOptions(options, ['known'], operation) as LogDecideOptions;
  if (o.known !== undefined && o.known !== 'refuse' && o.known !== 'answer') {
    throw new RangeError(`options.known must be 'refuse' or 'answer', got ${describe(o.known)}`);
  }
  return o.known === 'answer';
}

/** Ids removed as near-duplicates, each with its representative and similarity, in flat arrays. */
class RemovedItems {
  readonly #slot = new Map<number, number>();
  #representative = new Uint32Array(64);
  #similarity = new Float64Array(64);
  readonly #free: number[] = [];

  set(id: number, representative: number, similarity: number): void {
    let slot = this.#slot.get(id) ?? this.#free.pop();
    if (slot === undefined) {
      slot = this.#slot.size;
      if (slot === this.#representative.length) {
        const grown = new Uint32Array(2 * slot);
        grown.set(this.#representative);
        this.#representative = grown;
        const similarities = new Float64Array(2 * slot);
        similarities.set(this.#similarity);
        this.#similarity = similarities;
      }
    }
    this.#slot.set(id, slot);
    this.#representative[slot] = representative;
    this.#similarity[slot] = similarity;
  }

  delete(id: number): void {
    const slot = this.#slot.get(id);
    if (slot === undefined) return;
    this.#slot.delete(id);
    this.#free.push(slot);
  }

  /** Whether `id` was removed as a near-duplicate (and not decided again since). */
  has(id: number): boolean {
    return this.#slot.has(id);
  }

  /** Writes `id`'s decision at `q` of the answers; whether there was one. */
  answer(id: number, representative: Uint32Array, similarity: Float64Array, q: number): boolean {
    const slot = this.#slot.get(id);
    if (slot === undefined) return false;
    representative[q] = this.#representative[slot]!;
    similarity[q] = this.#similarity[slot]!;
    return true;
  }

  clear(): void {
    this.#slot.clear();
    this.#free.length = 0;
  }

  /** Every id held, with its representative and similarity. */
  entries(): [id: number, representative: number, similarity: number][] {
    return Array.from(this.#slot, ([id, slot]) => [id, this.#representative[slot]!, this.#similarity[slot]!]);
  }
}

/** Refuses an id the replica holds, or one named twice, before anything is decided. */
function checkNew(ids: Uint32Array, has: (id: number) => boolean, noun: string): void {
  const batch = new Set<number>();
  ids.forEach((id, q) => {
    if (has(id)) throw new RangeError(`ids[${q}] = ${id} is held by a kept ${noun}: ids must be new (remove it first to reuse its id)`);
    if (batch.has(id)) throw new RangeError(`ids[${q}] = ${id} is named twice in the batch: ids must be distinct`);
    batch.add(id);
  });
}

/** Consecutive pieces `from .. to` of a batch, each of at most {@link ENTRY_ITEMS} items and about {@link ENTRY_BYTES}. */
function pieces(items: readonly Buffer[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let from = 0;
  let bytes = 0;
  for (let q = 0; q < items.length; q++) {
    bytes += items[q]!.length + 12;
    if (q > from && (q - from >= ENTRY_ITEMS || bytes > ENTRY_BYTES)) {
      out.push({ from, to: q });
      from = q;
      bytes = items[q]!.length + 12;
    }
  }
  if (from < items.length) out.push({ from, to: items.length });
  return out;
}

/** The error of a write that stored the first `written` items (`noun`s) of its batch, and perhaps `unsure` more. */
function partialError(operation: string, cause: unknown, written: number, unsure: number, noun: string): RedisIndexError {
  const error = indexError(operation, cause, written + unsure > 0);
  if (written + unsure === 0) return error;
  const stored = unsure === 0 ? `the first ${written} ${noun}s of the batch are stored` : `the first ${written} ${noun}s of the batch are stored, and perhaps the ${unsure} after them`;
  return new RedisIndexError(operation, new Error(`${(cause as Error)?.message ?? String(cause)}; ${stored}`, { cause }), true, error.kind, error.key);
}

/** The stored description: field → value. @throws {RedisIndexError} for one without the fields the index needs. */
function parseDescription(reply: unknown, key: string, fields: readonly string[], operation: string): Record<string, string> {
  const stored: Record<string, string> = {};
  if (Array.isArray(reply)) for (let k = 0; k + 1 < reply.length; k += 2) stored[String(reply[k])] = String(reply[k + 1]);
  const missing = fields.filter((field) => stored[field] === undefined);
  if (missing.length > 0) {
    throw indexError(operation, new CorruptKey(key, `is not the description of this kind of index (it lacks ${missing.join(', ')})`), false);
  }
  return stored;
}

/**
 * What every index shared through a log answers alike (`RedisTextIndex`, `RedisMinHashIndex`):
 * membership, size, removal, snapshots and compaction, `repair()` and closing. Each method adds
 * how it decides and queries.
 */
export abstract class LogIndex<R extends Replica> {
  /** The index's name. */
  readonly name: string;
  /** The log and this process's replica. */
  protected readonly log: SharedLog<R>;

  protected constructor(name: string, log: SharedLog<R>) {
    this.name = name;
    this.log = log;
  }

  /** `true` once `close()` has run. */
  get closed(): boolean {
    return this.log.closed;
  }

  /**
   * Removes the kept item `id`; `true` if the index held it when the call took the index's lock
   * (after every change before it). A call that failed and is made again answers whether `id` is
   * held then.
   */
  async remove(id: number): Promise<boolean> {
    this.checkOpen();
    return this.log.remove(checkId(id));
  }

  /** Whether a kept item holds `id`. */
  async has(id: number): Promise<boolean> {
    this.checkOpen();
    const checked = checkId(id);
    return this.log.read('has', (replica) => replica.has(checked));
  }

  /**
   * `has` of each of `ids` at once, read from one state of the index (one round trip when this
   * process is up to date): `held[k]` is 1 when a kept item holds `ids[k]`, else 0.
   */
  async hasMany(ids: Uint32Array): Promise<Uint8Array> {
    this.checkOpen();
    if (!(ids instanceof Uint32Array)) throw new TypeError(`ids must be a Uint32Array, got ${describe(ids)}`);
    return this.log.read('hasMany', (replica) => Uint8Array.from(ids, (id) => (replica.has(id) ? 1 : 0)));
  }

  /** Number of kept items. */
  async size(): Promise<number> {
    this.checkOpen();
    return this.log.read('size', (replica) => replica.size);
  }

  /**
   * Saves this process's replica, brought to the log's end, as the index's snapshot (in its
   * method's save format, stored beside the log: a `TextIndex`'s, some 100 bytes per short text;
   * a `MinHashLSH`'s, 4 bytes a position and 4 for the id per signature): processes that open the
   * index afterwards load it and replay only the entries written after it, instead of the whole
   * log. Writers go on meanwhile (no lock is held). A snapshot that no longer matches the log
   * (cut by `repair()` or by hand, or otherwise rewritten) is found when the index is opened, and
   * the log is replayed from its start instead; one that does not read is passed over likewise.
   * Take one now and then (every few hundred thousand items, say): the log itself stays whole
   * (`compact()` is what shortens it).
   *
   * @returns the log position the snapshot holds, its bytes, and whether it is the index's
   * snapshot now (`false` when one of this position or a later one already was).
   * @throws {RedisIndexError} when Redis fails.
   */
  async snapshot(): Promise<SnapshotReport> {
    this.checkOpen();
    return this.log.snapshot('snapshot');
  }

  /**
   * Bounds what Redis holds: takes a `snapshot()` and drops the log's entries it holds, so the
   * index costs Redis its snapshot and the entries written since, not its whole history. The log
   * then starts from that snapshot: a process whose replica is behind it (or must be rebuilt)
   * loads it and replays what follows, and opening never replays more than the entries after it.
   * Writers wait only for the one step that drops the entries. Since the snapshot now stands for
   * the entries it replaced, one that no longer reads (its bytes changed in Redis) fails every
   * call with kind `'corrupt'` naming the key `…:start`, and `repair()` empties the index, as it
   * cuts a log before its first unreadable entry.
   *
   * @returns the position the log starts from now, the entries this call dropped from Redis, and
   * the snapshot's bytes.
   * @throws {RedisIndexError} when Redis fails, or a repair ran meanwhile (compact again).
   */
  async compact(): Promise<CompactReport> {
    this.checkOpen();
    return this.log.compact('compact');
  }

  /**
   * Checks every entry of the log and cuts it before the first one that cannot be read (with
   * every entry after it: the ones after were decided knowing it), then sets the head to the last
   * entry kept. Run it when a call failed with kind `'corrupt'`. It holds the lock, so writers
   * wait; a repair that fails leaves the log as it was or cut (it is one step), and runs again.
   */
  async repair(): Promise<LogRepairReport> {
    this.checkOpen();
    return this.log.repair();
  }

  /** Releases the replica. The index never closes the client: its owner does. Idempotent. */
  close(): void {
    this.log.close();
  }

  /** Same as `close()`, for `using` declarations. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** @throws {TypeError} once the index is closed. */
  protected checkOpen(): void {
    if (this.log.closed) throw new TypeError(`index '${this.name}' has been closed`);
  }
}
