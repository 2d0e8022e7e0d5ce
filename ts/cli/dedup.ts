/** The dedup command: read, fingerprint, group, report. */

import { availableParallelism } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { init } from '../wasm/loader.js';
import { createPool, type Pool } from '../parallel/pool.js';
import type { DedupOptions } from './args.js';
import { FingerprintCollector } from './fingerprints.js';
import { groupByMinHash, groupNearDuplicates } from './groups.js';
import { fingerprintJsonLinesSources } from './pooled-jsonl.js';
import { SignatureCollector } from './signatures.js';
import { ProblemLog, describeError } from './problems.js';
import { type Progress, type ProgressStream, startProgress } from './progress.js';
import { readDocuments } from './read.js';
import { type DedupReport, jsonChunks, tableChunks } from './report.js';
import { type Source, listSources, totalSize } from './sources.js';

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

/** Runs `dedup` and returns the exit code: 0 when every input was used, 1 when some were skipped. */
export async function runDedup(options: DedupOptions, io: DedupIo): Promise<number> {
  await init();
  let progress: Progress | undefined;
  const problems = new ProblemLog((text) => (progress === undefined ? io.stderr.write(text) : progress.print(text)));
  const sources = await listSources(options.inputs, (problem) => problems.report(problem));
  if (options.jsonl === undefined) {
    const lines = sources.find((source) => source.kind === 'file' && /\.(jsonl|ndjson)$/i.test(source.path));
    if (lines !== undefined && lines.kind === 'file') {
      io.stderr.write(`simhash-wasm: note: ${lines.path} is read as one document; add --jsonl to read one document per line\n`);
    }
  }
  progress = startProgress(io.stderr, totalSize(sources));
  let report: DedupReport;
  const threads = options.threads ?? availableParallelism();
  // One thread needs no workers: the same work runs here.
  const pool = threads === 1 ? undefined : await createPool({ threads });
  try {
    report = await dedupSources(sources, options, io.stdin, problems, progress, pool);
  } finally {
    progress.finish();
    await pool?.close();
  }
  await writeAll(io.stdout, options.json ? jsonChunks(report) : tableChunks(report));
  problems.finish();
  return problems.count > 0 ? 1 : 0;
}

async function dedupSources(
  sources: readonly Source[],
  options: DedupOptions,
  stdin: Readable,
  problems: ProblemLog,
  progress: Progress,
  pool: Pool | undefined,
): Promise<DedupReport> {
  const size = options.size === undefined ? {} : { size: options.size };
  const textOptions = { unit: options.unit, weighting: options.weighting, ...size };
  const collector =
    options.method === 'simhash'
      ? new FingerprintCollector(textOptions, pool)
      : new SignatureCollector({ unit: options.unit, numPerm: MINHASH_PERMUTATIONS, ...size });
  let documents = 0;
  if (options.jsonl !== undefined && pool !== undefined && collector instanceof FingerprintCollector) {
    // The workers parse the records too: splitting and parsing would otherwise keep this thread
    // busier than the workers.
    documents = await fingerprintJsonLinesSources(sources, options.jsonl, textOptions, stdin, pool, collector, problems, progress);
  } else {
    for await (const item of readDocuments(sources, options.jsonl, stdin, options.maxBytes)) {
      if (item.kind === 'document') {
        const wait = collector.add(item.id, item.text);
        if (wait !== undefined) await wait;
        documents++;
      } else {
        problems.report({ input: item.input, reason: item.reason });
      }
      progress.advance(item.bytes, documents);
    }
  }
  const collected = await collector.finish();
  progress.step(`grouping ${collected.ids.length.toLocaleString('en')} ${options.method === 'simhash' ? 'fingerprints' : 'signatures'}…`);
  const { fingerprinted, groups } =
    'signatures' in collected
      ? {
          fingerprinted: { ...collected, fingerprints: new BigUint64Array(0) },
          groups: groupByMinHash(collected.signatures, MINHASH_PERMUTATIONS, options.threshold),
        }
      : options.redis === undefined
        ? { fingerprinted: collected, groups: await groupNearDuplicates(collected.fingerprints, options.distance, pool) }
        : // Loaded only here: ioredis is an optional peer dependency the plain command must not need.
          await (await import('./shared-groups.js')).sharedGroups(collected, options.redis, options.distance);
  return {
    method: options.method,
    threshold: options.threshold,
    distance: options.distance,
    unit: options.unit,
    size: options.size ?? DEFAULT_SIZE[options.unit],
    weighting: options.weighting,
    documents,
    fingerprinted,
    groups,
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
      if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', resolve).once('error', () => resolve()));
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
