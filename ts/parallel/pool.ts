/// <reference lib="esnext.disposable" preserve="true" />
/** The worker pool: the batch operations of the synchronous API, spread over workers. */

import { checkClustersOptions } from '../shared/clusters-options.js';
import { DECIDE_TEXTS_OPTIONS, type DecideTextsOptions } from '../shared/adaptive.js';
import { DECIDE_OPTIONS, type DecideOptions, type MinHashDecisions, type SimHashDecisions, takingOrder } from '../shared/decide.js';
import { toU64Array } from '../shared/u64-input.js';
import { explicitFilter, filterOptions } from '../shared/filter.js';
import { packTexts } from '../shared/packed-texts.js';
import { chooseFilter } from '../shared/plan.js';
import { resolveTextOptions } from '../shared/text-options.js';
import { resolveMinHashOptions } from '../shared/minhash-options.js';
import type { MinHashOptions } from '../shared/minhash-types.js';
import { FIND_ALL_OPTIONS, TEXT_OPTIONS, type FindAllOptions, type FindClustersOptions, type PairResult, type TextOptions, type U64Input, type WeightInput } from '../shared/types.js';
import {
  DEFAULT_MAX_PAIRS,
  checkDistance,
  checkMaxPairs,
  checkOffsets,
  checkOptions,
  checkWeights,
  describe,
  optionKeys,
  tooManyPairs,
} from '../shared/validate.js';
import { joinSliceLabels, mergeSlicePairs } from '../shared/work-slice.js';
import { canShareMemory, copyU64Input } from './input.js';
import { nodeBuiltin } from './node-builtin.js';
import { lineBlocks } from './line-blocks.js';
import type { JsonLinesBlock, Operation } from './protocol.js';
import { ShardedIndex, type ShardedIndexOptions } from './sharded-index.js';
import { WorkerSet } from './workers.js';

/** Options of {@link createPool}. */
export interface PoolOptions {
  /**
   * Number of workers, an integer in `1..256`. Default: the available cores
   * (`os.availableParallelism()` in Node, `navigator.hardwareConcurrency` elsewhere). One call
   * keeps at most as many workers busy as there are cores; workers beyond that serve a
   * {@link ShardedIndex}, whose shards share each worker's 4 GiB instance.
   */
  threads?: number;
}

/** Options of {@link Pool.fingerprintJsonLines}: where records keep their text and id, and the text options. */
export interface JsonLinesOptions extends TextOptions {
  /** Field holding each record's text, a string. Default `'text'`. */
  field?: string;
  /** Field holding each record's id (a string or a finite number). Default: none, records are known by line. */
  id?: string;
}

/** The names of {@link PoolOptions}. */
const POOL_OPTIONS = optionKeys<PoolOptions>({ threads: true });
/** The names of {@link JsonLinesOptions}. */
const JSON_LINES_OPTIONS = [...TEXT_OPTIONS, ...optionKeys<Omit<JsonLinesOptions, keyof TextOptions>>({ field: true, id: true })];

/** The fingerprints of a run of JSON Lines records, in input order. */
export interface JsonLinesBatch {
  /** Bytes of input the batch covers: the batches' sum is the input's length. */
  readonly bytes: number;
  /** `lines[i]`: the line, counted from 1 over the whole input, of the record of `fingerprints[i]`. */
  readonly lines: Uint32Array;
  /** The fingerprint of each usable record's text, as `fingerprintMany` gives it. */
  readonly fingerprints: BigUint64Array;
  /**
   * `ids[i]`: the id of `fingerprints[i]`'s record as the record holds it (a string or a finite
   * number), or `undefined` for a record without the id field (read all the same); `undefined`
   * without `options.id`.
   */
  readonly ids: readonly (string | number | undefined)[] | undefined;
  /**
   * Positions in `fingerprints` of texts without a single shingle (fingerprint `0n`): leave
   * them out of searches, where they would all be at distance 0 from each other.
   */
  readonly featureless: Uint32Array;
  /** Lines that are neither blank nor a usable record, with the reason (not JSON, no text field…). */
  readonly skipped: readonly { readonly line: number; readonly reason: string }[];
}

/** JSON Lines go to the workers in blocks of whole lines of at least this many bytes. */
const BLOCK_BYTES = 1 << 20;

/** Texts are sent to workers in chunks of about this many UTF-16 code units. */
const CHUNK_UNITS = 1 << 18;

