/**
 * The one WebAssembly instance of this realm: compiling, instantiating, the memory views, and
 * recovery from a trap.
 */

import { checkSourceKind, type InitSource, type InitSyncSource, type ResponseLike, type UrlLike } from '../shared/init-source.js';
import { describe } from '../shared/validate.js';
import { wasmBase64 } from './generated/wasm-bytes.js';

/** The ABI this loader speaks; a module reporting another version is refused. */
export const ABI_VERSION = 6;

/** The raw exports of the module (see crates/simhash-wasm/src/lib.rs for the contracts). */
export interface WasmExports {
  // Structural, not `WebAssembly.Memory`: this file's declarations must compile without the DOM
  // library.
  readonly memory: { readonly buffer: ArrayBuffer };
  sh_abi_version(): number;
  sh_alloc(bytes: number): number;
  sh_free(ptr: number, bytes: number): void;
  sh_compute(hashes: number, len: number): bigint;
  sh_compute_weighted(hashes: number, weights: number, len: number): bigint;
  sh_compute_many(hashes: number, len: number, offsets: number, offsetsLen: number, out: number): number;
  sh_compute_many_weighted(
    hashes: number,
    weights: number,
    len: number,
    offsets: number,
    offsetsLen: number,
    out: number,
  ): number;
  sh_hamming_distances(query: bigint, fingerprints: number, len: number, out: number): number;
  sh_find_all(fingerprints: number, len: number, distance: number, filter: number, maxPairs: number, sliceIndex: number, sliceCount: number, result: number): number;
  sh_pairs_free(result: number): void;
  sh_text_fingerprint_many(
    texts: number,
    len: number,
    offsets: number,
    offsetsLen: number,
    unit: number,
    size: number,
    weighting: number,
    seed: bigint,
    out: number,
  ): number;
  sh_text_lowercase_ascii(text: number, len: number): void;
  sh_text_features(text: number, len: number, unit: number, size: number, weighting: number, seed: bigint, result: number): number;
  sh_u64s_free(ptr: number, count: number): void;
  sh_find_clusters(fingerprints: number, len: number, distance: number, filter: number, sliceIndex: number, sliceCount: number, labels: number): number;
  sh_index_new(distance: number, filter: number, handle: number): number;
  sh_index_free(handle: number): void;
  sh_index_answer(handle: number): number;
  sh_index_len(handle: number): number;
  sh_index_filter(handle: number): number;
  sh_index_parameters(handle: number): number;
  sh_index_contains(handle: number, id: number): number;
  sh_index_insert(handle: number, id: number, fingerprint: bigint): number;
  sh_index_insert_many(handle: number, ids: number, fingerprints: number, len: number): number;
  sh_index_remove(handle: number, id: number): number;
  sh_index_set_filter(handle: number, filter: number): number;
  sh_index_query(handle: number, fingerprint: bigint, distance: number, limit: number): number;
  sh_index_query_many(handle: number, fingerprints: number, len: number, distance: number, limit: number): number;
  sh_index_serialize(handle: number): number;
  sh_index_release_bytes(handle: number): void;
  sh_index_deserialize(bytes: number, len: number, handle: number): number;
  sh_minhash_many(features: number, len: number, offsets: number, offsetsLen: number, seed: bigint, out: number, outLen: number): number;
  sh_minhash_text_many(
    texts: number,
    len: number,
    offsets: number,
    offsetsLen: number,
    unit: number,
    size: number,
    seed: bigint,
    out: number,
    outLen: number,
  ): number;
  sh_minhash_datasketch_many(
    tokens: number,
    len: number,
    tokenOffsets: number,
    tokenOffsetsLen: number,
    documents: number,
    documentsLen: number,
    scheme: number,
    a: number,
    b: number,
    k: number,
    out: number,
    outLen: number,
  ): number;
}

let compiled: WebAssembly.Module | null = null;
let current: WasmExports | null = null;
let pending: Promise<void> | null = null;
/** Bumped each time a new instance replaces a trapped one; owned arrays remember theirs. */
let generation = 0;

