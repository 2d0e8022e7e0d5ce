/** `SimHashIndex` kept in Redis (one server or a cluster), shared by every process that opens it. */

import type { Cluster, Redis } from 'ioredis';
import { checkId, checkIds, checkQueryOptions, checkSameLength } from '../shared/index-args.js';
import { checkParts } from '../shared/filter.js';
import { permutationLayout } from '../shared/layout.js';
import { ballVolume, binomial } from '../shared/plan.js';
import { checkDistinctIds, decideAgainst, keptOf, queryLimit } from '../shared/decide.js';
import type { OnlineDecisions, QueryManyResult, QueryOptions, QueryResult, U64Input } from '../shared/types.js';
import { toU64Array } from '../shared/u64-input.js';
import { checkBlocks, checkDistance, checkOptions, checkU64, describe, optionKeys } from '../shared/validate.js';
import { type Description, Geometry, bucketsPerQuery, descriptionKey, forEachInBall, lockKey, partShapes, popcount32 } from './geometry.js';
import { CorruptKey, RedisIndexError, indexError } from './errors.js';
import { ADD_MEMBERS, ADD_MISSING_MEMBERS, COUNT_RULE, DELETE_RECORDS, DESCRIBE, GET_RECORDS, REMOVE_MEMBERS, SET_RECORDS, type RecordValues, type Script } from './scripts.js';
import { Deadline, isCluster, send } from './requests.js';
import { Repair, type RepairAccess, type RepairReport } from './repair.js';
import { GroupedCalls } from './grouped-calls.js';
import { balancedTags } from './hash-tags.js';
import { QueryBatcher } from './query-batcher.js';
import { checkReplicas, connectionsBefore, waitForReplicas } from './replicas.js';
import { withLock } from './lock.js';
import { checkClient, checkName, optionalInteger } from './options.js';
import { SimHashIndex } from '../wasm/simhash-index.js';

/** Options of {@link RedisSimHashIndex.open}. */
export interface RedisSimHashIndexOptions {
  /** An ioredis `Redis` (one server) or `Cluster` client. The index never closes it. */
  client: Redis | Cluster;
  /**
   * Name of the index: 1 to 100 characters, none of them `{`, `}`, `/` or a space. Every key
   * starts with `simhash:{name/` (data) or `simhash:{name}:` (description and lock), so indexes
   * of different names share a server or cluster.
   */
  name: string;
  /**
   * Largest distance queries may ask for, `0..=64`. Required when the index is created; when it
   * exists already, it must be left out or equal the stored one.
   */
  distance?: number;
  /**
   * Blocks of the permuted tables (`distance < blocks <= 64`, at most 128 tables), fixed at
   * creation; needs `distance`. Default: a layout chosen for `distance` and `capacity` (see
   * docs/redis.md, "Layouts"): permuted tables at small distances, parts at large ones.
   */
  blocks?: number;
  /**
   * Parts of the multi-index filter (`1..=64`, at most 4,096 buckets read per query), fixed at
   * creation instead of `blocks`; needs `distance`. Default: chosen, as for `blocks`.
   */
  parts?: number;
  /**
   * Number of entries the index is sized for: it fixes the layout and the number of bucket keys.
   * Any size works; far past it, buckets hold many members and queries bring back more
   * candidates. Default 1,000,000.
   */
  capacity?: number;
  /**
   * Number of replicas each master must confirm (Redis `WAIT`) before a write step counts as
   * done; a write that is not confirmed in time fails with a {@link RedisIndexError}. Default 0.
   */
  replicas?: number;
  /** Milliseconds `WAIT` may take. Default 2000. */
  replicaTimeout?: number;
  /**
   * Time limit of each call, in milliseconds, waiting for the connection included: a call that
   * has not settled by then fails with a {@link RedisIndexError} of kind `'timeout'` (partial,
   * for a write). `addMany`, `queryMany`, `decideMany` and `repair` work in rounds, each with
   * this limit. Default 5000.
   */
  timeout?: number;
}

/** The names of {@link RedisSimHashIndexOptions}. */
const REDIS_INDEX_OPTIONS = optionKeys<RedisSimHashIndexOptions>({
  client: true, name: true, distance: true, blocks: true, parts: true, capacity: true, replicas: true, replicaTimeout: true, timeout: true,
});

/**
 * Hash tags per master of the cluster an index is created on: keys of one tag share a slot, so
 * a step of an operation makes one script call per tag it touches. Four per master spread the
 * load evenly (and leave tags to move when masters are added); more would split a batch of
 * queries into more calls (on 3 masters with 16 queries in flight, 64 tags cost 182 µs of
 * client CPU per query and 12 tags 76 µs). On one server tags do not matter, and one tag makes one call per step.
 */
const GROUPS_PER_MASTER = 4;
/** Fewest tags on a cluster, whatever its size when the index was created. */
const MIN_CLUSTER_GROUPS = 8;
/**
 * Members a bucket should hold at `capacity`, at most: each key costs Redis about 70 bytes
 * besides its members. A permuted table's buckets hold 8 to 16 at `capacity` (bucket bits
 * `ceil(log2(capacity / 16))`); a part's up to 64, as `chooseLayout` finds cheapest, or more
 * where a part is narrower than that many bucket bits.
 */