/** ...or of at most this many texts. */
const CHUNK_TEXTS = 4096;

/** Hashes `computeMany` sends to a worker at once (documents are never split). */
const CHUNK_HASHES = 1 << 20;

/** Most workers a pool may have. */
const MAX_THREADS = 256;

async function availableCores(): Promise<number> {
  const navigatorCores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  if (typeof navigatorCores === 'number' && navigatorCores > 0) return navigatorCores;
  try {
    const os = await nodeBuiltin('os');
    return os.availableParallelism();
  } catch {
    return 1;
  }
}

/**
 * Starts a pool of workers, each with its own WebAssembly instance, and resolves once all are
 * ready. Node runs them as `worker_threads`; browsers, Deno and Bun as module Web Workers.
 *
 * @example
 * import { createPool } from 'simhash-wasm/parallel';
 * const pool = await createPool(); // or `await using pool = …` where supported (not Node 20)
 * try {
 *   const fingerprints = await pool.fingerprintMany(['a first text', 'a second text']);
 *   const labels = await pool.findClusters(fingerprints, { distance: 10 });
 * } finally {
 *   await pool.close();
 * }
 * @throws {TypeError | RangeError} for invalid options; the worker's error if one cannot start.
 */
export async function createPool(options: PoolOptions = {}): Promise<Pool> {
  const opts = checkOptions(options, POOL_OPTIONS, 'createPool');
  const cores = Math.min(MAX_THREADS, await availableCores());
  let threads: number;
  if (opts.threads === undefined) {
    threads = cores;
  } else {
    if (typeof opts.threads !== 'number') throw new TypeError(`options.threads must be a number, got ${describe(opts.threads)}`);
    if (!Number.isInteger(opts.threads) || opts.threads < 1 || opts.threads > MAX_THREADS) {
      throw new RangeError(`options.threads must be an integer in 1..${MAX_THREADS}, got ${opts.threads}`);
    }
    threads = opts.threads;
  }
  return new Pool(await WorkerSet.start(threads, Math.min(threads, cores)), PoolToken);
}

/** The workers of each pool, for the tests that make them fail; not exported by the entry. */
const workersOfPool = new WeakMap<Pool, WorkerSet>();

/** @internal The workers behind `pool`. */
export function workersOf(pool: Pool): WorkerSet {
  return workersOfPool.get(pool)!;
}

/** Only {@link createPool} makes pools: a pool's workers must be running before it is used. */
const PoolToken: unique symbol = Symbol('Pool');

/**
 * Workers running the synchronous API's batch operations. Every method returns what the
 * synchronous function of the same name returns for the same arguments, bit for bit, and
 * throws the same `TypeError` or `RangeError` for invalid ones (as a rejected promise).
 *
 * A worker that fails (an uncaught error, or killed) rejects the calls it was running with an
 * `Error` saying so, and is replaced; later calls work. An idle pool holds no handle that keeps
 * Node running; {@link Pool.close} stops the workers.
 */
export class Pool {
  readonly #workers: WorkerSet;
  /** Whether inputs are put in memory shared with the workers rather than copied to each. */
  readonly #shared = canShareMemory();
  #nextIndex = 1;

  /** @internal Use {@link createPool}. */
  constructor(workers: WorkerSet, token: typeof PoolToken) {
    if (token !== PoolToken) throw new TypeError('use createPool() to make a Pool');
    this.#workers = workers;
    workersOfPool.set(this, workers);
  }

  /** Number of workers. */
  get threads(): number {
    return this.#workers.size;
  }

