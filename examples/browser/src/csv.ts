/** The fingerprints as CSV, for use elsewhere (a database, `findAll` in Node, a spreadsheet). */

import type { DocumentInfo } from './protocol.js';
import { hex } from './measures.js';

const quote = (field: string): string => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field);

/** One line per document: its name, its fingerprint in hex, its length in characters. */
export function fingerprintsCsv(documents: readonly DocumentInfo[], fingerprints: BigUint64Array): string {
  const lines = documents.map((info, i) => `${quote(info.name)},${hex(fingerprints[i]!)},${info.characters}`);
  return ['name,fingerprint,characters', ...lines].join('\n') + '\n';
}
