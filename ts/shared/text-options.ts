/** Validation and defaults of {@link TextOptions}, shared by both entries. */

import { TEXT_OPTIONS, type TextOptions } from './types.js';
import { checkOptions, checkU64, describe } from './validate.js';

/** The version of the text fingerprint specification both entries implement. */
export const TEXT_FINGERPRINT_VERSION = 1;

/** {@link TextOptions} with every default filled in. */
export interface ResolvedTextOptions {
  readonly unit: 'word' | 'char';
  readonly size: number;
  readonly weighting: 'tf' | 'binary';
  readonly normalize: boolean;
  readonly lowercase: boolean;
  readonly seed: bigint;
}

const DEFAULT_SIZE = { word: 3, char: 4 } as const;

function choice<T extends string>(value: unknown, name: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new RangeError(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got '${value}'`);
  }
  return value as T;
}

function flag(value: unknown, name: string): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean, got ${describe(value)}`);
  return value;
}

/**
 * Checks text options and fills in the defaults.
 *
 * @throws {TypeError | RangeError} naming the option at fault.
 */
export function resolveTextOptions(options: TextOptions | undefined, where = 'the text options', known: readonly string[] = TEXT_OPTIONS): ResolvedTextOptions {
  const o = options === undefined ? {} : checkOptions(options, known, where);
  const unit = choice(o.unit, 'options.unit', ['word', 'char'] as const, 'word');
  let size: number = DEFAULT_SIZE[unit];
  if (o.size !== undefined) {
    if (typeof o.size !== 'number') throw new TypeError(`options.size must be a number, got ${describe(o.size)}`);
    if (!Number.isInteger(o.size) || o.size < 1 || o.size > 64) {
      throw new RangeError(`options.size must be an integer in 1..64, got ${o.size}`);
    }
    size = o.size;
  }
  return {
    unit,
    size,
    weighting: choice(o.weighting, 'options.weighting', ['tf', 'binary'] as const, 'binary'),
    normalize: flag(o.normalize, 'options.normalize'),
    lowercase: flag(o.lowercase, 'options.lowercase'),
    seed: o.seed === undefined ? 0n : checkU64(o.seed, 'options.seed'),
  };
}

/**
 * Checks that `text` is a string and applies steps 1 of the specification: NFKC, then lower
 * case, as the options say.
 */
export function normalizeText(text: unknown, options: ResolvedTextOptions, name = 'text'): string {
  if (typeof text !== 'string') throw new TypeError(`${name} must be a string, got ${describe(text)}`);
  let out = text;
  if (options.normalize) out = out.normalize('NFKC');
  if (options.lowercase) out = out.toLowerCase();
  return out;
}