  /**
   * `fingerprintMany` of the synchronous API: one fingerprint per text, in order. Texts go to
   * the workers in chunks of about 256 K characters, the ASCII ones written as bytes into a
   * buffer that is transferred (cheaper here than cloning strings, and the workers copy them
   * into WebAssembly memory as they are), the others as strings.
   *
   * @throws {TypeError | RangeError} for an element that is not a string, or bad options.
   */
  async fingerprintMany(texts: readonly string[] | Iterable<string>, options?: TextOptions): Promise<BigUint64Array> {
    const chunks: BigUint64Array[] = [];
    let total = 0;
    for await (const chunk of this.fingerprintStream(checkTexts(texts, false), options)) {
      chunks.push(chunk);
      total += chunk.length;
    }
    if (chunks.length === 1) return chunks[0]!;
    const out = new BigUint64Array(total);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  /**
   * Fingerprints a stream of texts: yields, in order, arrays whose concatenation is
   * `fingerprintMany` of all the texts. Reads ahead only as far as keeps every worker busy
   * (about two chunks per worker), so memory stays bounded however long the stream.
   *
   * @example
   * for await (const fingerprints of pool.fingerprintStream(readLines(file))) save(fingerprints);
   * @throws {TypeError | RangeError} for an element that is not a string, or bad options.
   */
  async *fingerprintStream(
    texts: AsyncIterable<string> | Iterable<string>,
    options?: TextOptions,
  ): AsyncGenerator<BigUint64Array, void, undefined> {
    resolveTextOptions(options, 'pool.fingerprintStream');
    yield* this.#chunked(checkTexts(texts, true), (batch) => {
      const packed = packTexts(batch);
      return this.#workers.run<BigUint64Array>({ op: 'fingerprintMany', texts: packed, options }, [packed.ascii.buffer, packed.ends.buffer, packed.stringAt.buffer] as ArrayBuffer[]);
    });
  }

  /**
   * `minhashMany` of the synchronous API over texts: one signature of `numPerm` positions per
   * text, back to back, in order, the texts signed on the workers in chunks of about 256 K
   * characters, packed as `fingerprintMany` packs them.
   *
   * @throws {TypeError | RangeError} for an element that is not a string, or bad options.
   */
  async minhashMany(texts: readonly string[] | Iterable<string>, options?: MinHashOptions): Promise<Uint32Array> {
    const chunks: Uint32Array[] = [];
    for await (const chunk of this.minhashStream(checkTexts(texts, false), options)) chunks.push(chunk);
    if (chunks.length === 1) return chunks[0]!;
    const out = new Uint32Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  /**
   * Signs a stream of texts: yields, in order, arrays whose concatenation is `minhashMany` of all
   * the texts, reading ahead only as far as keeps every worker busy.
   *
   * @throws {TypeError | RangeError} for an element that is not a string, or bad options.
   */
  async *minhashStream(texts: AsyncIterable<string> | Iterable<string>, options?: MinHashOptions): AsyncGenerator<Uint32Array, void, undefined> {
    resolveMinHashOptions(options, 'pool.minhashStream');
    yield* this.#chunked(checkTexts(texts, true), (batch) => {
      const packed = packTexts(batch);
      return this.#workers.run<Uint32Array>({ op: 'minhashMany', texts: packed, options }, [packed.ascii.buffer, packed.ends.buffer, packed.stringAt.buffer] as ArrayBuffer[]);
    });
  }

  /**
   * The texts of `source` in chunks of about {@link CHUNK_UNITS} code units (at most
   * {@link CHUNK_TEXTS} texts), each handed to `submit`; yields the chunks' results in order,
   * with about two chunks per worker pending, so memory stays bounded however long the stream.
   */
  async *#chunked<T>(source: AsyncIterable<unknown> | Iterable<unknown>, submit: (batch: string[]) => Promise<T>): AsyncGenerator<T, void, undefined> {
    const pending: Promise<T>[] = [];
    const limit = 2 * this.#workers.lanes + 1;
    const send = (batch: string[]): void => {
      const result = submit(batch);
      // Handled when awaited in order; marked handled now so that an early failure is not
      // reported as unhandled while earlier chunks are still awaited.
      result.catch(() => undefined);
      pending.push(result);
    };
    let batch: string[] = [];
    let units = 0;
    let index = 0;
    /** Takes one text; `true` when as many chunks are pending as the workers can use. */
    const take = (text: unknown): boolean => {
      if (typeof text !== 'string') throw new TypeError(`texts[${index}] must be a string, got ${describe(text)}`);
      index++;
      batch.push(text);
      units += text.length;
      if (units < CHUNK_UNITS && batch.length < CHUNK_TEXTS) return false;
      send(batch);
      batch = [];
      units = 0;
      return pending.length >= limit;
    };
    try {
      // A synchronous source is read synchronously: `for await` would cost a turn per text.
      if (Symbol.iterator in source) {
        for (const text of source as Iterable<unknown>) if (take(text)) yield await pending.shift()!;
      } else {
        for await (const text of source as AsyncIterable<unknown>) if (take(text)) yield await pending.shift()!;
      }
      if (batch.length > 0) send(batch);
      while (pending.length > 0) yield await pending.shift()!;
    } finally {
      pending.length = 0;
    }
  }

  /**
   * Fingerprints the records of a JSON Lines stream given as bytes (UTF-8, as read from a file
   * or a socket): the workers decode, split, parse and fingerprint, so that this thread only
   * passes bytes on. Yields, in input order, batches covering the whole input; a blank line is
   * no record, and a line that is not a JSON object with a string `options.field` is reported
   * in `skipped`. Invalid UTF-8 becomes U+FFFD and a leading byte order mark is dropped, as
   * `TextDecoder` does. Reads ahead only as far as keeps every worker busy.
   *
   * @example
   * for await (const batch of pool.fingerprintJsonLines(createReadStream('docs.jsonl'), { id: 'url' })) {
   *   batch.ids.forEach((id, i) => seen.set(id, batch.fingerprints[i]));
   * }
   * @throws {TypeError | RangeError} for bad options, or a chunk that is not a `Uint8Array`
   * (Node's streams give `Buffer`s, which are).
   */
  async *fingerprintJsonLines(
    chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: JsonLinesOptions = {},
  ): AsyncGenerator<JsonLinesBatch, void, undefined> {
    const { field = 'text', id, ...textOptions } = checkOptions(options, JSON_LINES_OPTIONS, 'pool.fingerprintJsonLines') as JsonLinesOptions;
    if (typeof field !== 'string') throw new TypeError(`options.field must be a string, got ${describe(field)}`);
    if (id !== undefined && typeof id !== 'string') throw new TypeError(`options.id must be a string, got ${describe(id)}`);
    resolveTextOptions(textOptions, 'pool.fingerprintJsonLines');
    const source = checkChunks(chunks);
    const pending: Promise<JsonLinesBlock & { bytes: number }>[] = [];
    const limit = 2 * this.#workers.lanes + 1;
    let lineBase = 0;
    /** Numbers the block's lines over the whole input. */
    const settle = (block: JsonLinesBlock & { bytes: number }): JsonLinesBatch => {
      for (let i = 0; i < block.lines.length; i++) block.lines[i]! += lineBase;
      const skipped = block.skipped.map((s) => ({ line: s.line + lineBase, reason: s.reason }));
      lineBase += block.lineCount;
      const { bytes, lines, fingerprints, ids, featureless } = block;
      return { bytes, lines, fingerprints, ids, featureless, skipped };
    };
    let first = true;
    try {
      for await (const bytes of lineBlocks(source, BLOCK_BYTES)) {
        const operation: Operation = { op: 'fingerprintJsonLines', bytes, first, fields: { field, id }, options: textOptions };
        const length = bytes.length;
        const result = this.#workers.run<JsonLinesBlock>(operation, [bytes.buffer as ArrayBuffer]).then((block) => ({ ...block, bytes: length }));
        // Handled when awaited in order, as in fingerprintStream.
        result.catch(() => undefined);
        pending.push(result);
        first = false;
        if (pending.length >= limit) yield settle(await pending.shift()!);
      }
      while (pending.length > 0) yield settle(await pending.shift()!);
    } finally {
      pending.length = 0;
    }
  }

  /**
   * `computeMany` of the synchronous API: one fingerprint per document, documents sent to the
   * workers in chunks of about a million hashes.
   *
   * @throws {TypeError | RangeError} for bad hashes, or offsets that decrease or point past the hashes.
   */
  computeMany(hashes: U64Input, offsets: Uint32Array): Promise<BigUint64Array> {
    return this.#computeMany(hashes, undefined, offsets);
  }

  /**
   * `computeManyWeighted` of the synchronous API.
   *
   * @throws {TypeError | RangeError} as {@link Pool.computeMany}, and for bad weights.
   */
  computeManyWeighted(hashes: U64Input, weights: WeightInput, offsets: Uint32Array): Promise<BigUint64Array> {
    return this.#computeMany(hashes, weights, offsets);
  }

  async #computeMany(hashes: U64Input, weights: WeightInput | undefined, offsets: Uint32Array): Promise<BigUint64Array> {
    const values = copyU64Input(hashes, 'hashes', false);
    const w = weights === undefined ? undefined : checkWeights(weights, values.length);
    const docs = checkOffsets(offsets, values.length);
    const count = Math.max(0, docs.length - 1);
    const jobs: Promise<BigUint64Array>[] = [];
    const starts: number[] = [];
    let first = 0;
    while (first < count) {
      let last = first + 1;
      while (last < count && docs[last + 1]! - docs[first]! <= CHUNK_HASHES) last++;
      const base = docs[first]!;
      const end = docs[last]!;
      const chunkOffsets = docs.slice(first, last + 1);
      for (let k = 0; k < chunkOffsets.length; k++) chunkOffsets[k] = chunkOffsets[k]! - base;
      const chunkHashes = values.slice(base, end);
      const chunkWeights = w?.slice(base, end);
      const operation: Operation = { op: 'computeMany', hashes: chunkHashes, weights: chunkWeights, offsets: chunkOffsets };
      const transfer = [chunkHashes.buffer, chunkOffsets.buffer, ...(chunkWeights === undefined ? [] : [chunkWeights.buffer])];
      starts.push(first);
      jobs.push(this.#workers.run<BigUint64Array>(operation, transfer as ArrayBuffer[]));
      first = last;
    }
    const parts = await Promise.all(jobs);
    const out = new BigUint64Array(count);
    parts.forEach((part, k) => out.set(part, starts[k]));
    return out;
  }

  /**
   * `findAll` of the synchronous API: every pair within `options.distance`, sorted by
   * `(left, right)`. Each worker searches its share of the runs of every table (see
   * `WorkSlice`); each pair is found by exactly one, and the sorted parts are merged.
   * Each part is bounded by `options.maxPairs`, and so is the merged result.
   *
   * @throws {TypeError | RangeError} for bad fingerprints or options, and a `RangeError` when
   * the result would exceed `options.maxPairs`.
   */
  async findAll(fingerprints: U64Input, options: FindAllOptions): Promise<PairResult> {
    const input = copyU64Input(fingerprints, 'fingerprints', this.#shared);
    const opts = checkOptions(options, FIND_ALL_OPTIONS, 'pool.findAll');
    const distance = checkDistance(opts.distance);
    const filter = explicitFilter(opts, distance) ?? chooseFilter(input.length, distance, 'batch');
    const maxPairs = opts.maxPairs === undefined ? DEFAULT_MAX_PAIRS : checkMaxPairs(opts.maxPairs);
    // The planner's choice is made again in each worker, from the same n: 0 (compare directly)
    // is no valid explicit option.
    const sliceOptions = { distance, maxPairs, ...filterOptions(filter) };
    const parts = await Promise.all(
      this.#slices(filter).map((slice) =>
        this.#workers.run<PairResult>({ op: 'findAllSlice', fingerprints: input, options: sliceOptions, slice }),
      ),
    );
    const merged = mergeSlicePairs(parts);
    if (merged.left.length > maxPairs) throw tooManyPairs(maxPairs);
    return merged;
  }

  /**
   * `findClusters` of the synchronous API: for each position, the smallest position of its
   * component. Each worker labels the components of the pairs its share of the runs finds; the labels are
   * joined here.
   *
   * @throws {TypeError | RangeError} for bad fingerprints or options.
   */
  async findClusters(fingerprints: U64Input, options: FindClustersOptions): Promise<Uint32Array> {
    const input = copyU64Input(fingerprints, 'fingerprints', this.#shared);
    const { distance, filter } = checkClustersOptions(options, input.length, 'pool.findClusters');
    const parts = await Promise.all(
      this.#slices(filter).map((slice) =>
        this.#workers.run<Uint32Array>({
          op: 'findClustersSlice',
          fingerprints: input,
          options: { distance, ...filterOptions(filter) },
          slice,
        }),
      ),
    );
    return parts.length === 1 ? parts[0]! : joinSliceLabels(parts);
  }

  /**
   * `decide` of the synchronous API, with the same result: the workers find the components
   * (`findClusters`), then one worker applies the rule to the documents that share one.
   *
   * @throws {TypeError | RangeError} for bad fingerprints or options.
   */
  async decide(fingerprints: U64Input, options: DecideOptions): Promise<SimHashDecisions> {
    // A copy: it crosses to the workers, and a HashArray's view may move when memory grows.
    const values = new BigUint64Array(toU64Array(fingerprints, 'fingerprints'));
    const { priority, ...clusterOptions } = checkOptions(options, DECIDE_OPTIONS, 'pool.decide') as unknown as DecideOptions;
    const order = takingOrder(priority, values.length);
    const labels = await this.findClusters(values, clusterOptions);
    return this.#workers.run<SimHashDecisions>(
      { op: 'decideWithLabels', fingerprints: values, distance: clusterOptions.distance, labels, order },
      [values.buffer, order.buffer as ArrayBuffer],
    );
  }

  /**
   * `decideTexts` of the synchronous API, its texts tokenised and sketched on the workers in
   * chunks, the sketches appended in order and decided by one worker: the same decisions for any
   * number of workers.
   *
   * @throws {TypeError | RangeError} for an element that is not a string, or bad options.
   */
  async decideTexts(texts: readonly string[] | Iterable<string>, options?: DecideTextsOptions): Promise<MinHashDecisions> {
    if (options !== undefined) checkOptions(options, DECIDE_TEXTS_OPTIONS, 'pool.decideTexts');
    const chunks: Promise<Uint8Array>[] = [];
    let batch: string[] = [];
    let units = 0;
    const submit = (): void => {
      const result = this.#workers.run<Uint8Array>({ op: 'sketchTexts', texts: batch });
      result.catch(() => undefined);
      chunks.push(result);
      batch = [];
      units = 0;
    };
    let index = 0;
    for (const text of checkTexts(texts, false) as Iterable<unknown>) {
      if (typeof text !== 'string') throw new TypeError(`texts[${index}] must be a string, got ${describe(text)}`);
      index++;
      batch.push(text);
      units += text.length;
      if (units >= CHUNK_UNITS || batch.length >= CHUNK_TEXTS) submit();
    }
    if (batch.length > 0) submit();
    const sketched = await Promise.all(chunks);
    // One worker appends the chunks in order and decides: this thread holds no instance.
    return this.#workers.run<MinHashDecisions>({ op: 'decideSketches', chunks: sketched, options }, sketched.map((bytes) => bytes.buffer as ArrayBuffer));
  }

  /**
   * One slice per lane, each a share of every table's (or part's) runs; the direct search
   * (filter 0, chosen only for small inputs) is a single run, for one worker.
   */
  #slices(filter: number): { index: number; count: number }[] {
    const count = filter === 0 ? 1 : this.#workers.lanes;
    return Array.from({ length: count }, (_, index) => ({ index, count }));
  }

  /**
   * A new, empty index over the workers: {@link ShardedIndex}, the `SimHashIndex` API with
   * promises, its entries spread over `options.shards` shards (default: one per worker), each
   * held `options.replicas` times (default 1) to share queries among more workers.
   *
   * @throws {TypeError | RangeError} for invalid options.
   */
  async createIndex(options: ShardedIndexOptions): Promise<ShardedIndex> {
    return ShardedIndex.create(this.#workers, () => this.#nextIndex++, options);
  }

  /**
   * The index saved in `bytes` (by {@link ShardedIndex.serialize} or `SimHashIndex.serialize`
   * of either entry), spread over `options.shards` shards (default: one per worker) of
   * `options.replicas` copies each (default 1), as {@link Pool.createIndex} does.
   *
   * @throws {TypeError} unless `bytes` is a `Uint8Array`; an `IndexFormatError` for bytes that
   * are not a saved index.
   */
  async loadIndex(bytes: Uint8Array, options: { shards?: number; replicas?: number } = {}): Promise<ShardedIndex> {
    return ShardedIndex.load(this.#workers, () => this.#nextIndex++, bytes, options);
  }

  /**
   * Stops the workers. Calls still running are rejected; later calls reject. Idempotent.
   */
  close(): Promise<void> {
    return this.#workers.close();
  }

  /** Same as {@link Pool.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Checks that `chunks` is an iterable or an async iterable (its elements are checked as read). */
function checkChunks<T>(chunks: T): T {
  if (chunks === null || typeof chunks !== 'object' || !(Symbol.iterator in chunks || Symbol.asyncIterator in chunks)) {
    throw new TypeError(`chunks must be an iterable or an async iterable of Uint8Array, got ${describe(chunks)}`);
  }
  return chunks;
}

/**
 * Checks the `texts` argument as the synchronous `fingerprintMany` does (an array or an
 * iterable), also accepting an async iterable when `allowAsync`.
 */
function checkTexts<T>(texts: T, allowAsync: boolean): T {
  const ok =
    texts !== null &&
    typeof texts === 'object' &&
    (Symbol.iterator in texts || (allowAsync && Symbol.asyncIterator in texts));
  if (!ok) {
    const what = allowAsync ? 'an array, an iterable or an async iterable of strings' : 'an array or an iterable of strings';
    throw new TypeError(`texts must be ${what}, got ${describe(texts)}`);
  }
  return texts;
}
