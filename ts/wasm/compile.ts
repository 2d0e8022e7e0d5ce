/**
 * From what `init` is given to a compiled `WebAssembly.Module`: bytes, a `Response`, a URL
 * (fetched, or read from disk for `file:` in Node) or a module as it is. Apart from the loader,
 * so that the pool can compile the module without reaching the copy inlined in the package.
 */

import { checkSourceKind, type InitSource, type ResponseLike, type UrlLike } from '../shared/init-source.js';
import { describe } from '../shared/validate.js';

/** The module's bytes, as `init` and `initSync` take them. */
export type Bytes = ArrayBuffer | ArrayBufferView;

/** Whether `source` is bytes (an `ArrayBuffer` or a view of one). */
export function isBytes(source: unknown): source is Bytes {
  return source instanceof ArrayBuffer || ArrayBuffer.isView(source);
}

function isResponse(source: unknown): source is ResponseLike {
  return typeof source === 'object' && source !== null && typeof (source as ResponseLike).arrayBuffer === 'function' && 'ok' in source;
}

function isUrl(source: unknown): source is UrlLike {
  return typeof source === 'object' && source !== null && typeof (source as UrlLike).href === 'string' && typeof (source as UrlLike).protocol === 'string';
}

function isThenable(source: unknown): source is PromiseLike<unknown> {
  return typeof source === 'object' && source !== null && typeof (source as PromiseLike<unknown>).then === 'function';
}

const SOURCE_RULE = 'a URL (string or URL object), a Response or a promise of one, the bytes of simhash.wasm (ArrayBuffer or typed array) or a WebAssembly.Module';

/**
 * Checks what `init` was given before anything is fetched or compiled.
 *
 * @throws {TypeError} when `source` is none of the kinds `init` takes.
 */
export function checkSource(source: unknown): InitSource {
  checkSourceKind(source, 'init');
  if (typeof source === 'string' || isBytes(source) || source instanceof WebAssembly.Module || isResponse(source) || isUrl(source) || isThenable(source)) {
    return source;
  }
  throw new TypeError(`init: source must be ${SOURCE_RULE}, got ${describe(source)}`);
}

/** Copies the bytes of `source`: compiling from a view the caller may change is a race. */
export function ownedBytes(source: Bytes, name: string): Uint8Array<ArrayBuffer> {
  const view = source instanceof ArrayBuffer ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  if (view.byteLength === 0) throw new TypeError(`${name}: source is empty (0 bytes): it must be the bytes of simhash.wasm`);
  return view.slice();
}

/**
 * Rethrows what the engine says of a module it refused, of the same class, with the cause a user
 * can act on.
 */
export function explainCompileError(error: unknown, name: string): never {
  const message = error instanceof Error ? error.message : String(error);
  if (/disallowed|not allowed|Content.Security|unsafe-eval/i.test(message)) {
    const Kind = error instanceof Error ? (error.constructor as ErrorConstructor) : Error;
    throw new Kind(
      `${message} (simhash-wasm: this runtime refuses to compile WebAssembly from bytes. ` +
        "On a page, allow 'wasm-unsafe-eval' in the Content-Security-Policy; in Cloudflare Workers and other runtimes " +
        "that compile modules ahead of time, import simhash-wasm/simhash.wasm as a module and pass it: await init(module))",
      { cause: error },
    );
  }
  if (error instanceof WebAssembly.CompileError) {
    throw new TypeError(`${name}: source is not a valid WebAssembly module (${message}): it must be the bytes of simhash.wasm`, { cause: error });
  }
  throw error;
}

async function fileBytes(url: UrlLike): Promise<Uint8Array> {
  // Node's fetch refuses file: URLs. Read the file through Node's own module where there is one,
  // looked up at run time (and without the node: prefix, which browser bundlers flag) so that
  // bundles for the browser carry no Node import.
  type ReadFile = (path: URL) => Promise<Uint8Array>;
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => { readFile: ReadFile } } }).process;
  const fs = nodeProcess?.getBuiltinModule?.('fs/promises');
  if (fs === undefined) {
    throw new TypeError(`init: cannot read ${url.href}: file: URLs are read only in Node (20.16 or later); pass the file's bytes instead`);
  }
  return fs.readFile(new URL(url.href));
}

/**
 * Compiles the module from `source` (a module is returned as it is).
 *
 * @throws {TypeError} (as a rejection) when the bytes are not a WebAssembly module; the
 * engine's error, explained, when it refuses to compile from bytes; an `Error` when a fetch fails.
 */
export async function compile(source: InitSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (isBytes(source)) return compileBytes(ownedBytes(source, 'init'), 'init');
  if (typeof source === 'string' || isUrl(source)) {
    const url = isUrl(source) ? source : new URL(source, (globalThis as { location?: { href: string } }).location?.href);
    if (url.protocol === 'file:') return compileBytes(await fileBytes(url), 'init');
    return compile(fetch(url.href) as unknown as PromiseLike<ResponseLike>);
  }
  const response = await source;
  if (!isResponse(response)) throw new TypeError(`init: source resolved to ${describe(response)}, not a Response`);
  if (!response.ok) {
    throw new Error(`simhash-wasm: fetching the WebAssembly module failed: ${response.status} ${response.statusText}`);
  }
  if (typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type') === 'application/wasm') {
    try {
      return await WebAssembly.compileStreaming(response as unknown as Response);
    } catch (error) {
      explainCompileError(error, 'init');
    }
  }
  return compileBytes(new Uint8Array(await response.arrayBuffer()), 'init');
}

async function compileBytes(bytes: Uint8Array, name: string): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  } catch (error) {
    explainCompileError(error, name);
  }
}

