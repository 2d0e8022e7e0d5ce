/** Inputs that could not be used: reported on standard error as they happen, and kept for the report. */

/** One input, or one record of an input, that was skipped. */
export interface Problem {
  /** The path, `<stdin>`, or `<input>:<line>` for a JSON Lines record. */
  readonly input: string;
  readonly reason: string;
}

/** How many problems are printed, and how many kept for `--json`, before only counting the rest. */
export interface ProblemLimits {
  readonly print: number;
  readonly keep: number;
}

/**
 * Collects problems. A corpus with a million malformed records must not print a million lines
 * nor keep a million objects, so past the limits problems are only counted.
 */
export class ProblemLog {
  readonly #write: (text: string) => void;
  readonly #limits: ProblemLimits;
  readonly #kept: Problem[] = [];
  #count = 0;

  constructor(write: (text: string) => void, limits: ProblemLimits = { print: 50, keep: 10_000 }) {
    this.#write = write;
    this.#limits = limits;
  }

  /** Records a problem and prints it while under the limit. */
  report(problem: Problem): void {
    this.#count++;
    if (this.#count <= this.#limits.print) this.#write(`simhash-wasm: skipped ${problem.input}: ${problem.reason}\n`);
    if (this.#kept.length < this.#limits.keep) this.#kept.push(problem);
  }

  /** Number of problems reported. */
  get count(): number {
    return this.#count;
  }

  /** The first problems, up to the `keep` limit. */
  get kept(): readonly Problem[] {
    return this.#kept;
  }

  /** Prints the total when some problems went unprinted. */
  finish(): void {
    const unprinted = this.#count - this.#limits.print;
    if (unprinted > 0) {
      this.#write(`simhash-wasm: ${unprinted} more skipped input${unprinted === 1 ? '' : 's'} not listed (${this.#count} in all)\n`);
    }
  }
}

/** A short, stable reason for a file-system error (Node's messages repeat the syscall and path). */
export function describeError(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'EISDIR':
      return 'is a directory';
    case 'ERR_FS_FILE_TOO_LARGE':
      return 'file too large to read as one document (split it, or use --jsonl)';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Warns when a JSON Lines id names a second record (`--id`): both are still read and decided
 * on, but a script acting on ids could not tell them apart. The number 7 and the string "7"
 * print alike, so a run holding both stops, naming the two records: `--removed` could not say
 * which to delete. Warns too when a record has no id: it is decided under its `<input>:<line>`.
 */
export class IdCheck {
  readonly #write: (text: string) => void;
  readonly #firstSeen = new Map<string, { readonly where: string; readonly number: boolean }>();
  /** The ids (as printed) that records hold as numbers: `--json` gives them back as numbers. */
  readonly numbers = new Set<string>();
  readonly #print: number;
  #count = 0;

  #missing = 0;
  readonly #field: string;

  constructor(write: (text: string) => void, field = 'id', print = 50) {
    this.#write = write;
    this.#field = field;
    this.#print = print;
  }

  /**
   * Notes the id of the record at `where` (`<input>:<line>`) as the record holds it, `undefined`
   * when it has none.
   *
   * @throws {Error} when a number and a string print alike (`7`, `"7"`).
   */
  note(value: string | number | undefined, where: string): void {
    if (value === undefined) {
      this.#missing++;
      if (this.#missing <= this.#print) this.#write(`simhash-wasm: warning: ${where} has no string or number field '${this.#field}': decided as ${where}\n`);
    }
    const id = value === undefined ? where : String(value);
    const number = typeof value === 'number';
    const first = this.#firstSeen.get(id);
    if (first === undefined) {
      this.#firstSeen.set(id, { where, number });
      if (number) this.numbers.add(id);
      return;
    }
    if (first.number !== number) {
      const [asNumber, asString] = number ? [where, first.where] : [first.where, where];
      throw new Error(`--id: ${asNumber} has the number ${id} and ${asString} the string ${JSON.stringify(id)}, printed alike: give the records ids that tell them apart`);
    }
    this.#count++;
    if (this.#count <= this.#print) this.#write(`simhash-wasm: warning: ${where} has the id ${JSON.stringify(value ?? id)} of ${first.where}\n`);
  }

  /** Records whose id an earlier record has. */
  get count(): number {
    return this.#count;
  }

  /** Prints the totals when some warnings went unprinted. */
  finish(): void {
    if (this.#count > this.#print) this.#write(`simhash-wasm: warning: ${this.#count} records in all have the id of an earlier record\n`);
    if (this.#missing > this.#print) this.#write(`simhash-wasm: warning: ${this.#missing} records in all have no field '${this.#field}'\n`);
  }
}
