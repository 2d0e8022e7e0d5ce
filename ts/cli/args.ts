/** Command-line arguments: parsed, checked, and turned into a command or a usage error. */

import { parseArgs } from 'node:util';
import type { JsonLinesFields } from '../shared/json-lines.js';
import { globToRegExp } from './globs.js';

/** What `--unit` accepts. */
export type Unit = 'word' | 'char';

/** What `--weighting` accepts. */
export type Weighting = 'tf' | 'binary';

/**
 * Largest number of differing bits for two documents to count as near-duplicates by default,
 * with {@link DEFAULT_WEIGHTING}: chosen by scripts/measure-quality.mjs (docs/quality.md).
 */
export const DEFAULT_DISTANCE = 10;

/**
 * The command line's weighting. Like the library's default, it counts each distinct
 * shingle once, which tracks shingle-set Jaccard similarity: a document repeating a licence ten
 * times is not a near-duplicate of that licence.
 */
export const DEFAULT_WEIGHTING: Weighting = 'binary';

/**
 * What `--method` accepts: `adaptive` (the default) chooses features and threshold from each
 * text's length (text decision specification v3); `simhash` and `minhash` use the options given.
 */
export type Method = 'adaptive' | 'simhash' | 'minhash';

/**
 * Estimated Jaccard similarity two documents must reach with `--method minhash` by default:
 * the library's default (docs/quality.md, "MinHash beside SimHash").
 */
export const DEFAULT_THRESHOLD = 0.6;

/** What `--groups` accepts: the decision of what to keep (default), or connected components. */
export type Grouping = 'decisions' | 'components';

/** What `--keep` accepts: which document of each family is kept. */
export type Keep = 'first' | 'last' | 'longest' | 'shortest' | 'newest' | 'oldest';

/** How JSON Lines records are read; a record without an id is named `<input>:<line>`. */
export type JsonLinesFormat = JsonLinesFields;

/** Everything `dedup` needs, checked. */
export interface DedupOptions {
  /** Files, directories and `-` (standard input), in the order given. */
  readonly inputs: readonly string[];
  readonly method: Method;
  /** SimHash: most differing bits. */
  readonly distance: number;
  /** MinHash: least estimated Jaccard similarity. */
  readonly threshold: number;
  readonly unit: Unit;
  /** Shingle size; `undefined` leaves the library's default for the unit. */
  readonly size: number | undefined;
  readonly weighting: Weighting;
  readonly json: boolean;
  /** Set when every input is JSON Lines rather than one document per file. */
  readonly jsonl: JsonLinesFormat | undefined;
  /** Largest document read whole, in bytes; larger inputs are skipped and reported. */
  readonly maxBytes: number;
  /** Workers to fingerprint and group with; `undefined`: one per available core. 1: none. */
  readonly threads: number | undefined;
  /** Set to dedup against a shared index in Redis (`--redis URL [--index NAME]`). */
  readonly redis: SharedIndex | undefined;
  /** Decisions (kept, and removed for a kept one within the threshold) or connected components. */
  readonly grouping: Grouping;
  /** Which document of a family is taken first, and so kept. */
  readonly keep: Keep;
  /** Print only the documents to remove, one a line (`--removed`), ended by NUL with `--null`. */
  readonly removed: 'lines' | 'nul' | undefined;
  /** Write the JSON Lines inputs to this file without the records removed (`--output`). */
  readonly output: string | undefined;
  /** Globs a walked file's path must match one of (none: every file). */
  readonly include: readonly string[];
  /** Globs no walked file's path may match. */
  readonly exclude: readonly string[];
}

/** Where `--redis` keeps the shared index. */
export interface SharedIndex {
  /** `redis://host:port` of a server or of any node of a cluster. */
  readonly url: string;
  /** Index name: processes giving the same one share groups. */
  readonly index: string;
  /** Compact the index's log once this run has decided (`--compact`; the default method and MinHash). */
  readonly compact: boolean;
}