const MEMBERS_PER_BUCKET = 16;
/** Ids a record hash should hold at `capacity`. */
const IDS_PER_RECORD = 64;
/** Largest table count considered when choosing blocks: each table costs a write per entry. */
const MAX_TABLES = 128;
/** Most buckets a query may read in a part layout: its balls. */
const MAX_BUCKETS = 4096;
/** Buckets one round of query calls may read: bounds the size of the calls. */
const BUCKETS_PER_ROUND = 1 << 16;
/** Entries written per round of script calls, so a huge `addMany` never builds one huge reply. */
const WRITE_CHUNK = 16384;
/** Rounds of a `queryMany` sent before the first is answered; each holds its replies in memory. */
const ROUNDS_IN_FLIGHT = 4;
/** Most queries probed per round of script calls. */
const QUERY_CHUNK = 4096;
/**
 * Table members one round of query calls should bring back at most, expected: bounds the reply
 * sizes and how long one script holds a server (large distances have many candidates).
 */
const MEMBERS_PER_ROUND = 1 << 18;

/**
 * A `SimHashIndex` whose entries live in Redis: the same answers as the in-memory index holding
 * the same entries, for every distance up to the index's, from any process that opens it.
 *
 * Each entry is a record `id → fingerprint` plus one member per permuted table. A write first
 * adds table members, then sets the record, then removes members of a replaced fingerprint; a
 * query takes table members with the query's prefix, keeps those within the distance (checked
 * on the client) and then keeps only ids whose record still holds a fingerprint within the
 * distance. So an interrupted write can leave stray table members but never makes a query
 * return an id for a fingerprint the id does not hold; {@link RedisSimHashIndex.repair} removes
 * the strays.
 */
export class RedisSimHashIndex {
  /** Largest distance queries may ask for. */
  readonly distance: number;
  /** Blocks of the permuted tables; 0 with a part layout, or when every entry is compared. */
  readonly blocks: number;
  /** Parts of the multi-index filter; 0 with permuted tables. */
  readonly parts: number;
  /** The index name. */
  readonly name: string;
  readonly #client: Redis | Cluster;
  readonly #geometry: Geometry;
  readonly #replicas: number;
  readonly #replicaTimeout: number;
  readonly #timeout: number;
  /** Queries per round of calls, from the expected candidates per query at the sized capacity. */
  readonly #queryChunk: number;
  readonly #batcher = new QueryBatcher((values, distance, limit) => this.#queryMany(values, distance, limit));
  #closed = false;

  private constructor(name: string, client: Redis | Cluster, description: Description, replicas: number, replicaTimeout: number, timeout: number) {
    this.name = name;
    this.#client = client;
    this.#geometry = new Geometry(name, description);
    this.distance = description.distance;
    this.blocks = description.blocks;
    this.parts = description.parts;
    this.#replicas = replicas;
    this.#replicaTimeout = replicaTimeout;
    this.#timeout = timeout;
    const { candidates, buckets } = queryCost(description);
    this.#queryChunk = Math.max(1, Math.min(QUERY_CHUNK, Math.floor(MEMBERS_PER_ROUND / Math.max(1, candidates)), Math.floor(BUCKETS_PER_ROUND / buckets)));
  }

  /**
   * Opens index `options.name`, creating it when it does not exist.
   *
   * @throws {TypeError | RangeError} for invalid options, or options that contradict the
   * stored description of an existing index.
   * @throws {RedisIndexError} when Redis cannot be reached.
   */
  static async open(options: RedisSimHashIndexOptions): Promise<RedisSimHashIndex> {
    const opts = checkOptions(options, REDIS_INDEX_OPTIONS, 'RedisSimHashIndex.open');
    const client = checkClient(opts.client);
    const name = checkName(opts.name);
    const replicas = optionalInteger(opts.replicas, 'options.replicas', 0, 16, 0);
    const replicaTimeout = optionalInteger(opts.replicaTimeout, 'options.replicaTimeout', 1, 3_600_000, 2000);
    const timeout = optionalInteger(opts.timeout, 'options.timeout', 1, 3_600_000, 5000);
    const capacity = optionalInteger(opts.capacity, 'options.capacity', 1, 2 ** 32, 1_000_000);
    const distance = opts.distance === undefined ? undefined : checkDistance(opts.distance);
    if (opts.blocks !== undefined && opts.parts !== undefined) {
      throw new TypeError('blocks and parts choose different filter families: give at most one');
    }
    for (const given of ['blocks', 'parts'] as const) {
      if (opts[given] !== undefined && distance === undefined) throw new TypeError(`${given} needs distance: both describe a new index`);
    }
    const blocks = opts.blocks === undefined || distance === undefined ? undefined : checkBlocks(opts.blocks, distance);
    if (blocks !== undefined && distance !== undefined && binomial(blocks, distance) > MAX_TABLES) {
      // Each table costs a member per entry in Redis.
      throw new RangeError(`blocks ${blocks} at distance ${distance} makes ${binomial(blocks, distance)} tables; at most ${MAX_TABLES} are allowed`);
    }
    const parts = opts.parts === undefined ? undefined : checkParts(opts.parts);
    const deadline = new Deadline(timeout);
    try {
      await checkReplicas(client, replicas, deadline);
    } catch (error) {
      if (error instanceof RangeError) throw error;
      throw indexError('RedisSimHashIndex.open', error, false);
    }

    const tags = distance === undefined ? [] : await chooseTags(client, name, deadline);
    const wanted = distance === undefined ? undefined : describeNew(distance, blocks, parts, capacity, tags);
    if (wanted !== undefined && parts !== undefined) {
      const buckets = queryCost(wanted).buckets;
      if (buckets > MAX_BUCKETS) {
        throw new RangeError(`parts ${parts} at distance ${wanted.distance} reads ${buckets} buckets per query at capacity ${capacity}; at most ${MAX_BUCKETS} are allowed`);
      }
    }
    // `tags`, an array, is stored as its numbers joined by commas (String of an array).
    const fields = wanted === undefined ? [] : Object.entries(wanted).flatMap(([key, value]) => [Buffer.from(key), Buffer.from(String(value))]);
    let reply: unknown;
    try {
      // Without a distance, only read: an empty field list makes the script create nothing.
      reply = await send(client, deadline, () => DESCRIBE.run(client, [descriptionKey(name)], fields));
    } catch (error) {
      throw indexError('RedisSimHashIndex.open', error, false);
    }
    const stored = parseDescription(reply, name);
    if (stored === undefined) {
      throw new RangeError(`index '${name}' does not exist: give options.distance to create it`);
    }
    if (distance !== undefined && distance !== stored.distance) {
      throw new RangeError(`index '${name}' was created with distance ${stored.distance}, not ${distance}`);
    }
    if ((blocks !== undefined && blocks !== stored.blocks) || (parts !== undefined && parts !== stored.parts)) {
      const layout = stored.parts > 0 ? `parts ${stored.parts}` : `blocks ${stored.blocks}`;
      throw new RangeError(`index '${name}' was created with ${layout}, not ${blocks === undefined ? `parts ${parts}` : `blocks ${blocks}`}`);
    }
    return new RedisSimHashIndex(name, client, stored, replicas, replicaTimeout, timeout);
  }

