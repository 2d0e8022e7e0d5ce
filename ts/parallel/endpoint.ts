/**
 * A worker as the pool sees it, whatever made it: Node's `worker_threads`, or a module Web
 * Worker (browsers, Deno, Bun).
 */

import type { Ready, Request, Response } from './protocol.js';

/** One worker, running the pool's worker script. */
export interface Endpoint {
  /** Sends a request, moving (not copying) the buffers in `transfer`. */
  send(request: Request, transfer: readonly ArrayBuffer[]): void;
  /**
   * Whether the worker may keep the process alive: only while it has work, so that an idle
   * pool never holds Node open (a no-op where the platform has no such notion).
   */
  hold(busy: boolean): void;
  /** Stops the worker; resolves once it is gone. */
  terminate(): Promise<void>;
}

/** What an endpoint reports back. */
export interface EndpointEvents {
  response(response: Response): void;
  /** The worker failed (an uncaught error, an exit, a message it could not read); it is unusable. */
  failure(error: Error): void;
}

/** The worker script, next to this module in the package. */
function workerUrl(): URL {
  return new URL('./worker.js', import.meta.url);
}

/** A Web Worker as this module uses it: the DOM's type is not available in every setting. */
interface WebWorker {
  postMessage(message: unknown, transfer: readonly ArrayBuffer[]): void;
  addEventListener(type: 'message', listener: (event: { data: Response | Ready }) => void): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: { message?: string; preventDefault(): void }) => void): void;
  terminate(): void;
}

type WebWorkerConstructor = new (url: URL, options: { type: 'module'; name?: string }) => WebWorker;

/**
 * Starts a worker and resolves once its instance is ready.
 *
 * @throws when the worker cannot start or fails before it is ready.
 */
export async function spawn(events: EndpointEvents, name: string): Promise<Endpoint> {
  const WebWorkerClass = (globalThis as { Worker?: WebWorkerConstructor }).Worker;
  return WebWorkerClass === undefined ? spawnNode(events, name) : spawnWeb(WebWorkerClass, events, name);
}

async function spawnNode(events: EndpointEvents, name: string): Promise<Endpoint> {
  const { Worker } = await import('node:worker_threads');
  // The worker gets this process's flags except those only a main script may take.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type') && !flag.startsWith('--eval'));
  const worker = new Worker(workerUrl(), { name, execArgv });
  let ready = false;
  let failed = false;
  return new Promise<Endpoint>((resolve, reject) => {
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      if (ready) events.failure(error);
      else reject(error);
    };
    worker.on('message', (message: Response | Ready) => {
      if ('ready' in message) {
        ready = true;
        worker.unref();
        resolve({
          send: (request, transfer) => worker.postMessage(request, transfer as ArrayBuffer[]),
          hold: (busy) => (busy ? worker.ref() : worker.unref()),
          terminate: async () => {
            failed = true;
            await worker.terminate();
          },
        });
      } else {
        events.response(message);
      }
    });
    worker.on('error', (error) => fail(new Error(`simhash-wasm/parallel: worker ${name} threw: ${error.message}`, { cause: error })));
    worker.on('messageerror', (error) => fail(new Error(`simhash-wasm/parallel: worker ${name} could not read a message`, { cause: error })));
    worker.on('exit', (code) => fail(new Error(`simhash-wasm/parallel: worker ${name} exited (code ${code})`)));
  });
}

async function spawnWeb(WebWorkerClass: WebWorkerConstructor, events: EndpointEvents, name: string): Promise<Endpoint> {
  // Written out in full (not through `workerUrl`) so that bundlers see the worker and emit it.
  const worker = new WebWorkerClass(new URL('./worker.js', import.meta.url), { type: 'module', name });
  let ready = false;
  let failed = false;
  return new Promise<Endpoint>((resolve, reject) => {
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      worker.terminate();
      if (ready) events.failure(error);
      else reject(error);
    };
    worker.addEventListener('message', (event) => {
      const message = event.data;
      if ('ready' in message) {
        ready = true;
        resolve({
          send: (request, transfer) => worker.postMessage(request, transfer),
          hold: () => undefined,
          terminate: async () => {
            failed = true;
            worker.terminate();
          },
        });
      } else {
        events.response(message);
      }
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      fail(new Error(`simhash-wasm/parallel: worker ${name} threw: ${event.message ?? 'an error'}`));
    });
    worker.addEventListener('messageerror', () => fail(new Error(`simhash-wasm/parallel: worker ${name} could not read a message`)));
  });
}
