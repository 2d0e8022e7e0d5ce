/** The dedup command: read, fingerprint, group, report. */

import { availableParallelism } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { init } from '../wasm/loader.js';
import { createPool, type Pool } from '../parallel/pool.js';
import type { DedupOptions, Keep } from './args.js';
import { FingerprintCollector } from './fingerprints.js';
import { pathFilter } from './globs.js';
import { decideOrGroup } from './groups.js';
import { fingerprintJsonLinesSources } from './pooled-jsonl.js';
import { SignatureCollector } from './signatures.js';
import { TextSketchCollector } from './text-sketches.js';
import { IdCheck, ProblemLog, describeError } from './problems.js';
import { type Progress, type ProgressStream, startProgress } from './progress.js';
import { type Item, readDocuments } from './read.js';
import { OutputFile, RecordLines, removedDocuments, spoolStandardInput } from './output.js';
import { type DedupReport, jsonChunks, removedChunks, tableChunks } from './report.js';
import { type Alias, type Source, listSources, sourceName, totalSize } from './sources.js';

/** Positions of the MinHash signatures `--method minhash` computes (the library's default). */
const MINHASH_PERMUTATIONS = 128;

/** Shingle sizes the text fingerprint specification v1 uses when `size` is left out. */
const DEFAULT_SIZE = { word: 3, char: 4 } as const;

/** The streams a run uses; `process` has them all. */
export interface DedupIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: ProgressStream;
}

/** Exit status of a run that read no document at all (every input skipped, or none given). */
export const EXIT_NO_DOCUMENTS = 3;

/**
 * Runs `dedup` and returns the exit code: 0 when every input was used, 1 when some were
 * skipped, {@link EXIT_NO_DOCUMENTS} when no document was read.
 */
export async function runDedup(options: DedupOptions, io: DedupIo): Promise<number> {
  await init();
  let progress: Progress | undefined;
  const print = (text: string): void => void (progress === undefined ? io.stderr.write(text) : progress.print(text));
  const problems = new ProblemLog(print);
  const ids = new IdCheck(print, options.jsonl?.id);
  const { sources, aliases } = await listSources(
    options.inputs,
    (problem) => problems.report(problem),
    pathFilter(options.include, options.exclude),
  );
  if (options.jsonl === undefined) {
    const lines = sources.find((source) => source.kind === 'file' && /\.(jsonl|ndjson)$/i.test(source.path));
    if (lines !== undefined && lines.kind === 'file') {
      io.stderr.write(`simhash-wasm: note: ${lines.path} is read as one document; add --jsonl to read one document per line\n`);
    }
  }
  // --output reads the inputs twice: standard input is saved as it arrives; a pipe named as a
  // file could not be read again.
  const pipe = options.output === undefined ? undefined : sources.find((source) => source.kind === 'file' && source.size === undefined);
  if (pipe !== undefined) {
    io.stderr.write(`simhash-wasm: --output reads its inputs twice, and ${sourceName(pipe)} is not a regular file (a pipe or a device): save it to a file, or give it as - (standard input)\n`);
    return 2;
  }
  const output = options.output === undefined ? undefined : await OutputFile.create(options.output);
  let spool: Awaited<ReturnType<typeof spoolStandardInput>> | undefined;
  let firstRead: Readable | undefined;
  try {
    if (output !== undefined && sources.some((source) => source.kind === 'stdin')) spool = await spoolStandardInput(io.stdin);
    const records = output === undefined ? undefined : new RecordLines();
    firstRead = spool?.stream();
    // (Destroyed below if the run ends before reading it: its file is about to go.)
    firstRead?.on('error', () => undefined);
    const stdin = firstRead ?? io.stdin;
    progress = startProgress(io.stderr, totalSize(sources));
    let report: DedupReport;
    const threads = options.threads ?? availableParallelism();
    // One thread needs no workers: the same work runs here.
    const pool = threads === 1 ? undefined : await createPool({ threads });
    try {
      report = await dedupSources(sources, aliases, options, stdin, problems, ids, progress, pool, records);
    } finally {
      progress.finish();
      await pool?.close();
    }
    if (output !== undefined && records !== undefined) {
      if (records.length !== report.documents) throw new Error(`--output: ${records.length} records located for ${report.documents} documents (a bug; nothing was written)`);
      const removed = removedDocuments(report.documents, report.fingerprinted.featurelessAt, report.representative ?? new Uint32Array(0));
      await output.write(sources, records, removed, () => spool?.stream() ?? io.stdin);
    }
    return await finishRun(options, report, io, problems, ids);
  } finally {
    firstRead?.destroy();
    await output?.discard();
    await spool?.remove();
  }
}

/** Writes the report and says how the run ended. */
async function finishRun(options: DedupOptions, report: DedupReport, io: DedupIo, problems: ProblemLog, ids: IdCheck): Promise<number> {
  const chunks = options.removed !== undefined ? removedChunks(report, options.removed === 'nul' ? '\0' : '\n') : options.json ? jsonChunks(report) : tableChunks(report);
  await writeAll(io.stdout, chunks);
  problems.finish();
  ids.finish();
  return report.documents === 0 ? EXIT_NO_DOCUMENTS : problems.count > 0 ? 1 : 0;
}

