/**
 * JSON Lines records: reading one line, and a block of whole lines at once. Shared by the
 * command line (one line at a time, on its own thread) and the pool's workers (a block each).
 */

/**
 * Where a record keeps its text and, optionally, its id. A field is a key of the record, or a
 * path of keys joined by `.` (`doc.body`) when the record has no key of that whole name.
 */
export interface JsonLinesFields {
  /** Field holding each record's text. */
  readonly field: string;
  /**
   * Field holding each record's id (a string or a finite number); `undefined`: records have none.
   * A record without it is read with no id (its reader names it by `<input>:<line>`).
   */
  readonly id: string | undefined;
  /**
   * Field holding each record's time (a finite number, or a string `Date.parse` reads), for
   * choosing the newest or oldest; `undefined`: records have none.
   */
  readonly time?: string | undefined;
}

/** A record's text and, when `fields.id` names a field the record holds, its id as the record holds it. */
export interface JsonRecord {
  readonly text: string;
  readonly id: string | number | undefined;
  /** The record's time as a number (milliseconds for a date), when `fields.time` is set. */
  readonly time?: number;
}

/**
 * What readers put in place of a line too long to become a JavaScript string (V8 holds some
 * 2^29 characters), followed by its size: `parseRecord` turns it into the reason the record is
 * skipped, so both readers report it alike. A NUL begins no JSON text.
 */
const TOO_LONG = '\u0000simhash-wasm:too-long:';

/** The line standing for one of `size` (say, "612,000,000 bytes") too long to read. */
export function tooLongLine(size: string): string {
  return TOO_LONG + size;
}

/**
 * Reads one line: a record, `null` for a blank line, or the reason it cannot be used.
 * Trailing `\r` and other whitespace are allowed (JSON ignores them).
 */
export function parseRecord(line: string, fields: JsonLinesFields): JsonRecord | { readonly reason: string } | null {
  if (line.trim() === '') return null;
  if (line.startsWith(TOO_LONG)) return { reason: `a line of ${line.slice(TOO_LONG.length)}, longer than the longest string JavaScript can hold` };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { reason: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { reason: 'not a JSON object' };
  const record = value as Record<string, unknown>;
  const text = fieldOf(record, fields.field);
  if (typeof text !== 'string') return { reason: `no string field '${fields.field}'` };
  let id: string | number | undefined;
  if (fields.id !== undefined) {
    const value = fieldOf(record, fields.id);
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) id = value;
  }
  if (fields.time === undefined) return { text, id };
  const time = timeOf(fieldOf(record, fields.time));
  if (time === undefined) return { reason: `no number or date in field '${fields.time}'` };
  return { text, id, time };
}

/** The value of `field` in `record`: its key of that whole name, else the path of keys it joins with `.`. */
function fieldOf(record: Record<string, unknown>, field: string): unknown {
  if (Object.hasOwn(record, field)) return record[field];
  let value: unknown = record;
  for (const key of field.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function timeOf(value: unknown): number | undefined {
  const time = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(time) ? time : undefined;
}

/** The records of a block of lines, numbered from 1 within the block. */
export interface RecordBlock {
  /** Lines in the block, blank ones included. */
  readonly lineCount: number;
  /** Texts of the usable records, in order. */
  readonly texts: string[];
  /** `lines[i]`: the line of `texts[i]`. */
  readonly lines: Uint32Array;
  /** `ids[i]`: the id of `texts[i]` as the record holds it (`undefined` for a record without one); `undefined` unless `fields.id` is set. */
  readonly ids: (string | number | undefined)[] | undefined;
  /** Lines that are not blank and hold no usable record, with the reason. */
  readonly skipped: { readonly line: number; readonly reason: string }[];
}

/**
 * The records of `text`, whole lines separated by `\n`. A final line without `\n` counts, as a
 * stream's last line does; an empty piece after the last `\n` is no line.
 */
export function parseRecordBlock(text: string, fields: JsonLinesFields): RecordBlock {
  const texts: string[] = [];
  const lineOf: number[] = [];
  const ids: (string | number | undefined)[] | undefined = fields.id === undefined ? undefined : [];
  const skipped: { line: number; reason: string }[] = [];
  let line = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    line++;
    const parsed = parseRecord(text.slice(start, end), fields);
    start = end + 1;
    if (parsed === null) continue;
    if ('reason' in parsed) {
      skipped.push({ line, reason: parsed.reason });
      continue;
    }
    texts.push(parsed.text);
    lineOf.push(line);
    ids?.push(parsed.id);
  }
  return { lineCount: line, texts, lines: Uint32Array.from(lineOf), ids, skipped };
}
