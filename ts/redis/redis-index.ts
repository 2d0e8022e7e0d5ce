/** `SimHashIndex` kept in Redis (one server or a cluster), shared by every process that opens it. */

import type { Cluster, Redis } from 'ioredis';
import { checkId, checkIds, checkQueryOptions, checkSameLength } from '../shared/index-args.js';
import { binomial, planTables } from '../shared/plan.js';
import type { QueryManyResult, QueryOptions, QueryResult, U64Input } from '../shared/types.js';
import { toU64Array } from '../shared/u64-input.js';
import { checkBlocks, checkDistance, checkOptions, checkU64, describe } from '../shared/validate.js';
import { type Description, Geometry, descriptionKey, popcount32 } from './geometry.js';
import { RedisIndexError } from './errors.js';
import { ADD_MEMBERS, DELETE_RECORDS, DESCRIBE, GET_RECORDS, PROBE, REMOVE_MEMBERS, SET_RECORDS, type Script } from './scripts.js';
import { GroupedCalls } from './grouped-calls.js';
import { QueryBatcher } from './query-batcher.js';
import { waitForReplicas } from './replicas.js';

/** Options of {@link RedisSimHashIndex.open}. */
export interface RedisSimHashIndexOptions {
  /** An ioredis `Redis` (one server) or `Cluster` client. The index never closes it. */
  client: Redis | Cluster;
  /**
   * Name of the index: 1 to 100 characters, none of them `{`, `}` or a space. Every key starts
   * with `simhash:{name/`, so indexes of different names share a server or cluster.
   */
  name: string;
  /**
   * Largest distance queries may ask for, `0..=64`. Required when the index is created; when it
   * exists already, it must be left out or equal the stored one.
   */
  distance?: number;
  /**
   * Blocks of the permuted tables (`distance < blocks <= 64`, at most 128 tables), fixed at
   * creation; needs `distance`. Default: chosen for `capacity` (see the README).
   */
  blocks?: number;
  /**
   * Number of entries the index is sized for: it fixes the number of bucket keys (about 128
   * members each at this size). Any size works; past about twice it, buckets grow beyond
   * Redis's compact encoding and take more memory. Default 1,000,000.
   */
  capacity?: number;
  /**
   * Number of replicas each master must confirm (Redis `WAIT`) before a write step counts as
   * done; a write that is not confirmed in time fails with a {@link RedisIndexError}. Default 0.
   */
  replicas?: number;
  /** Milliseconds `WAIT` may take. Default 2000. */
  replicaTimeout?: number;
}

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
/** Members a bucket should hold at `capacity`: within Redis's default compact-encoding limit. */
const MEMBERS_PER_BUCKET = 64;
/** Ids a record hash should hold at `capacity`. */
const IDS_PER_RECORD = 64;
/** Largest table count considered when choosing blocks: each table costs a write per entry. */
const MAX_TABLES = 128;
/** Entries written per round of script calls, so a huge `addMany` never builds one huge reply. */
const WRITE_CHUNK = 16384;
/** Most queries probed per round of script calls. */
const QUERY_CHUNK = 4096;
/**
 * Table members one round of query calls should bring back at most, expected: bounds the reply
 * sizes and how long one script holds a server (large distances have many candidates).
 */
