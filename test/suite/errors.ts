/**
 * Error paths: every wrong call throws a `TypeError` (wrong kind of value) or a `RangeError`
 * (right kind, broken rule) whose message names the offending argument, and the implementation
 * keeps giving right answers right after.
 */
import { describe, expect, it } from 'vitest';
import type { Api, LoadApi, LooseApi } from '../api.js';
import { loose } from '../api.js';
import * as oracle from '../oracle.js';
import { SplitMix64, U64_MAX, flipBits } from '../oracle.js';
import type { ErrorClass } from './helpers.js';
import { expectSamePairs, expectThrows, inEveryForm, useApi } from './helpers.js';

interface ErrorCase {
  name: string;
  kind: ErrorClass;
  /** The argument the message must name. */
  argument: string;
  call: (api: LooseApi, real: Api) => unknown;
}

/** A small input with known answers, for "still works" checks. */
const rng = new SplitMix64(0xe770n);
const base = rng.next();
const SAMPLE = [base, flipBits(base, 1, rng), rng.next(), flipBits(base, 3, rng), base, U64_MAX ^ base, flipBits(base, 4, rng)];
const SAMPLE_WEIGHTS = [1, 0.5, 2, 0, 3, 1, 0.25];
const SAMPLE_OFFSETS = Uint32Array.of(0, 2, 2, 5, 7);

function expectStillWorks(api: Api): void {
  for (const result of inEveryForm(api, SAMPLE, (input) => api.compute(input))) {
    expect(result).toBe(oracle.compute(SAMPLE));
  }
  expect(api.computeWeighted(SAMPLE, SAMPLE_WEIGHTS)).toBe(oracle.computeWeighted(SAMPLE, SAMPLE_WEIGHTS));
  expect(Array.from(api.computeMany(SAMPLE, SAMPLE_OFFSETS))).toEqual(oracle.computeMany(SAMPLE, SAMPLE_OFFSETS));
  expect(Array.from(api.hammingDistances(base, SAMPLE))).toEqual(oracle.hammingDistances(base, SAMPLE));
  for (const distance of [0, 3, 64]) {
    for (const result of inEveryForm(api, SAMPLE, (input) => api.findAll(input, { distance }))) {
      expectSamePairs(result, oracle.findAll(SAMPLE, distance));
    }
  }
}

/** A HashArray holding `SAMPLE`, already freed. */
function freedArray(api: Api): ReturnType<Api['allocHashArray']> {
  const array = api.allocHashArray(SAMPLE.length);
  array.view.set(SAMPLE);
  array.free();
  expect(array.freed).toBe(true);
  return array;
}

const TOO_BIG = 1n << 64n;

/** A view whose buffer has been transferred away: it reads as empty. */
function detached<T extends BigUint64Array | Float64Array | Uint32Array>(view: T): T {
  structuredClone(view.buffer, { transfer: [view.buffer as ArrayBuffer] });
  expect(view.length).toBe(0);
  return view;
}

/** An array with a hole and more elements than 4 GiB of memory holds: the hole is what is wrong. */
function hugeSparse(): unknown[] {
  const array: unknown[] = [];
  array.length = 2 ** 29 + 5;
  return array;
}
const sparse: unknown[] = [1n, 2n, 3n];
delete sparse[1];

