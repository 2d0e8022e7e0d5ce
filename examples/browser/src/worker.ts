/**
 * The fingerprinting worker: reads dropped files, fingerprints them in batches with a progress
 * report after each, and measures the distance distribution, all off the page's thread so that
 * a large drop never freezes the page. It keeps every fingerprint so far; texts are not kept.
 */

import { fingerprintMany, init } from 'simhash-wasm/slim';
import wasmUrl from 'simhash-wasm/simhash.wasm?url';
// The command line's own rule, so that the page and `simhash-wasm dedup` skip the same files.
import { BINARY_PROBE_BYTES, looksBinary } from '../../../ts/shared/binary.js';
import { distanceHistogram } from './histogram.js';
import type { DocumentInfo, Input, Reply, Request, Skipped } from './protocol.js';
import { TEXT_OPTIONS } from './settings.js';

/** Characters per batch: small enough for a smooth progress bar, large enough to cost nothing. */
const BATCH_CHARACTERS = 256 * 1024;
const SNIPPET_CHARACTERS = 160;

/** The part of a dedicated worker's global scope used here (the project's lib is DOM's). */
interface WorkerScope {
  postMessage(message: Reply, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<Request>) => void): void;
}

const scope = globalThis as unknown as WorkerScope;

// Compiling starts with the worker, while the first files are still being read; the browser's
// cache serves the file the page fetched too.
const ready = init(wasmUrl);
// A failure is reported to each request that awaits `ready`; this only keeps it from also being
// logged as unhandled before the first request arrives.
ready.catch(() => undefined);
let all = new BigUint64Array(0);

const size = (input: Input): number => (input.kind === 'file' ? input.file.size : input.text.length);

/** The input's text, or why it is not a document. */
async function read(input: Input): Promise<{ text: string } | { reason: string }> {
  if (input.kind === 'text') return input;
  try {
    // Only the first bytes are read before deciding, so a large binary file costs nothing.
    const head = new Uint8Array(await input.file.slice(0, BINARY_PROBE_BYTES).arrayBuffer());
    if (looksBinary(head)) return { reason: 'binary file' };
    return { text: await input.file.text() };
  } catch (error) {
    return { reason: `could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}

function snippet(text: string): string {
  const head = text.slice(0, SNIPPET_CHARACTERS * 2).replace(/\s+/g, ' ').trim();
  return head.length > SNIPPET_CHARACTERS ? `${head.slice(0, SNIPPET_CHARACTERS)}…` : head;
}

async function add(id: number, inputs: readonly Input[]): Promise<void> {
  await ready;
  const total = inputs.reduce((sum, input) => sum + size(input), 0);
  const documents: DocumentInfo[] = [];
  const skipped: Skipped[] = [];
  const fingerprints = new BigUint64Array(inputs.length);
  let batch: string[] = [];
  let batchCharacters = 0;
  let done = 0;
  let doneInBatch = 0;
  const flush = (): void => {
    fingerprints.set(fingerprintMany(batch, TEXT_OPTIONS), documents.length - batch.length);
    done += doneInBatch;
    batch = [];
    batchCharacters = 0;
    doneInBatch = 0;
    scope.postMessage({ type: 'progress', id, done, total });
  };
  for (const input of inputs) {
    const outcome = await read(input);
    doneInBatch += size(input);
    if ('reason' in outcome) {
      skipped.push({ name: input.name, reason: outcome.reason });
      continue;
    }
    const { text } = outcome;
    documents.push({ name: input.name, characters: text.length, snippet: snippet(text) });
    batch.push(text);
    batchCharacters += text.length;
    if (batchCharacters >= BATCH_CHARACTERS) flush();
  }
  flush();
  const added = fingerprints.slice(0, documents.length);
  const grown = new BigUint64Array(all.length + added.length);
  grown.set(all);
  grown.set(added, all.length);
  all = grown;
  // Documents without words all share the fingerprint 0 and would pile up at distance 0.
  const histogram = distanceHistogram(all.filter((fingerprint) => fingerprint !== 0n));
  scope.postMessage({ type: 'added', id, documents, fingerprints: added, skipped, histogram }, [added.buffer, histogram.counts.buffer]);
}

async function handle(request: Request): Promise<void> {
  if (request.type === 'clear') {
    all = new BigUint64Array(0);
    return;
  }
  try {
    await add(request.id, request.inputs);
  } catch (error) {
    scope.postMessage({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
}

// One request at a time, in order: a clear must not land in the middle of an add.
let queue = Promise.resolve();
scope.addEventListener('message', (event) => {
  queue = queue.then(() => handle(event.data));
});
