/**
 * The workers of a pool and the requests waiting for them: each request goes to the first
 * worker with room (or to the one worker holding its shard), a worker that fails is replaced,
 * and the requests it held are rejected with the reason.
 */

import { IndexFormatError, type IndexFormatProblem } from '../shared/index-format.js';
import type { CompiledModule } from '../shared/init-source.js';
import { spawn, type Endpoint } from './endpoint.js';
import { poolModule } from './pool-module.js';
import type { ErrorData, Operation, Response } from './protocol.js';

/**
 * Requests a worker holds at once: a second one waits in its own queue, so the worker starts it
 * without waiting for a round trip through this thread.
 */
const IN_FLIGHT = 2;

interface Task {
  readonly operation: Operation;
  readonly transfer: readonly ArrayBuffer[];
  /** The worker it must run on, or `undefined` for any. */
  readonly slot: number | undefined;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

class Slot {
  endpoint: Endpoint | null = null;
  /** Counts the workers this slot has had: a shard is lost when it changes. */
  generation = 0;
  readonly inFlight = new Map<number, Task>();
  readonly queue: Task[] = [];
  /** Why the slot has no worker and will get none (a replacement failed to start). */
  broken: Error | null = null;
}

/** Rebuilds an error a worker reported, with its class and message. */
export function rebuildError(data: ErrorData): Error {
  switch (data.name) {
    case 'TypeError':
      return new TypeError(data.message);
    case 'RangeError':
      return new RangeError(data.message);
    case 'IndexFormatError':
      return new IndexFormatError(data.problem as IndexFormatProblem, data.message);
    default: {
      const error = new Error(data.message);
      error.name = data.name;
      return error;
    }
  }
}

/** A fixed number of workers and their requests. */
export class WorkerSet {
  readonly #slots: Slot[];
  readonly #queue: Task[] = [];
  readonly #lanes: number;
  /** The module every worker instantiates, replacements included. */
  readonly #module: CompiledModule;
  #nextCall = 1;
  #closed = false;

  private constructor(size: number, lanes: number, module: CompiledModule) {
    this.#slots = Array.from({ length: size }, () => new Slot());
    this.#lanes = lanes;
    this.#module = module;
  }

  /**
   * Starts `size` workers, of which the first `lanes` take requests for any
   * worker; resolves once all are ready.
   *
   * @throws when there is no module to give them (see {@link poolModule}) or a worker fails to start.
   */
  static async start(size: number, lanes: number): Promise<WorkerSet> {
    const set = new WorkerSet(size, lanes, await poolModule());
    try {
      await Promise.all(set.#slots.map((_, s) => set.#startSlot(s)));
    } catch (error) {
      await set.close();
      throw error;
    }
    return set;
  }

  /** Number of workers. */
  get size(): number {
    return this.#slots.length;
  }

  /**
   * Workers one call keeps busy at once, and that take requests for any worker (the first
   * `lanes` still in service): no more than the cores, since more would only share them (and
   * a search split further repeats the per-slice work). The other workers hold the shards of
   * sharded indexes, which is what they are for.
   */
  get lanes(): number {
    return this.#lanes;
  }

  /** @internal Requests worker `slot` holds now, for the tests of how requests are dealt. */
  inFlight(slot: number): number {
    return this.#slots[slot]!.inFlight.size;
  }

  /** The generation of worker `slot`: it changes when the worker is replaced. */
  generation(slot: number): number {
    return this.#slots[slot]!.generation;
  }

  /**
   * Runs `operation` on a worker (worker `slot` when given) and resolves with its value.
   *
   * @throws the error the operation threw in the worker, with its class and message; an
   * `Error` naming the worker when the worker failed while holding it; an `Error` once the
   * pool is closed.
   */
  run<T>(operation: Operation, transfer: readonly ArrayBuffer[] = [], slot?: number): Promise<T> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise<T>((resolve, reject) => {
      const task: Task = { operation, transfer, slot, resolve: resolve as (value: unknown) => void, reject };
      if (slot === undefined) this.#queue.push(task);
      else this.#slots[slot]!.queue.push(task);
      this.#pump();
    });
  }

