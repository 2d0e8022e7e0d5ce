/**
 * The one WebAssembly instance of this realm: compiling, instantiating, the memory views, and
 * recovery from a trap.
 */

import type { InitSource, InitSyncSource } from '../shared/init-source.js';
import { wasmBase64 } from './generated/wasm-bytes.js';

/** The ABI this loader speaks; a module reporting another version is refused. */
export const ABI_VERSION = 2;

/** The raw exports of the module (see crates/simhash-wasm/src/lib.rs for the contracts). */
export interface WasmExports {
  readonly memory: WebAssembly.Memory;
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
  sh_find_all(fingerprints: number, len: number, distance: number, blocks: number, maxPairs: number, result: number): number;
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
  sh_text_features(text: number, len: number, unit: number, size: number, weighting: number, seed: bigint, result: number): number;
  sh_u64s_free(ptr: number, count: number): void;
  sh_find_clusters(fingerprints: number, len: number, distance: number, blocks: number, labels: number): number;
  sh_index_new(distance: number, blocks: number, handle: number): number;
  sh_index_free(handle: number): void;
  sh_index_answer(handle: number): number;
  sh_index_len(handle: number): number;
  sh_index_blocks(handle: number): number;
  sh_index_parameters(handle: number): number;
  sh_index_contains(handle: number, id: number): number;
  sh_index_insert(handle: number, id: number, fingerprint: bigint): number;
  sh_index_insert_many(handle: number, ids: number, fingerprints: number, len: number): number;
  sh_index_remove(handle: number, id: number): number;
  sh_index_set_blocks(handle: number, blocks: number): number;
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

function inlineBytes(): Uint8Array<ArrayBuffer> {
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
  const version = live.sh_abi_version();
  if (version !== ABI_VERSION) {
    throw new Error(`simhash-wasm: the WebAssembly module speaks ABI ${version}, this loader ABI ${ABI_VERSION}`);
  }
  compiled = module;
  current = live;
}

async function compile(source: InitSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof source === 'string' || source instanceof URL) return compile(fetch(source));
  if (ArrayBuffer.isView(source) || source instanceof ArrayBuffer) return WebAssembly.compile(source);
  const response = await source;
  if (!response.ok) {
    throw new Error(`simhash-wasm: fetching the WebAssembly module failed: ${response.status} ${response.statusText}`);
  }
  if (typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type') === 'application/wasm') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Compiles and instantiates the module once per realm; later calls return at once. After it
 * resolves, every function of the package is synchronous.
 *
 * @param source where the module comes from (default: the copy inlined in this package). Pass
 * a URL or `Response` for the separate `simhash-wasm/simhash.wasm` file (compiled as it
 * streams in), or a `WebAssembly.Module` where compiling from bytes is forbidden. A page's
 * Content-Security-Policy must allow `'wasm-unsafe-eval'` whichever the source.
 */
export function init(source?: InitSource): Promise<void> {
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
 */
export function initSync(source?: InitSyncSource): void {
  if (current !== null) return;
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source ?? inlineBytes());
  instantiate(module);
}

/** The live exports, instantiating on first use where synchronous compilation is allowed. */
export function wasm(): WasmExports {
  if (current !== null) return current;
  if (compiled !== null) {
    instantiate(compiled);
    return current!;
  }
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