  /** `true` once {@link RedisSimHashIndex.close} has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Adds `id` with `fingerprint`, replacing the fingerprint `id` had. */
  async add(id: number, fingerprint: bigint): Promise<void> {
    this.#checkOpen();
    const checkedId = checkId(id);
    const value = checkU64(fingerprint, 'fingerprint');
    await this.#write('add', Uint32Array.of(checkedId), halves(BigUint64Array.of(value)), this.#deadline());
  }

  /**
   * Adds `ids[k]` with `fingerprints[k]` for every k (a later duplicate id wins). Not atomic:
   * when it fails (a {@link RedisIndexError}), some entries may be stored and others not, and
   * calling it again with the same arguments is safe and completes it. Large batches go in
   * rounds, each with its own time limit.
   */
  async addMany(ids: Uint32Array, fingerprints: U64Input): Promise<void> {
    this.#checkOpen();
    const checkedIds = checkIds(ids);
    const values = toU64Array(fingerprints, 'fingerprints');
    checkSameLength(checkedIds, values.length);
    const last = new Map<number, bigint>();
    for (let k = 0; k < checkedIds.length; k++) last.set(checkedIds[k]!, values[k]!);
    const unique = Uint32Array.from(last.keys());
    const uniqueValues = halves(BigUint64Array.from(last.values()));
    // Many tables (large distances) mean many members per entry: fewer entries per round.
    const chunk = Math.max(256, Math.min(WRITE_CHUNK, Math.floor(MEMBERS_PER_ROUND / this.#geometry.tables.length)));
    for (let start = 0; start < unique.length; start += chunk) {
      try {
        await this.#write('addMany', unique.subarray(start, start + chunk), uniqueValues.subarray(2 * start, 2 * (start + chunk)), this.#deadline());
      } catch (error) {
        // Earlier rounds are stored: whatever this one did, the call is partial.
        throw indexError('addMany', error, start > 0);
      }
    }
  }

  /**
   * The online decision of `SimHashIndex.decideMany`, for an index that holds only kept
   * documents, shared by every process: under the index's lock, queries the batch, applies the
   * rule (closest kept document within the distance, ties to the smaller id; a document of the
   * batch kept before another counts for it) and adds the kept documents. Calls from all
   * processes are thus decided one after another, each seeing every document kept before it:
   * no two kept documents are within the distance, whichever processes added them. The lock
   * expires after `options.lockFor` ms (default 30,000) so a process that dies holding it
   * delays the others by at most that; a call that holds it longer fails with a partial
   * {@link RedisIndexError} after its writes, its guarantee lost. Give ids that are not in the
   * index (a document whose own id is found within the distance stays kept). It waits for the
   * lock as long as other callers hold it; each of its requests has the index's time limit.
   *
   * @throws {TypeError | RangeError} as `addMany`; {@link RedisIndexError} when Redis fails.
   */
  async decideMany(ids: Uint32Array, fingerprints: U64Input, options: { lockFor?: number } = {}): Promise<OnlineDecisions> {
    this.#checkOpen();
    const checkedIds = checkIds(ids).slice();
    const values = new BigUint64Array(toU64Array(fingerprints, 'fingerprints'));
    checkSameLength(checkedIds, values.length);
    checkDistinctIds(checkedIds);
    const lockFor = optionalInteger(checkOptions(options, ['lockFor'], 'RedisSimHashIndex.decideMany').lockFor, 'options.lockFor', 1, 3_600_000, 30_000);
    return withLock(this.#client, lockKey(this.name), lockFor, this.#timeout, 'decideMany', async (stillHeld) => {
      const found = await this.queryMany(values, { limit: queryLimit(checkedIds) });
      const decisions = decideAgainst(SimHashIndex, this.distance, values, checkedIds, found);
      const kept = keptOf(checkedIds, decisions);
      const removed = Array.from(checkedIds).filter((_, q) => kept[q] === 0);
      const present = await Promise.all(removed.map((id) => this.has(id)));
      // Nothing is written once the lock may be another's.
      await stillHeld();
      // A removed document's id may hold an entry of an earlier call: it is no longer kept.
      await Promise.all(removed.filter((_, k) => present[k]).map((id) => this.remove(id)));
      await this.addMany(
        checkedIds.filter((_, q) => kept[q] === 1),
        values.filter((_, q) => kept[q] === 1),
      );
      return decisions;
    });
  }

  /**
   * Removes `id`; `true` if it was present when the call began. A step sent again after a lost
   * reply (the client re-sends what was in flight when a connection drops) changes neither the
   * answer nor what is removed: the record is read first, then deleted only if it still holds
   * what was read, then the members of that fingerprint go.
   */
  async remove(id: number): Promise<boolean> {
    this.#checkOpen();
    const checkedId = checkId(id);
    const ids = Uint32Array.of(checkedId);
    const deadline = this.#deadline();
    const held = await this.#readRecords('remove', ids, deadline);
    if (held.found[0] === 0) return false;
    // An unreadable record is deleted whatever it holds; its members, unknown, stay as strays
    // (no record accounts for them) until `repair()`.
    const unreadable = held.found[0] === 2;
    await this.#step('remove', deadline, () => this.#records(DELETE_RECORDS, ids, deadline, Uint32Array.of(held.low[0]!, held.high[0]!), unreadable));
    if (!unreadable) await this.#members('remove', REMOVE_MEMBERS, ids, Uint32Array.of(held.low[0]!, held.high[0]!), deadline);
    return true;
  }

  /**
   * Whether `id` is present.
   *
   * @throws {RedisIndexError} of kind `'corrupt'` when its record is unreadable.
   */
  async has(id: number): Promise<boolean> {
    this.#checkOpen();
    const checkedId = checkId(id);
    const records = await this.#readRecords('has', Uint32Array.of(checkedId), this.#deadline());
    this.#checkReadable('has', records, Uint32Array.of(checkedId));
    return records.found[0] === 1;
  }

  /**
   * Number of ids.
   *
   * @throws {RedisIndexError} of kind `'corrupt'` when an entry counter is not a count.
   */
  async size(): Promise<number> {
    this.#checkOpen();
    const geometry = this.#geometry;
    const deadline = this.#deadline();
    try {
      const counts = await Promise.all(
        Array.from({ length: geometry.description.groups }, async (_, g) => {
          const key = geometry.counterKey(g);
          const count = await send(this.#client, deadline, () => this.#client.get(key));
          if (count !== null && !COUNT_RULE.test(count)) throw new CorruptKey(key, `holds '${count.slice(0, 40)}', not an entry count`);
          return Number(count ?? 0);
        }),
      );
      return counts.reduce((sum, count) => sum + count, 0);
    } catch (error) {
      throw indexError('size', error, false);
    }
  }

  /**
   * The ids within `options.distance` of `fingerprint`, sorted by (distance, id). Queries made
   * while others wait for Redis go out together, as one {@link RedisSimHashIndex.queryMany}
   * (each gets its own answer; a failure of the batch rejects each of them).
   *
   * @throws {RedisIndexError} of kind `'corrupt'` naming a key it read that the index did not
   * write so (never an answer that key would have changed).
   */
  async query(fingerprint: bigint, options?: QueryOptions): Promise<QueryResult> {
    this.#checkOpen();
    const value = checkU64(fingerprint, 'fingerprint');
    const { distance, limit } = checkQueryOptions(options, this.distance);
    return this.#batcher.query(value, distance, limit);
  }

  /**
   * {@link RedisSimHashIndex.query} for every fingerprint of a batch, in a few round trips (each
   * round with its own time limit).
   */
  async queryMany(fingerprints: U64Input, options?: QueryOptions): Promise<QueryManyResult> {
    this.#checkOpen();
    const values = toU64Array(fingerprints, 'fingerprints');
    const { distance, limit } = checkQueryOptions(options, this.distance);
    return this.#queryMany(values, distance, limit);
  }

  async #queryMany(values: BigUint64Array, distance: number, limit: number): Promise<QueryManyResult> {
    // A copy: the input may be a view of WebAssembly memory that grows while Redis answers.
    const split = halves(values);
    const chunk = this.#queryChunk;
    const rounds: Promise<{ ids: number[]; distances: number[] }[]>[] = [];
    // A few rounds in flight at once: the client prepares one while Redis answers another.
    const inFlight: Promise<unknown>[] = [];
    let failed = false;
    for (let start = 0; start < values.length && !failed; start += chunk) {
      if (inFlight.length === ROUNDS_IN_FLIGHT) await inFlight.shift();
      const round = this.#probe(split.subarray(2 * start, 2 * (start + chunk)), distance, limit, this.#deadline());
      rounds.push(round);
      // Once a round failed, the call has failed: no more rounds are sent.
      inFlight.push(round.catch(() => (failed = true)));
    }
    const perQuery = (await Promise.all(rounds)).flat();
    const total = perQuery.reduce((sum, found) => sum + found.ids.length, 0);
    const offsets = new Uint32Array(values.length + 1);
    const ids = new Uint32Array(total);
    const distances = new Uint8Array(total);
    let at = 0;
    perQuery.forEach((found, q) => {
      ids.set(found.ids, at);
      distances.set(found.distances, at);
      at += found.ids.length;
      offsets[q + 1] = at;
    });
    return { offsets, ids, distances };
  }

  /**
   * Checks every key of the index and puts right what it finds (scans every key, so run it when
   * load is low, and while no write is in flight: it may take a member a concurrent write has
   * just appended, before its record, for a stray, and it sets the entry counters from the
   * records). It never deletes a member that a readable record accounts for. In order:
   *
   * 1. record hashes: a key that is not a hash is deleted, its ids to be restored from their
   *    members; a field that is not an id of that hash is deleted; an id whose value is not a
   *    fingerprint is restored from its members;
   * 2. buckets: a key that is not whole 12-byte members is deleted, to be rebuilt from the
   *    records; members no record accounts for (what interrupted writes leave) and second
   *    copies (what retried writes leave) are removed;
   * 3. ids of unreadable records get back the fingerprint their members agree on (an id whose
   *    members disagree, or that has none, is removed and listed in `lost`); deleted buckets are
   *    rebuilt from every record; entry counters that disagree with the records are set anew.
   *
   * @returns what it did.
   */
  async repair(): Promise<RepairReport> {
    this.#checkOpen();
    try {
      return await new Repair(this.#repairAccess()).run();
    } catch (error) {
      throw indexError('repair', error, true);
    }
  }

  /** Forgets the client (which the caller closes); further calls throw a `TypeError`. Idempotent. */
  close(): void {
    this.#closed = true;
  }

  /** What {@link Repair} needs of the index. */
  #repairAccess(): RepairAccess {
    return {
      client: this.#client,
      geometry: this.#geometry,
      deadline: () => this.#deadline(),
      readRecords: (ids, deadline) => this.#records(GET_RECORDS, ids, deadline),
      removeMembers: (node, key, members, deadline) => {
        const count = Buffer.alloc(4);
        count.writeUInt32BE(members.length);
        return send(this.#client, deadline, () => REMOVE_MEMBERS.run(node, [key], [members, count])).then(Number);
      },
      addMembers: (ids, values, deadline) => this.#members('repair', ADD_MISSING_MEMBERS, ids, values, deadline),
    };
  }

  async #probe(values: Uint32Array, distance: number, limit: number, deadline: Deadline): Promise<{ ids: number[]; distances: number[] }[]> {
    const geometry = this.#geometry;
    const tables = geometry.tables;
    const count = values.length / 2;
    const calls = new GroupedCalls(0, (key) => geometry.bucketKeyOf(key));
    for (let q = 0; q < count; q++) {
      for (let t = 0; t < tables.length; t++) {
        const { bucketBits, radius } = tables[t]!;
        geometry.permute(values[2 * q + 1]!, values[2 * q]!, t);
        const tag = q * tables.length + t;
        forEachInBall(geometry.bucket(geometry.high, t), bucketBits, radius, (b) => calls.push(geometry.bucketGroup(t, b), geometry.bucketId(t, b), tag, 0));
      }
    }
    const replies = await this.#step('query', deadline, () => calls.run((keys) => this.#readBuckets(keys, deadline)));

    // Candidates within the distance by the fingerprint their member holds, compared with the
    // query permuted alike (a permutation leaves Hamming distances as they are).
    const candidates: Set<number>[] = Array.from({ length: count }, () => new Set());
    for (const { reply, tags, keyStarts } of replies) {
      (reply as (Buffer | null)[]).forEach((bucket, k) => {
        if (bucket === null) return;
        // A DataView reads big-endian words without Buffer's per-call argument checks.
        const view = new DataView(bucket.buffer, bucket.byteOffset, bucket.length);
        const end = bucket.length - 11;
        for (let m = keyStarts[k]!; m < keyStarts[k + 1]!; m++) {
          const tag = tags[m]!;
          const q = Math.floor(tag / tables.length);
          geometry.permute(values[2 * q + 1]!, values[2 * q]!, tag - q * tables.length);
          const { high, low } = geometry;
          const found = candidates[q]!;
          for (let at = 0; at < end; at += 12) {
            // Most members are far: the high half alone usually rules them out.
            const bits = popcount32(view.getUint32(at) ^ high);
            if (bits <= distance && bits + popcount32(view.getUint32(at + 4) ^ low) <= distance) {
              found.add(view.getUint32(at + 8));
            }
          }
        }
      });
    }

    // Only what the records hold counts: a member left by an interrupted write is not an answer.
    const asked: number[] = [];
    for (const found of candidates) for (const id of found) asked.push(id);
    const askedIds = Uint32Array.from(asked);
    const records = asked.length === 0 ? undefined : await this.#readRecords('query', askedIds, deadline);
    if (records !== undefined) this.#checkReadable('query', records, askedIds);
    let at = 0;
    return candidates.map((found, q) => {
      const hits: [number, number][] = [];
      const high = values[2 * q + 1]!;
      const low = values[2 * q]!;
      for (const id of found) {
        const k = at++;
        if (records === undefined || records.found[k] !== 1) continue;
        const bits = popcount32(records.high[k]! ^ high) + popcount32(records.low[k]! ^ low);
        if (bits <= distance) hits.push([bits, id]);
      }
      hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const kept = hits.slice(0, limit);
      return { ids: kept.map((hit) => hit[1]), distances: kept.map((hit) => hit[0]) };
    });
  }

  /**
   * The buckets `keys` (of one slot) hold, each checked to be whole 12-byte members. MGET says
   * nothing of a key of another type (it answers nil, as for no key): when some key answered
   * nil, an EXISTS over those alone says whether any is there after all, and then their types
   * are read (a concurrent write may also have made a bucket meanwhile). Buckets at the
   * index's capacity are rarely empty, so this second round is rare; below capacity it costs a
   * round trip, where an EXISTS of every key in the first round cost a tenth of the client's
   * time at distance 10.
   */
  #readBuckets(keys: string[], deadline: Deadline): Promise<(Buffer | null)[]> {
    const client = this.#client;
    return send(client, deadline, () => client.mgetBuffer(keys)).then((buckets) => {
      const absent: string[] = [];
      buckets.forEach((bucket, k) => {
        if (bucket === null) absent.push(keys[k]!);
        else if (bucket.length % 12 !== 0) throw new CorruptKey(keys[k]!, `holds ${bucket.length} bytes, not whole 12-byte members`);
      });
      return absent.length === 0 ? buckets : this.#checkAbsent(absent, deadline).then(() => buckets);
    });
  }

  /** Fails, naming it, if one of the keys MGET answered nil for is there after all with another type. */
  async #checkAbsent(absent: string[], deadline: Deadline): Promise<void> {
    const client = this.#client;
    if ((await send(client, deadline, () => client.exists(absent))) === 0) return;
    const types = await Promise.all(absent.map((key) => send(client, deadline, () => client.type(key))));
    types.forEach((type, k) => {
      if (type !== 'none' && type !== 'string') throw new CorruptKey(absent[k]!, `is a ${type}, not a string of members`);
    });
  }

