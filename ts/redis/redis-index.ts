/** `SimHashIndex` kept in Redis (one server or a cluster), shared by every process that opens it. */

import type { Cluster, Redis } from 'ioredis';
import { checkId, checkIds, checkQueryOptions, checkSameLength } from '../shared/index-args.js';
import { binomial, planTables } from '../shared/plan.js';
import type { QueryManyResult, QueryOptions, QueryResult, U64Input } from '../shared/types.js';
import { toU64Array } from '../shared/u64-input.js';
import { checkBlocks, checkDistance, checkOptions, checkU64, describe } from '../shared/validate.js';
import { hammingDistances } from '../wasm/distance.js';
import { init } from '../wasm/loader.js';
import { type Description, Geometry, descriptionKey } from './geometry.js';
import { RedisIndexError } from './errors.js';
import { ADD_MEMBERS, DELETE_RECORDS, DESCRIBE, GET_RECORDS, PROBE, REMOVE_MEMBERS, SET_RECORDS } from './scripts.js';
import { GroupedCalls } from './grouped-calls.js';
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
   * Blocks of the permuted tables (`distance < blocks <= 64`), fixed at creation. Default: the
   * fewest tables whose expected candidates per query at `capacity` stay small (see the README).
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

/** Hash tags keys spread over: enough that 3 to 16 masters each get several. */
const GROUPS = 64;
/** Members a bucket should hold at `capacity`: within Redis's default compact-encoding limit. */
const MEMBERS_PER_BUCKET = 64;
/** Ids a record hash should hold at `capacity`. */
const IDS_PER_RECORD = 64;
/** Largest table count considered when choosing blocks: each table costs a write per entry. */
const MAX_TABLES = 64;
/** Entries written per round of script calls, so a huge `addMany` never builds one huge reply. */
const WRITE_CHUNK = 16384;
/** Queries probed per round of script calls. */
const QUERY_CHUNK = 4096;
const NAME_RULE = /^[^{}\s]{1,100}$/;