/** Index name `--redis` uses without `--index`. */
export const DEFAULT_INDEX = 'dedup';

/**
 * Largest file read as one document unless `--max-bytes` says otherwise. Reading holds the bytes,
 * their text and its normalised form at once (five to eleven times the file's size at the peak, as docs/cli.md measures), and
 * a JavaScript string holds at most 2^29 - 24 UTF-16 units: 64 MiB keeps a run's memory modest
 * while covering any text document in practice.
 */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** Past this a document's text would not fit in one JavaScript string. */
const MAX_MAX_BYTES = 512 * 1024 * 1024;

/** What the command line asks for. */
export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'dedup'; readonly options: DedupOptions };

/** A command line that cannot be run as written; exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OPTIONS = {
  method: { type: 'string' },
  distance: { type: 'string' },
  threshold: { type: 'string' },
  unit: { type: 'string' },
  size: { type: 'string' },
  weighting: { type: 'string' },
  json: { type: 'boolean' },
  jsonl: { type: 'boolean' },
  field: { type: 'string' },
  id: { type: 'string' },
  'max-bytes': { type: 'string' },
  threads: { type: 'string' },
  redis: { type: 'string' },
  index: { type: 'string' },
  compact: { type: 'boolean' },
  groups: { type: 'string' },
  keep: { type: 'string' },
  'keep-field': { type: 'string' },
  removed: { type: 'boolean' },
  output: { type: 'string' },
  null: { type: 'boolean', short: '0' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/**
 * Parses `argv` (without the node executable and script).
 *
 * @throws {UsageError} for unknown options or commands, missing or malformed values, and
 * options that make no sense together.
 */
