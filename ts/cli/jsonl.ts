/** JSON Lines: splitting a decoded stream into lines (records are read by ../shared/json-lines). */

import { constants } from 'node:buffer';
import { tooLongLine } from '../shared/json-lines.js';

/**
 * Splits text arriving in pieces into lines (without their `\n`). A line spanning many pieces is
 * joined once, when its end arrives, so a 100 MB record costs linear time. A line longer than
 * `maxLine` characters (by default the longest string V8 holds) is dropped as it arrives and
 * given as the `tooLongLine` that says its length, so the lines after it are still read.
 */
export class LineSplitter {
  readonly #parts: string[] = [];
  /** Characters of the line being gathered, dropped parts included. */
  #length = 0;
  readonly #maxLine: number;

  constructor(maxLine: number = constants.MAX_STRING_LENGTH) {
    this.#maxLine = maxLine;
  }

  /** The lines completed by `piece`. */
  *push(piece: string): Generator<string> {
    let start = 0;
    for (let end = piece.indexOf('\n'); end !== -1; end = piece.indexOf('\n', start)) {
      this.#add(piece.slice(start, end));
      yield this.#take();
      start = end + 1;
    }
    if (start < piece.length) this.#add(piece.slice(start));
  }

  /** The last line, when the input does not end with `\n`. */
  *end(): Generator<string> {
    if (this.#length > 0) yield this.#take();
  }

  #add(part: string): void {
    this.#length += part.length;
    if (this.#length > this.#maxLine) this.#parts.length = 0;
    else this.#parts.push(part);
  }

  #take(): string {
    const line =
      this.#length > this.#maxLine
        ? tooLongLine(`${this.#length.toLocaleString('en')} characters`)
        : this.#parts.length === 1
          ? (this.#parts[0] ?? '')
          : this.#parts.join('');
    this.#parts.length = 0;
    this.#length = 0;
    return line;
  }
}
