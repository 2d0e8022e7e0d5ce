/** Reading documents from sources: whole files, standard input, or JSON Lines records. */

import { constants } from 'node:buffer';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { JsonLinesFormat } from './args.js';
import { BINARY_PROBE_BYTES, looksBinary } from '../shared/binary.js';
import { parseRecord, tooLongLine } from '../shared/json-lines.js';
import { LineSplitter } from './jsonl.js';
import { describeError } from './problems.js';
import { type Source, sourceName } from './sources.js';

/** A document, or an input skipped, with the input bytes consumed since the previous item. */
export type Item =
  | {
      readonly kind: 'document';
      readonly id: string;
      readonly text: string;
      readonly bytes: number;
      /** A file's modification time, or a JSON Lines record's time field (`--keep-field`). */
      readonly time: number | undefined;
      /** Where a JSON Lines record is: `<input>:<line>`. */
      readonly where: string | undefined;
      /** A JSON Lines record's id field as the record holds it (`--id`); `undefined` when it has none, and `id` is then `where`. */
      readonly idValue?: string | number | undefined;
      /** Where a JSON Lines record is: its input's position among the sources, and its line (from 1). */
      readonly at?: readonly [source: number, line: number];
    }
  | { readonly kind: 'skipped'; readonly input: string; readonly reason: string; readonly bytes: number };

/**
 * Files read ahead of the one being fingerprinted: enough to hide per-file latency on a cold
 * cache, few enough that memory stays a handful of documents.
 */
const READ_AHEAD = 8;

/** Read size for JSON Lines streams. */
const CHUNK_BYTES = 1 << 20;

/**
 * Every document of `sources`, in order. Without `jsonl` each source is one document of at most
 * `maxBytes` bytes; with it, each non-blank line of each source is one. At most a few documents
 * are held at a time.
 */
export async function* readDocuments(
  sources: readonly Source[],
  jsonl: JsonLinesFormat | undefined,
  stdin: Readable,
  maxBytes: number,
): AsyncGenerator<Item> {
  if (jsonl === undefined) {
    yield* readAhead(sources, READ_AHEAD, (source) => readWhole(source, stdin, maxBytes));
  } else {
    for (const [index, source] of sources.entries()) yield* readJsonLines(source, index, jsonl, stdin);
  }
}

/** Like `sources.map(load)` awaited in order, with at most `depth` loads in flight. */
async function* readAhead<T, R>(items: readonly T[], depth: number, load: (item: T) => Promise<R>): AsyncGenerator<R> {
  const inFlight: Promise<R>[] = [];
  let next = 0;
  for (;;) {
    while (next < items.length && inFlight.length < depth) inFlight.push(load(items[next++] as T));
    const first = inFlight.shift();
    if (first === undefined) return;
    yield await first;
  }
}

/**
 * Reads one source as one document, streaming: the first KB decides whether it is binary before
 * more is read, and reading stops at `maxBytes`, so an endless or huge input costs at most that
 * much memory. Never rejects: a failure becomes a skipped item, so read-ahead loads cannot go
 * unhandled.
 */
async function readWhole(source: Source, stdin: Readable, maxBytes: number): Promise<Item> {
  const name = sourceName(source);
  const tooLarge = `larger than ${maxBytes} bytes (--max-bytes; split it, or use --jsonl)`;
  if (source.kind === 'file' && source.size !== undefined && source.size > maxBytes) {
    return { kind: 'skipped', input: name, reason: tooLarge, bytes: source.size };
  }
  const stream = source.kind === 'stdin' ? stdin : createReadStream(source.path, { highWaterMark: CHUNK_BYTES });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<unknown>) {
      const bytes = toBytes(chunk);
      if (total < BINARY_PROBE_BYTES && looksBinary(bytes.subarray(0, BINARY_PROBE_BYTES - total))) {
        stream.destroy();
        return { kind: 'skipped', input: name, reason: 'binary file', bytes: total + bytes.length };
      }
      total += bytes.length;
      if (total > maxBytes) {
        stream.destroy();
        return { kind: 'skipped', input: name, reason: tooLarge, bytes: total };
      }
      chunks.push(bytes);
    }
    const time = source.kind === 'file' ? source.modified : undefined;
    return { kind: 'document', id: name, text: decoder.decode(Buffer.concat(chunks, total)), bytes: total, time, where: undefined };
  } catch (error) {
    // Decoding can still fail on what fits in maxBytes but not in a JavaScript string.
    const reason = error instanceof RangeError ? `${tooLarge}: ${error.message}` : describeError(error);
    return { kind: 'skipped', input: name, reason, bytes: source.kind === 'file' ? (source.size ?? total) : total };
  }
}

const lineEncoder = new TextEncoder();

/** Replaces invalid UTF-8 with U+FFFD rather than failing, and drops a leading BOM. */
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Readable streams yield Buffers unless an encoding was set; standard input may have one. */
function toBytes(chunk: unknown): Uint8Array {
  return typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
}