  /** Adds members for the new fingerprints, sets the records, then removes replaced members. */
  async #write(operation: string, ids: Uint32Array, values: Uint32Array, deadline: Deadline): Promise<void> {
    // The members of a fingerprint new to its id are appended without looking for them in the
    // bucket (reading every bucket first cost Redis three times as much). An entry whose record
    // already holds the same fingerprint normally has its members: only those missing are
    // added, so writing an entry again never duplicates them and always completes them. An
    // unreadable record counts as none: writing the entry restores it.
    const held = await this.#readRecords(operation, ids, deadline);
    const fresh: number[] = [];
    const again: number[] = [];
    ids.forEach((_, k) => {
      const same = held.found[k] === 1 && held.high[k] === values[2 * k + 1] && held.low[k] === values[2 * k];
      (same ? again : fresh).push(k);
    });
    await Promise.all([
      fresh.length > 0 ? this.#members(operation, ADD_MEMBERS, ...select(fresh, ids, values), deadline) : undefined,
      again.length > 0 ? this.#members(operation, ADD_MISSING_MEMBERS, ...select(again, ids, values), deadline) : undefined,
    ]);
    await this.#step(operation, deadline, () => this.#records(SET_RECORDS, ids, deadline, values));
    // What the records held before this write, read at its start: with one writer per id at a
    // time, nothing changed them since.
    const replacedIds: number[] = [];
    const replacedValues: number[] = [];
    ids.forEach((id, k) => {
      if (held.found[k] === 1 && (held.high[k] !== values[2 * k + 1] || held.low[k] !== values[2 * k])) {
        replacedIds.push(id);
        replacedValues.push(held.low[k]!, held.high[k]!);
      }
    });
    if (replacedIds.length > 0) {
      await this.#members(operation, REMOVE_MEMBERS, Uint32Array.from(replacedIds), Uint32Array.from(replacedValues), deadline);
    }
  }

  /** Adds or removes the table members of `(ids[k], values[k])` (values as low, high halves). */
  async #members(operation: string, script: Script, ids: Uint32Array, values: Uint32Array, deadline: Deadline): Promise<void> {
    const geometry = this.#geometry;
    const tables = geometry.tables.length;
    const calls = new GroupedCalls(3, (key) => geometry.bucketKeyOf(key));
    for (let k = 0; k < ids.length; k++) {
      for (let t = 0; t < tables; t++) {
        geometry.permute(values[2 * k + 1]!, values[2 * k]!, t);
        const b = geometry.bucket(geometry.high, t);
        calls.push(geometry.bucketGroup(t, b), geometry.bucketId(t, b), k, geometry.high, geometry.low, ids[k]!);
      }
    }
    await this.#step(operation, deadline, () => calls.run((keys, args) => send(this.#client, deadline, () => script.run(this.#client, keys, args))));
  }

  /**
   * Runs a record script over `ids`: GET_RECORDS returns what each id's record holds;
   * SET_RECORDS sets `values` (low, high halves); DELETE_RECORDS deletes each record still
   * holding `values` (any value, when `whatever`). Only GET_RECORDS's answer means anything.
   */
  async #records(script: Script, ids: Uint32Array, deadline: Deadline, values?: Uint32Array, whatever = false): Promise<RecordValues> {
    const geometry = this.#geometry;
    const width = script === GET_RECORDS ? 1 : script === SET_RECORDS ? 3 : 4;
    const calls = new GroupedCalls(width, (key) => geometry.recordKey(key, geometry.recordGroup(key)));
    for (let k = 0; k < ids.length; k++) {
      const r = geometry.record(ids[k]!);
      calls.push(geometry.recordGroup(r), r, k, ids[k]!, values?.[2 * k + 1] ?? 0, values?.[2 * k] ?? 0, whatever ? 1 : 0);
    }
    const counted = script !== GET_RECORDS;
    const replies = await calls.run((keys, args, group) =>
      send(this.#client, deadline, () => script.run(this.#client, counted ? [...keys, geometry.counterKey(group)] : keys, args)),
    );
    const out: RecordValues = { found: new Uint8Array(ids.length), high: new Uint32Array(ids.length), low: new Uint32Array(ids.length) };
    if (script !== GET_RECORDS) return out;
    for (const { reply, tags } of replies) {
      if (!Buffer.isBuffer(reply) || reply.length !== 9 * tags.length) throw new Error(`GET_RECORDS answered ${describe(reply)} for ${tags.length} ids`);
      const bytes = reply;
      tags.forEach((k, m) => {
        out.found[k] = bytes[9 * m]!;
        out.high[k] = bytes.readUInt32BE(9 * m + 1);
        out.low[k] = bytes.readUInt32BE(9 * m + 5);
      });
    }
    return out;
  }

  /** What each id's record holds (found 2: unreadable). */
  async #readRecords(operation: string, ids: Uint32Array, deadline: Deadline): Promise<RecordValues> {
    try {
      return await this.#records(GET_RECORDS, ids, deadline);
    } catch (error) {
      throw indexError(operation, error, false);
    }
  }

  /** Fails, naming the key and id, when a record read for an answer is unreadable. */
  #checkReadable(operation: string, records: RecordValues, ids: Uint32Array): void {
    const k = records.found.indexOf(2);
    if (k < 0) return;
    const geometry = this.#geometry;
    const r = geometry.record(ids[k]!);
    const key = geometry.recordKey(r, geometry.recordGroup(r));
    throw indexError(operation, new CorruptKey(key, `holds for id ${ids[k]} a value that is not an 8-byte fingerprint`), false);
  }

  /**
   * Runs one step of an operation; a write step then waits for the replicas. Any failure
   * becomes a {@link RedisIndexError}, marked partial for writes.
   */
  async #step<T>(operation: string, deadline: Deadline, step: () => Promise<T>): Promise<T> {
    const write = operation !== 'query';
    let result: T;
    try {
      const before = write && this.#replicas > 0 ? connectionsBefore(this.#client) : undefined;
      result = await step();
      if (before !== undefined) await waitForReplicas(this.#client, this.#replicas, this.#replicaTimeout, deadline, before);
    } catch (error) {
      throw indexError(operation, error, write);
    }
    return result;
  }

  #deadline(): Deadline {
    return new Deadline(this.#timeout);
  }

  #checkOpen(): void {
    if (this.#closed) throw new TypeError(`index '${this.name}' has been closed`);
  }
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** The ids and values (low, high halves) at positions `picked`; the arrays themselves when all are. */
function select(picked: readonly number[], ids: Uint32Array, values: Uint32Array): [Uint32Array, Uint32Array] {
  if (picked.length === ids.length) return [ids, values];
  return [Uint32Array.from(picked, (k) => ids[k]!), Uint32Array.from(picked.flatMap((k) => [values[2 * k]!, values[2 * k + 1]!]))];
}