const CASES: ErrorCase[] = [
  // compute: the hashes list.
  { name: 'compute() without hashes', kind: TypeError, argument: 'hashes', call: (a) => a.compute() },
  { name: 'compute(null)', kind: TypeError, argument: 'hashes', call: (a) => a.compute(null) },
  { name: 'compute("abc")', kind: TypeError, argument: 'hashes', call: (a) => a.compute('abc') },
  { name: 'compute(BigInt64Array)', kind: TypeError, argument: 'hashes', call: (a) => a.compute(new BigInt64Array(2)) },
  { name: 'compute(Uint32Array)', kind: TypeError, argument: 'hashes', call: (a) => a.compute(new Uint32Array(2)) },
  { name: 'compute([1n, 2]) (a number element)', kind: TypeError, argument: 'hashes', call: (a) => a.compute([1n, 2]) },
  { name: 'compute([1n, "2"]) (a string element)', kind: TypeError, argument: 'hashes', call: (a) => a.compute([1n, '2']) },
  { name: 'compute with a hole in the array', kind: TypeError, argument: 'hashes', call: (a) => a.compute(sparse) },
  { name: 'compute([1n, -1n])', kind: RangeError, argument: 'hashes', call: (a) => a.compute([1n, -1n]) },
  { name: 'compute([2^64])', kind: RangeError, argument: 'hashes', call: (a) => a.compute([TOO_BIG]) },
  { name: 'compute([0n, 2^64 + 5])', kind: RangeError, argument: 'hashes', call: (a) => a.compute([0n, TOO_BIG + 5n]) },
  { name: 'compute(freed HashArray)', kind: TypeError, argument: 'hashes', call: (a, r) => a.compute(freedArray(r)) },

  // computeWeighted: hashes and weights.
  { name: 'computeWeighted([1n, 2], weights)', kind: TypeError, argument: 'hashes', call: (a) => a.computeWeighted([1n, 2], [1, 1]) },
  { name: 'computeWeighted([-1n], weights)', kind: RangeError, argument: 'hashes', call: (a) => a.computeWeighted([-1n], [1]) },
  { name: 'computeWeighted(freed HashArray)', kind: TypeError, argument: 'hashes', call: (a, r) => a.computeWeighted(freedArray(r), SAMPLE_WEIGHTS) },
  { name: 'computeWeighted without weights', kind: TypeError, argument: 'weights', call: (a) => a.computeWeighted([1n]) },
  { name: 'computeWeighted weights null', kind: TypeError, argument: 'weights', call: (a) => a.computeWeighted([1n], null) },
  { name: 'computeWeighted weights Float32Array', kind: TypeError, argument: 'weights', call: (a) => a.computeWeighted([1n], new Float32Array(1)) },
  { name: 'computeWeighted weights ["1"]', kind: TypeError, argument: 'weights', call: (a) => a.computeWeighted([1n], ['1']) },
  { name: 'computeWeighted weights [1n] (bigint)', kind: TypeError, argument: 'weights', call: (a) => a.computeWeighted([1n], [1n]) },
  { name: 'computeWeighted weights too short (array)', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([1n, 2n], [1]) },
  { name: 'computeWeighted weights too long (Float64Array)', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([1n, 2n], new Float64Array(3)) },
  { name: 'computeWeighted weights for empty hashes', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([], [1]) },
  { name: 'computeWeighted weight -1', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([1n, 2n], [1, -1]) },
  { name: 'computeWeighted weight -1e-300 (Float64Array)', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([1n, 2n], Float64Array.of(-1e-300, 1)) },
  { name: 'computeWeighted weight NaN', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([1n, 2n], [1, NaN]) },
  { name: 'computeWeighted weight NaN (Float64Array)', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([1n, 2n], Float64Array.of(NaN, 1)) },
  { name: 'computeWeighted weight Infinity', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([1n, 2n], [Infinity, 1]) },
  { name: 'computeWeighted weight -Infinity (Float64Array)', kind: RangeError, argument: 'weights', call: (a) => a.computeWeighted([1n, 2n], Float64Array.of(1, -Infinity)) },

  // computeMany / computeManyWeighted: offsets.
  { name: 'computeMany without offsets', kind: TypeError, argument: 'offsets', call: (a) => a.computeMany(SAMPLE) },
  { name: 'computeMany offsets number[]', kind: TypeError, argument: 'offsets', call: (a) => a.computeMany(SAMPLE, [0, 2]) },
  { name: 'computeMany offsets Int32Array', kind: TypeError, argument: 'offsets', call: (a) => a.computeMany(SAMPLE, Int32Array.of(0, 2)) },
  { name: 'computeMany offsets Uint16Array', kind: TypeError, argument: 'offsets', call: (a) => a.computeMany(SAMPLE, Uint16Array.of(0, 2)) },
  { name: 'computeMany offsets decreasing', kind: RangeError, argument: 'offsets', call: (a) => a.computeMany(SAMPLE, Uint32Array.of(0, 3, 2, 5)) },
  { name: 'computeMany offsets beyond the hashes', kind: RangeError, argument: 'offsets', call: (a) => a.computeMany(SAMPLE, Uint32Array.of(0, SAMPLE.length + 1)) },
  { name: 'computeMany offsets beyond empty hashes', kind: RangeError, argument: 'offsets', call: (a) => a.computeMany([], Uint32Array.of(0, 1)) },
  { name: 'computeMany single offset beyond the hashes', kind: RangeError, argument: 'offsets', call: (a) => a.computeMany([1n], Uint32Array.of(2)) },
  { name: 'computeMany hashes with a number', kind: TypeError, argument: 'hashes', call: (a) => a.computeMany([1n, 2], Uint32Array.of(0, 2)) },
  { name: 'computeMany(freed HashArray)', kind: TypeError, argument: 'hashes', call: (a, r) => a.computeMany(freedArray(r), SAMPLE_OFFSETS) },
  { name: 'computeManyWeighted weights wrong length', kind: RangeError, argument: 'weights', call: (a) => a.computeManyWeighted(SAMPLE, [1], SAMPLE_OFFSETS) },
  { name: 'computeManyWeighted weight NaN', kind: RangeError, argument: 'weights', call: (a) => a.computeManyWeighted(SAMPLE, SAMPLE_WEIGHTS.map((w, i) => (i === 3 ? NaN : w)), SAMPLE_OFFSETS) },
  { name: 'computeManyWeighted weight negative', kind: RangeError, argument: 'weights', call: (a) => a.computeManyWeighted(SAMPLE, SAMPLE_WEIGHTS.map((w, i) => (i === 6 ? -2 : w)), SAMPLE_OFFSETS) },
  { name: 'computeManyWeighted offsets decreasing', kind: RangeError, argument: 'offsets', call: (a) => a.computeManyWeighted(SAMPLE, SAMPLE_WEIGHTS, Uint32Array.of(3, 1)) },
  { name: 'computeManyWeighted offsets not a Uint32Array', kind: TypeError, argument: 'offsets', call: (a) => a.computeManyWeighted(SAMPLE, SAMPLE_WEIGHTS, [0, 7]) },

  // numDifferingBits and hammingDistances.
  { name: 'numDifferingBits(1, 2n)', kind: TypeError, argument: 'a', call: (a) => a.numDifferingBits(1, 2n) },
  { name: 'numDifferingBits(1n, "2")', kind: TypeError, argument: 'b', call: (a) => a.numDifferingBits(1n, '2') },
  { name: 'numDifferingBits(-1n, 0n)', kind: RangeError, argument: 'a', call: (a) => a.numDifferingBits(-1n, 0n) },
  { name: 'numDifferingBits(0n, 2^64)', kind: RangeError, argument: 'b', call: (a) => a.numDifferingBits(0n, TOO_BIG) },
  { name: 'hammingDistances(1, fingerprints)', kind: TypeError, argument: 'query', call: (a) => a.hammingDistances(1, SAMPLE) },
  { name: 'hammingDistances(-1n, fingerprints)', kind: RangeError, argument: 'query', call: (a) => a.hammingDistances(-1n, SAMPLE) },
  { name: 'hammingDistances(2^64, fingerprints)', kind: RangeError, argument: 'query', call: (a) => a.hammingDistances(TOO_BIG, SAMPLE) },
  { name: 'hammingDistances(0n, "x")', kind: TypeError, argument: 'fingerprints', call: (a) => a.hammingDistances(0n, 'x') },
  { name: 'hammingDistances(0n, [1n, 2])', kind: TypeError, argument: 'fingerprints', call: (a) => a.hammingDistances(0n, [1n, 2]) },
  { name: 'hammingDistances(0n, [2^64])', kind: RangeError, argument: 'fingerprints', call: (a) => a.hammingDistances(0n, [TOO_BIG]) },
  { name: 'hammingDistances(0n, freed HashArray)', kind: TypeError, argument: 'fingerprints', call: (a, r) => a.hammingDistances(0n, freedArray(r)) },

  // findAll: fingerprints.
  { name: 'findAll(undefined, options)', kind: TypeError, argument: 'fingerprints', call: (a) => a.findAll(undefined, { distance: 3 }) },
  { name: 'findAll([1n, 2])', kind: TypeError, argument: 'fingerprints', call: (a) => a.findAll([1n, 2], { distance: 3 }) },
  { name: 'findAll([-1n])', kind: RangeError, argument: 'fingerprints', call: (a) => a.findAll([0n, -1n], { distance: 3 }) },
  { name: 'findAll([2^64])', kind: RangeError, argument: 'fingerprints', call: (a) => a.findAll([TOO_BIG], { distance: 3 }) },
  { name: 'findAll(freed HashArray)', kind: TypeError, argument: 'fingerprints', call: (a, r) => a.findAll(freedArray(r), { distance: 3 }) },
  // findAll: options.
  { name: 'findAll without options', kind: TypeError, argument: 'options', call: (a) => a.findAll(SAMPLE) },
  { name: 'findAll options 3', kind: TypeError, argument: 'options', call: (a) => a.findAll(SAMPLE, 3) },
  { name: 'findAll options null', kind: TypeError, argument: 'options', call: (a) => a.findAll(SAMPLE, null) },
  { name: 'findAll options "distance"', kind: TypeError, argument: 'options', call: (a) => a.findAll(SAMPLE, 'distance') },
  { name: 'findAll options [3]', kind: TypeError, argument: 'options', call: (a) => a.findAll(SAMPLE, [3]) },
  { name: 'findAll options {} (distance missing)', kind: TypeError, argument: 'distance', call: (a) => a.findAll(SAMPLE, {}) },
  { name: 'findAll distance "3"', kind: TypeError, argument: 'distance', call: (a) => a.findAll(SAMPLE, { distance: '3' }) },
  { name: 'findAll distance 3n', kind: TypeError, argument: 'distance', call: (a) => a.findAll(SAMPLE, { distance: 3n }) },
  { name: 'findAll distance 1.5', kind: RangeError, argument: 'distance', call: (a) => a.findAll(SAMPLE, { distance: 1.5 }) },
  { name: 'findAll distance -1', kind: RangeError, argument: 'distance', call: (a) => a.findAll(SAMPLE, { distance: -1 }) },
  { name: 'findAll distance 65', kind: RangeError, argument: 'distance', call: (a) => a.findAll(SAMPLE, { distance: 65 }) },
  { name: 'findAll distance NaN', kind: RangeError, argument: 'distance', call: (a) => a.findAll(SAMPLE, { distance: NaN }) },
  { name: 'findAll distance Infinity', kind: RangeError, argument: 'distance', call: (a) => a.findAll(SAMPLE, { distance: Infinity }) },
  { name: 'findAll distance -1 on empty input', kind: RangeError, argument: 'distance', call: (a) => a.findAll([], { distance: -1 }) },
  { name: 'findAll blocks "4"', kind: TypeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 3, blocks: '4' }) },
  { name: 'findAll blocks null', kind: TypeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 3, blocks: null }) },
  { name: 'findAll blocks 2.5', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 1, blocks: 2.5 }) },
  { name: 'findAll blocks NaN', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 1, blocks: NaN }) },
  { name: 'findAll blocks 65', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 3, blocks: 65 }) },
  { name: 'findAll blocks == distance', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 3, blocks: 3 }) },
  { name: 'findAll blocks < distance', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 5, blocks: 2 }) },
  { name: 'findAll blocks 0', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 0, blocks: 0 }) },
  { name: 'findAll blocks -4', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 0, blocks: -4 }) },
  { name: 'findAll blocks at distance 64', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 64, blocks: 64 }) },
  // Layouts whose table count alone would cost seconds, whatever the input's size.
  { name: 'findAll blocks 25 at distance 5 (53,130 tables)', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 5, blocks: 25 }) },
  { name: 'findAll blocks 64 at distance 3 (41,664 tables)', kind: RangeError, argument: 'blocks', call: (a) => a.findAll(SAMPLE, { distance: 3, blocks: 64 }) },
  { name: 'findClusters blocks 25 at distance 5', kind: RangeError, argument: 'blocks', call: (a) => a.findClusters(SAMPLE, { distance: 5, blocks: 25 }) },
  { name: 'SimHashIndex blocks 64 at distance 3', kind: RangeError, argument: 'blocks', call: (a) => new a.SimHashIndex({ distance: 3, blocks: 64 }) },
  { name: 'findAll maxPairs "10"', kind: TypeError, argument: 'maxPairs', call: (a) => a.findAll(SAMPLE, { distance: 3, maxPairs: '10' }) },
  { name: 'findAll maxPairs -1', kind: RangeError, argument: 'maxPairs', call: (a) => a.findAll(SAMPLE, { distance: 3, maxPairs: -1 }) },
  { name: 'findAll maxPairs 1.5', kind: RangeError, argument: 'maxPairs', call: (a) => a.findAll(SAMPLE, { distance: 3, maxPairs: 1.5 }) },
  { name: 'findAll maxPairs 2^32', kind: RangeError, argument: 'maxPairs', call: (a) => a.findAll(SAMPLE, { distance: 3, maxPairs: 2 ** 32 }) },
  {
    name: 'findAll maxPairs exceeded (2,000 equal values, maxPairs 1,000)',
    kind: RangeError,
    argument: 'maxPairs',
    call: (a) => a.findAll(new BigUint64Array(2000).fill(base), { distance: 0, maxPairs: 1000 }),
  },
  {
    name: 'findAll maxPairs exceeded with explicit blocks 4 (distance 3)',
    kind: RangeError,
    argument: 'maxPairs',
    call: (a) => a.findAll(new Array<bigint>(2000).fill(base), { distance: 3, blocks: 4, maxPairs: 1000 }),
  },
  {
    name: 'findAll maxPairs exceeded at distance 64 (every pair)',
    kind: RangeError,
    argument: 'maxPairs',
    call: (a) => a.findAll(SAMPLE, { distance: 64, maxPairs: 20 }),
  },
  {
    name: 'findAll maxPairs 0 with one pair',
    kind: RangeError,
    argument: 'maxPairs',
    call: (a) => a.findAll([base, base], { distance: 0, maxPairs: 0 }),
  },

  // permutationLayout and permute.
  { name: 'permutationLayout(3, 3)', kind: RangeError, argument: 'blocks', call: (a) => a.permutationLayout(3, 3) },
  { name: 'permutationLayout(65, 3)', kind: RangeError, argument: 'blocks', call: (a) => a.permutationLayout(65, 3) },
  { name: 'permutationLayout(2.5, 1)', kind: RangeError, argument: 'blocks', call: (a) => a.permutationLayout(2.5, 1) },
  { name: 'permutationLayout("4", 1)', kind: TypeError, argument: 'blocks', call: (a) => a.permutationLayout('4', 1) },
  { name: 'permutationLayout(4, 1.5)', kind: RangeError, argument: 'distance', call: (a) => a.permutationLayout(4, 1.5) },
  { name: 'permutationLayout(4, -1)', kind: RangeError, argument: 'distance', call: (a) => a.permutationLayout(4, -1) },
  { name: 'permutationLayout(4, "1")', kind: TypeError, argument: 'distance', call: (a) => a.permutationLayout(4, '1') },
  { name: 'permute(-1n, layout, 0)', kind: RangeError, argument: 'value', call: (a, r) => a.permute(-1n, r.permutationLayout(4, 3), 0) },
  { name: 'permute(2^64, layout, 0)', kind: RangeError, argument: 'value', call: (a, r) => a.permute(TOO_BIG, r.permutationLayout(4, 3), 0) },
  { name: 'permute(1, layout, 0)', kind: TypeError, argument: 'value', call: (a, r) => a.permute(1, r.permutationLayout(4, 3), 0) },
  { name: 'permute(1n, layout, 4) (one past the last table)', kind: RangeError, argument: 'table', call: (a, r) => a.permute(1n, r.permutationLayout(4, 3), 4) },
  { name: 'permute(1n, layout, -1)', kind: RangeError, argument: 'table', call: (a, r) => a.permute(1n, r.permutationLayout(4, 3), -1) },
  { name: 'permute(1n, layout, 0.5)', kind: RangeError, argument: 'table', call: (a, r) => a.permute(1n, r.permutationLayout(4, 3), 0.5) },

  // allocHashArray.
  { name: 'allocHashArray()', kind: TypeError, argument: 'length', call: (a) => a.allocHashArray() },
  { name: 'allocHashArray("3")', kind: TypeError, argument: 'length', call: (a) => a.allocHashArray('3') },
  { name: 'allocHashArray(-1)', kind: RangeError, argument: 'length', call: (a) => a.allocHashArray(-1) },
  { name: 'allocHashArray(1.5)', kind: RangeError, argument: 'length', call: (a) => a.allocHashArray(1.5) },
  { name: 'allocHashArray(NaN)', kind: RangeError, argument: 'length', call: (a) => a.allocHashArray(NaN) },
  { name: 'allocHashArray(2^32)', kind: RangeError, argument: 'length', call: (a) => a.allocHashArray(2 ** 32) },

  // Detached views read as empty: computing on them would be a wrong answer.
  { name: 'compute(detached view)', kind: TypeError, argument: 'hashes', call: (a) => a.compute(detached(BigUint64Array.of(1n, 2n))) },
  { name: 'findAll(detached view)', kind: TypeError, argument: 'fingerprints', call: (a) => a.findAll(detached(new BigUint64Array(8)), { distance: 3 }) },
  { name: 'findClusters(detached view)', kind: TypeError, argument: 'fingerprints', call: (a) => a.findClusters(detached(new BigUint64Array(8)), { distance: 3 }) },
  { name: 'computeWeighted with detached weights', kind: TypeError, argument: 'weights', call: (a) => a.computeWeighted([], detached(new Float64Array(2))) },
  { name: 'computeMany with detached offsets', kind: TypeError, argument: 'offsets', call: (a) => a.computeMany([], detached(new Uint32Array(2))) },
  { name: 'compute of a huge sparse array', kind: TypeError, argument: 'hashes[0]', call: (a) => a.compute(hugeSparse()) },

  // permute's layout.
  { name: 'permute(1n, null, 0)', kind: TypeError, argument: 'layout', call: (a) => a.permute(1n, null, 0) },
  { name: 'permute(1n, {}, 0)', kind: TypeError, argument: 'layout', call: (a) => a.permute(1n, {}, 0) },

  // init and initSync: a value that can never be a source, whether or not the module is loaded.
  { name: 'initSync(5)', kind: TypeError, argument: 'source', call: (a) => a.initSync(5) },
  { name: 'initSync(null)', kind: TypeError, argument: 'source', call: (a) => a.initSync(null) },
  { name: 'initSync("simhash.wasm")', kind: TypeError, argument: 'source', call: (a) => a.initSync('simhash.wasm') },
];

