/**
 * A writer and reader under load for the fault tests: adds batches of new entries and queries
 * entries it was told were stored, timing every call, until stopped. What it records is checked
 * against an in-memory index afterwards.
 */
import { expect } from 'vitest';
import type { RedisSimHashIndex } from '../../ts/redis/redis-index.js';
import { RedisIndexError } from '../../ts/redis/errors.js';
import { SimHashIndex } from '../../ts/wasm/simhash-index.js';
import { SplitMix64 } from '../oracle.js';

export interface Batch {
  readonly ids: Uint32Array;
  readonly values: BigUint64Array;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class Workload {
  /** Batches whose addMany resolved. */
  readonly acked: Batch[] = [];
  /** Batches whose addMany rejected: stored in part, or not at all. */
  readonly unacked: Batch[] = [];
  /** Every error, by kind. */
  readonly errors = new Map<string, number>();
  /** Longest call, in milliseconds. */
  slowest = 0;
  /** Queries answered, and those whose answer was not exactly the entry stored before they were sent. */
  answered = 0;
  wrong = 0;
  readonly #index: RedisSimHashIndex;
  readonly #rng: SplitMix64;
  #next: number;
  #stopped = false;
  #running: Promise<void> | undefined;

  constructor(index: RedisSimHashIndex, firstId: number, seed: bigint) {
    this.#index = index;
    this.#next = firstId;
    this.#rng = new SplitMix64(seed);
  }

  /** Starts the loop. */
  start(): this {
    this.#running = this.#loop();
    return this;
  }

  /** Calls that succeeded since `from` (acked batches and answered queries). */
  get successes(): number {
    return this.acked.length + this.answered;
  }

  /** Resolves once `count` more calls have succeeded, or rejects after `ms`. */
  async progress(count: number, ms: number): Promise<void> {
    const target = this.successes + count;
    const deadline = Date.now() + ms;
    while (this.successes < target) {
      if (Date.now() > deadline) throw new Error(`no progress: ${this.successes} of ${target} calls succeeded; errors ${JSON.stringify([...this.errors])}`);
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      const ids = Uint32Array.from({ length: 50 }, () => this.#next++);
      const batch = { ids, values: BigUint64Array.from(ids, () => this.#rng.next()) };
      if (await this.#timed(() => this.#index.addMany(batch.ids, batch.values))) this.acked.push(batch);
      else this.unacked.push(batch);
      if (this.acked.length === 0) continue;
      const pick = this.acked[Number(this.#rng.next() % BigInt(this.acked.length))]!;
      const k = Number(this.#rng.next() % 50n);
      let answer: { ids: ArrayLike<number> } | undefined;
      if (await this.#timed(async () => (answer = await this.#index.query(pick.values[k]!, { distance: 0 })))) {
        this.answered++;
        // Values are random 64-bit numbers: at distance 0 the answer is the entry alone.
        if (Array.from(answer!.ids).join() !== String(pick.ids[k])) this.wrong++;
      }
    }
  }

  /** Runs a call, timing it; whether it succeeded (a failure must be a RedisIndexError). */
  async #timed(call: () => Promise<unknown>): Promise<boolean> {
    const started = Date.now();
    try {
      await call();
      return true;
    } catch (error) {
      if (!(error instanceof RedisIndexError)) throw error;
      this.errors.set(error.kind, (this.errors.get(error.kind) ?? 0) + 1);
      // Failing fast while the servers are away must not spin.
      await sleep(20);
      return false;
    } finally {
      this.slowest = Math.max(this.slowest, Date.now() - started);
    }
  }
}

/**
 * After the fault: every acknowledged entry is there with its fingerprint; the failed batches,
 * written again, complete; then the index answers every stored value exactly as an in-memory
 * index holding the same entries, and its size agrees.
 */
export async function expectAcknowledgedKept(index: RedisSimHashIndex, workloads: readonly Workload[], distance: number): Promise<void> {
  const acked = workloads.flatMap((w) => w.acked);
  const ackedValues = BigUint64Array.from(acked.flatMap((b) => Array.from(b.values)));
  const found = await index.queryMany(ackedValues, { distance: 0 });
  const ackedIds = acked.flatMap((b) => Array.from(b.ids));
  const missing = ackedIds.filter((id, q) => !found.ids.subarray(found.offsets[q], found.offsets[q + 1]).includes(id));
  expect(missing, 'acknowledged entries lost').toEqual([]);
  const model = new SimHashIndex({ distance });
  try {
    for (const batch of acked) model.addMany(batch.ids, batch.values);
    for (const batch of workloads.flatMap((w) => w.unacked)) {
      await index.addMany(batch.ids, batch.values);
      model.addMany(batch.ids, batch.values);
    }
    const all = BigUint64Array.from(workloads.flatMap((w) => [...w.acked, ...w.unacked]).flatMap((b) => Array.from(b.values)));
    expect(await index.queryMany(all)).toEqual(model.queryMany(all));
    expect(await index.size()).toBe(model.size);
  } finally {
    model.free();
  }
}
