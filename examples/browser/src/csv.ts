/** The documents and what was decided, as CSV, for use elsewhere (a database, a script that deletes). */

import type { DocumentInfo } from './protocol.js';
import { hex } from './measures.js';
import type { Method } from './settings.js';

const quote = (field: string): string => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field);

/** What the decisions made of each document with words, by position. */
export interface Decided {
  /** The kept document each duplicates, or its own position when kept. */
  readonly representative: ReadonlyMap<number, number>;
  /** Bits (SimHash) or similarity (adaptive, MinHash) to the representative. */
  readonly measure: ReadonlyMap<number, number>;
  /** The group each document of a group is in, numbered as the page shows them. */
  readonly group: ReadonlyMap<number, number>;
}

/**
 * One line per document: its path relative to what was dropped, its fingerprint in hex, its
 * length in characters, its group (empty when in none), whether it is kept, the kept document it
 * duplicates and its distance in bits (or estimated similarity) to it. Documents without words
 * are kept and have no representative.
 */
export function fingerprintsCsv(documents: readonly DocumentInfo[], fingerprints: BigUint64Array, decided: Decided, method: Method): string {
  const lines = documents.map((info, i) => {
    const representative = decided.representative.get(i);
    const kept = representative === undefined || representative === i;
    const measure = decided.measure.get(i);
    const fields = [
      quote(info.name),
      hex(fingerprints[i]!),
      String(info.characters),
      String(decided.group.get(i) ?? ''),
      kept ? 'yes' : 'no',
      kept ? '' : quote(documents[representative]!.name),
      kept || measure === undefined ? '' : method === 'simhash' ? String(measure) : measure.toFixed(4),
    ];
    return fields.join(',');
  });
  return [`name,fingerprint,characters,group,kept,representative,${method === 'simhash' ? 'distance' : 'similarity'}`, ...lines].join('\n') + '\n';
}