const MEMBERS_PER_ROUND = 1 << 18;
const NAME_RULE = /^[^{}\s]{1,100}$/;

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
  /** Blocks of the permuted tables; 0 when every entry is compared. */
  readonly blocks: number;
  /** The index name. */
  readonly name: string;
  readonly #client: Redis | Cluster;
  readonly #geometry: Geometry;
  readonly #replicas: number;
  readonly #replicaTimeout: number;
  /** Queries per round of calls, from the expected candidates per query at the sized capacity. */
  readonly #queryChunk: number;
  readonly #batcher = new QueryBatcher((values, distance, limit) => this.#queryMany(values, distance, limit));
  #closed = false;

  private constructor(name: string, client: Redis | Cluster, description: Description, replicas: number, replicaTimeout: number) {
    this.name = name;
    this.#client = client;
    this.#geometry = new Geometry(name, description);
    this.distance = description.distance;
    this.blocks = description.blocks;
    this.#replicas = replicas;
    this.#replicaTimeout = replicaTimeout;
    const sized = MEMBERS_PER_BUCKET * 2 ** description.bucketBits;
    const expected = description.blocks === 0 ? sized : planTables({ n: sized, distance: description.distance, blocks: description.blocks }).candidatesPerQuery;
    this.#queryChunk = Math.max(1, Math.min(QUERY_CHUNK, Math.floor(MEMBERS_PER_ROUND / Math.max(1, expected))));
  }

  /**
   * Opens index `options.name`, creating it when it does not exist.
   *
   * @throws {TypeError | RangeError} for invalid options, or options that contradict the
   * stored description of an existing index.
   * @throws {RedisIndexError} when Redis cannot be reached.
   */
  static async open(options: RedisSimHashIndexOptions): Promise<RedisSimHashIndex> {
    const opts = checkOptions(options);
    const client = checkClient(opts.client);
    const name = checkName(opts.name);
    const replicas = optionalInteger(opts.replicas, 'replicas', 0, 16, 0);
    const replicaTimeout = optionalInteger(opts.replicaTimeout, 'replicaTimeout', 1, 3_600_000, 2000);
    const capacity = optionalInteger(opts.capacity, 'capacity', 1, 2 ** 32, 1_000_000);
    const distance = opts.distance === undefined ? undefined : checkDistance(opts.distance);
    if (opts.blocks !== undefined && distance === undefined) throw new TypeError('blocks needs distance: both describe a new index');
    const blocks = opts.blocks === undefined || distance === undefined ? undefined : checkBlocks(opts.blocks, distance);
    if (blocks !== undefined && distance !== undefined && binomial(blocks, distance) > MAX_TABLES) {
      // Each table costs a member per entry in Redis.
      throw new RangeError(`blocks ${blocks} at distance ${distance} makes ${binomial(blocks, distance)} tables; at most ${MAX_TABLES} are allowed`);
    }

    const groups = isCluster(client) ? Math.max(MIN_CLUSTER_GROUPS, GROUPS_PER_MASTER * client.nodes('master').length) : 1;
    const wanted = distance === undefined ? undefined : describeNew(distance, blocks, capacity, groups);
    const fields = wanted === undefined ? [] : Object.entries(wanted).flatMap(([key, value]) => [key, String(value)]);
    let reply: unknown;
    try {
      // Without a distance, only read: an empty field list makes the script create nothing.
      reply = await DESCRIBE.run(client, [descriptionKey(name)], fields.map((field) => Buffer.from(field)));
    } catch (error) {
      throw new RedisIndexError('RedisSimHashIndex.open', error, false);
    }
    const stored = parseDescription(reply, name);
    if (stored === undefined) {
      throw new RangeError(`index '${name}' does not exist: give options.distance to create it`);
    }
    if (distance !== undefined && distance !== stored.distance) {
      throw new RangeError(`index '${name}' was created with distance ${stored.distance}, not ${distance}`);
    }
    if (blocks !== undefined && blocks !== stored.blocks) {
      throw new RangeError(`index '${name}' was created with blocks ${stored.blocks}, not ${blocks}`);
    }
    return new RedisSimHashIndex(name, client, stored, replicas, replicaTimeout);
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
    await this.#write('add', Uint32Array.of(checkedId), halves(BigUint64Array.of(value)));
  }

  /**
   * Adds `ids[k]` with `fingerprints[k]` for every k (a later duplicate id wins). Not atomic:
   * when it fails (a {@link RedisIndexError}), some entries may be stored and others not, and
   * calling it again with the same arguments is safe and completes it.
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
      await this.#write('addMany', unique.subarray(start, start + chunk), uniqueValues.subarray(2 * start, 2 * (start + chunk)));
    }
  }

  /** Removes `id`; `true` if it was present. */
  async remove(id: number): Promise<boolean> {
    this.#checkOpen();
    const checkedId = checkId(id);
    const ids = Uint32Array.of(checkedId);
    const old = await this.#step('remove', () => this.#records(DELETE_RECORDS, ids));
    if (old.found[0] === 0) return false;
    await this.#members('remove', REMOVE_MEMBERS, ids, Uint32Array.of(old.low[0]!, old.high[0]!));
    return true;
  }

  /** Whether `id` is present. */
  async has(id: number): Promise<boolean> {
    this.#checkOpen();
    const checkedId = checkId(id);
    const records = await this.#readRecords('has', Uint32Array.of(checkedId));
    return records.found[0] === 1;
  }

  /** Number of ids. */
  async size(): Promise<number> {
    this.#checkOpen();
    const geometry = this.#geometry;
    try {
      const counts = await Promise.all(
        Array.from({ length: geometry.description.groups }, (_, g) => this.#client.get(geometry.counterKey(g))),
      );
      return counts.reduce((sum, count) => sum + Number(count ?? 0), 0);
    } catch (error) {
      throw new RedisIndexError('size', error, false);
    }
  }

  /**
   * The ids within `options.distance` of `fingerprint`, sorted by (distance, id). Queries made
   * while others wait for Redis go out together, as one {@link RedisSimHashIndex.queryMany}
   * (each gets its own answer; a failure of the batch rejects each of them).
   */
  async query(fingerprint: bigint, options?: QueryOptions): Promise<QueryResult> {
    this.#checkOpen();
    const value = checkU64(fingerprint, 'fingerprint');
    const { distance, limit } = checkQueryOptions(options, this.distance);
    return this.#batcher.query(value, distance, limit);
  }

  /** {@link RedisSimHashIndex.query} for every fingerprint of a batch, in a few round trips. */
  async queryMany(fingerprints: U64Input, options?: QueryOptions): Promise<QueryManyResult> {
    this.#checkOpen();
    const values = toU64Array(fingerprints, 'fingerprints');
    const { distance, limit } = checkQueryOptions(options, this.distance);
    return this.#queryMany(values, distance, limit);
  }

  async #queryMany(values: BigUint64Array, distance: number, limit: number): Promise<QueryManyResult> {
    // A copy: the input may be a view of WebAssembly memory that grows while Redis answers.
    const split = halves(values);
    const perQuery: { ids: number[]; distances: number[] }[] = [];
    const chunk = this.#queryChunk;
    for (let start = 0; start < values.length; start += chunk) {
      perQuery.push(...(await this.#probe(split.subarray(2 * start, 2 * (start + chunk)), distance, limit)));
    }
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
   * Removes table members no record accounts for: what writes interrupted by a crash or a lost
   * connection can leave behind. Queries are exact without it (strays are filtered out); it
   * frees their memory. Scans every key of the index, so run it when load is low. Returns the
   * number of members removed.
   */
  async repair(): Promise<number> {
    this.#checkOpen();
    const geometry = this.#geometry;
    let removed = 0;
    for (const node of scanNodes(this.#client)) {
      let cursor = '0';
      do {
        let keys: string[];
        try {
          [cursor, keys] = await node.scan(cursor, 'MATCH', geometry.keyPattern, 'COUNT', 1000);
        } catch (error) {
          throw new RedisIndexError('repair', error, true);
        }
        for (const key of keys.filter((k) => /:t\d+:\d+$/.test(k))) removed += await this.#repairBucket(key);
      } while (cursor !== '0');
    }
    return removed;
  }

  /** Forgets the client (which the caller closes); further calls throw a `TypeError`. Idempotent. */
  close(): void {
    this.#closed = true;
  }

  async #repairBucket(key: string): Promise<number> {
    let members: Buffer[];
    try {
      members = await this.#client.zrangeBuffer(key, 0, -1);
    } catch (error) {
      throw new RedisIndexError('repair', error, true);
    }
    if (members.length === 0) return 0;
    const table = Number(/:t(\d+):\d+$/.exec(key)![1]);
    const records = await this.#readRecords('repair', Uint32Array.from(members, (member) => member.readUInt32BE(8)));
    const geometry = this.#geometry;
    const stray = members.filter((member, k) => {
      if (records.found[k] === 0) return true;
      geometry.permute(records.high[k]!, records.low[k]!, table);
      return geometry.high !== member.readUInt32BE(0) || geometry.low !== member.readUInt32BE(4);
    });
    if (stray.length > 0) {
      try {
        await this.#client.zrem(key, ...stray);
      } catch (error) {
        throw new RedisIndexError('repair', error, true);
      }
    }
    return stray.length;
  }

  async #probe(values: Uint32Array, distance: number, limit: number): Promise<{ ids: number[]; distances: number[] }[]> {
    const geometry = this.#geometry;
    const tables = geometry.tables;
    const count = values.length / 2;
    const calls = new GroupedCalls(4, (key) => geometry.bucketKeyOf(key));
    for (let q = 0; q < count; q++) {
      for (let t = 0; t < tables.length; t++) {
        const { maskHigh, maskLow } = tables[t]!;
        geometry.permute(values[2 * q + 1]!, values[2 * q]!, t);
        const high = geometry.high & maskHigh;
        const low = geometry.low & maskLow;
        const b = geometry.bucket(high, t);
        calls.push(geometry.bucketGroup(t, b), geometry.bucketId(t, b), q * tables.length + t, high >>> 0, low >>> 0, (high | ~maskHigh) >>> 0, (low | ~maskLow) >>> 0);
      }
    }
    const replies = await this.#step('query', () => calls.run((keys, args) => PROBE.run(this.#client, keys, args)));

    // Candidates within the distance by the fingerprint their member holds, compared with the
    // query permuted alike (a permutation leaves Hamming distances as they are).
    const candidates: Set<number>[] = Array.from({ length: count }, () => new Set());
    for (const { reply, tags } of replies) {
      (reply as Buffer[]).forEach((members, k) => {
        if (members.length === 0) return;
        const q = Math.floor(tags[k]! / tables.length);
        geometry.permute(values[2 * q + 1]!, values[2 * q]!, tags[k]! - q * tables.length);
        const { high, low } = geometry;
        for (let at = 0; at < members.length; at += 12) {
          if (popcount32(members.readUInt32BE(at) ^ high) + popcount32(members.readUInt32BE(at + 4) ^ low) <= distance) {
            candidates[q]!.add(members.readUInt32BE(at + 8));
          }
        }
      });
    }

    // Only what the records hold counts: a member left by an interrupted write is not an answer.
    const asked: number[] = [];
    for (const found of candidates) for (const id of found) asked.push(id);
    const records = asked.length === 0 ? undefined : await this.#readRecords('query', Uint32Array.from(asked));
    let at = 0;
    return candidates.map((found, q) => {
      const hits: [number, number][] = [];
      const high = values[2 * q + 1]!;
      const low = values[2 * q]!;
      for (const id of found) {
        const k = at++;
        if (records === undefined || records.found[k] === 0) continue;
        const bits = popcount32(records.high[k]! ^ high) + popcount32(records.low[k]! ^ low);
        if (bits <= distance) hits.push([bits, id]);
      }
      hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const kept = hits.slice(0, limit);
      return { ids: kept.map((hit) => hit[1]), distances: kept.map((hit) => hit[0]) };
    });
  }

  /** Adds members for the new fingerprints, sets the records, then removes replaced members. */
  async #write(operation: string, ids: Uint32Array, values: Uint32Array): Promise<void> {
    await this.#members(operation, ADD_MEMBERS, ids, values);
    const old = await this.#step(operation, () => this.#records(SET_RECORDS, ids, values));
    const replacedIds: number[] = [];
    const replacedValues: number[] = [];
    ids.forEach((id, k) => {
      if (old.found[k] === 1 && (old.high[k] !== values[2 * k + 1] || old.low[k] !== values[2 * k])) {
        replacedIds.push(id);
        replacedValues.push(old.low[k]!, old.high[k]!);
      }
    });
    if (replacedIds.length > 0) {
      await this.#members(operation, REMOVE_MEMBERS, Uint32Array.from(replacedIds), Uint32Array.from(replacedValues));
    }
  }

  /** Adds or removes the table members of `(ids[k], values[k])` (values as low, high halves). */
  async #members(operation: string, script: Script, ids: Uint32Array, values: Uint32Array): Promise<void> {
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
    await this.#step(operation, () => calls.run((keys, args) => script.run(this.#client, keys, args)));
  }

  /**
   * Runs a record script over `ids` (with `values`, as low/high halves, for SET_RECORDS) and
   * returns what each id's record held before.
   */
  async #records(script: Script, ids: Uint32Array, values?: Uint32Array): Promise<RecordValues> {
    const geometry = this.#geometry;
    const calls = new GroupedCalls(values === undefined ? 1 : 3, (key) => geometry.recordKey(key, geometry.recordGroup(key)));
    for (let k = 0; k < ids.length; k++) {
      const r = geometry.record(ids[k]!);
      if (values === undefined) calls.push(geometry.recordGroup(r), r, k, ids[k]!);
      else calls.push(geometry.recordGroup(r), r, k, ids[k]!, values[2 * k + 1]!, values[2 * k]!);
    }
    const counted = script !== GET_RECORDS;
    const replies = await calls.run((keys, args, group) => script.run(this.#client, counted ? [...keys, geometry.counterKey(group)] : keys, args));
    const out: RecordValues = { found: new Uint8Array(ids.length), high: new Uint32Array(ids.length), low: new Uint32Array(ids.length) };
    for (const { reply, tags } of replies) {
      const bytes = reply as Buffer;
      tags.forEach((k, m) => {
        out.found[k] = bytes[9 * m]!;
        out.high[k] = bytes.readUInt32BE(9 * m + 1);
        out.low[k] = bytes.readUInt32BE(9 * m + 5);
      });
    }
    return out;
  }

  /** What each id's record holds. */
  async #readRecords(operation: string, ids: Uint32Array): Promise<RecordValues> {
    try {
      return await this.#records(GET_RECORDS, ids);
    } catch (error) {
      throw new RedisIndexError(operation, error, false);
    }
  }

  /**
   * Runs one step of an operation; a write step then waits for the replicas. Any failure
   * becomes a {@link RedisIndexError}, marked partial for writes.
   */
  async #step<T>(operation: string, step: () => Promise<T>): Promise<T> {
    const write = operation !== 'query';
    let result: T;
    try {
      result = await step();
    } catch (error) {
      throw new RedisIndexError(operation, error, write);
    }
    if (write && this.#replicas > 0) await waitForReplicas(this.#client, this.#replicas, this.#replicaTimeout, operation);
    return result;
  }

  #checkOpen(): void {
    if (this.#closed) throw new TypeError(`index '${this.name}' has been closed`);
  }
}

