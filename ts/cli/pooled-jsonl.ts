/**
 * JSON Lines with workers: this thread reads bytes and hands them on; the pool's workers decode,
 * parse and fingerprint. Same documents, ids and skipped lines as reading on this thread.
 */

import type { Readable } from 'node:stream';
import type { Pool } from '../parallel/pool.js';
import type { TextOptions } from '../shared/types.js';
import type { JsonLinesFormat } from './args.js';
import type { FingerprintCollector } from './fingerprints.js';
import type { RecordLines } from './output.js';
import type { IdCheck, ProblemLog } from './problems.js';
import type { Progress } from './progress.js';
import { type ReadFailure, jsonLinesBytes } from './read.js';
import { type Source, sourceName } from './sources.js';

/** Fingerprints every record of `sources` into `collector`; returns how many documents there were. */
export async function fingerprintJsonLinesSources(
  sources: readonly Source[],
  format: JsonLinesFormat,
  textOptions: TextOptions,
  stdin: Readable,
  pool: Pool,
  collector: FingerprintCollector,
  problems: ProblemLog,
  progress: Progress,
  ids: IdCheck | undefined,
  records: RecordLines | undefined,
): Promise<number> {
  let documents = 0;
  for (const [index, source] of sources.entries()) {
    const name = sourceName(source);
    let failure: ReadFailure | undefined;
    const bytes = jsonLinesBytes(source, stdin, (reason) => (failure = reason));
    const options = { ...textOptions, field: format.field, ...(format.id === undefined ? {} : { id: format.id }) };
    for await (const batch of pool.fingerprintJsonLines(bytes, options)) {
      // Reported in line order, as reading on this thread does: skipped lines, then records, per batch.
      for (const skip of batch.skipped) problems.report({ input: `${name}:${skip.line}`, reason: skip.reason });
      if (ids !== undefined && batch.ids !== undefined) batch.ids.forEach((id, i) => ids.note(id, `${name}:${batch.lines[i]}`));
      if (records !== undefined) for (const line of batch.lines) records.note(index, line);
      collector.addFingerprinted(batch.fingerprints, batch.featureless, (i) => {
        const id = batch.ids?.[i];
        return id === undefined ? `${name}:${batch.lines[i]}` : String(id);
      });
      documents += batch.fingerprints.length;
      progress.advance(batch.bytes, documents);
    }
    const failed = failure as ReadFailure | undefined;
    if (failed !== undefined) {
      problems.report({ input: name, reason: failed.reason });
      progress.advance(failed.bytes, documents);
    }
  }
  return documents;
}
