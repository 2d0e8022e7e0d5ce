/**
 * `MinHashLSH` shared through Redis: MinHash signatures decided online (`decideMany`, the rule of
 * `decideMinHash`) and queried by every process that opens the index, through the same log as
 * `RedisTextIndex` (`shared-log.ts`): each process holds a `MinHashLSH` replica and replays the
 * others' changes before each call.
 */

import type { Cluster, Redis } from 'ioredis';
import type { MinHashDecisions } from '../shared/decide.js';
import { MinHashLSH } from '../shared/minhash-index.js';
import { checkSignatures } from '../shared/minhash-options.js';
import { planMinHashLsh } from '../shared/minhash-plan.js';
import type { MinHashLshOptions, MinHashQueryOptions, MinHashQueryResult } from '../shared/minhash-types.js';
import { checkId } from '../shared/text-index.js';
import { checkOptions, describe, optionKeys } from '../shared/validate.js';
import { checkClient, checkName, optionalInteger } from './options.js';
import { IndexReplica, LogIndex, SharedLog, answersKnown, type LogDecideOptions, type LogRepairReport, type SharedLogSettings } from './shared-log.js';

/**
 * Options of {@link RedisMinHashIndex.open}. The LSH options (`threshold`, `numPerm`, the
 * weights, or `bands` and `rows`) plan the index when it is created, as `new MinHashLSH(options)`
 * does (default: threshold 0.6, 128 positions). A later open may leave them out; what it gives is
 * compared with the stored plan: `threshold` and `numPerm` when given, and the bands and rows
 * when it gives them or the weights that plan them.
 */
export interface RedisMinHashIndexOptions extends MinHashLshOptions {
  /** An ioredis `Redis` (one server) or `Cluster` client. The index never closes it. */
  client: Redis | Cluster;
  /**
   * Name of the index: 1 to 100 characters, none of them `{`, `}`, `/` or a space. Its keys are
   * `minhashindex:{name}:…` (one hash slot).
   */
  name: string;
  /** Replicas that must confirm each write (Redis `WAIT`), as `RedisTextIndex`'s. Default 0. */
  replicas?: number;
  /** Milliseconds `WAIT` may take. Default 2000. */
  replicaTimeout?: number;
  /** Time limit of each request round, in milliseconds. Default 5000. */
  timeout?: number;
  /** Milliseconds the index's lock outlives its last renewal. Default 30,000. */
  lockFor?: number;
}

const OPTIONS = optionKeys<RedisMinHashIndexOptions>({
  client: true, name: true, threshold: true, numPerm: true, falsePositiveWeight: true, falseNegativeWeight: true, bands: true, rows: true,
  replicas: true, replicaTimeout: true, timeout: true, lockFor: true,
});
const LSH_FIELDS = ['threshold', 'numPerm', 'falsePositiveWeight', 'falseNegativeWeight', 'bands', 'rows'] as const;

/** The log format this build writes and reads. */
const LOG_FORMAT = '1';

/** A `MinHashLSH` reading the log's items as signatures (numPerm u32s each, little-endian). */
class MinHashReplica extends IndexReplica<MinHashLSH> {
  save(): Uint8Array {
    return this.index.serialize();
  }