/** A copy of `values` as 32-bit halves, low then high for each value. */
function halves(values: BigUint64Array): Uint32Array {
  if (LITTLE_ENDIAN) return new Uint32Array(values.buffer, values.byteOffset, 2 * values.length).slice();
  const out = new Uint32Array(2 * values.length);
  values.forEach((value, k) => {
    out[2 * k] = Number(value & 0xffff_ffffn);
    out[2 * k + 1] = Number(value >> 32n);
  });
  return out;
}

/** The stored description for a new index of `distance`, with the given layout or a chosen one. */
function describeNew(distance: number, blocks: number | undefined, parts: number | undefined, capacity: number, tags: readonly number[]): Description {
  const base = {
    distance,
    blocks: blocks ?? 0,
    parts: parts ?? 0,
    capacity,
    bucketBits: bucketBitsFor(capacity, MEMBERS_PER_BUCKET),
    recordBits: Math.max(6, Math.min(24, Math.ceil(Math.log2(capacity / IDS_PER_RECORD)))),
    groups: tags.length,
    tags,
  };
  if (parts !== undefined) return { ...base, bucketBits: chooseLayout(base, [parts]).bucketBits };
  return blocks === undefined ? chooseLayout(base, Array.from({ length: Math.min(64, distance + 1) }, (_, k) => k + 1)) : base;
}