/**
 * A `SimHashIndex` whose entries live in Redis: the same answers as the in-memory index holding
 * the same entries, for every distance up to the index's, from any process that opens it.
 *
 * Each entry is a record `id → fingerprint` plus one member per permuted table. A write first
 * adds table members, then sets the record, then removes members of a replaced fingerprint; a
 * query takes table members with the query's prefix, keeps those within the distance (checked
 * in WebAssembly) and then keeps only ids whose record still holds a fingerprint within the
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
  #closed = false;

  private constructor(name: string, client: Redis | Cluster, description: Description, replicas: number, replicaTimeout: number) {
    this.name = name;
    this.#client = client;
    this.#geometry = new Geometry(name, description);
    this.distance = description.distance;
    this.blocks = description.blocks;
    this.#replicas = replicas;
    this.#replicaTimeout = replicaTimeout;
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
    const blocks = opts.blocks === undefined ? undefined : checkBlocks(opts.blocks, distance ?? 64);
    await init();

    const wanted = distance === undefined ? undefined : describeNew(distance, blocks, capacity);
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
    await this.#write('add', new Uint32Array([checkedId]), new BigUint64Array([value]));
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
    const uniqueValues = BigUint64Array.from(last.values());
    for (let start = 0; start < unique.length; start += WRITE_CHUNK) {
      await this.#write('addMany', unique.subarray(start, start + WRITE_CHUNK), uniqueValues.subarray(start, start + WRITE_CHUNK));
    }
  }

  /** Removes `id`; `true` if it was present. */
  async remove(id: number): Promise<boolean> {
    this.#checkOpen();
    const checkedId = checkId(id);
    const old = await this.#run('remove', (calls) => this.#deleteRecords(calls, new Uint32Array([checkedId])));
    const previous = old[0];
    if (previous === undefined) return false;
    await this.#members('remove', REMOVE_MEMBERS, new Uint32Array([checkedId]), new BigUint64Array([previous]));
    return true;
  }

  /** Whether `id` is present. */
  async has(id: number): Promise<boolean> {
    this.#checkOpen();
    const checkedId = checkId(id);
    const found = await this.#readRecords('has', new Uint32Array([checkedId]));
    return found[0] !== undefined;
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

  /** The ids within `options.distance` of `fingerprint`, sorted by (distance, id). */
  async query(fingerprint: bigint, options?: QueryOptions): Promise<QueryResult> {
    this.#checkOpen();
    const value = checkU64(fingerprint, 'fingerprint');
    const result = await this.queryMany(new BigUint64Array([value]), options);
    return { ids: result.ids, distances: result.distances };
  }

  /** {@link RedisSimHashIndex.query} for every fingerprint of a batch, in a few round trips. */
  async queryMany(fingerprints: U64Input, options?: QueryOptions): Promise<QueryManyResult> {
    this.#checkOpen();
    const values = toU64Array(fingerprints, 'fingerprints');
    const { distance, limit } = checkQueryOptions(options, this.distance);
    const perQuery: { ids: number[]; distances: number[] }[] = [];
    for (let start = 0; start < values.length; start += QUERY_CHUNK) {
      perQuery.push(...(await this.#queryChunk(values.subarray(start, start + QUERY_CHUNK), distance, limit)));
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
    const members = await this.#client.zrangeBuffer(key, 0, -1);
    if (members.length === 0) return 0;
    const ids = Uint32Array.from(members, (member) => member.readUInt32BE(8));
    const records = await this.#readRecords('repair', ids);
    const table = Number(/:t(\d+):/.exec(key)![1]);
    const stray = members.filter((member, k) => {
      const value = records[k];
      return value === undefined || this.#geometry.permute(value, table) !== member.readBigUInt64BE(0);
    });
    if (stray.length > 0) await this.#client.zrem(key, ...stray);
    return stray.length;
  }

  async #queryChunk(values: BigUint64Array, distance: number, limit: number): Promise<{ ids: number[]; distances: number[] }[]> {
    const geometry = this.#geometry;
    const calls = new GroupedCalls();
    for (let q = 0; q < values.length; q++) {
      for (let t = 0; t < geometry.tables.length; t++) {
        const permuted = geometry.permute(values[q]!, t);
        const b = geometry.bucket(permuted, t);
        const g = geometry.bucketGroup(t, b);
        const [low, high] = geometry.prefixRange(permuted, t);
        const range = Buffer.allocUnsafe(16);
        range.writeBigUInt64BE(low, 0);
        range.writeBigUInt64BE(high, 8);
        calls.push(g, geometry.bucketKey(t, b, g), range, [q, t]);
      }
    }
    const replies = await this.#run('query', () => calls.run((keys, args) => PROBE.run(this.#client, keys, args)));

    // Candidates within the distance, by the fingerprint their table member holds.
    const candidates: Set<number>[] = Array.from({ length: values.length }, () => new Set());
    const tags = calls.tags;
    replies.forEach((reply, k) => {
      const [q, t] = tags[k] as [number, number];
      const members = reply as Buffer;
      if (members.length === 0) return;
      const count = members.length / 12;
      const permutedFound = new BigUint64Array(count);
      for (let m = 0; m < count; m++) permutedFound[m] = members.readBigUInt64BE(12 * m);
      const bits = hammingDistances(geometry.permute(values[q]!, t), permutedFound);
      for (let m = 0; m < count; m++) if (bits[m]! <= distance) candidates[q]!.add(members.readUInt32BE(12 * m + 8));
    });

    // Only what the records hold counts: a member left by an interrupted write is not an answer.
    const askedIds: number[] = [];
    for (const found of candidates) for (const id of found) askedIds.push(id);
    const records = askedIds.length === 0 ? [] : await this.#readRecords('query', Uint32Array.from(askedIds));
    let at = 0;
    return candidates.map((found, q) => {
      const hits: [number, number][] = [];
      const ids = Array.from(found);
      const held = ids.map(() => records[at++]);
      const present = held.filter((value): value is bigint => value !== undefined);
      const bits = present.length === 0 ? new Uint8Array(0) : hammingDistances(values[q]!, BigUint64Array.from(present));
      let p = 0;
      ids.forEach((id, k) => {
        if (held[k] === undefined) return;
        const d = bits[p++]!;
        if (d <= distance) hits.push([d, id]);
      });
      hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const kept = hits.slice(0, limit);
      return { ids: kept.map((hit) => hit[1]), distances: kept.map((hit) => hit[0]) };
    });
  }

  /** Adds members for the new fingerprints, sets the records, then removes replaced members. */
  async #write(operation: string, ids: Uint32Array, values: BigUint64Array): Promise<void> {
    await this.#members(operation, ADD_MEMBERS, ids, values);
    const old = await this.#run(operation, (calls) => this.#setRecords(calls, ids, values));
    const replacedIds: number[] = [];
    const replacedValues: bigint[] = [];
    old.forEach((previous, k) => {
      if (previous !== undefined && previous !== values[k]) {
        replacedIds.push(ids[k]!);
        replacedValues.push(previous);
      }
    });
    if (replacedIds.length > 0) {
      await this.#members(operation, REMOVE_MEMBERS, Uint32Array.from(replacedIds), BigUint64Array.from(replacedValues));
    }
  }

  /** Adds or removes the table members of `(ids[k], values[k])`, then waits for replicas. */
  async #members(operation: string, script: typeof ADD_MEMBERS, ids: Uint32Array, values: BigUint64Array): Promise<void> {
    const geometry = this.#geometry;
    const calls = new GroupedCalls();
    for (let k = 0; k < ids.length; k++) {
      for (let t = 0; t < geometry.tables.length; t++) {
        const permuted = geometry.permute(values[k]!, t);
        const b = geometry.bucket(permuted, t);
        const g = geometry.bucketGroup(t, b);
        const member = Buffer.allocUnsafe(12);
        member.writeBigUInt64BE(permuted, 0);
        member.writeUInt32BE(ids[k]!, 8);
        calls.push(g, geometry.bucketKey(t, b, g), member, null);
      }
    }
    await this.#run(operation, () => calls.run((keys, args) => script.run(this.#client, keys, args)));
  }

  #setRecords(calls: GroupedCalls, ids: Uint32Array, values: BigUint64Array): Promise<(bigint | undefined)[]> {
    const geometry = this.#geometry;
    for (let k = 0; k < ids.length; k++) {
      const r = geometry.record(ids[k]!);
      const g = geometry.recordGroup(r);
      const entry = Buffer.allocUnsafe(12);
      entry.writeUInt32BE(ids[k]!, 0);
      entry.writeBigUInt64BE(values[k]!, 4);
      calls.push(g, geometry.recordKey(r, g), entry, k);
    }
    return this.#recordCall(calls, ids.length, (keys, args, g) => SET_RECORDS.run(this.#client, [...keys, geometry.counterKey(g)], args));
  }

  #deleteRecords(calls: GroupedCalls, ids: Uint32Array): Promise<(bigint | undefined)[]> {
    const geometry = this.#geometry;
    for (let k = 0; k < ids.length; k++) {
      const r = geometry.record(ids[k]!);
      const g = geometry.recordGroup(r);
      calls.push(g, geometry.recordKey(r, g), idBytes(ids[k]!), k);
    }
    return this.#recordCall(calls, ids.length, (keys, args, g) => DELETE_RECORDS.run(this.#client, [...keys, geometry.counterKey(g)], args));
  }

  /** The fingerprint each id's record holds (`undefined`: none). */
  async #readRecords(operation: string, ids: Uint32Array): Promise<(bigint | undefined)[]> {
    const geometry = this.#geometry;
    const calls = new GroupedCalls();
    for (let k = 0; k < ids.length; k++) {
      const r = geometry.record(ids[k]!);
      const g = geometry.recordGroup(r);
      calls.push(g, geometry.recordKey(r, g), idBytes(ids[k]!), k);
    }
    try {
      return await this.#recordCall(calls, ids.length, (keys, args) => GET_RECORDS.run(this.#client, keys, args));
    } catch (error) {
      throw new RedisIndexError(operation, error, false);
    }
  }

  /** Runs record scripts (one per group) and puts their 9-byte answers back in input order. */
  async #recordCall(
    calls: GroupedCalls,
    count: number,
    run: (keys: string[], args: Buffer[], group: number) => Promise<unknown>,
  ): Promise<(bigint | undefined)[]> {
    const replies = await calls.runGroups(run);
    const out: (bigint | undefined)[] = new Array<bigint | undefined>(count);
    replies.forEach(({ reply, tags }) => {
      const bytes = reply as Buffer;
      tags.forEach((tag, m) => {
        out[tag as number] = bytes[9 * m] === 1 ? bytes.readBigUInt64BE(9 * m + 1) : undefined;
      });
    });
    return out;
  }

  /** Runs one write step and waits for the replicas; any failure becomes a {@link RedisIndexError}. */
  async #run<T>(operation: string, step: (calls: GroupedCalls) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await step(new GroupedCalls());
    } catch (error) {
      throw new RedisIndexError(operation, error, operation !== 'query');
    }
    if (this.#replicas > 0 && operation !== 'query') {
      await waitForReplicas(this.#client, this.#replicas, this.#replicaTimeout, operation);
    }
    return result;
  }

  #checkOpen(): void {
    if (this.#closed) throw new TypeError(`index '${this.name}' has been closed`);
  }
}

