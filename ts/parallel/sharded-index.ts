/// <reference lib="esnext.disposable" preserve="true" />
/**
 * An index whose entries are spread by id over shards, each a `SimHashIndex` in one worker's
 * WebAssembly instance: its size is bounded by the machine's memory rather than by the 4 GiB
 * of one instance, and queries run in every shard at once.
 */

import { checkId, checkIds, checkIndexOptions, checkQueryOptions, checkSameLength } from '../shared/index-args.js';
import { filterOptions } from '../shared/filter.js';
import { checkIndexBytes, decodeIndex, encodeIndex } from '../shared/index-format.js';
import { checkDistinctIds, keptOf, queryLimit } from '../shared/decide.js';
import { SIMHASH_INDEX_OPTIONS, type OnlineDecisions, type QueryManyResult, type QueryOptions, type QueryResult, type SimHashIndexOptions, type U64Input } from '../shared/types.js';
import { checkOptions, checkU64, describe, optionKeys } from '../shared/validate.js';
import { canShareMemory, copyU64Input } from './input.js';
import type { WorkerSet } from './workers.js';

/** Options of `Pool.createIndex`. */
export interface ShardedIndexOptions extends SimHashIndexOptions {
  /**
   * Number of shards, an integer in `1..1024`; shard `s` lives in worker `s % threads`. Default:
   * one per worker. A worker's shards share its instance's 4 GiB, so capacity grows with the
   * number of workers holding shards.
   */
  shards?: number;
  /**
   * Copies of each shard, each in another worker, an integer in `1..64` (default 1). Every
   * change goes to every copy; `queryMany` splits its queries between them, so that more
   * workers share the queries of a shard at the cost of its memory once per copy.
   */
  replicas?: number;
}

/** The names of the options of {@link ShardedIndexOptions} beyond those of every index. */
const SHARDS_OPTIONS = optionKeys<Omit<ShardedIndexOptions, keyof SimHashIndexOptions>>({ shards: true, replicas: true });
/** The names of {@link ShardedIndexOptions}. */
const SHARDED_INDEX_OPTIONS = [...SIMHASH_INDEX_OPTIONS, ...SHARDS_OPTIONS];

const MAX_SHARDS = 1024;
const MAX_REPLICAS = 64;

/** The shard of `id`: ids are mixed first, so that ids of one residue do not share a shard. */
export function shardOf(id: number, shards: number): number {
  let h = Math.imul(id ^ (id >>> 16), 0x7feb_352d);
  h = Math.imul(h ^ (h >>> 15), 0x846c_a68b);
  return ((h ^ (h >>> 16)) >>> 0) % shards;
}