/** Bucket bits that leave about `members` members per bucket at `capacity` (at most 26). */
function bucketBitsFor(capacity: number, members: number): number {
  return Math.max(0, Math.min(26, Math.ceil(Math.log2(capacity / members))));
}

/**
 * Buckets a query reads and candidates it brings back, expected, at the index's capacity, and
 * the tables an entry has a member in. A permuted table reads one bucket, a part the ball of
 * buckets around the query's.
 */
function queryCost(description: Description): { buckets: number; candidates: number; tables: number } {
  const { distance, blocks, parts, bucketBits, capacity } = description;
  if (parts > 0) {
    const shapes = partShapes(parts, distance, bucketBits);
    const candidates = shapes.reduce((sum, s) => sum + (capacity * ballVolume(s.bucketBits, s.radius)) / 2 ** s.bucketBits, 0);
    return { buckets: bucketsPerQuery(shapes), candidates, tables: shapes.length };
  }
  if (blocks === 0) return { buckets: 1, candidates: capacity, tables: 1 };
  const prefixes = permutationLayout(blocks, distance).tables.map((t) => Math.min(t.prefixBits, bucketBits));
  return { buckets: prefixes.length, candidates: prefixes.reduce((sum, bits) => sum + capacity / 2 ** bits, 0), tables: prefixes.length };
}