async function* readJsonLines(source: Source, index: number, format: JsonLinesFormat, stdin: Readable): AsyncGenerator<Item> {
  const name = sourceName(source);
  const stream = source.kind === 'stdin' ? stdin : createReadStream(source.path, { highWaterMark: CHUNK_BYTES });
  // One decoder per stream: it carries a code point split between chunks.
  const streamDecoder = new TextDecoder('utf-8', { fatal: false });
  const lines = new LineSplitter();
  let lineNumber = 0;
  let probed = 0;
  let unreported = 0;

  function* records(texts: Iterable<string>): Generator<Item> {
    for (const line of texts) {
      lineNumber++;
      const parsed = parseRecord(line, format);
      if (parsed === null) continue;
      const bytes = unreported;
      unreported = 0;
      if ('reason' in parsed) yield { kind: 'skipped', input: `${name}:${lineNumber}`, reason: parsed.reason, bytes };
      else {
        const where = `${name}:${lineNumber}`;
        yield { kind: 'document', id: parsed.id === undefined ? where : String(parsed.id), text: parsed.text, bytes, time: parsed.time, where, idValue: parsed.id, at: [index, lineNumber] };
      }
    }
  }

  try {
    for await (const chunk of stream as AsyncIterable<unknown>) {
      const bytes = toBytes(chunk);
      if (probed < BINARY_PROBE_BYTES && looksBinary(bytes.subarray(0, BINARY_PROBE_BYTES - probed))) {
        stream.destroy();
        yield { kind: 'skipped', input: name, reason: 'binary file', bytes: unreported + bytes.length };
        return;
      }
      probed += bytes.length;
      unreported += bytes.length;
      yield* records(lines.push(streamDecoder.decode(bytes, { stream: true })));
    }
    yield* records(lines.push(streamDecoder.decode()));
    yield* records(lines.end());
  } catch (error) {
    yield { kind: 'skipped', input: name, reason: describeError(error), bytes: unreported };
  }
}

/** What {@link jsonLinesBytes} could not read: the reason, and the bytes it held back. */
export interface ReadFailure {
  readonly reason: string;
  readonly bytes: number;
}

/**
 * The bytes of a JSON Lines source, for a pool's workers to split and parse: whole lines, and
 * the last line when the source ends. A line longer than `maxLine` bytes (by default the longest
 * string V8 holds, which a worker could not decode) is dropped as it arrives and replaced by the
 * `tooLongLine` that says its length, so the worker reports it and reads on. A binary source
 * gives nothing; a source that fails while being read gives its complete lines only, as
 * {@link readDocuments} does. Either way `failed` hears why. Never throws for the source's sake.
 */
export async function* jsonLinesBytes(
  source: Source,
  stdin: Readable,
  failed: (failure: ReadFailure) => void,
  maxLine: number = constants.MAX_STRING_LENGTH,
): AsyncGenerator<Uint8Array> {
  const stream = source.kind === 'stdin' ? stdin : createReadStream(source.path, { highWaterMark: CHUNK_BYTES });
  let probed = 0;
  // Bytes after the last line end seen: a line is passed on only once it is complete.
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  // Bytes of a line too long to pass on, while it lasts; -1 otherwise.
  let dropped = -1;
  const tooLong = (bytes: number): Uint8Array => lineEncoder.encode(`${tooLongLine(`${bytes.toLocaleString('en')} bytes`)}\n`);
  try {
    for await (const chunk of stream as AsyncIterable<unknown>) {
      let bytes = toBytes(chunk);
      if (probed < BINARY_PROBE_BYTES && looksBinary(bytes.subarray(0, BINARY_PROBE_BYTES - probed))) {
        stream.destroy();
        failed({ reason: 'binary file', bytes: heldBytes + bytes.length });
        return;
      }
      probed += bytes.length;
      while (bytes.length > 0) {
        // The line this chunk begins (continuing what is held) may be too long, or may end here.
        const first = bytes.indexOf(0x0a);
        const line = (dropped >= 0 ? dropped : heldBytes) + (first === -1 ? bytes.length : first);
        if (line > maxLine) {
          held = [];
          heldBytes = 0;
          if (first === -1) {
            dropped = line;
            break;
          }
          dropped = -1;
          yield tooLong(line);
          bytes = bytes.subarray(first + 1);
          continue;
        }
        if (first === -1) {
          held.push(bytes);
          heldBytes += bytes.length;
          break;
        }
        // The lines after it are whole lines of this chunk: all shorter than the limit when the
        // chunk is (always, with chunks of a MiB), so they go on at once; else one at a time.
        const cut = bytes.length - first - 1 <= maxLine ? bytes.lastIndexOf(0x0a) : first;
        yield* held;
        yield bytes.subarray(0, cut + 1);
        held = [];
        heldBytes = 0;
        bytes = bytes.subarray(cut + 1);
      }
    }
    if (dropped >= 0) yield tooLong(dropped);
    else yield* held;
  } catch (error) {
    failed({ reason: describeError(error), bytes: heldBytes });
  }
}
