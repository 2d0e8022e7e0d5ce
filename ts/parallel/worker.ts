/**
 * The script every pool worker runs, the same in Node (`worker_threads`) and in browsers,
 * Deno and Bun (module Web Workers): one WebAssembly instance, answering one request at a time.
 */

import { IndexFormatError } from '../shared/index-format.js';
import { decideAgainst, decideWithLabels } from '../shared/decide.js';
import { type JsonLinesFields, parseRecordBlock } from '../shared/json-lines.js';
import type { SimHashIndex as SimHashIndexType, TextOptions } from '../shared/types.js';
import { findClustersSlice } from '../wasm/clusters.js';
import { computeMany, computeManyWeighted } from '../wasm/compute.js';
import { findAllSlice } from '../wasm/find-all.js';
import { initSync } from '../wasm/loader.js';
import { SimHashIndex } from '../wasm/simhash-index.js';
import { featurelessPositions, fingerprintMany, fingerprintPacked } from '../wasm/text.js';
import { decideSketches, sketchTexts } from '../wasm/text-sketches.js';
import { minhashPacked } from '../wasm/minhash.js';
import { nodeBuiltin } from './node-builtin.js';
import type { ErrorData, JsonLinesBlock, Operation, Ready, Request, Response, Setup } from './protocol.js';

/** The side of a message channel a worker holds. */
interface Port {
  post(message: Response | Ready, transfer: readonly ArrayBuffer[]): void;
  listen(handler: (message: Setup | Request) => void): void;
}

/** A worker's own global scope on the web: only what this script uses. */
interface WebWorkerScope {
  postMessage(message: unknown, transfer: readonly ArrayBuffer[]): void;
  addEventListener(type: 'message', listener: (event: { data: Setup | Request }) => void): void;
}

/** The port of a Web Worker (browsers, Deno, Bun), or `undefined` in Node's workers. */
function webPort(): Port | undefined {
  const scope = globalThis as unknown as Partial<WebWorkerScope>;
  // Bun and Deno workers are Web Workers; only Node's have no `postMessage` global.
  if (typeof scope.postMessage !== 'function' || typeof scope.addEventListener !== 'function') return undefined;
  const web = scope as WebWorkerScope;
  return {
    post: (message, transfer) => web.postMessage(message, transfer),
    listen: (handler) => web.addEventListener('message', (event) => handler(event.data)),
  };
}

/** The port of a Node worker thread. */
async function nodePort(): Promise<Port> {
  const { parentPort } = await nodeBuiltin('worker_threads');
  if (parentPort === null) throw new Error('simhash-wasm/parallel: the worker script must run in a worker');
  const port = parentPort;
  return {
    post: (message, transfer) => port.postMessage(message, transfer as ArrayBuffer[]),
    listen: (handler) => port.on('message', handler),
  };
}

/** The indexes (shards) this worker holds, by the number the pool gave each. */
const indexes = new Map<number, SimHashIndexType>();

function indexNumbered(index: number): SimHashIndexType {
  const found = indexes.get(index);
  if (found === undefined) throw new Error(`simhash-wasm/parallel: this worker holds no index ${index}`);
  return found;
}

/** The buffer of a typed array, to transfer: every result here owns its whole buffer. */
function buffers(...views: ArrayBufferView[]): ArrayBuffer[] {
  return views.map((view) => view.buffer as ArrayBuffer);
}