export function parseCommandLine(argv: readonly string[]): Command {
  const { values, positionals } = parseStrict(argv);
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };

  const [command, ...inputs] = positionals;
  if (command === undefined) throw new UsageError('missing command (the only one is dedup)');
  if (command !== 'dedup') throw new UsageError(`unknown command '${command}' (the only one is dedup)`);
  if (inputs.length === 0) throw new UsageError('dedup needs at least one file, directory or - (standard input)');
  if (inputs.filter((input) => input === '-').length > 1) {
    throw new UsageError('- (standard input) can be given only once');
  }
  if (values.jsonl !== true && (values.field !== undefined || values.id !== undefined)) {
    throw new UsageError('--field and --id apply to JSON Lines input: add --jsonl');
  }
  if (values.redis === undefined && values.index !== undefined) throw new UsageError('--index names a shared index: add --redis URL');
  if (values.redis !== undefined && !/^rediss?:\/\/\S+$/.test(values.redis)) {
    throw new UsageError(`--redis must be a redis:// URL, got '${values.redis}'`);
  }

  const grouping = groupingOf(values.groups);
  const keep = keepOf(values.keep);
  if (values.null === true && values.removed !== true) throw new UsageError('--null ends the lines of --removed: add --removed');
  if (values.removed === true && values.json === true) throw new UsageError('--removed and --json are two outputs: choose one');
  if (values.removed === true && grouping === 'components') {
    throw new UsageError('--removed needs decisions: components can join documents far beyond the threshold, so deleting all but one member could delete unique documents');
  }
  if (values.output !== undefined && values.jsonl !== true) {
    throw new UsageError('--output writes the records of JSON Lines input that are kept: add --jsonl (for files, use --removed)');
  }
  if (values.output !== undefined && grouping === 'components') {
    throw new UsageError('--output needs decisions: components can join documents far beyond the threshold, so keeping one member could drop unique records');
  }
  if (values.output !== undefined && (values.output === '' || values.output === '-')) {
    throw new UsageError(`--output must name a file (standard output holds the report), got '${values.output}'`);
  }
  if (grouping === 'components' && values.keep !== undefined) throw new UsageError('--keep chooses what decisions keep: it does not apply to --groups components');
  if (values['keep-field'] !== undefined && (values.jsonl !== true || (keep !== 'newest' && keep !== 'oldest'))) {
    throw new UsageError('--keep-field names the JSON Lines field holding each record\'s time: it needs --jsonl and --keep newest or oldest');
  }
  if (values.jsonl === true && (keep === 'newest' || keep === 'oldest') && values['keep-field'] === undefined) {
    throw new UsageError(`--keep ${keep} with --jsonl needs --keep-field F, the field holding each record's time (a number or a date)`);
  }
  if (values.redis !== undefined && keep !== 'first') {
    throw new UsageError('--redis decides in the order documents reach the shared index: --keep does not apply');
  }
  if (values.redis !== undefined && grouping === 'components') throw new UsageError('--redis decides online: --groups components does not apply');
  if (values.compact === true && values.redis === undefined) throw new UsageError('--compact compacts a shared index: add --redis URL');

  const method = methodOf(values.method);
  const foreign = METHOD_OPTIONS.find(([name, methods]) => values[name] !== undefined && !methods.includes(method));
  if (foreign !== undefined) {
    const [name, methods] = foreign;
    const byDefault = method === 'adaptive' && values.method === undefined ? ' (the default method, adaptive, chooses by length)' : '';
    throw new UsageError(`--${name} applies to ${methods.map((m) => `--method ${m}`).join(' or ')}, not to --method ${method}${byDefault}: add --method ${methods[0]}`);
  }
  if (method === 'adaptive' && grouping === 'components') throw new UsageError('--groups components needs --method simhash or minhash');
  if (values.compact === true && method === 'simhash') throw new UsageError('--compact compacts the log of a shared index of the default method or MinHash: --method simhash keeps none to compact');

  return {
    kind: 'dedup',
    options: {
      inputs,
      method,
      distance: values.distance === undefined ? DEFAULT_DISTANCE : integerIn(values.distance, '--distance', 0, 64),
      threshold: values.threshold === undefined ? DEFAULT_THRESHOLD : similarityOf(values.threshold),
      unit: unitOf(values.unit),
      size: values.size === undefined ? undefined : integerIn(values.size, '--size', 1, 64),
      weighting: weightingOf(values.weighting),
      json: values.json === true,
      jsonl:
        values.jsonl === true
          ? {
              field: nonEmpty(values.field ?? 'text', '--field'),
              id: values.id === undefined ? undefined : nonEmpty(values.id, '--id'),
              time: values['keep-field'] === undefined ? undefined : nonEmpty(values['keep-field'], '--keep-field'),
            }
          : undefined,
      maxBytes: values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : byteSize(values['max-bytes'], '--max-bytes', 1, MAX_MAX_BYTES),
      threads: values.threads === undefined ? undefined : integerIn(values.threads, '--threads', 1, 256),
      redis: values.redis === undefined ? undefined : { url: values.redis, index: indexName(values.index ?? DEFAULT_INDEX), compact: values.compact === true },
      grouping,
      keep,
      removed: values.removed === true ? (values.null === true ? 'nul' : 'lines') : undefined,
      output: values.output,
      include: (values.include ?? []).map((glob) => globOf(glob, '--include')),
      exclude: (values.exclude ?? []).map((glob) => globOf(glob, '--exclude')),
    },
  };
}

function indexName(text: string): string {
  if (!/^[^{}\s]{1,100}$/.test(text)) throw new UsageError(`--index must be 1 to 100 characters without braces or spaces, got '${text}'`);
  return text;
}

