/**
 * `TextIndex` shared through Redis: the default rule of `decideTexts`, online, for every process
 * that opens the index. Redis holds the index's history as one log (`shared-log.ts`); each process
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
import { checkClient, checkName, optionalInteger } from './options.js';
import { IndexReplica, LogIndex, SharedLog, answersKnown, type LogDecideOptions, type LogRepairReport, type SharedLogSettings } from './shared-log.js';

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


/** The log format this build writes and reads. */
const LOG_FORMAT = '1';

/** A `TextIndex` reading the log's items as UTF-8 texts. */
class TextReplica extends IndexReplica<TextIndex> {
  save(): Uint8Array {
    return this.index.save();
  }

  decideMany(ids: Uint32Array, items: readonly Buffer[]): MinHashDecisions {
    return this.index.decideMany(ids, items.map((item) => item.toString('utf8')));
  }

  addMany(ids: Uint32Array, items: readonly Buffer[]): void {
    this.index.addMany(ids, items.map((item) => item.toString('utf8')));
  }

  free(): void {
    this.index.free();
  }
}

/**
 * The default rule's index of kept texts (`TextIndex`), shared by every process that opens it in
 * Redis or Redis Cluster. Calls of all processes are applied in one order, the log's: an index
 * answers as a `TextIndex` that took every call of every process in that order, so `decideMany`
 * over batches from any processes equals `decideTexts` over all their texts in the order they
 * were decided. Every process keeps a replica of the whole index in memory (as much as a
 * `TextIndex` holding every text decided) and replays the others' changes before each call;
 * opening an index replays its whole log, or loads its last `snapshot()` and replays what came
 * after it.
 */
export class RedisTextIndex extends LogIndex<TextReplica> {
  /** Whether template siblings are kept (`'keep'`) or removed too, as stored when it was created. */
  readonly templates: 'keep' | 'remove';

  private constructor(name: string, log: SharedLog<TextReplica>) {
    super(name, log);
    this.templates = log.description.templates as 'keep' | 'remove';
  }

  /**
   * Opens index `options.name`, creating it when it does not exist, and replays its log (after its
   * snapshot, when it has one).
   *
   * @throws {TypeError | RangeError} for invalid options, or options that contradict those the
   * index was created with.
   * @throws {RedisIndexError} when Redis cannot be reached, or a key of the index is corrupt.
   */
  static async open(options: RedisTextIndexOptions): Promise<RedisTextIndex> {
    const { name, settings } = textLogSettings(options, 'RedisTextIndex.open');
    return new RedisTextIndex(name, await SharedLog.open(settings));
  }

  /**
   * Repairs index `options.name` without opening it (an index whose log cannot be replayed cannot
   * be opened), as {@link RedisTextIndex.repair} does; the options are `open`'s.
   *
   * @throws As {@link RedisTextIndex.open}.
   */
  static async repair(options: RedisTextIndexOptions): Promise<LogRepairReport> {
    return SharedLog.repairUnopened(textLogSettings(options, 'RedisTextIndex.repair').settings);
  }

  /**
   * Decides `texts` in order, as `TextIndex.decideMany` does, against every text decided by any
   * process before it, and adds those it keeps under their ids. It holds the index's lock from
   * the first decision to the last write, so the batches of all processes are decided one after
   * another. A batch is written in entries of up to 2,048 texts (256 KB): when it fails part-way
   * (a partial {@link RedisIndexError}), the entries before are decided and stored, the error says
   * how many texts they hold, and the same call made again by this object (before any other of
   * its writes) resumes after them.
   *
   * With `options.known: 'answer'`, a text whose id the index decided before is answered as it
   * was decided then and not decided again (see {@link LogDecideOptions}).
   *
   * @throws {TypeError | RangeError} as `TextIndex.decideMany` (ids must be new, unless
   * `options.known` is `'answer'`); {@link RedisIndexError} when Redis fails.
   */
  async decideMany(ids: Uint32Array, texts: readonly string[], options?: LogDecideOptions): Promise<MinHashDecisions> {
    this.checkOpen();
    const answer = answersKnown(options, 'RedisTextIndex.decideMany');
    const batch = checkDecideMany(ids, texts, () => false);
    return this.log.writeBatch('decideMany', 'decided', batch.ids, batch.texts.map((text) => Buffer.from(text, 'utf8')), answer);
  }

  /**
   * Keeps `texts` under `ids` without judging them, as `TextIndex.addMany` does; written as
   * `decideMany` writes.
   *
   * @throws As {@link RedisTextIndex.decideMany}.
   */
  async addMany(ids: Uint32Array, texts: readonly string[]): Promise<void> {
    this.checkOpen();
    const batch = checkDecideMany(ids, texts, () => false);
    await this.log.writeBatch('addMany', 'added', batch.ids, batch.texts.map((text) => Buffer.from(text, 'utf8')));
  }

  /** {@link RedisTextIndex.addMany} of one text. */
  async add(id: number, text: string): Promise<void> {
    await this.addMany(Uint32Array.of(checkId(id)), [text]);
  }

  /**
   * The kept texts the rule calls near-duplicates of `text`, most similar first, as
   * `TextIndex.query` answers over every text decided so far. Adds nothing.
   */
  async query(text: string): Promise<TextQueryResult> {
    this.checkOpen();
    if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describe(text)}`);
    return this.log.read('query', (replica) => replica.index.query(text));
  }

  /** Number of texts decided or added, kept or not. */
  async decided(): Promise<number> {
    this.checkOpen();
    return this.log.read('decided', (replica) => replica.index.decided);
  }
}

/** The settings of the log of a text index, from the options of `open` (checked). */
function textLogSettings(options: RedisTextIndexOptions, operation: string): { name: string; settings: SharedLogSettings<TextReplica> } {
  const opts = checkOptions(options, OPTIONS, operation);
  const client = checkClient(opts.client);
  const name = checkName(opts.name);
  if (opts.templates !== undefined && opts.templates !== 'keep' && opts.templates !== 'remove') {
    throw new RangeError(`options.templates must be 'keep' or 'remove', got ${describe(opts.templates)}`);
  }
  return {
    name,
    settings: {
      client,
      name,
      prefix: 'textindex',
      description: { format: LOG_FORMAT, rule: `text-v${TEXT_DECISION_VERSION}`, templates: opts.templates ?? 'keep' },
      given: new Set(opts.templates === undefined ? [] : ['templates']),
      replicas: optionalInteger(opts.replicas, 'options.replicas', 0, 16, 0),
      replicaTimeout: optionalInteger(opts.replicaTimeout, 'options.replicaTimeout', 1, 3_600_000, 2000),
      timeout: optionalInteger(opts.timeout, 'options.timeout', 1, 3_600_000, 5000),
      lockFor: optionalInteger(opts.lockFor, 'options.lockFor', 1, 3_600_000, 30_000),
      noun: 'text',
      operation,
      replica: (description) => new TextReplica(new TextIndex({ templates: description.templates === 'remove' ? 'remove' : 'keep' })),
      load: (description, bytes) => {
        const index = TextIndex.load(bytes);
        if (index.templates !== description.templates) {
          index.free();
          throw new RangeError(`the snapshot decides with templates '${index.templates}', the index with '${description.templates}'`);
        }
        return new TextReplica(index);
      },
    },
  };
}