/** Runs one operation: its value and the buffers to transfer rather than copy. */
function run(request: Operation): { value: unknown; transfer: ArrayBuffer[] } {
  switch (request.op) {
    case 'fingerprintMany': {
      const value = fingerprintPacked(request.texts, request.options);
      return { value, transfer: buffers(value) };
    }
    case 'minhashMany': {
      const value = minhashPacked(request.texts, request.options);
      return { value, transfer: buffers(value) };
    }
    case 'sketchTexts': {
      const value = sketchTexts(request.texts);
      return { value, transfer: buffers(value) };
    }
    case 'decideSketches': {
      const value = decideSketches(request.chunks, request.options);
      return { value, transfer: buffers(value.representative, value.similarity) };
    }
    case 'fingerprintJsonLines': {
      const value = fingerprintJsonLines(request.bytes, request.first, request.fields, request.options);
      return { value, transfer: buffers(value.lines, value.fingerprints, value.featureless) };
    }
    case 'computeMany': {
      const value =
        request.weights === undefined
          ? computeMany(request.hashes, request.offsets)
          : computeManyWeighted(request.hashes, request.weights, request.offsets);
      return { value, transfer: buffers(value) };
    }
    case 'findAllSlice': {
      const value = findAllSlice(request.fingerprints, request.options, request.slice);
      return { value, transfer: buffers(value.left, value.right, value.distance) };
    }
    case 'findClustersSlice': {
      const value = findClustersSlice(request.fingerprints, request.options, request.slice);
      return { value, transfer: buffers(value) };
    }
    case 'decideWithLabels': {
      const value = decideWithLabels(SimHashIndex, request.fingerprints, request.distance, request.labels, request.order);
      return { value, transfer: buffers(value.representative, value.distance) };
    }
    case 'decideAgainst': {
      const value = decideAgainst(SimHashIndex, request.distance, request.fingerprints, request.ids, request.found);
      return { value, transfer: buffers(value.representative, value.distance) };
    }
    case 'indexNew':
      indexes.set(request.index, new SimHashIndex(request.options));
      return { value: 0, transfer: [] };
    case 'indexLoad': {
      const index = SimHashIndex.deserialize(request.bytes);
      indexes.set(request.index, index);
      return { value: index.size, transfer: [] };
    }
    case 'indexAddMany': {
      const index = indexNumbered(request.index);
      index.addMany(request.ids, request.fingerprints);
      return { value: index.size, transfer: [] };
    }
    case 'indexRemove': {
      const index = indexNumbered(request.index);
      const removed = index.remove(request.id);
      return { value: { removed, size: index.size }, transfer: [] };
    }
    case 'indexHas':
      return { value: indexNumbered(request.index).has(request.id), transfer: [] };
    case 'indexQueryMany': {
      const value = indexNumbered(request.index).queryMany(request.fingerprints, request.options);
      return { value, transfer: buffers(value.offsets, value.ids, value.distances) };
    }
    case 'indexSerialize': {
      const value = indexNumbered(request.index).serialize();
      return { value, transfer: buffers(value) };
    }
    case 'indexFree':
      indexes.get(request.index)?.free();
      indexes.delete(request.index);
      return { value: 0, transfer: [] };
    case 'echo': {
      const payload = request.payload;
      const transfer = request.transferBack && ArrayBuffer.isView(payload) ? buffers(payload) : [];
      return { value: payload, transfer };
    }
    case 'crash':
      if (request.how === 'exit') {
        // Node ends just this worker's thread; a Web Worker cannot end itself observably, and
        // throws as below instead.
        const host = globalThis as { process?: { exit(code: number): never } };
        if (typeof host.process?.exit === 'function') host.process.exit(3);
      }
      // Thrown outside the request's handler, so that nothing catches it, and before the
      // worker reads its next request.
      queueMicrotask(() => {
        throw new Error('simhash-wasm/parallel: crash requested');
      });
      return { value: 0, transfer: [] };
  }
}

/** Decoders as a stream's would decode these bytes: the byte order mark dropped only at its start. */
const firstDecoder = new TextDecoder('utf-8', { fatal: false });
const laterDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function fingerprintJsonLines(
  bytes: Uint8Array,
  first: boolean,
  fields: JsonLinesFields,
  options: TextOptions | undefined,
): JsonLinesBlock {
  // Whole lines end at a `\n` byte, which never occurs inside a UTF-8 sequence: decoding blocks
  // one by one gives the text a decoder reading the whole stream gives.
  const block = parseRecordBlock((first ? firstDecoder : laterDecoder).decode(bytes), fields);
  const fingerprints = fingerprintMany(block.texts, options);
  return {
    lineCount: block.lineCount,
    lines: block.lines,
    fingerprints,
    ids: block.ids,
    featureless: featurelessPositions(block.texts, fingerprints, options),
    skipped: block.skipped,
  };
}

function errorData(error: unknown): ErrorData {
  if (error instanceof IndexFormatError) return { name: error.name, message: error.message, problem: error.problem };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** Answers one request. */
function answer(port: Port, request: Request): void {
  let response: Response;
  let transfer: ArrayBuffer[] = [];
  try {
    const done = run(request);
    response = { call: request.call, ok: true, value: done.value };
    transfer = done.transfer;
  } catch (error) {
    response = { call: request.call, ok: false, error: errorData(error) };
  }
  port.post(response, transfer);
}

/**
 * Serves the pool on `port`: the first message is the module to instantiate (see `Setup`), every
 * later one a request. Nothing else loads a module here: this script's graph must not reach the
 * copy inlined in the package, or a bundled worker would carry it.
 */
function serve(port: Port): void {
  let setUp = false;
  port.listen((message) => {
    if (setUp) {
      answer(port, message as Request);
      return;
    }
    setUp = true;
    // An error here fails the worker before it is ready, and the pool reports it.
    initSync((message as Setup).module);
    port.post({ ready: true }, []);
  });
}

// A Web Worker listens at once: a message that arrives before its listener is lost. Node keeps
// messages until the port has one. No top-level await: bundlers may build workers as classic
// scripts, which have none.
const web = webPort();
if (web === undefined) {
  void nodePort().then(serve);
} else {
  serve(web);
}