function parseStrict(argv: readonly string[]) {
  try {
    return parseArgs({ args: joinNegativeValues(argv), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // node:util reports its own argument errors with ERR_PARSE_ARGS_* codes; anything else is a bug.
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(conciseParseError(error.message));
    }
    throw error;
  }
}

/**
 * `--distance -1` is a value that looks like an option, which node:util refuses as ambiguous;
 * written `--distance=-1` it reaches the range check, which says what is wrong with it.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const next = argv[i + 1];
    const takesValue = name !== undefined && name in OPTIONS && OPTIONS[name as keyof typeof OPTIONS].type === 'string';
    if (takesValue && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** node:util's messages suggest `--` for every unknown option, which only confuses here. */
function conciseParseError(message: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown !== null) return `unknown option ${unknown[1]}`;
  const missing = /^Option '([^' ]+)[^']*' argument missing/.exec(message);
  if (missing !== null) return `${missing[1]} needs a value`;
  return message;
}

function integerIn(text: string, option: string, min: number, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new UsageError(`${option} must be an integer in ${min}..${max}, got '${text}'`);
  }
  return value;
}

/** A size in bytes, with an optional K, M or G suffix (powers of 1024). */
function byteSize(text: string, option: string, min: number, max: number): number {
  const match = /^(\d+)([KMG]?)$/i.exec(text);
  const scale = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(match?.[2] ?? '').toUpperCase() as '' | 'K' | 'M' | 'G'];
  const value = match === null ? Number.NaN : Number(match[1]) * scale;
  if (!(value >= min && value <= max)) {
    throw new UsageError(`${option} must be a size in bytes (with an optional K, M or G suffix) from ${min} to ${max / 1024 ** 2}M, got '${text}'`);
  }
  return value;
}

function unitOf(text: string | undefined): Unit {
  if (text === undefined) return 'word';
  if (text === 'word' || text === 'char') return text;
  throw new UsageError(`--unit must be word or char, got '${text}'`);
}

function globOf(text: string, option: string): string {
  nonEmpty(text, option);
  try {
    globToRegExp(text);
  } catch (error) {
    throw new UsageError(`${option}: ${(error as Error).message}`);
  }
  return text;
}

function groupingOf(text: string | undefined): Grouping {
  if (text === undefined) return 'decisions';
  if (text === 'decisions' || text === 'components') return text;
  throw new UsageError(`--groups must be decisions or components, got '${text}'`);
}

const KEEPS: readonly Keep[] = ['first', 'last', 'longest', 'shortest', 'newest', 'oldest'];

function keepOf(text: string | undefined): Keep {
  if (text === undefined) return 'first';
  if ((KEEPS as readonly string[]).includes(text)) return text as Keep;
  throw new UsageError(`--keep must be one of ${KEEPS.join(', ')}, got '${text}'`);
}

/**
 * The options that belong to some methods, and those methods: given with another method in
 * effect (the default, adaptive, included), an option is refused rather than switching methods
 * or being ignored.
 */
const METHOD_OPTIONS: ReadonlyArray<readonly ['distance' | 'weighting' | 'unit' | 'size' | 'threshold', readonly Method[]]> = [
  ['distance', ['simhash']],
  ['weighting', ['simhash']],
  ['threshold', ['minhash']],
  ['unit', ['simhash', 'minhash']],
  ['size', ['simhash', 'minhash']],
];

/** The method asked for: `--method`, or the default, adaptive. */
function methodOf(text: string | undefined): Method {
  if (text === undefined) return 'adaptive';
  if (text === 'adaptive' || text === 'simhash' || text === 'minhash') return text;
  throw new UsageError(`--method must be adaptive, simhash or minhash, got '${text}'`);
}

function similarityOf(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !(value > 0 && value <= 1)) throw new UsageError(`--threshold must be a number in (0, 1], got '${text}'`);
  return value;
}

function weightingOf(text: string | undefined): Weighting {
  if (text === undefined) return DEFAULT_WEIGHTING;
  if (text === 'tf' || text === 'binary') return text;
  throw new UsageError(`--weighting must be tf or binary, got '${text}'`);
}

function nonEmpty(text: string, option: string): string {
  if (text === '') throw new UsageError(`${option} must not be empty`);
  return text;
}