  decideMany(ids: Uint32Array, items: readonly Buffer[]): MinHashDecisions {
    return this.index.decideMany(ids, this.#signatures(items));
  }

  addMany(ids: Uint32Array, items: readonly Buffer[]): void {
    this.index.addMany(ids, this.#signatures(items));
  }

  free(): void {
    // A MinHashLSH is garbage-collected.
  }

  /** The items as one array of signatures; an item of another length is refused. */
  #signatures(items: readonly Buffer[]): Uint32Array {
    const bytes = 4 * this.index.numPerm;
    const out = new Uint8Array(items.length * bytes);
    items.forEach((item, q) => {
      if (item.length !== bytes) throw new RangeError(`item ${q} holds ${item.length} bytes, not a signature of ${this.index.numPerm} positions`);
      out.set(item, q * bytes);
    });
    return fromLittleEndian(out);
  }
}

/**
 * `MinHashLSH` shared by every process that opens it in Redis or Redis Cluster: `decideMany`
 * decides each batch by the rule of `decideMinHash` against every signature any process kept
 * before it, so that over batches from any processes it equals `decideMinHash` over all their
 * signatures in the order they were decided; `query` answers as `MinHashLSH.query` does. Every
 * process keeps the whole index in memory (as a `MinHashLSH`: 4 bytes a position per signature,
 * plus its bands) and replays the others' changes before each call; opening an index replays its
 * log, or loads its last `snapshot()` and replays what came after it.
 */
export class RedisMinHashIndex extends LogIndex<MinHashReplica> {
  /** The Jaccard similarity decisions and queries reach by default, as stored when the index was created. */
  readonly threshold: number;
  /** Positions of every signature. */
  readonly numPerm: number;
  /** LSH bands of the stored plan. */
  readonly bands: number;
  /** Positions per band. */
  readonly rows: number;

  private constructor(name: string, log: SharedLog<MinHashReplica>) {
    super(name, log);
    this.threshold = Number(log.description.threshold);
    this.numPerm = Number(log.description.numPerm);
    this.bands = Number(log.description.bands);
    this.rows = Number(log.description.rows);
  }

  /**
   * Opens index `options.name`, creating it when it does not exist, and replays its log (from its
   * snapshot, when it has one).
   *
   * @throws {TypeError | RangeError} for invalid options, or LSH options that plan other bands
   * than the index was created with.
   * @throws {RedisIndexError} when Redis cannot be reached, or a key of the index is corrupt.
   */
  static async open(options: RedisMinHashIndexOptions): Promise<RedisMinHashIndex> {
    const { name, settings } = minhashLogSettings(options, 'RedisMinHashIndex.open');
    return new RedisMinHashIndex(name, await SharedLog.open(settings));
  }

  /**
   * Repairs index `options.name` without opening it (an index whose log cannot be replayed cannot
   * be opened), as {@link RedisMinHashIndex.repair} does; the options are `open`'s.
   *
   * @throws As {@link RedisMinHashIndex.open}.
   */
  static async repair(options: RedisMinHashIndexOptions): Promise<LogRepairReport> {
    return SharedLog.repairUnopened(minhashLogSettings(options, 'RedisMinHashIndex.repair').settings);
  }

