/**
 * findAll: golden vectors from simhash-cpp (compared as de-duplicated value pairs, and as
 * position pairs against the oracle), the reference's invalid-argument cases, implementation ≡
 * all-pairs oracle on random and adversarial inputs for every distance and many `blocks`, and an
 * exact check on 50,000 fingerprints with planted near-duplicates.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Api, LoadApi } from '../api.js';
import * as oracle from '../oracle.js';
import { SplitMix64, U64_MAX, flipBits } from '../oracle.js';
import { loadFindAllCases, loadFindAllErrorCases } from '../vectors.js';
import type { PairResult, U64Input } from '../../ts/shared/types.js';
import { blocksToTry, distance as distanceArb, materialize, steps, u64, validBlocks } from './arbitraries.js';
import { expectPairShape, expectSamePairs, expectThrows, fcParams, inEveryForm, plainPairs, useApi } from './helpers.js';

/** Property tests skip layouts with more tables than this (they are valid, just slow). */
const MAX_TABLES = 600;

function compareBigint(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Position pairs mapped to value pairs `[min, max]`, without equal-value pairs, de-duplicated and
 * sorted numerically: the form simhash-cpp reports (it works on a set of values).
 */
function valuePairs(values: readonly bigint[], result: PairResult): Array<[bigint, bigint]> {
  const seen = new Map<string, [bigint, bigint]>();
  for (let k = 0; k < result.left.length; k++) {
    const a = values[result.left[k]!];
    const b = values[result.right[k]!];
    if (a === undefined || b === undefined) throw new Error(`pair ${k} points outside the input`);
    if (a === b) continue;
    const pair: [bigint, bigint] = a < b ? [a, b] : [b, a];
    seen.set(`${pair[0]},${pair[1]}`, pair);
  }
  return [...seen.values()].sort((x, y) => compareBigint(x[0], y[0]) || compareBigint(x[1], y[1]));
}

function findAllIn(api: Api, input: U64Input, distance: number, blocks: number | undefined): PairResult {
  return blocks === undefined ? api.findAll(input, { distance }) : api.findAll(input, { distance, blocks });
}

export function describeFindAllSuite(name: string, load: LoadApi): void {
  describe(`${name}: findAll`, () => {
    const api = useApi(load);

    describe('golden vectors (simhash-cpp find_all)', () => {
      const vectors = loadFindAllCases();
      it('has the reference cases', () => {
        expect(vectors.length).toBeGreaterThan(40);
      });

      for (const c of vectors) {
        it(`${c.name} (n=${c.hashes.length}, blocks=${c.blocks}, distance=${c.distance})`, () => {
          expect(new Set(c.hashes).size).toBe(c.uniqueInputs);
          const expectedPositions = oracle.findAll(c.hashes, c.distance);
          for (const result of inEveryForm(api(), c.hashes, (input) =>
            api().findAll(input, { distance: c.distance, blocks: c.blocks }),
          )) {
            expect(valuePairs(c.hashes, result)).toEqual(c.expected);
            expectSamePairs(result, expectedPositions);
          }
          // The same answer with the automatic choice of blocks.
          expectSamePairs(api().findAll(c.hashes, { distance: c.distance }), expectedPositions);
        });
      }
    });

    describe('golden error vectors (simhash-cpp rejects these blocks/distance)', () => {
      for (const c of loadFindAllErrorCases()) {
        it(`${c.name}: RangeError (reference: "${c.expectedError}")`, () => {
          // A distance outside 0..64 is itself the first invalid argument and is named instead.
          const named = c.distance < 0 || c.distance > 64 ? 'distance' : 'blocks';
          for (const form of ['list', 'typed'] as const) {
            const input = form === 'list' ? c.hashes : BigUint64Array.from(c.hashes);
            expectThrows(() => api().findAll(input, { distance: c.distance, blocks: c.blocks }), RangeError, named);
          }
          // Still working afterwards.
          expectSamePairs(api().findAll(c.hashes, { distance: 0 }), oracle.findAll(c.hashes, 0));
        });
      }
    });

    describe('findAll ≡ all-pairs oracle', () => {
      it('random and adversarial inputs, every distance, automatic and explicit blocks, every input form', () => {
        fc.assert(
          fc.property(distanceArb, steps(36), fc.nat(), (distance, s, pick) => {
            const values = materialize(s, distance);
            const expected = oracle.findAll(values, distance);
            const choices = blocksToTry(distance, MAX_TABLES);
            const blocks = choices[pick % choices.length];
            for (const result of inEveryForm(api(), values, (input) => findAllIn(api(), input, distance, blocks))) {
              expectSamePairs(result, expected);
            }
          }),
          fcParams(201, 250),
        );
      });

      it('the result does not depend on blocks (automatic, distance+1, 5, 7, 9, 10, 64, random)', () => {
        fc.assert(
          fc.property(distanceArb, steps(30), fc.nat(), (distance, s, pick) => {
            const values = materialize(s, distance);
            const expected = oracle.findAll(values, distance);
            const valid = validBlocks(distance, MAX_TABLES);
            const tried = blocksToTry(distance, MAX_TABLES);
            if (valid.length > 0) tried.push(valid[pick % valid.length]);
            for (const blocks of tried) {
              expectSamePairs(findAllIn(api(), values, distance, blocks), expected);
            }
          }),
          fcParams(202, 80),
        );
      });

      it('n = 0, 1, 2 for every distance and every cheap blocks', () => {
        fc.assert(
          fc.property(u64, u64, (x, y) => {
            for (const values of [[], [x], [x, y], [x, x], [x, U64_MAX ^ x]]) {
              for (let distance = 0; distance <= 64; distance++) {
                const expected = oracle.findAll(values, distance);
                for (const blocks of blocksToTry(distance, 100)) {
                  expectSamePairs(findAllIn(api(), values, distance, blocks), expected);
                }
              }
            }
          }),
          fcParams(203, 8),
        );
      });

      it('all-equal inputs: every pair at distance 0', () => {
        fc.assert(
          fc.property(u64, fc.integer({ min: 0, max: 60 }), distanceArb, (value, n, distance) => {
            const values = new Array<bigint>(n).fill(value);
            const expected = oracle.findAll(values, distance);
            expect(expected.left.length).toBe(n < 2 ? 0 : (n * (n - 1)) / 2);
            for (const result of inEveryForm(api(), values, (input) => api().findAll(input, { distance }))) {
              expectSamePairs(result, expected);
            }
          }),
          fcParams(204, 40),
        );
      });

      it('complements are at distance 64: found only at distance 64', () => {
        fc.assert(
          fc.property(fc.array(u64, { maxLength: 12 }), (bases) => {
            const values = bases.flatMap((x) => [x, U64_MAX ^ x]);
            for (const distance of [0, 1, 3, 32, 63, 64]) {
              expectSamePairs(api().findAll(values, { distance }), oracle.findAll(values, distance));
            }
          }),
          fcParams(205, 40),
        );
      });

      it('near copies at exactly distance and distance + 1 bits, for distances 0..8 and 60..64', () => {
        fc.assert(
          fc.property(u64, fc.integer({ min: 1, max: 12 }), fc.nat(), (base, copies, seed) => {
            const rng = new SplitMix64(BigInt(seed));
            for (const distance of [0, 1, 2, 3, 4, 5, 6, 7, 8, 60, 61, 62, 63, 64]) {
              const values = [base];
              for (let c = 0; c < copies; c++) {
                values.push(flipBits(base, Math.min(64, distance + (c % 2)), rng));
              }
              const expected = oracle.findAll(values, distance);
              for (const blocks of blocksToTry(distance, MAX_TABLES)) {
                expectSamePairs(findAllIn(api(), values, distance, blocks), expected);
              }
            }
          }),
          fcParams(206, 25),
        );
      });

      it('values near 0 and near 2^64 - 1', () => {
        fc.assert(
          fc.property(
            fc.array(
              fc.oneof(fc.bigInt({ min: 0n, max: 63n }), fc.bigInt({ min: U64_MAX - 63n, max: U64_MAX })),
              { maxLength: 40 },
            ),
            fc.constantFrom(0, 1, 2, 3, 5, 63, 64),
            (values, distance) => {
              const expected = oracle.findAll(values, distance);
              for (const blocks of blocksToTry(distance, MAX_TABLES)) {
                expectSamePairs(findAllIn(api(), values, distance, blocks), expected);
              }
            },
          ),
          fcParams(207, 40),
        );
      });
    });

    describe('maxPairs', () => {
      it('a result of exactly maxPairs pairs is returned; one fewer allowed throws a RangeError (any blocks)', () => {
        fc.assert(
          fc.property(steps(30), fc.constantFrom(0, 1, 3, 64), fc.nat(), (s, distance, pick) => {
            const values = materialize(s, distance);
            const expected = oracle.findAll(values, distance);
            const count = expected.left.length;
            const choices = blocksToTry(distance, MAX_TABLES);
            const blocks = choices[pick % choices.length];
            const options = (maxPairs: number) => (blocks === undefined ? { distance, maxPairs } : { distance, blocks, maxPairs });
            expectSamePairs(api().findAll(values, options(count)), expected);
            if (count > 0) {
              expectThrows(() => api().findAll(values, options(count - 1)), RangeError, 'maxPairs');
            }
          }),
          fcParams(208, 60),
        );
      });
    });

    describe('50,000 fingerprints with planted near-duplicates (distance 3)', () => {
      const n = 50_000;
      const distance = 3;
      const rng = new SplitMix64(0x5_0000n);
      const values: bigint[] = Array.from({ length: 45_000 }, () => rng.next());
      // 1,000 families: a base among the random values and 5 copies with 0..4 flipped bits.
      const familyOf = new Int32Array(n).fill(-1);
      const bases: number[] = [];
      const chosen = new Set<number>();
      while (bases.length < 1000) {
        const b = rng.below(45_000);
        if (chosen.has(b)) continue;
        chosen.add(b);
        bases.push(b);
      }
      const membersByFamily: number[][] = bases.map((b) => [b]);
      for (let f = 0; f < bases.length; f++) {
        familyOf[bases[f]!] = f;
        for (let c = 0; c < 5; c++) {
          familyOf[values.length] = f;
          membersByFamily[f]!.push(values.length);
          values.push(flipBits(values[bases[f]!]!, c, rng));
        }
      }
      // Scatter the copies: a seeded Fisher–Yates over positions, carrying family membership.
      const order = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = rng.below(i + 1);
        const tmp = order[i]!;
        order[i] = order[j]!;
        order[j] = tmp;
      }
      const positionOf = new Int32Array(n);
      order.forEach((from, to) => (positionOf[from] = to));
      const shuffled = order.map((from) => values[from]!);
      const families = membersByFamily.map((members) => members.map((m) => positionOf[m]!));

      // Halves for fast exact distances.
      const lo = new Uint32Array(n);
      const hi = new Uint32Array(n);
      shuffled.forEach((v, i) => {
        lo[i] = Number(v & 0xffff_ffffn);
        hi[i] = Number(v >> 32n);
      });
      const dist = (i: number, j: number): number => popcount32(lo[i]! ^ lo[j]!) + popcount32(hi[i]! ^ hi[j]!);
      const key = (i: number, j: number): number => i * n + j;

      /**
       * Every pair within 3 bits, found independently of the implementation: two fingerprints
       * within 3 bits agree on at least one of their four 16-bit quarters, so grouping by each
       * quarter and comparing within groups misses nothing. A pair is counted in the first quarter
       * it agrees on only.
       */
      function pigeonholePairs(): Set<number> {
        const pairs = new Set<number>();
        const quarter = (i: number, q: number): number => (q < 2 ? lo[i]! >>> (16 * q) : hi[i]! >>> (16 * (q - 2))) & 0xffff;
        for (let q = 0; q < 4; q++) {
          const groups = new Map<number, number[]>();
          for (let i = 0; i < n; i++) {
            const k = quarter(i, q);
            const g = groups.get(k);
            if (g === undefined) groups.set(k, [i]);
            else g.push(i);
          }
          for (const g of groups.values()) {
            for (let a = 0; a < g.length; a++) {
              for (let b = a + 1; b < g.length; b++) {
                const i = g[a]!;
                const j = g[b]!;
                let earlier = false;
                for (let p = 0; p < q; p++) if (quarter(i, p) === quarter(j, p)) earlier = true;
                if (!earlier && dist(i, j) <= distance) pairs.add(key(Math.min(i, j), Math.max(i, j)));
              }
            }
          }
        }
        return pairs;
      }

      /** No extras (each pair checked), sorted, and exactly the pigeonhole set; returns the keys. */
      function checkExact(result: PairResult, truth: Set<number>): Set<number> {
        expectPairShape(result);
        const found = new Set<number>();
        let previous = -1;
        for (let k = 0; k < result.left.length; k++) {
          const i = result.left[k]!;
          const j = result.right[k]!;
          if (!(i < j && j < n)) expect.fail(`pair ${k} = (${i}, ${j}) is not i < j < n`);
          const d = dist(i, j);
          if (d > distance || d !== result.distance[k]) {
            expect.fail(`pair ${k} = (${i}, ${j}) reports distance ${result.distance[k]}, true distance ${d}`);
          }
          const kk = key(i, j);
          if (kk <= previous) expect.fail(`pair ${k} = (${i}, ${j}) is out of order or repeated`);
          previous = kk;
          found.add(kk);
        }
        for (const kk of truth) {
          if (!found.has(kk)) expect.fail(`missed pair (${Math.floor(kk / n)}, ${kk % n}) at distance ${dist(Math.floor(kk / n), kk % n)}`);
        }
        expect(found.size).toBe(truth.size);
        return found;
      }

      let truth: Set<number> | undefined;
      const getTruth = (): Set<number> => (truth ??= pigeonholePairs());

      it('the planted pairs are all there, with the right distance, and nothing else is', () => {
        const typed = BigUint64Array.from(shuffled);
        const result = api().findAll(typed, { distance });
        const found = checkExact(result, getTruth());
        // The planted families alone predict most of the pairs: check them explicitly.
        let planted = 0;
        for (const members of families) {
          for (let a = 0; a < members.length; a++) {
            for (let b = a + 1; b < members.length; b++) {
              const i = Math.min(members[a]!, members[b]!);
              const j = Math.max(members[a]!, members[b]!);
              if (dist(i, j) <= distance) {
                planted++;
                expect(found.has(key(i, j))).toBe(true);
              }
            }
          }
        }
        expect(planted).toBeGreaterThan(5000);
        expect(familyOf.filter((f) => f >= 0).length).toBe(6000);
      });

      it('the same exact answer from a HashArray with explicit blocks 4 and 6', () => {
        const array = api().allocHashArray(n);
        try {
          array.view.set(shuffled);
          const withFour = api().findAll(array, { distance, blocks: 4 });
          checkExact(withFour, getTruth());
          const withSix = plainPairs(api().findAll(array, { distance, blocks: 6 }));
          expect(withSix).toEqual(plainPairs(withFour));
        } finally {
          array.free();
        }
      });

      it('a 3,000-element subset equals the all-pairs oracle and the full result restricted to it', () => {
        // Whole families first (so the subset has many pairs), then spread-out other positions.
        const inSubset = new Uint8Array(n);
        const subset: number[] = [];
        const take = (p: number): void => {
          if (inSubset[p] === 0) {
            inSubset[p] = 1;
            subset.push(p);
          }
        };
        for (const members of families.slice(0, 250)) members.forEach(take);
        for (let p = 0; subset.length < 3000; p += 29) take(p % n);
        subset.sort((a, b) => a - b);
        const subValues = subset.map((p) => shuffled[p]!);
        const expected = oracle.findAll(subValues, distance);
        expect(expected.left.length).toBeGreaterThan(1000);
        const result = api().findAll(subValues, { distance });
        expectSamePairs(result, expected);
        // Restricting the full 50,000 result to the subset gives the same pairs.
        const restricted: number[] = [];
        for (const kk of getTruth()) {
          const i = Math.floor(kk / n);
          const j = kk % n;
          if (inSubset[i] && inSubset[j]) restricted.push(key(i, j));
        }
        restricted.sort((a, b) => a - b);
        const mapped = Array.from(result.left, (l, k) => key(subset[l]!, subset[result.right[k]!]!));
        expect(mapped).toEqual(restricted);
      });
    });
  });
}

function popcount32(value: number): number {
  let v = value >>> 0;
  v = v - ((v >>> 1) & 0x5555_5555);
  v = (v & 0x3333_3333) + ((v >>> 2) & 0x3333_3333);
  v = (v + (v >>> 4)) & 0x0f0f_0f0f;
  return Math.imul(v, 0x0101_0101) >>> 24;
}