/**
 * The layout for a new index (`base` says the distance and capacity): permuted tables of any
 * blocks, or one of `partCounts` part layouts whose buckets hold at most 16 to 64 members. In Redis a
 * bucket read costs about as much as 64 candidates (12 bytes on the wire and a popcount each)
 * and about as much as writing a member, of which an entry has one per table. For a service
 * that adds about as often as it queries, the layout with the fewest buckets read per query
 * plus candidates / 64 plus tables wins, permuted tables on a tie. At small distances that is
 * a few tables; at large ones a few parts, whose queries read balls of buckets but whose
 * entries cost a member per part instead of one per table (at distance 10: 5 instead of 66).
 */
function chooseLayout(base: Description, partCounts: readonly number[]): Description {
  const { distance, capacity } = base;
  if (distance === 64) return base;
  let best = base;
  let bestCost = Number.POSITIVE_INFINITY;
  const consider = (layout: Description): void => {
    const { buckets, candidates, tables } = queryCost(layout);
    const cost = buckets + candidates / 64 + tables;
    if (buckets <= MAX_BUCKETS && cost < bestCost) {
      best = layout;
      bestCost = cost;
    }
  };
  if (base.parts === 0) {
    for (let blocks = distance + 1; blocks <= 64 && binomial(blocks, distance) <= MAX_TABLES; blocks++) consider({ ...base, blocks });
  }
  const fewest = bucketBitsFor(capacity, 64);
  const most = bucketBitsFor(capacity, MEMBERS_PER_BUCKET);
  for (const parts of partCounts) {
    for (let bucketBits = fewest; bucketBits <= most; bucketBits++) consider({ ...base, blocks: 0, parts, bucketBits });
  }
  return best;
}