/** The same for `init`, which rejects instead of throwing. */
const INIT_CASES: { name: string; source: unknown }[] = [
  { name: 'init(5)', source: 5 },
  { name: 'init(null)', source: null },
  { name: 'init(true)', source: true },
];

export function describeErrorSuite(name: string, load: LoadApi): void {
  describe(`${name}: errors`, () => {
    const api = useApi(load);

    it('works before any error (baseline for the checks below)', () => {
      expectStillWorks(api());
    });

    for (const c of CASES) {
      it(`${c.name} → ${c.kind.name} naming ${c.argument}, then still works`, () => {
        expectThrows(() => c.call(loose(api()), api()), c.kind, c.argument);
        expectStillWorks(api());
      });
    }

    for (const c of INIT_CASES) {
      it(`${c.name} rejects with a TypeError naming source, then still works`, async () => {
        const init = loose(api()).init as (source: unknown) => Promise<void>;
        const error = await init(c.source).then(
          () => undefined,
          (e: unknown) => e,
        );
        expectThrows(() => {
          if (error !== undefined) throw error;
        }, TypeError, 'source');
        expectStillWorks(api());
      });
    }

    it('every error case fails again the same way when repeated (no state left behind)', () => {
      for (const c of CASES) {
        expectThrows(() => c.call(loose(api()), api()), c.kind, c.argument);
      }
      expectStillWorks(api());
    });

    describe('valid edge calls around the error cases', () => {
      it('maxPairs exactly the number of pairs (2,000 equal values: 1,999,000 pairs) is fine', () => {
        const n = 2000;
        const count = (n * (n - 1)) / 2;
        const result = api().findAll(new BigUint64Array(n).fill(base), { distance: 0, maxPairs: count });
        expect(result.left.length).toBe(count);
        expect(result.right.length).toBe(count);
        expect(result.distance.length).toBe(count);
        let k = 0;
        let ok = true;
        for (let i = 0; i < n && ok; i++) {
          for (let j = i + 1; j < n; j++, k++) {
            if (result.left[k] !== i || result.right[k] !== j || result.distance[k] !== 0) {
              ok = false;
              expect.fail(`pair ${k} is (${result.left[k]}, ${result.right[k]}, ${result.distance[k]}), expected (${i}, ${j}, 0)`);
            }
          }
        }
        expect(() => api().findAll(new BigUint64Array(n).fill(base), { distance: 0, maxPairs: count - 1 })).toThrow(RangeError);
        expectStillWorks(api());
      });

      it('maxPairs 0 with no pairs is fine; undefined optional options mean the defaults', () => {
        const distinct = [0n, 1n << 10n, U64_MAX];
        expectSamePairs(api().findAll(distinct, { distance: 0, maxPairs: 0 }), oracle.findAll(distinct, 0));
        expectSamePairs(api().findAll(SAMPLE, { distance: 3, blocks: undefined, maxPairs: undefined }), oracle.findAll(SAMPLE, 3));
      });

      it('boundary values are accepted: 0 and 2^64 - 1, distance 0 and 64, blocks 64, zero weights, empty offsets', () => {
        const edge = [0n, U64_MAX, 0n, U64_MAX];
        expect(api().compute(edge)).toBe(0n);
        expect(api().numDifferingBits(0n, U64_MAX)).toBe(64);
        expect(Array.from(api().hammingDistances(U64_MAX, edge))).toEqual([64, 0, 64, 0]);
        expectSamePairs(api().findAll(edge, { distance: 64 }), oracle.findAll(edge, 64));
        expectSamePairs(api().findAll(edge, { distance: 0, blocks: 64 }), oracle.findAll(edge, 0));
        expectSamePairs(api().findAll(edge, { distance: 63, blocks: 64 }), oracle.findAll(edge, 63));
        expect(api().computeWeighted(edge, [0, 0, 0, 0])).toBe(0n);
        expect(api().computeMany(edge, new Uint32Array(0)).length).toBe(0);
        expect(api().computeMany(edge, Uint32Array.of(4, 4)).length).toBe(1);
        const layout = api().permutationLayout(64, 63);
        expect(api().permute(U64_MAX, layout, layout.tables.length - 1)).toBe(U64_MAX);
      });
    });
  });
}