/** The stored description for a new index of `distance`. */
function describeNew(distance: number, blocks: number | undefined, capacity: number): Description {
  const chosen = blocks ?? chooseBlocks(capacity, distance);
  return {
    distance,
    blocks: chosen,
    bucketBits: Math.max(0, Math.ceil(Math.log2(capacity / MEMBERS_PER_BUCKET))),
    recordBits: Math.max(6, Math.min(24, Math.ceil(Math.log2(capacity / IDS_PER_RECORD)))),
    groups: GROUPS,
  };
}

/**
 * Blocks for an index of `capacity` entries: in Redis a table costs a member write per entry
 * and a range lookup per query, while a candidate costs only 12 bytes on the wire and a
 * popcount, so the fewest tables whose candidates per query stay near 64 win.
 */
export function chooseBlocks(capacity: number, distance: number): number {
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
  const read = (field: string): number => {
    const value = fields.get(field);
    if (value === undefined || !Number.isInteger(value)) {
      throw new RedisIndexError('RedisSimHashIndex.open', new Error(`the description of index '${name}' has no valid ${field}`), false);
    }
    return value;
  };
  return { distance: read('distance'), blocks: read('blocks'), bucketBits: read('bucketBits'), recordBits: read('recordBits'), groups: read('groups') };
}

function idBytes(id: number): Buffer {
  const bytes = Buffer.allocUnsafe(4);
  bytes.writeUInt32BE(id, 0);
  return bytes;
}

/** The nodes to SCAN: every master of a cluster, or the one server. */
function scanNodes(client: Redis | Cluster): Redis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}

export function isCluster(client: Redis | Cluster): client is Cluster {
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