function parseDescription(reply: unknown, name: string): Description | undefined {
  if (!Array.isArray(reply) || reply.length === 0) return undefined;
  const fields = new Map<string, string>();
  for (let k = 0; k + 1 < reply.length; k += 2) fields.set(String(reply[k]), String(reply[k + 1]));
  // A description written by something else must not make the geometry divide by zero or
  // build millions of tables.
  const invalid = (field: string): never => {
    throw indexError('RedisSimHashIndex.open', new CorruptKey(descriptionKey(name), `has no valid ${field}`), false);
  };
  const read = (field: string, min: number, max: number): number => {
    const value = Number(fields.get(field));
    return Number.isInteger(value) && value >= min && value <= max ? value : invalid(field);
  };
  const distance = read('distance', 0, 64);
  const blocks = read('blocks', 0, 64);
  const parts = read('parts', 0, 64);
  if (blocks !== 0 && (parts !== 0 || blocks <= distance || binomial(blocks, distance) > MAX_TABLES)) invalid('blocks');
  const groups = read('groups', 1, 1024);
  const tags = (fields.get('tags') ?? '').split(',').map(Number);
  if (tags.length !== groups || new Set(tags).size !== groups || !tags.every((t) => Number.isInteger(t) && t >= 0 && t < 2 ** 31)) invalid('tags');
  const bucketBits = read('bucketBits', 0, 26);
  if (parts > 0 && bucketsPerQuery(partShapes(parts, distance, bucketBits)) > MAX_BUCKETS) invalid('parts');
  return { distance, blocks, parts, capacity: read('capacity', 1, 2 ** 32), bucketBits, recordBits: read('recordBits', 6, 24), groups, tags };
}

/**
 * The hash tags of a new index: one on a single server; on a cluster, 4 per master (at least 8)
 * whose slots the masters own in equal shares.
 */
async function chooseTags(client: Redis | Cluster, name: string, deadline: Deadline): Promise<number[]> {
  if (!isCluster(client)) return [0];
  try {
    // The slot table is known once a first command has been answered.
    await send(client, deadline, () => client.ping());
  } catch (error) {
    throw indexError('RedisSimHashIndex.open', error, false);
  }
  const groups = Math.max(MIN_CLUSTER_GROUPS, GROUPS_PER_MASTER * client.nodes('master').length);
  return balancedTags(name, groups, (slot) => client.slots[slot]?.[0]);
}