/** Characters of `text` as a reader counts them: code points, so a text in an astral script is not counted twice. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // The second half of a surrogate pair closes a code point the first half counted.
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff) count--;
  }
  return count;
}

/** The priority `--keep` gives a document read here: higher is taken first. */
function scoreOf(keep: Keep, item: Extract<Item, { kind: 'document' }>): number {
  switch (keep) {
    case 'longest':
      return codePoints(item.text);
    case 'shortest':
      return -codePoints(item.text);
    // Standard input has no time: it is taken last either way.
    case 'newest':
      return item.time ?? -Number.MAX_VALUE;
    case 'oldest':
      return item.time === undefined ? -Number.MAX_VALUE : -item.time;
    default:
      return 0;
  }
}

/** The priority of the collected documents, `undefined` for input order. */
function priorityOf(keep: Keep, scores: readonly number[]): Float64Array | undefined {
  if (keep === 'first') return undefined;
  // Later documents first: the position is the score.
  if (keep === 'last') return Float64Array.from(scores, (_, i) => i);
  return Float64Array.from(scores);
}

async function dedupSources(
  sources: readonly Source[],
  aliases: readonly Alias[],
  options: DedupOptions,
  stdin: Readable,
  problems: ProblemLog,
  ids: IdCheck,
  progress: Progress,
  pool: Pool | undefined,
  records: RecordLines | undefined,
): Promise<DedupReport> {
  const size = options.size === undefined ? {} : { size: options.size };
  const textOptions = { unit: options.unit, weighting: options.weighting, ...size };
  const collector =
    options.method === 'simhash'
      ? new FingerprintCollector(textOptions, pool)
      : options.method === 'minhash'
        ? new SignatureCollector({ unit: options.unit, numPerm: MINHASH_PERMUTATIONS, ...size }, pool)
        : new TextSketchCollector({ keepTexts: options.redis !== undefined });
  let documents = 0;
  const checkIds = options.jsonl?.id !== undefined;
  const scoresByPosition = options.keep === 'first' || options.keep === 'last';
  if (options.jsonl !== undefined && pool !== undefined && collector instanceof FingerprintCollector && scoresByPosition) {
    // The workers parse the records too: splitting and parsing would otherwise keep this thread
    // busier than the workers. (Priorities from the texts or fields need them here.)
    documents = await fingerprintJsonLinesSources(sources, options.jsonl, textOptions, stdin, pool, collector, problems, progress, checkIds ? ids : undefined, records);
  } else {
    for await (const item of readDocuments(sources, options.jsonl, stdin, options.maxBytes)) {
      if (item.kind === 'document') {
        if (checkIds && item.where !== undefined) ids.note(item.idValue, item.where);
        if (records !== undefined && item.at !== undefined) records.note(item.at[0], item.at[1]);
        const wait = collector.add(item.id, item.text, scoreOf(options.keep, item));
        if (wait !== undefined) await wait;
        documents++;
      } else {
        problems.report({ input: item.input, reason: item.reason });
      }
      progress.advance(item.bytes, documents);
    }
  }
  const collected = await collector.finish();
  progress.step(`${options.grouping === 'decisions' ? 'deciding on' : 'grouping'} ${collected.ids.length.toLocaleString('en')} ${options.method === 'simhash' ? 'fingerprints' : 'sketches'}…`);
  const { fingerprinted, grouped } = await decideOrGroup(collected, options, priorityOf(options.keep, collected.scores), pool);
  return {
    method: options.method,
    threshold: options.threshold,
    distance: options.distance,
    unit: options.unit,
    size: options.size ?? DEFAULT_SIZE[options.unit],
    weighting: options.weighting,
    grouping: options.grouping,
    keep: options.keep,
    documents,
    fingerprinted,
    groups: grouped.groups,
    representative: grouped.representative,
    aliases,
    numericIds: ids.numbers,
    skipped: problems.kept,
    skippedCount: problems.count,
  };
}

/**
 * Writes every chunk, waiting when the stream is full so a large report never piles up in
 * memory. A reader that goes away early (`| head`) ends the output quietly; any other failure to
 * write (a full disk, a closed descriptor) is an error, so the exit status says the report was
 * lost.
 */
async function writeAll(stream: Writable, chunks: Iterable<string>): Promise<void> {
  let failure: NodeJS.ErrnoException | null = null;
  const onError = (error: NodeJS.ErrnoException): void => {
    failure ??= error;
  };
  stream.on('error', onError);
  try {
    for (const chunk of chunks) {
      if (failure !== null) break;
      if (!stream.write(chunk)) await drained(stream);
    }
    // An error can arrive after write() returned: wait until what was written has been handed on.
    if (failure === null) await new Promise<void>((resolve) => stream.write('', () => resolve()));
  } finally {
    stream.off('error', onError);
  }
  const failed = failure as NodeJS.ErrnoException | null;
  if (failed !== null && failed.code !== 'EPIPE') {
    throw new Error(`cannot write the report to standard output: ${describeError(failed)}`);
  }
}

/** Resolves once `stream` drains or fails, leaving no listener behind either way. */
function drained(stream: Writable): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('error', done);
      resolve();
    };
    stream.on('drain', done).on('error', done);
  });
}