function checkCount(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be an integer in 1..${max}, got ${value}`);
  }
  return value;
}

/** One copy of a shard: the index number its worker knows it by, the worker and its generation. */
interface Replica {
  readonly index: number;
  readonly slot: number;
  readonly generation: number;
}

/** One shard: its copies, and its size as of the last settled call. */
interface Shard {
  readonly replicas: readonly Replica[];
  size: number;
}

type Operation = Parameters<WorkerSet['run']>[0];

/**
 * The `SimHashIndex` API with promises, over shards held by a pool's workers. Entries go to
 * the shard their id maps to; a query runs in every shard, and the answers are merged in
 * (distance, id) order, so every answer equals that of one `SimHashIndex` holding the same
 * entries. Mutations are applied in the order they are called.
 *
 * A shard lives only in its worker: if that worker fails, the index can no longer answer and
 * every later call rejects (rebuild it, e.g. from {@link ShardedIndex.serialize} bytes saved
 * before).
 */
export class ShardedIndex {
  /** Largest distance queries may ask for. */
  readonly distance: number;
  readonly #filter: number;
  readonly #workers: WorkerSet;
  /** The last `decideMany`, which the next one waits for. */
  #deciding: Promise<unknown> = Promise.resolve();
  readonly #shards: Shard[];
  readonly #shared = canShareMemory();
  #freed = false;

  private constructor(workers: WorkerSet, distance: number, filter: number, shards: Shard[]) {
    this.#workers = workers;
    this.distance = distance;
    this.#filter = filter;
    this.#shards = shards;
  }

  /** @internal `Pool.createIndex`. */
  static async create(workers: WorkerSet, nextIndex: () => number, options: ShardedIndexOptions): Promise<ShardedIndex> {
    const { distance, filter } = checkIndexOptions(options, 'pool.createIndex', SHARDED_INDEX_OPTIONS);
    // Checked by checkIndexOptions: an object of these options only.
    const opts = options as ShardedIndexOptions;
    const count = checkCount(opts.shards, 'options.shards', workers.size, MAX_SHARDS);
    const replicas = checkCount(opts.replicas, 'options.replicas', 1, MAX_REPLICAS);
    const shards = await ShardedIndex.#newShards(workers, nextIndex, count, replicas, (replica) => ({
      op: 'indexNew',
      index: replica.index,
      options: { distance, ...filterOptions(filter) },
    }));
    return new ShardedIndex(workers, distance, filter, shards);
  }

  /** @internal `Pool.loadIndex`. */
  static async load(
    workers: WorkerSet,
    nextIndex: () => number,
    bytes: Uint8Array,
    options: { shards?: number; replicas?: number },
  ): Promise<ShardedIndex> {
    const decoded = decodeIndex(checkIndexBytes(bytes));
    const opts = checkOptions(options, SHARDS_OPTIONS, 'pool.loadIndex');
    const count = checkCount(opts.shards, 'options.shards', workers.size, MAX_SHARDS);
    const replicas = checkCount(opts.replicas, 'options.replicas', 1, MAX_REPLICAS);
    const { distance, filter, ids, words } = decoded;
    // Entries are dealt out in id order, so each shard's part is itself a valid saved index.
    const members: number[][] = Array.from({ length: count }, () => []);
    for (let k = 0; k < ids.length; k++) members[shardOf(ids[k]!, count)]!.push(k);
    const shardBytes = members.map((part) => {
      const partIds = new Uint32Array(part.length);
      const partWords = new Uint32Array(2 * part.length);
      part.forEach((k, j) => {
        partIds[j] = ids[k]!;
        partWords[2 * j] = words[2 * k]!;
        partWords[2 * j + 1] = words[2 * k + 1]!;
      });
      return encodeIndex(distance, filter, partIds, partWords);
    });
    const shards = await ShardedIndex.#newShards(workers, nextIndex, count, replicas, (replica, s) => ({
      op: 'indexLoad',
      index: replica.index,
      bytes: shardBytes[s]!,
    }));
    return new ShardedIndex(workers, distance, filter, shards);
  }

  static async #newShards(
    workers: WorkerSet,
    nextIndex: () => number,
    count: number,
    replicas: number,
    make: (replica: Replica, s: number) => Operation,
  ): Promise<Shard[]> {
    // Copies of a shard go to consecutive workers, so that they are on different ones whenever
    // there are enough workers.
    const shards: Shard[] = Array.from({ length: count }, (_, s) => ({
      replicas: Array.from({ length: replicas }, (_, r) => {
        const slot = (s * replicas + r) % workers.size;
        return { index: nextIndex(), slot, generation: workers.generation(slot) };
      }),
      size: 0,
    }));
    const sizes = await Promise.all(
      shards.map((shard, s) => Promise.all(shard.replicas.map((replica) => workers.run<number>(make(replica, s), [], replica.slot)))),
    );
    sizes.forEach((size, s) => (shards[s]!.size = size[0]!));
    return shards;
  }

  /** Number of shards. */
  get shards(): number {
    return this.#shards.length;
  }

  /** Number of ids, as of the last settled call. */
  get size(): number {
    return this.#shards.reduce((sum, shard) => sum + shard.size, 0);
  }

  /** Ids held by each shard, as of the last settled call. */
  get shardSizes(): number[] {
    return this.#shards.map((shard) => shard.size);
  }

  /** `true` once {@link ShardedIndex.free} has run; every other use then rejects with a `TypeError`. */
  get freed(): boolean {
    return this.#freed;
  }

  /** Runs `operation` on one copy of a shard. */
  #runOn<T>(replica: Replica, operation: Operation, transfer: readonly ArrayBuffer[] = []): Promise<T> {
    if (this.#workers.generation(replica.slot) !== replica.generation) {
      return Promise.reject(new Error('simhash-wasm/parallel: this index lost a shard when its worker failed'));
    }
    return this.#workers.run<T>(operation, transfer, replica.slot);
  }

  /**
   * Runs a change on every copy of a shard and resolves with the first copy's answer. Buffers
   * are moved to the worker only when there is a single copy.
   */
  async #change<T>(shard: Shard, make: (replica: Replica) => Operation, transfer: readonly ArrayBuffer[] = []): Promise<T> {
    const moved = shard.replicas.length === 1 ? transfer : [];
    const answers = await Promise.all(shard.replicas.map((replica) => this.#runOn<T>(replica, make(replica), moved)));
    return answers[0]!;
  }

  #checkLive(): void {
    if (this.#freed) throw new TypeError('this ShardedIndex has been freed');
  }

  /** Adds `id` with `fingerprint`, replacing the fingerprint `id` had. */
  async add(id: number, fingerprint: bigint): Promise<void> {
    this.#checkLive();
    const checkedId = checkId(id);
    const value = checkU64(fingerprint, 'fingerprint');
    await this.#addChecked(Uint32Array.of(checkedId), BigUint64Array.of(value));
  }

  /** Adds `ids[k]` with `fingerprints[k]` for every k, in order (a later duplicate id wins). */
  async addMany(ids: Uint32Array, fingerprints: U64Input): Promise<void> {
    this.#checkLive();
    const checkedIds = checkIds(ids);
    const values = copyU64Input(fingerprints, 'fingerprints', false);
    checkSameLength(checkedIds, values.length);
    await this.#addChecked(checkedIds, values);
  }

  async #addChecked(ids: Uint32Array, values: BigUint64Array): Promise<void> {
    const count = this.#shards.length;
    const owner = new Uint32Array(ids.length);
    const sizes = new Uint32Array(count);
    for (let k = 0; k < ids.length; k++) {
      const s = shardOf(ids[k]!, count);
      owner[k] = s;
      sizes[s]!++;
    }
    const partIds = Array.from(sizes, (n) => new Uint32Array(n));
    const partValues = Array.from(sizes, (n) => new BigUint64Array(n));
    const filled = new Uint32Array(count);
    for (let k = 0; k < ids.length; k++) {
      const s = owner[k]!;
      const at = filled[s]!++;
      partIds[s]![at] = ids[k]!;
      partValues[s]![at] = values[k]!;
    }
    await Promise.all(
      this.#shards.map(async (shard, s) => {
        if (sizes[s] === 0) return;
        shard.size = await this.#change<number>(
          shard,
          (replica) => ({ op: 'indexAddMany', index: replica.index, ids: partIds[s]!, fingerprints: partValues[s]! }),
          [partIds[s]!.buffer, partValues[s]!.buffer],
        );
      }),
    );
  }

  /**
   * The online decision of `SimHashIndex.decideMany`, for an index that holds only kept
   * documents: a worker applies the rule to what the shards found, then the kept documents are
   * added. Calls on one `ShardedIndex` are decided one after another, each seeing what the ones
   * before it kept; `add` and `remove` made meanwhile are not ordered with them.
   *
   * @throws {TypeError | RangeError} as `addMany`.
   */
  async decideMany(ids: Uint32Array, fingerprints: U64Input): Promise<OnlineDecisions> {
    this.#checkLive();
    const checkedIds = checkIds(ids).slice();
    const values = copyU64Input(fingerprints, 'fingerprints', false);
    checkSameLength(checkedIds, values.length);
    checkDistinctIds(checkedIds);
    const turn = this.#deciding.then(async () => {
      const found = await this.#queryChecked(values, { limit: queryLimit(checkedIds) });
      const decisions = await this.#workers.run<OnlineDecisions>({ op: 'decideAgainst', distance: this.distance, fingerprints: values, ids: checkedIds, found });
      const kept = keptOf(checkedIds, decisions);
      // A removed document's id may hold an entry of an earlier call: it is no longer kept.
      await Promise.all(Array.from(checkedIds).filter((_, q) => kept[q] === 0).map((id) => this.#removeChecked(id)));
      await this.#addChecked(
        checkedIds.filter((_, q) => kept[q] === 1),
        values.filter((_, q) => kept[q] === 1),
      );
      return decisions;
    });
    this.#deciding = turn.catch(() => undefined);
    return turn;
  }

  /** Removes `id`; `true` if it was present. */
  async remove(id: number): Promise<boolean> {
    this.#checkLive();
    return this.#removeChecked(checkId(id));
  }

  async #removeChecked(checked: number): Promise<boolean> {
    const shard = this.#shards[shardOf(checked, this.#shards.length)]!;
    const { removed, size } = await this.#change<{ removed: boolean; size: number }>(shard, (replica) => ({
      op: 'indexRemove',
      index: replica.index,
      id: checked,
    }));
    shard.size = size;
    return removed;
  }

  /** Whether `id` is present. */
  async has(id: number): Promise<boolean> {
    this.#checkLive();
    const checked = checkId(id);
    const shard = this.#shards[shardOf(checked, this.#shards.length)]!;
    const replica = shard.replicas[0]!;
    return this.#runOn<boolean>(replica, { op: 'indexHas', index: replica.index, id: checked });
  }

  /** The ids within `options.distance` of `fingerprint`, sorted by (distance, id). */
  async query(fingerprint: bigint, options?: QueryOptions): Promise<QueryResult> {
    this.#checkLive();
    const value = checkU64(fingerprint, 'fingerprint');
    const { ids, distances } = await this.#queryChecked(BigUint64Array.of(value), options);
    return { ids, distances };
  }

  /** {@link ShardedIndex.query} for every fingerprint of a batch: every shard answers them all. */
  async queryMany(fingerprints: U64Input, options?: QueryOptions): Promise<QueryManyResult> {
    this.#checkLive();
    const values = copyU64Input(fingerprints, 'fingerprints', this.#shared);
    return this.#queryChecked(values, options);
  }

  async #queryChecked(values: BigUint64Array, options: QueryOptions | undefined): Promise<QueryManyResult> {
    const checked = checkQueryOptions(options, this.distance);
    const parts = await Promise.all(this.#shards.map((shard) => this.#queryShard(shard, values, checked)));
    return parts.length === 1 ? parts[0]! : mergeAnswers(parts, values.length, checked.limit);
  }

  /** A shard's answers to `values`, its copies each answering an equal share of them. */
  async #queryShard(shard: Shard, values: BigUint64Array, options: QueryOptions): Promise<QueryManyResult> {
    const copies = shard.replicas.length;
    const parts = await Promise.all(
      shard.replicas.map((replica, r) => {
        const share = values.subarray(Math.floor((r * values.length) / copies), Math.floor(((r + 1) * values.length) / copies));
        // A view of unshared memory would be sent with its whole buffer.
        const fingerprints = this.#shared ? share : share.slice();
        return this.#runOn<QueryManyResult>(replica, { op: 'indexQueryMany', index: replica.index, fingerprints, options });
      }),
    );
    return parts.length === 1 ? parts[0]! : concatenateAnswers(parts);
  }

  /**
   * The whole index in the format of `SimHashIndex.serialize` (entries in id order), readable by
   * `SimHashIndex.deserialize` of either entry and by `Pool.loadIndex`.
   */
  async serialize(): Promise<Uint8Array> {
    this.#checkLive();
    const parts = await Promise.all(
      this.#shards.map((shard) => {
        const replica = shard.replicas[0]!;
        return this.#runOn<Uint8Array>(replica, { op: 'indexSerialize', index: replica.index });
      }),
    );
    const decoded = parts.map((bytes) => decodeIndex(bytes));
    const total = decoded.reduce((sum, part) => sum + part.ids.length, 0);
    const ids = new Uint32Array(total);
    const words = new Uint32Array(2 * total);
    const next = new Array<number>(decoded.length).fill(0);
    for (let k = 0; k < total; k++) {
      let best = -1;
      for (let s = 0; s < decoded.length; s++) {
        const at = next[s]!;
        const part = decoded[s]!;
        if (at < part.ids.length && (best < 0 || part.ids[at]! < decoded[best]!.ids[next[best]!]!)) best = s;
      }
      const part = decoded[best]!;
      const at = next[best]!++;
      ids[k] = part.ids[at]!;
      words[2 * k] = part.words[2 * at]!;
      words[2 * k + 1] = part.words[2 * at + 1]!;
    }
    return encodeIndex(this.distance, this.#filter, ids, words);
  }

  /** Releases every shard. Idempotent. */
  async free(): Promise<void> {
    if (this.#freed) return;
    this.#freed = true;
    await Promise.allSettled(
      this.#shards.flatMap((shard) => shard.replicas.map((replica) => this.#runOn(replica, { op: 'indexFree', index: replica.index }))),
    );
  }

  /** Same as {@link ShardedIndex.free}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.free();
  }
}

/** The answers to consecutive runs of queries, as the answers to all of them. */
function concatenateAnswers(parts: readonly QueryManyResult[]): QueryManyResult {
  const queries = parts.reduce((sum, part) => sum + part.offsets.length - 1, 0);
  const found = parts.reduce((sum, part) => sum + part.ids.length, 0);
  const offsets = new Uint32Array(queries + 1);
  const ids = new Uint32Array(found);
  const distances = new Uint8Array(found);
  let q = 0;
  let at = 0;
  for (const part of parts) {
    for (let k = 1; k < part.offsets.length; k++) offsets[q + k] = at + part.offsets[k]!;
    ids.set(part.ids, at);
    distances.set(part.distances, at);
    q += part.offsets.length - 1;
    at += part.ids.length;
  }
  return { offsets, ids, distances };
}

/**
 * One answer per query from the shards' answers: each shard's list for a query is sorted by
 * (distance, id) and holds at most `limit` ids, so the first `limit` of their merge are the
 * query's answer.
 */
function mergeAnswers(parts: readonly QueryManyResult[], queries: number, limit: number): QueryManyResult {
  const offsets = new Uint32Array(queries + 1);
  for (let q = 0; q < queries; q++) {
    let found = 0;
    for (const part of parts) found += part.offsets[q + 1]! - part.offsets[q]!;
    offsets[q + 1] = offsets[q]! + Math.min(found, limit);
  }
  const ids = new Uint32Array(offsets[queries]!);
  const distances = new Uint8Array(ids.length);
  const next = new Uint32Array(parts.length);
  for (let q = 0; q < queries; q++) {
    parts.forEach((part, s) => (next[s] = part.offsets[q]!));
    for (let k = offsets[q]!; k < offsets[q + 1]!; k++) {
      let best = -1;
      let bestDistance = 0;
      let bestId = 0;
      for (let s = 0; s < parts.length; s++) {
        const part = parts[s]!;
        const at = next[s]!;
        if (at === part.offsets[q + 1]!) continue;
        const d = part.distances[at]!;
        const id = part.ids[at]!;
        if (best < 0 || d < bestDistance || (d === bestDistance && id < bestId)) {
          best = s;
          bestDistance = d;
          bestId = id;
        }
      }
      ids[k] = bestId;
      distances[k] = bestDistance;
      next[best]!++;
    }
  }
  return { offsets, ids, distances };
}
