/** JSON Lines: splitting a decoded stream into lines, and reading one record. */

import type { JsonLinesFormat } from './args.js';

/**
 * Splits text arriving in pieces into lines (without their `\n`). A line spanning many pieces is
 * joined once, when its end arrives, so a 100 MB record costs linear time.
 */
export class LineSplitter {
  readonly #parts: string[] = [];

  /** The lines completed by `piece`. */
  *push(piece: string): Generator<string> {
    let start = 0;
    for (let end = piece.indexOf('\n'); end !== -1; end = piece.indexOf('\n', start)) {
      this.#parts.push(piece.slice(start, end));
      yield this.#take();
      start = end + 1;
    }
    if (start < piece.length) this.#parts.push(piece.slice(start));
  }

  /** The last line, when the input does not end with `\n`. */
  *end(): Generator<string> {
    if (this.#parts.length > 0) yield this.#take();
  }

  #take(): string {
    const line = this.#parts.length === 1 ? (this.#parts[0] ?? '') : this.#parts.join('');
    this.#parts.length = 0;
    return line;
  }
}

/** A record's text and, when `--id` names a field, its id. */
export interface JsonRecord {
  readonly text: string;
  readonly id: string | undefined;
}

/**
 * Reads one line: a record, `null` for a blank line, or the reason it cannot be used.
 * Trailing `\r` and other whitespace are allowed (JSON ignores them).
 */
export function parseRecord(line: string, format: JsonLinesFormat): JsonRecord | { readonly reason: string } | null {
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { reason: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { reason: 'not a JSON object' };
  const record = value as Record<string, unknown>;
  const text = record[format.field];
  if (typeof text !== 'string') return { reason: `no string field '${format.field}'` };
  if (format.id === undefined) return { text, id: undefined };
  const id = record[format.id];
  if (typeof id === 'string') return { text, id };
  if (typeof id === 'number' && Number.isFinite(id)) return { text, id: String(id) };
  return { reason: `no string or number field '${format.id}'` };
}
