/**
 * The fingerprinting worker: reads dropped files, fingerprints them in batches with a progress
 * report after each (a large drop on a pool of workers of its own, one per core), signs them
 * for MinHash when asked, sketches them for the length-adaptive decision (`decideTexts`'s rule)
 * and decides over all of them, and measures the distance distribution, all off the page's
 * thread so that a large drop never freezes the page. It keeps every fingerprint, signature and
 * sketch so far, and each document's input (a file handle, or pasted text) to sign it later if
 * MinHash is chosen then; the texts of files are not kept.
 */

import type { Pool } from 'simhash-wasm/parallel';
import { fingerprintMany, init, minhashMany, TextSketches } from 'simhash-wasm/slim';
import wasmUrl from 'simhash-wasm/simhash.wasm?url';
// The command line's own rule, so that the page and `simhash-wasm dedup` skip the same files.
import { BINARY_PROBE_BYTES, looksBinary } from '../../../ts/shared/binary.js';
import { agreementHistogram, distanceHistogram } from './histogram.js';
import type { DocumentInfo, Input, Reply, Request, Signed, Skipped } from './protocol.js';
import { MINHASH_OPTIONS, MINHASH_PERMUTATIONS as K, POOL_THRESHOLD, TEXT_OPTIONS } from './settings.js';

/** Characters per batch: small enough for a smooth progress bar, large enough to cost nothing. */
const BATCH_CHARACTERS = 256 * 1024;
const SNIPPET_CHARACTERS = 160;
/**
 * Files read at once, in order. Reading a file is mostly waiting for the browser (a small file
 * can take a millisecond), so overlapping the reads keeps the fingerprinting fed.
 */
const READ_AHEAD = 32;
/** ...and at most this many bytes of them (but always one), so that large files are not all held at once. */
const READ_AHEAD_BYTES = 16 << 20;
/** Files up to this size are read in one go. */
const WHOLE_READ_BYTES = 1 << 20;
/** As `Blob.text()` decodes: UTF-8, a leading BOM dropped, bad bytes replaced. */
const utf8 = new TextDecoder();

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
/** The input of every document so far, in order. */
let kept: Input[] = [];
/** The signatures of documents `0 .. signed - 1`, back to back. */
let signatures = new Uint32Array(0);
let signed = 0;
/** Every document's sketch for the adaptive decision (made once the module is ready). */
let sketches: TextSketches | null = null;

const size = (input: Input): number => (input.kind === 'file' ? input.file.size : input.text.length);

/** A document's text, or why an input is not a document. */
type Outcome = { readonly text: string } | { readonly reason: string };