/** Per id: whether a record was there (1) or not (0), and the fingerprint's halves. */
interface RecordValues {
  readonly found: Uint8Array;
  readonly high: Uint32Array;
  readonly low: Uint32Array;
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

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

/** The stored description for a new index of `distance`. */
function describeNew(distance: number, blocks: number | undefined, capacity: number, groups: number): Description {
  const chosen = blocks ?? chooseBlocks(capacity, distance);
  return {
    distance,
    blocks: chosen,
    bucketBits: Math.max(0, Math.ceil(Math.log2(capacity / MEMBERS_PER_BUCKET))),
    recordBits: Math.max(6, Math.min(24, Math.ceil(Math.log2(capacity / IDS_PER_RECORD)))),
    groups,
  };
}

/**
 * Blocks for an index of `capacity` entries: in Redis a table costs a member write per entry
 * and a range lookup per query, while a candidate costs only 12 bytes on the wire and a
 * popcount, so the fewest tables whose candidates per query stay near 64 win.
 */
function chooseBlocks(capacity: number, distance: number): number {
  if (distance === 64) return 0;
  let best = distance + 1;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let blocks = distance + 1; blocks <= 64 && binomial(blocks, distance) <= MAX_TABLES; blocks++) {
    const plan = planTables({ n: capacity, distance, blocks });
    const cost = plan.tables + plan.candidatesPerQuery / 64;
    if (cost < bestCost) {
      best = blocks;
      bestCost = cost;
    }
  }
  return best;
}

