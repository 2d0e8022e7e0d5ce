/** The page's side of the fingerprinting worker: one promise per batch of inputs. */

import type { DocumentInfo, Histogram, Input, Reply, Request, Skipped } from './protocol.js';

/** What one batch added. */
export interface Added {
  readonly documents: readonly DocumentInfo[];
  readonly fingerprints: BigUint64Array;
  readonly skipped: readonly Skipped[];
  readonly histogram: Histogram;
}

interface Pending {
  readonly resolve: (added: Added) => void;
  readonly reject: (error: Error) => void;
  readonly onProgress: (done: number, total: number) => void;
}

/** Owns the worker; batches are fingerprinted one after another, in the order given. */
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

  /** Fingerprints `inputs`, calling `onProgress` as batches finish. */
  add(inputs: readonly Input[], onProgress: (done: number, total: number) => void): Promise<Added> {
    const id = this.#nextId++;
    return new Promise<Added>((resolve, reject) => {
      if (this.#failure !== null) {
        reject(this.#failure);
        return;
      }
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#send({ type: 'add', id, inputs });
    });
  }

  /** Forgets every document so far. */
  clear(): void {
    this.#send({ type: 'clear' });
  }

  #send(request: Request): void {
    this.#worker.postMessage(request);
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
    else pending.resolve({ documents: reply.documents, fingerprints: reply.fingerprints, skipped: reply.skipped, histogram: reply.histogram });
  }
}