/** The input's text, or why it is not a document; never rejects. */
async function readInput(input: Input): Promise<Outcome> {
  if (input.kind === 'text') return input;
  try {
    const { file } = input;
    // Each read costs the worker a round trip to the browser, so a small file is read once;
    // of a large one, only the first bytes before deciding, so a large binary file costs nothing.
    if (file.size <= WHOLE_READ_BYTES) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (looksBinary(bytes.subarray(0, BINARY_PROBE_BYTES))) return { reason: 'binary file' };
      return { text: utf8.decode(bytes) };
    }
    if (looksBinary(new Uint8Array(await file.slice(0, BINARY_PROBE_BYTES).arrayBuffer()))) return { reason: 'binary file' };
    return { text: await file.text() };
  } catch (error) {
    return { reason: `could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}

function snippet(text: string): string {
  const head = text.slice(0, SNIPPET_CHARACTERS * 2).replace(/\s+/g, ' ').trim();
  return head.length > SNIPPET_CHARACTERS ? `${head.slice(0, SNIPPET_CHARACTERS)}…` : head;
}

/**
 * Each of `inputs` with what reading it gave, in order, with up to `READ_AHEAD` reads (and
 * `READ_AHEAD_BYTES`, or one file) under way.
 */
async function* readInOrder(inputs: readonly Input[]): AsyncGenerator<readonly [Input, Outcome], void, undefined> {
  const reads: Promise<Outcome>[] = [];
  let next = 0;
  let pendingBytes = 0;
  for (const input of inputs) {
    while (
      next < inputs.length &&
      reads.length < READ_AHEAD &&
      (reads.length === 0 || pendingBytes + size(inputs[next]!) <= READ_AHEAD_BYTES)
    ) {
      pendingBytes += size(inputs[next]!);
      reads.push(readInput(inputs[next++]!));
    }
    const outcome = await reads.shift()!;
    pendingBytes -= size(input);
    yield [input, outcome];
  }
}

/** What reading a request's inputs found so far. */
interface Reading {
  readonly documents: DocumentInfo[];
  /** The input of each document. */
  readonly inputs: Input[];
  /** `ends[d]`: the size of the inputs read up to and including document d's. */
  readonly ends: number[];
  readonly skipped: Skipped[];
}

/** Reads `inputs` in order, recording each in `into`, and yields the texts of the documents. */
async function* documentTexts(inputs: readonly Input[], into: Reading): AsyncGenerator<string, void, undefined> {
  let consumed = 0;
  for await (const [input, outcome] of readInOrder(inputs)) {
    consumed += size(input);
    if ('reason' in outcome) {
      into.skipped.push({ name: input.name, reason: outcome.reason });
      continue;
    }
    into.documents.push({ name: input.name, characters: outcome.text.length, snippet: snippet(outcome.text) });
    into.inputs.push(input);
    into.ends.push(consumed);
    yield outcome.text;
  }
}

/** A pool of `threads` workers, or why there is none (a browser without workers in workers). */
async function startPool(threads: number): Promise<{ pool: Pool | null; failure: string | null }> {
  try {
    // Loaded with the first large drop: most drops never need it.
    const { createPool } = await import('simhash-wasm/parallel');
    return { pool: await createPool({ threads }), failure: null };
  } catch (error) {
    return { pool: null, failure: error instanceof Error ? error.message : String(error) };
  }
}

async function add(id: number, inputs: readonly Input[], sign: boolean, threads: number): Promise<void> {
  await ready;
  const total = inputs.reduce((sum, input) => sum + size(input), 0);
  // The pool has no MinHash: a drop to sign as well stays here, in one pass over its texts.
  const { pool, failure } = threads > 1 && !sign && total > POOL_THRESHOLD ? await startPool(threads) : { pool: null, failure: null };
  // Signatures go to the page in order; if earlier documents still lack theirs, a later
  // request signs them all.
  const signing = sign && signed === kept.length;
  const reading: Reading = { documents: [], inputs: [], ends: [], skipped: [] };
  const { documents, skipped, ends } = reading;
  const fingerprints = new BigUint64Array(inputs.length);
  const newSignatures = signing ? new Uint32Array(inputs.length * K) : null;
  const sketching = await sketchesOfKept();
  // Each text is also sketched for the adaptive decision, a batch at a time, as it goes by.
  let toSketch: string[] = [];
  async function* sketched(texts: AsyncGenerator<string, void, undefined>): AsyncGenerator<string, void, undefined> {
    for await (const text of texts) {
      toSketch.push(text);
      if (toSketch.length >= 256) {
        sketching.add(toSketch);
        toSketch = [];
      }
      yield text;
    }
    sketching.add(toSketch);
    toSketch = [];
  }
  const texts = sketched(documentTexts(inputs, reading));
  let at = 0;
  const report = (): void => scope.postMessage({ type: 'progress', id, done: at === 0 ? 0 : ends[at - 1]!, total });
  if (pool !== null) {
    try {
      for await (const chunk of pool.fingerprintStream(texts, TEXT_OPTIONS)) {
        fingerprints.set(chunk, at);
        at += chunk.length;
        report();
      }
    } finally {
      await pool.close();
    }
  } else {
    let batch: string[] = [];
    let batchCharacters = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      fingerprints.set(fingerprintMany(batch, TEXT_OPTIONS), at);
      newSignatures?.set(minhashMany(batch, MINHASH_OPTIONS), at * K);
      at += batch.length;
      batch = [];
      batchCharacters = 0;
      report();
    };
    for await (const text of texts) {
      batch.push(text);
      batchCharacters += text.length;
      if (batchCharacters >= BATCH_CHARACTERS) flush();
    }
    flush();
  }
  scope.postMessage({ type: 'progress', id, done: total, total });
  const added = fingerprints.slice(0, documents.length);
  const grown = new BigUint64Array(all.length + added.length);
  grown.set(all);
  grown.set(added, all.length);
  all = grown;
  const from = kept.length;
  kept = kept.concat(reading.inputs);
  const signedNow = newSignatures === null ? null : keepSignatures(from, newSignatures.subarray(0, documents.length * K));
  // Documents without words all share the fingerprint 0 and would pile up at distance 0.
  const histogram = distanceHistogram(all.filter((fingerprint) => fingerprint !== 0n));
  const adaptive = sketching.decide();
  const transfer = [added.buffer, histogram.counts.buffer, adaptive.representative.buffer, adaptive.similarity.buffer];
  if (signedNow !== null) transfer.push(signedNow.signatures.buffer, signedNow.agreement.counts.buffer);
  const workers = pool?.threads ?? 1;
  scope.postMessage(
    { type: 'added', id, documents, fingerprints: added, skipped, histogram, signed: signedNow, adaptive, workers, poolFailure: failure },
    transfer,
  );
}

/**
 * Keeps `added`, the signatures of documents `from` onwards (the last of them all), and returns
 * a copy of them for the page, with the agreement of every two documents with words.
 */
function keepSignatures(from: number, added: Uint32Array): Signed {
  const grown = new Uint32Array(from * K + added.length);
  grown.set(signatures.subarray(0, from * K));
  grown.set(added, from * K);
  signatures = grown;
  signed = kept.length;
  // Documents without words all sign as 0xFFFFFFFF everywhere and would pile up at agreement 1.
  const withWords = [...all.keys()].filter((d) => all[d] !== 0n);
  return { from, signatures: added.slice(), agreement: agreementHistogram(signatures, K, withWords) };
}

/**
 * The sketches of every document kept so far: those made as they were added, or, after an add
 * that failed part way (its documents were sketched, not kept), made again by reading each.
 */
async function sketchesOfKept(): Promise<TextSketches> {
  if (sketches !== null && sketches.length === kept.length) return sketches;
  sketches?.free();
  const fresh = new TextSketches();
  for await (const [input, outcome] of readInOrder(kept)) {
    if ('reason' in outcome) throw new Error(`${input.name} could not be read again (${outcome.reason})`);
    fresh.add([outcome.text]);
  }
  sketches = fresh;
  return fresh;
}

/** Signs every document without a signature, reading each again. */
async function signKept(id: number): Promise<void> {
  await ready;
  const from = signed;
  const todo = kept.slice(from);
  const total = todo.reduce((sum, input) => sum + size(input), 0);
  const added = new Uint32Array(todo.length * K);
  let batch: string[] = [];
  let batchCharacters = 0;
  let at = 0;
  let done = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    added.set(minhashMany(batch, MINHASH_OPTIONS), at * K);
    at += batch.length;
    batch = [];
    batchCharacters = 0;
    scope.postMessage({ type: 'progress', id, done, total });
  };
  for await (const [input, outcome] of readInOrder(todo)) {
    if ('reason' in outcome) throw new Error(`${input.name} could not be read again for MinHash (${outcome.reason})`);
    done += size(input);
    batch.push(outcome.text);
    batchCharacters += outcome.text.length;
    if (batchCharacters >= BATCH_CHARACTERS) flush();
  }
  flush();
  const signedNow = keepSignatures(from, added);
  scope.postMessage({ type: 'signed', id, signed: signedNow }, [signedNow.signatures.buffer, signedNow.agreement.counts.buffer]);
}

async function handle(request: Request): Promise<void> {
  if (request.type === 'clear') {
    all = new BigUint64Array(0);
    kept = [];
    signatures = new Uint32Array(0);
    signed = 0;
    sketches?.free();
    sketches = null;
    return;
  }
  try {
    if (request.type === 'add') await add(request.id, request.inputs, request.sign, request.threads);
    else await signKept(request.id);
  } catch (error) {
    scope.postMessage({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
}

// One request at a time, in order: a clear must not land in the middle of an add.
let queue = Promise.resolve();
scope.addEventListener('message', (event) => {
  queue = queue.then(() => handle(event.data));
});