function parseDescription(reply: unknown, name: string): Description | undefined {
  if (!Array.isArray(reply) || reply.length === 0) return undefined;
  const fields = new Map<string, number>();
  for (let k = 0; k + 1 < reply.length; k += 2) fields.set(String(reply[k]), Number(String(reply[k + 1])));
  // A description written by something else must not make the geometry divide by zero or
  // build millions of tables.
  const read = (field: string, min: number, max: number): number => {
    const value = fields.get(field);
    if (value === undefined || !Number.isInteger(value) || value < min || value > max) {
      throw new RedisIndexError('RedisSimHashIndex.open', new Error(`the description of index '${name}' has no valid ${field}`), false);
    }
    return value;
  };
  const distance = read('distance', 0, 64);
  const blocks = read('blocks', 0, 64);
  if (blocks !== 0 && (blocks <= distance || binomial(blocks, distance) > MAX_TABLES)) read('blocks', -1, -1);
  return { distance, blocks, bucketBits: read('bucketBits', 0, 26), recordBits: read('recordBits', 6, 24), groups: read('groups', 1, 1024) };
}

/** The nodes to SCAN: every master of a cluster, or the one server. */
function scanNodes(client: Redis | Cluster): Redis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}

function isCluster(client: Redis | Cluster): client is Cluster {
  return 'nodes' in client && typeof client.nodes === 'function';
}

function checkClient(value: unknown): Redis | Cluster {
  if (typeof value !== 'object' || value === null || typeof (value as { evalsha?: unknown }).evalsha !== 'function') {
    throw new TypeError(`client must be an ioredis Redis or Cluster client, got ${describe(value)}`);
  }
  return value as Redis | Cluster;
}

function checkName(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`name must be a string, got ${describe(value)}`);
  if (!NAME_RULE.test(value)) throw new RangeError(`name must be 1 to 100 characters without braces or spaces, got '${value}'`);
  return value;
}

function optionalInteger(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer in ${min}..${max}, got ${value}`);
  return value;
}
