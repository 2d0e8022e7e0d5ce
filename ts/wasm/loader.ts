/**
 * The one WebAssembly instance of this realm: loading the module (the inlined copy by default;
 * other sources are compiled by compile.ts), instantiating, the memory views, and recovery from
 * a trap.
 */

import { checkSourceKind, type InitSource, type InitSyncSource } from '../shared/init-source.js';
import { describe } from '../shared/validate.js';
import { checkSource, compile, explainCompileError, isBytes, ownedBytes } from './compile.js';
import { wasmBase64 } from './generated/wasm-bytes.js';
import { ABI_VERSION, shareModule } from './realm-module.js';

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
  sh_text_sketches_new(): number;
  sh_text_sketches_free(handle: number): void;
  sh_text_sketches_len(handle: number): number;
  sh_text_sketches_add(handle: number, texts: number, len: number, offsets: number, offsetsLen: number): number;
  sh_text_sketches_kinds(handle: number, out: number, len: number): number;
  sh_text_sketches_truncate(handle: number, len: number): void;
  sh_text_sketches_decide(handle: number, order: number, len: number, representative: number, similarity: number, rule: number): number;
  sh_text_sketches_export(handle: number, result: number): number;
  sh_bytes_free(ptr: number, len: number): void;
  sh_text_sketches_append(handle: number, bytes: number, len: number): number;
  sh_text_index_new(templates: number, handle: number): number;
  sh_text_index_free(handle: number): void;
  sh_text_index_answer(handle: number): number;
  sh_text_index_count(handle: number, what: number): number;
  sh_text_index_contains(handle: number, id: number): number;
  sh_text_index_remove(handle: number, id: number): number;
  sh_text_index_decide_many(handle: number, ids: number, texts: number, len: number, offsets: number, offsetsLen: number, representative: number, similarity: number): number;
  sh_text_index_query(handle: number, text: number, len: number): number;
  sh_text_index_add_many(handle: number, ids: number, texts: number, len: number, offsets: number, offsetsLen: number): number;
  sh_text_index_save(handle: number): number;
  sh_text_index_release_bytes(handle: number): void;
  sh_text_index_load(bytes: number, len: number, handle: number): number;
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
  shareModule(module);
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
    dropIfTrapped(error, live);
    throw error;
  }
}

/**
 * What {@link withInstance} does when its body throws `error` against `live`, for a hot path
 * that inlines it rather than allocate a closure per call.
 */
export function dropIfTrapped(error: unknown, live: WasmExports): void {
  if (error instanceof WebAssembly.RuntimeError && current === live) {
    current = null;
    generation++;
    views = null;
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
