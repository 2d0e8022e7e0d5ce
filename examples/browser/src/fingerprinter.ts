/** The page's side of the fingerprinting worker: one promise per request. */

import type { DocumentInfo, Histogram, Input, Reply, Request, Signed, Skipped, Adaptive } from './protocol.js';

/** What one batch of inputs added. */
export interface Added {
  readonly documents: readonly DocumentInfo[];
  readonly fingerprints: BigUint64Array;
  readonly skipped: readonly Skipped[];
  readonly histogram: Histogram;
  /** Their MinHash signatures, when asked for and given (see {@link Fingerprinter.add}). */
  readonly signed: Signed | null;
  /** The length-adaptive decisions over every document so far. */
  readonly adaptive: Adaptive;
  /** How many workers fingerprinted them. */
  readonly workers: number;
  /** Why a pool was wanted and did not start, if it did not. */
  readonly poolFailure: string | null;
}

/** The worker's last answer to a request. */
type Answer = Extract<Reply, { readonly type: 'added' | 'signed' }>;

interface Pending {
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: Error) => void;
  readonly onProgress: (done: number, total: number) => void;
}

type Progress = (done: number, total: number) => void;

/** Owns the worker; requests are carried out one after another, in the order made. */
export class Fingerprinter {
  readonly #worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #failure: Error | null = null;

  constructor() {
    this.#worker.addEventListener('message', (event: MessageEvent<Reply>) => this.#receive(event.data));
    // A worker that fails to load (a blocked script, say) reports only this event.
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.#failure = new Error(`the fingerprinting worker failed: ${event.message || 'it could not be loaded'}`);
      for (const pending of this.#pending.values()) pending.reject(this.#failure);
      this.#pending.clear();
    });
  }

  /**
   * Fingerprints `inputs`, calling `onProgress` as batches finish; signs them for MinHash too
   * when `sign` (unless earlier documents are still unsigned: {@link sign} catches up). A drop
   * larger than `POOL_THRESHOLD` is fingerprinted by a pool of `threads` workers (1: never).
   */
  add(inputs: readonly Input[], options: { readonly sign: boolean; readonly threads: number }, onProgress: Progress): Promise<Added> {
    return this.#request((id) => ({ type: 'add', id, inputs, ...options }), onProgress).then((answer) => {
      if (answer.type !== 'added') throw new Error(`the worker answered a drop with ${answer.type}`);
      const { type: _type, id: _id, ...added } = answer;
      return added;
    });
  }

  /** Signs every document so far that has no MinHash signature yet. */
  sign(onProgress: Progress): Promise<Signed> {
    return this.#request((id) => ({ type: 'sign', id }), onProgress).then((answer) => {
      if (answer.type !== 'signed') throw new Error(`the worker answered a request to sign with ${answer.type}`);
      return answer.signed;
    });
  }

  /** Forgets every document so far. */
  clear(): void {
    this.#worker.postMessage({ type: 'clear' } satisfies Request);
  }

  #request(make: (id: number) => Request, onProgress: Progress): Promise<Answer> {
    const id = this.#nextId++;
    return new Promise<Answer>((resolve, reject) => {
      if (this.#failure !== null) {
        reject(this.#failure);
        return;
      }
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#worker.postMessage(make(id));
    });
  }

  #receive(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    if (pending === undefined) return;
    if (reply.type === 'progress') {
      pending.onProgress(reply.done, reply.total);
      return;
    }
    this.#pending.delete(reply.id);
    if (reply.type === 'failed') pending.reject(new Error(reply.message));
    else pending.resolve(reply);
  }
}