  /** Stops every worker; requests not yet answered are rejected. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const error = closedError();
    for (const task of this.#queue.splice(0)) task.reject(error);
    const stopping: Promise<void>[] = [];
    for (const slot of this.#slots) {
      for (const task of slot.queue.splice(0)) task.reject(error);
      for (const task of slot.inFlight.values()) task.reject(error);
      slot.inFlight.clear();
      if (slot.endpoint !== null) stopping.push(slot.endpoint.terminate());
      slot.endpoint = null;
    }
    await Promise.all(stopping);
  }

  async #startSlot(s: number): Promise<void> {
    const slot = this.#slots[s]!;
    const generation = ++slot.generation;
    const endpoint = await spawn(
      {
        response: (response) => this.#answer(slot, response),
        failure: (error) => {
          if (slot.generation === generation) this.#fail(s, error);
        },
      },
      `simhash-${s}`,
      this.#module,
    );
    if (this.#closed) {
      await endpoint.terminate();
      return;
    }
    slot.endpoint = endpoint;
    this.#pump();
  }

  #answer(slot: Slot, response: Response): void {
    const task = slot.inFlight.get(response.call);
    if (task === undefined) return;
    slot.inFlight.delete(response.call);
    if (slot.inFlight.size === 0) slot.endpoint?.hold(false);
    if (response.ok) task.resolve(response.value);
    else task.reject(rebuildError(response.error));
    this.#pump();
  }

  /** Worker `s` failed: its requests are rejected (its shards are gone) and it is replaced. */
  #fail(s: number, cause: Error): void {
    const slot = this.#slots[s]!;
    slot.endpoint = null;
    for (const task of slot.inFlight.values()) task.reject(workerFailed(task.operation, cause));
    slot.inFlight.clear();
    for (const task of slot.queue.splice(0)) task.reject(workerFailed(task.operation, cause));
    if (this.#closed) return;
    this.#startSlot(s).catch((error: unknown) => {
      slot.broken = error instanceof Error ? error : new Error(String(error));
      this.#pump();
    });
  }

  #pump(): void {
    // Breadth first: every worker gets one request before any gets a second, so the slices of
    // one call (queued together) land on different workers and run at once.
    for (let depth = 1; depth <= IN_FLIGHT; depth++) {
      let inService = 0;
      for (const slot of this.#slots) {
        const takesAny = slot.broken === null && inService++ < this.#lanes;
        const endpoint = slot.endpoint;
        if (endpoint === null || slot.inFlight.size >= depth) continue;
        const task = slot.queue.shift() ?? (takesAny ? this.#queue.shift() : undefined);
        if (task === undefined) continue;
        const call = this.#nextCall++;
        if (slot.inFlight.size === 0) endpoint.hold(true);
        slot.inFlight.set(call, task);
        endpoint.send({ ...task.operation, call }, task.transfer);
      }
    }
    // With no worker left to run them, waiting requests would wait forever.
    if (this.#slots.every((slot) => slot.broken !== null)) {
      const reason = this.#slots[0]!.broken!;
      for (const task of this.#queue.splice(0)) task.reject(workerFailed(task.operation, reason));
    }
    for (const slot of this.#slots) {
      if (slot.broken !== null) for (const task of slot.queue.splice(0)) task.reject(workerFailed(task.operation, slot.broken));
    }
  }
}

function closedError(): Error {
  return new Error('simhash-wasm/parallel: the pool is closed');
}

function workerFailed(operation: Operation, cause: Error): Error {
  return new Error(`simhash-wasm/parallel: ${operation.op} failed because its worker failed: ${cause.message}`, { cause });
}
