/**
 * `--output FILE`: the JSON Lines inputs written again without the records removed, each line
 * byte for byte as it was read. The records are found by where they were read (input, line), so
 * repeated ids and records without one are told apart; the inputs are read a second time,
 * streaming, so memory holds five bytes per record and no text.
 */

import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { type FileHandle, mkdtemp, open, realpath, rename, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';
import { BINARY_PROBE_BYTES, looksBinary } from '../shared/binary.js';
import { type Source, sourceName } from './sources.js';

/**
 * Removes `path` (a file or a directory) if the process is interrupted (SIGINT, SIGTERM, SIGHUP)
 * before the returned function is called, then lets the signal end the process as it would have.
 */
function removedOnSignal(path: string): () => void {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const onSignal = (signal: NodeJS.Signals): void => {
    forget();
    rmSync(path, { recursive: true, force: true });
    process.kill(process.pid, signal);
  };
  const forget = (): void => {
    for (const signal of signals) process.off(signal, onSignal);
  };
  for (const signal of signals) process.once(signal, onSignal);
  return forget;
}

/** Read size of the second pass. */
const CHUNK_BYTES = 1 << 20;

/** Where each document (in the order the collector took them) was read: its input and line. */
export class RecordLines {
  #lines = new Uint32Array(1024);
  #count = 0;
  /** Per input, the number of documents read before it; an input not yet reached has none. */
  readonly #starts: number[] = [];

  /** Notes the next document: line `line` (from 1) of input `source` (inputs in order, each once). */
  note(source: number, line: number): void {
    while (this.#starts.length <= source) this.#starts.push(this.#count);
    if (this.#count === this.#lines.length) {
      const grown = new Uint32Array(this.#lines.length * 2);
      grown.set(this.#lines);
      this.#lines = grown;
    }
    this.#lines[this.#count++] = line;
  }

  /** Documents noted. */
  get length(): number {
    return this.#count;
  }

  /** The documents of input `source`: their positions from `first`, and their lines. */
  of(source: number): { readonly first: number; readonly lines: Uint32Array } {
    const first = this.#starts[source] ?? this.#count;
    const end = this.#starts[source + 1] ?? this.#count;
    return { first, lines: this.#lines.subarray(first, end) };
  }
}

/**
 * Which documents (positions in taking order, `featurelessAt` among them) are removed, from the
 * decisions over the documents with words: `representative[k]` is the kept one the k-th
 * document with words duplicates, or itself.
 */
export function removedDocuments(documents: number, featurelessAt: readonly number[], representative: Uint32Array): Uint8Array {
  const removed = new Uint8Array(documents);
  let k = 0;
  let next = 0;
  for (let position = 0; position < documents; position++) {
    if (next < featurelessAt.length && featurelessAt[next] === position) {
      next++;
      continue;
    }
    if (representative[k] !== k) removed[position] = 1;
    k++;
  }
  return removed;
}

/**
 * Standard input saved to a file as it arrives, so that `--output` can read it twice: `stream()`
 * reads it back; `remove()` deletes it.
 */
export async function spoolStandardInput(stdin: Readable): Promise<{ stream: () => Readable; remove: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'simhash-wasm-'));
  const path = join(directory, 'stdin.jsonl');
  const forget = removedOnSignal(directory);
  const remove = async (): Promise<void> => {
    forget();
    await rm(directory, { recursive: true, force: true });
  };
  try {
    await pipeline(stdin, createWriteStream(path));
  } catch (error) {
    await remove();
    throw new Error(`cannot save standard input for --output: ${(error as Error).message}`);
  }
  return { stream: () => createReadStream(path, { highWaterMark: CHUNK_BYTES }), remove };
}

/**
 * The file `--output` writes, opened before anything is read so that a path that cannot be
 * written fails the run at once: written beside its path and renamed over it at the end, so
 * that an input named as the output is read whole first and a failed run leaves no partial file.
 */
export class OutputFile {
  readonly #path: string;
  readonly #partial: string;
  readonly #handle: FileHandle;
  readonly #forget: () => void;

  private constructor(path: string, partial: string, handle: FileHandle, forget: () => void) {
    this.#path = path;
    this.#partial = partial;
    this.#handle = handle;
    this.#forget = forget;
  }

  /**
   * Opens the file that will become `path` (the file a symbolic link there points to, so that the
   * link stays).
   */
  static async create(path: string): Promise<OutputFile> {
    try {
      const existing = await stat(path).catch(() => undefined);
      if (existing?.isDirectory() === true) throw new Error('it is a directory');
      const target = existing === undefined ? path : await realpath(path);
      const partial = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.partial`);
      const handle = await open(partial, 'wx');
      return new OutputFile(target, partial, handle, removedOnSignal(partial));
    } catch (error) {
      throw new Error(`cannot write --output ${path}: ${(error as Error).message}`);
    }
  }

  /**
   * Writes every line of each JSON Lines input in `sources` but the removed records (by
   * position in taking order), in order, each ended by a newline, and puts the file in place.
   * An input skipped whole (binary) is left out, as it was when read.
   */
  async write(sources: readonly Source[], records: RecordLines, removed: Uint8Array, stdin: () => Readable): Promise<void> {
    const out = this.#handle.createWriteStream();
    let failure: Error | undefined;
    out.on('error', (error) => (failure ??= error));
    const written = (): void => {
      if (failure !== undefined) throw new Error(`cannot write --output ${this.#path}: ${failure.message}`);
    };
    try {
      for (const [s, source] of sources.entries()) {
        const input = source.kind === 'stdin' ? stdin() : createReadStream(source.path, { highWaterMark: CHUNK_BYTES });
        try {
          await copyKept(input, records.of(s), removed, out, written);
        } catch (error) {
          input.destroy();
          if (failure !== undefined) throw error;
          throw new Error(`cannot read ${sourceName(source)} again for --output: ${(error as Error).message}`);
        }
      }
      await new Promise<void>((resolve) => out.end(resolve));
      written();
    } catch (error) {
      out.destroy();
      throw error;
    }
    try {
      await rename(this.#partial, this.#path);
    } catch (error) {
      throw new Error(`cannot write --output ${this.#path}: ${(error as Error).message}`);
    }
  }

  /** Removes what was written, if it is still there (after a failure). */
  async discard(): Promise<void> {
    this.#forget();
    await this.#handle.close().catch(() => undefined);
    await unlink(this.#partial).catch(() => undefined);
  }
}

/** Copies the lines of `input` that are not removed records (`of`: its records) to `out`, a run of kept lines at a time. */
async function copyKept(input: Readable, of: { readonly first: number; readonly lines: Uint32Array }, removed: Uint8Array, out: Writable, written: () => void): Promise<void> {
  let line = 1;
  let k = 0;
  let probed = 0;
  // Whether the line being read is dropped (decided at its first byte), and whether one has begun.
  let dropping = false;
  let begun = false;
  const write = async (bytes: Uint8Array): Promise<void> => {
    written();
    if (bytes.length > 0 && !out.write(bytes)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          out.off('drain', done).off('error', done);
          resolve();
        };
        out.on('drain', done).on('error', done);
      });
    }
  };
  for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (probed < BINARY_PROBE_BYTES && looksBinary(bytes.subarray(0, BINARY_PROBE_BYTES - probed))) {
      input.destroy();
      return;
    }
    probed += bytes.length;
    // Kept bytes from `run` on are written when a dropped line begins or the chunk ends.
    let run = 0;
    let at = 0;
    while (at < bytes.length) {
      if (!begun) {
        begun = true;
        while (k < of.lines.length && of.lines[k]! < line) k++;
        const drop = k < of.lines.length && of.lines[k] === line && removed[of.first + k] === 1;
        if (drop && !dropping) await write(bytes.subarray(run, at));
        if (!drop && dropping) run = at;
        dropping = drop;
      }
      const end = bytes.indexOf(0x0a, at);
      if (end === -1) break;
      at = end + 1;
      line++;
      begun = false;
    }
    if (!dropping) await write(bytes.subarray(run));
  }
  // A last line without its newline gets one, so that the next input starts a line of its own.
  if (begun && !dropping) await write(Buffer.from('\n'));
}
