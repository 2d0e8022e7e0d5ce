/**
 * A worker as the pool sees it, whatever made it: Node's `worker_threads`, or a module Web
 * Worker (browsers, Deno, Bun).
 */

import type { CompiledModule } from '../shared/init-source.js';
import { nodeBuiltin } from './node-builtin.js';
import type { Ready, Request, Response, Setup } from './protocol.js';

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

/**
 * The worker script's file, next to this module in the package, for Node. Not written as a
 * literal inside `new URL(…, import.meta.url)`: bundlers take that form for an asset to copy,
 * and a browser bundle would carry this unbundled script (which never runs there) beside the
 * worker they build from the Web Worker form below. Node finds the file either way.
 */
const NODE_WORKER_FILE = './worker.js';

/** A Web Worker as this module uses it: the DOM's type is not available in every setting. */
interface WebWorker {
  postMessage(message: unknown, transfer: readonly ArrayBuffer[]): void;
  addEventListener(type: 'message', listener: (event: { data: Response | Ready }) => void): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: { message?: string; preventDefault(): void }) => void): void;
  terminate(): void;
}

/**
 * The platform's Web Worker class: browsers, Deno and Bun have one, Node (20 to 24) has none.
 * Declared here, as the global it is, rather than through the DOM library, which the package's
 * declarations must not need.
 */
declare const Worker: (new (url: URL, options: { type: 'module'; name?: string }) => WebWorker) | undefined;

/**
 * Starts a worker, gives it `module` to instantiate, and resolves once its instance is ready.
 *
 * @param module the `WebAssembly.Module` every worker instantiates.
 * @throws when the worker cannot start or fails before it is ready.
 */
export async function spawn(events: EndpointEvents, name: string, module: CompiledModule): Promise<Endpoint> {
  const setup: Setup = { module };
  return typeof Worker === 'function' ? spawnWeb(events, name, setup) : spawnNode(events, name, setup);
}

/**
 * A Node worker's options: this process's flags except those only a main script may take, and
 * the heap limit `--max-old-space-size` sets this process (a flag workers may not take), so
 * that a user who raises it for a big job raises it for the pool too.
 */
export function workerOptions(processArgv: readonly string[]): {
  execArgv: string[];
  resourceLimits?: { maxOldGenerationSizeMb: number };
} {
  const execArgv = processArgv.filter((flag) => !flag.startsWith('--input-type') && !flag.startsWith('--eval'));
  let heap: number | undefined;
  processArgv.forEach((flag, i) => {
    const match = /^--max[-_]old[-_]space[-_]size(?:=(\d+))?$/.exec(flag);
    if (match === null) return;
    const value = Number(match[1] ?? processArgv[i + 1]);
    if (Number.isInteger(value) && value > 0) heap = value;
  });
  return heap === undefined ? { execArgv } : { execArgv, resourceLimits: { maxOldGenerationSizeMb: heap } };
}

/** The flags an `ERR_WORKER_INVALID_EXEC_ARGV` error names, or null for any other error. */
export function refusedFlags(error: unknown): Set<string> | null {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') return null;
  const listed = /flags: (.*)$/.exec(error.message);
  return listed === null ? null : new Set(listed[1]!.split(', '));
}

async function spawnNode(events: EndpointEvents, name: string, setup: Setup): Promise<Endpoint> {
  const { Worker: NodeWorker } = await nodeBuiltin('worker_threads');
  // Nor is the base written in: webpack reads `new URL(x, import.meta.url)` with any x, and warns.
  const here = import.meta.url;
  const url = new URL(NODE_WORKER_FILE, here);
  const options = { name, ...workerOptions(process.execArgv) };
  let worker: InstanceType<typeof NodeWorker>;
  try {
    worker = new NodeWorker(url, options);
  } catch (error) {
    // Node refuses the flags that belong to a whole process (`--max-old-space-size`,
    // `--expose-gc`, `--title`, …) and names them: the worker runs without those.
    const refused = refusedFlags(error);
    if (refused === null) throw error;
    worker = new NodeWorker(url, { ...options, execArgv: options.execArgv.filter((flag) => !refused.has(flag)) });
  }
  worker.postMessage(setup);
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

async function spawnWeb(events: EndpointEvents, name: string, setup: Setup): Promise<Endpoint> {
  // The form bundlers (Vite, webpack 5, Parcel) recognise, to the letter: the global `Worker`,
  // a literal URL relative to `import.meta.url` and `type: 'module'`. They then bundle the
  // worker's script and emit it; anything else they copy or leave alone.
  const worker = new Worker!(new URL('./worker.js', import.meta.url), { type: 'module', name });
  worker.postMessage(setup, []);
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