  /**
   * Decides `signatures` (one per id, back to back) in order, as `MinHashLSH.decideMany` does,
   * against every signature any process kept before it, and adds those it keeps, under the
   * index's lock; written and resumed as `RedisTextIndex.decideMany` is, and with
   * `options.known: 'answer'` a signature whose id the index decided before is answered as then
   * (see {@link LogDecideOptions}).
   *
   * @throws {TypeError | RangeError} for bad ids or signatures, or ids the index holds (unless
   * `options.known` is `'answer'`); {@link RedisIndexError} when Redis fails.
   */
  async decideMany(ids: Uint32Array, signatures: Uint32Array, options?: LogDecideOptions): Promise<MinHashDecisions> {
    this.checkOpen();
    const answer = answersKnown(options, 'RedisMinHashIndex.decideMany');
    return this.log.writeBatch('decideMany', 'decided', ids, this.#items(ids, signatures), answer);
  }

  /**
   * Adds `signatures` under `ids` without deciding them (ids must be new); written as
   * `decideMany` writes.
   *
   * @throws As {@link RedisMinHashIndex.decideMany}.
   */
  async addMany(ids: Uint32Array, signatures: Uint32Array): Promise<void> {
    this.checkOpen();
    await this.log.writeBatch('addMany', 'added', ids, this.#items(ids, signatures));
  }

  /** {@link RedisMinHashIndex.addMany} of one signature. */
  async add(id: number, signature: Uint32Array): Promise<void> {
    await this.addMany(Uint32Array.of(checkId(id)), signature);
  }

  /** `MinHashLSH.query` over every signature kept so far. */
  async query(signature: Uint32Array, options?: MinHashQueryOptions): Promise<MinHashQueryResult> {
    this.checkOpen();
    return this.log.read('query', (replica) => replica.index.query(signature, options));
  }

  /** Each signature as one item's bytes, little-endian. */
  #items(ids: unknown, signatures: unknown): Buffer[] {
    if (!(ids instanceof Uint32Array)) throw new TypeError(`ids must be a Uint32Array, got ${describe(ids)}`);
    const n = checkSignatures(signatures, this.numPerm);
    if (n !== ids.length) throw new RangeError(`signatures must hold one signature per id (${ids.length}), got ${n}`);
    const bytes = toLittleEndian(signatures as Uint32Array);
    const size = 4 * this.numPerm;
    return Array.from({ length: n }, (_, q) => bytes.subarray(q * size, (q + 1) * size));
  }
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** `values` as little-endian bytes (a copy). */
function toLittleEndian(values: Uint32Array): Buffer {
  const out = Buffer.alloc(4 * values.length);
  if (LITTLE_ENDIAN) out.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  else values.forEach((value, i) => out.writeUInt32LE(value, 4 * i));
  return out;
}

/** Little-endian `bytes` (a multiple of 4) as u32s. */
function fromLittleEndian(bytes: Uint8Array): Uint32Array {
  if (LITTLE_ENDIAN) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return Uint32Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(4 * i, true));
}

/** The plan an index's stored description names. */
function plannedAs(description: Readonly<Record<string, string>>): { threshold: number; numPerm: number; bands: number; rows: number } {
  return { threshold: Number(description.threshold), numPerm: Number(description.numPerm), bands: Number(description.bands), rows: Number(description.rows) };
}

/** The settings of the log of a MinHash index, from the options of `open` (checked). */
function minhashLogSettings(options: RedisMinHashIndexOptions, operation: string): { name: string; settings: SharedLogSettings<MinHashReplica> } {
  const opts = checkOptions(options, OPTIONS, operation);
  const client = checkClient(opts.client);
  const name = checkName(opts.name);
  const lsh = Object.fromEntries(LSH_FIELDS.filter((field) => opts[field] !== undefined).map((field) => [field, opts[field]]));
  const plan = planMinHashLsh(lsh);
  const given = new Set<string>();
  if (opts.threshold !== undefined) given.add('threshold');
  if (opts.numPerm !== undefined) given.add('numPerm');
  if (['bands', 'rows', 'falsePositiveWeight', 'falseNegativeWeight'].some((field) => lsh[field] !== undefined)) {
    given.add('bands');
    given.add('rows');
  }
  return {
    name,
    settings: {
      client,
      name,
      prefix: 'minhashindex',
      description: { format: LOG_FORMAT, rule: 'minhash-v1', threshold: String(plan.threshold), numPerm: String(plan.numPerm), bands: String(plan.bands), rows: String(plan.rows) },
      given,
      replicas: optionalInteger(opts.replicas, 'options.replicas', 0, 16, 0),
      replicaTimeout: optionalInteger(opts.replicaTimeout, 'options.replicaTimeout', 1, 3_600_000, 2000),
      timeout: optionalInteger(opts.timeout, 'options.timeout', 1, 3_600_000, 5000),
      lockFor: optionalInteger(opts.lockFor, 'options.lockFor', 1, 3_600_000, 30_000),
      noun: 'signature',
      operation,
      replica: (description) => new MinHashReplica(new MinHashLSH(plannedAs(description))),
      load: (description, bytes) => {
        const index = MinHashLSH.deserialize(bytes);
        const plan = plannedAs(description);
        if (index.threshold !== plan.threshold || index.numPerm !== plan.numPerm || index.bands !== plan.bands || index.rows !== plan.rows) {
          throw new RangeError(`the snapshot is planned with threshold ${index.threshold}, ${index.numPerm} positions, ${index.bands} bands of ${index.rows}; the index with ${plan.threshold}, ${plan.numPerm}, ${plan.bands} of ${plan.rows}`);
        }
        return new MinHashReplica(index);
      },
    },
  };
}
