/**
 * Plumbing shared by the suites: loading the entry under test once per `describe`, passing the
 * same values in each accepted input form, fast-check parameters, and result comparisons.
 */
import { beforeAll, expect } from 'vitest';
import type { Parameters as FcParameters } from 'fast-check';
import type { Api, LoadApi } from '../api.js';
import type { OraclePairs } from '../oracle.js';
import type { PairResult, U64Input } from '../../ts/shared/types.js';

/**
 * Registers a `beforeAll` that loads the entry, and returns a getter for it. Call inside a
 * `describe`; the getter throws if used before the hook ran.
 */
export function useApi(load: LoadApi): () => Api {
  let api: Api | undefined;
  beforeAll(async () => {
    api = await load();
  });
  return () => {
    if (api === undefined) throw new Error('the entry under test failed to load');
    return api;
  };
}

/** The three ways every function taking a list of u64 accepts it. */
export const INPUT_FORMS = ['BigUint64Array', 'bigint[]', 'HashArray'] as const;
export type InputForm = (typeof INPUT_FORMS)[number];

/**
 * Calls `fn` with `values` given in `form`. A `HashArray` is allocated from `api`, filled through
 * its `view`, and freed afterwards (also when `fn` throws).
 */
export function withInput<T>(api: Api, values: readonly bigint[], form: InputForm, fn: (input: U64Input) => T): T {
  switch (form) {
    case 'bigint[]':
      return fn(values.slice());
    case 'BigUint64Array':
      return fn(BigUint64Array.from(values));
    case 'HashArray': {
      const array = api.allocHashArray(values.length);
      try {
        array.view.set(values);
        return fn(array);
      } finally {
        array.free();
      }
    }
  }
}

/** Calls `fn` with `values` in every input form and returns the results, form by form. */
export function inEveryForm<T>(api: Api, values: readonly bigint[], fn: (input: U64Input) => T): T[] {
  return INPUT_FORMS.map((form) => withInput(api, values, form, fn));
}

/**
 * fast-check parameters: a fixed seed per property (so failures reproduce) unless `FC_SEED` is
 * set, and `numRuns` scaled by `FC_RUNS_SCALE` (default 1) for longer local runs.
 */
export function fcParams(seed: number, numRuns: number): FcParameters<unknown> {
  const envSeed = process.env['FC_SEED'];
  const scale = Number(process.env['FC_RUNS_SCALE'] ?? '1');
  return {
    seed: envSeed === undefined ? seed : Number(envSeed) + seed,
    numRuns: Math.max(1, Math.round(numRuns * (Number.isFinite(scale) && scale > 0 ? scale : 1))),
    endOnFailure: true,
  };
}

/** A `findAll` result as plain arrays, for readable diffs. */
export function plainPairs(result: PairResult): OraclePairs {
  return {
    left: Array.from(result.left),
    right: Array.from(result.right),
    distance: Array.from(result.distance),
  };
}

/** Checks the shape of a `findAll` result: three typed arrays of one length. */
export function expectPairShape(result: PairResult): void {
  expect(result.left).toBeInstanceOf(Uint32Array);
  expect(result.right).toBeInstanceOf(Uint32Array);
  expect(result.distance).toBeInstanceOf(Uint8Array);
  expect(result.right.length).toBe(result.left.length);
  expect(result.distance.length).toBe(result.left.length);
}

/** Checks a `findAll` result against the oracle's pairs, exactly and in order. */
export function expectSamePairs(result: PairResult, expected: OraclePairs): void {
  expectPairShape(result);
  // Compare the counts first: a clear message when thousands of pairs are missing.
  expect(result.left.length).toBe(expected.left.length);
  expect(plainPairs(result)).toEqual(expected);
}

/** Error classes the API throws. */
export type ErrorClass = typeof TypeError | typeof RangeError;

/** The error `fn` throws (failing the test when it returns normally). */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  expect.fail('expected the call to throw, but it returned normally');
}

/**
 * Expects `fn` to throw exactly `kind` (a `RangeError` is not accepted where a `TypeError` is
 * due, nor the reverse) with a message naming `argument`.
 */
export function expectThrows(fn: () => unknown, kind: ErrorClass, argument: string): void {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(kind);
  const other = kind === TypeError ? RangeError : TypeError;
  expect(error).not.toBeInstanceOf(other);
  const message = (error as Error).message;
  expect(message, `message ${JSON.stringify(message)} should name ${argument}`).toMatch(nameRegExp(argument));
}

/** Matches `argument` as a whole word (so `a` does not match inside `array`). */
function nameRegExp(argument: string): RegExp {
  const escaped = argument.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`);
}