/** The inlined module, or an error saying that this build of the package has none. */
function inlineBytes(): Uint8Array<ArrayBuffer> {
  if (wasmBase64 === null) {
    throw new TypeError(
      'simhash-wasm/slim has no inlined WebAssembly module: call init(source) first with the URL, bytes, Response or WebAssembly.Module of simhash-wasm/simhash.wasm',
    );
  }
  const binary = atob(wasmBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function instantiate(module: WebAssembly.Module): void {
  adopt(module, new WebAssembly.Instance(module, {}));
}

function adopt(module: WebAssembly.Module, instance: WebAssembly.Instance): void {
  const live = instance.exports as unknown as WasmExports;
  const version = typeof live.sh_abi_version === 'function' ? live.sh_abi_version() : undefined;
  if (version !== ABI_VERSION) {
    throw new TypeError(
      version === undefined
        ? 'simhash-wasm: the WebAssembly module given to init is not simhash-wasm (it has no sh_abi_version export)'
        : `simhash-wasm: the WebAssembly module speaks ABI ${version}, this loader ABI ${ABI_VERSION}: use the simhash.wasm of the same package version`,
    );
  }
  compiled = module;
  current = live;
}

type Bytes = ArrayBuffer | ArrayBufferView;

function isBytes(source: unknown): source is Bytes {
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

/** Checks what `init` was given before anything is fetched or compiled. */
function checkSource(source: unknown): InitSource {
  checkSourceKind(source, 'init');
  if (typeof source === 'string' || isBytes(source) || source instanceof WebAssembly.Module || isResponse(source) || isUrl(source) || isThenable(source)) {
    return source;
  }
  throw new TypeError(`init: source must be ${SOURCE_RULE}, got ${describe(source)}`);
}

/** Copies the bytes of `source`: compiling from a view the caller may change is a race. */
function ownedBytes(source: Bytes, name: string): Uint8Array<ArrayBuffer> {
  const view = source instanceof ArrayBuffer ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  if (view.byteLength === 0) throw new TypeError(`${name}: source is empty (0 bytes): it must be the bytes of simhash.wasm`);
  return view.slice();
}

/**
 * Rethrows what the engine says of a module it refused, of the same class, with the cause a user
 * can act on.
 */
function explainCompileError(error: unknown, name: string): never {
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

async function compile(source: InitSource): Promise<WebAssembly.Module> {
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

/**
 * Compiles and instantiates the module once per realm; later calls return at once. After it
 * resolves, every function of the package is synchronous.
 *
 * @param source where the module comes from (default: the copy inlined in this package). Pass
 * a URL or `Response` for the separate `simhash-wasm/simhash.wasm` file (compiled as it
 * streams in; `file:` URLs are read from disk in Node), or a `WebAssembly.Module` where
 * compiling from bytes is forbidden (Cloudflare Workers). A page's Content-Security-Policy must
 * allow `'wasm-unsafe-eval'` whichever the source.
 * @throws {TypeError} (as a rejection) when `source` is none of those, even when the module is
 * already loaded.
 */
export function init(source?: InitSource): Promise<void> {
  if (source !== undefined) {
    try {
      checkSource(source);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  if (current !== null) return Promise.resolve();
  pending ??= (async () => {
    // After a trap dropped the instance, the module compiled before serves again: runtimes
    // that refuse to compile bytes would refuse the inlined copy.
    const module = source === undefined && compiled !== null ? compiled : await compile(source ?? inlineBytes());
    // Not `new WebAssembly.Instance`: browsers refuse to instantiate synchronously on the main
    // thread above a module size (older Chromium: 4 KB, which this module exceeds).
    const instance = await WebAssembly.instantiate(module, {});
    if (current === null) adopt(module, instance);
  })().finally(() => {
    pending = null;
  });
  return pending;
}

/**
 * Compiles and instantiates the module synchronously (Node, workers, CommonJS). Idempotent.
 * Some browsers refuse synchronous compilation of a module this size on the main thread
 * (older Chromium: above 4 KB): use {@link init} there.
 *
 * @param source the module's bytes or a compiled module (default: the inlined copy).
 * @throws {TypeError} when `source` is neither, even when the module is already loaded, or
 * when its bytes are not simhash-wasm's module.
 */
export function initSync(source?: InitSyncSource): void {
  checkSourceKind(source, 'initSync');
  if (source !== undefined && !(isBytes(source) || source instanceof WebAssembly.Module)) {
    throw new TypeError(`initSync: source must be the bytes of simhash.wasm (ArrayBuffer or typed array) or a WebAssembly.Module, got ${describe(source)}`);
  }
  if (current !== null) return;
  let module: WebAssembly.Module;
  if (source instanceof WebAssembly.Module) {
    module = source;
  } else {
    try {
      module = new WebAssembly.Module(source === undefined ? inlineBytes() : ownedBytes(source, 'initSync'));
    } catch (error) {
      if (error instanceof TypeError) throw error;
      explainCompileError(error, 'initSync');
    }
  }
  instantiate(module);
}

/** The live exports, instantiating on first use where synchronous compilation is allowed. */
export function wasm(): WasmExports {
  if (current !== null) return current;
  if (compiled !== null) {
    instantiate(compiled);
    return current!;
  }
  // The slim build has nothing to compile: say what to pass, not that compiling failed.
  if (wasmBase64 === null) inlineBytes();
  try {
    initSync();
  } catch (cause) {
    throw new Error(
      'simhash-wasm is not initialised: await init() before the first call (this environment does not allow compiling WebAssembly synchronously)',
      { cause },
    );
  }
  return current!;
}

/** The generation of the live instance. */
export function instanceGeneration(): number {
  return generation;
}

/**
 * Runs `body` against the live instance. A trap leaves the instance's memory in an unknown
 * state, so it is dropped: the next call gets a fresh instance, and owned arrays of the old one
 * refuse further use.
 */
export function withInstance<T>(body: (live: WasmExports) => T): T {
  const live = wasm();
  try {
    return body(live);
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError && current === live) {
      current = null;
      generation++;
      views = null;
    }
    throw error;
  }
}

interface Views {
  readonly buffer: ArrayBuffer;
  readonly u8: Uint8Array;
  readonly u32: Uint32Array;
  readonly u64: BigUint64Array;
  readonly f64: Float64Array;
}

let views: Views | null = null;

/**
 * Typed views over the instance's memory. Re-created whenever the memory has grown (growth
 * detaches the old buffer), so never keep the result across a call that can allocate.
 */
export function memoryViews(live: WasmExports): Views {
  const buffer = live.memory.buffer;
  if (views === null || views.buffer !== buffer) {
    views = {
      buffer,
      u8: new Uint8Array(buffer),
      u32: new Uint32Array(buffer),
      u64: new BigUint64Array(buffer),
      f64: new Float64Array(buffer),
    };
  }
  return views;
}
