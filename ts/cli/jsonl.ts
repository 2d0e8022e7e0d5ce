/** JSON Lines: splitting a decoded stream into lines (records are read by ../shared/json-lines). */

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
