/**
 * Reading JSON Lines where a line is too long to become a string: both readers (lines split on
 * this thread, and bytes handed to the pool's workers) drop it as it arrives, put in its place
 * the line that says its length, and read on; at the limit itself nothing is dropped. Checked
 * with small limits against a model, for every way of cutting the input into chunks.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LineSplitter } from '../ts/cli/jsonl.js';
import { jsonLinesBytes } from '../ts/cli/read.js';
import { parseRecord, tooLongLine } from '../ts/shared/json-lines.js';

/** The lines of `text` as a reader with limit `max` must give them (`unit` names the length). */
function model(text: string, max: number, unit: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.length > max ? tooLongLine(`${line.length.toLocaleString('en')} ${unit}`) : line));
}

/** `text` cut at `cuts` (positions, any order). */
function pieces(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const cut of [...at, text.length]) {
    if (cut > from) out.push(text.slice(from, cut));
    from = Math.max(from, cut);
  }
  return out;
}

const lineText = fc.array(fc.constantFrom('a', 'b', ' ', '{'), { maxLength: 30 }).map((cs) => cs.join(''));
const input = fc.tuple(fc.array(lineText, { minLength: 1, maxLength: 12 }), fc.boolean()).map(([lines, ending]) => lines.join('\n') + (ending ? '\n' : ''));

describe('lines too long to read', () => {
  it('LineSplitter gives every line, and the too-long ones as what says their length', () => {
    fc.assert(
      fc.property(input, fc.array(fc.nat(), { maxLength: 8 }), fc.integer({ min: 1, max: 20 }), (text, cuts, max) => {
        const splitter = new LineSplitter(max);
        const got = [...pieces(text, cuts).flatMap((piece) => [...splitter.push(piece)]), ...splitter.end()];
        expect(got).toEqual(model(text, max, 'characters'));
      }),
      { numRuns: 300 },
    );
  });

  it('jsonLinesBytes passes whole lines on, and the too-long ones as what says their length', async () => {
    await fc.assert(
      fc.asyncProperty(input, fc.array(fc.nat(), { maxLength: 8 }), fc.integer({ min: 1, max: 20 }), async (text, cuts, max) => {
        const chunks = pieces(text, cuts).map((piece) => Buffer.from(piece));
        const failures: unknown[] = [];
        const out: Buffer[] = [];
        for await (const bytes of jsonLinesBytes({ kind: 'stdin' }, Readable.from(chunks), (f) => failures.push(f), max)) out.push(Buffer.from(bytes));
        const got = Buffer.concat(out).toString('utf8');
        expect(got.split('\n').filter((_, i, all) => i < all.length - 1 || all[i] !== '')).toEqual(model(text, max, 'bytes'));
        expect(failures).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('parseRecord gives the reason, which no JSON text can produce', () => {
    const fields = { field: 'text', id: undefined };
    expect(parseRecord(tooLongLine('600,000,000 bytes'), fields)).toEqual({
      reason: 'a line of 600,000,000 bytes, longer than the longest string JavaScript can hold',
    });
    expect(parseRecord('{"text":"\\u0000simhash-wasm:too-long:3 bytes"}', fields)).toEqual({ text: '\u0000simhash-wasm:too-long:3 bytes', id: undefined });
  });
});
