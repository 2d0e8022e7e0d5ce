/**
 * compute, computeWeighted, computeMany, computeManyWeighted, numDifferingBits and
 * hammingDistances: golden vectors from simhash-cpp, then implementation ≡ oracle on random and
 * adversarial inputs in every input form.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LoadApi } from '../api.js';
import * as oracle from '../oracle.js';
import { SplitMix64, U64_MAX } from '../oracle.js';
import { loadComputeCases } from '../vectors.js';
import { u64, u64List, weight, weightedList, offsets as offsetsArb } from './arbitraries.js';
import { INPUT_FORMS, fcParams, inEveryForm, useApi, withInput } from './helpers.js';

export function describeComputeSuite(name: string, load: LoadApi): void {
  describe(`${name}: compute`, () => {
    const api = useApi(load);
    const vectors = loadComputeCases();

    describe('golden vectors (simhash-cpp compute)', () => {
      it('has the reference cases', () => {
        expect(vectors.length).toBeGreaterThan(200);
      });

      for (const c of vectors) {
        it(`${c.name} (n=${c.hashes.length})`, () => {
          for (const result of inEveryForm(api(), c.hashes, (input) => api().compute(input))) {
            expect(typeof result).toBe('bigint');
            expect(result).toBe(c.expected);
          }
        });
      }

      it('computeWeighted with unit weights reproduces every case', () => {
        for (const c of vectors) {
          const ones = new Float64Array(c.hashes.length).fill(1);
          expect(api().computeWeighted(c.hashes, ones), c.name).toBe(c.expected);
        }
      });

      it('computeMany over all cases at once reproduces every case, in order', () => {
        const hashes = vectors.flatMap((c) => c.hashes);
        const offsets = new Uint32Array(vectors.length + 1);
        for (let d = 0; d < vectors.length; d++) offsets[d + 1] = offsets[d]! + vectors[d]!.hashes.length;
        for (const result of inEveryForm(api(), hashes, (input) => api().computeMany(input, offsets))) {
          expect(result).toBeInstanceOf(BigUint64Array);
          expect(Array.from(result)).toEqual(vectors.map((c) => c.expected));
        }
      });

      it('computeManyWeighted with unit weights reproduces every case', () => {
        const hashes = vectors.flatMap((c) => c.hashes);
        const offsets = new Uint32Array(vectors.length + 1);
        for (let d = 0; d < vectors.length; d++) offsets[d + 1] = offsets[d]! + vectors[d]!.hashes.length;
        const result = api().computeManyWeighted(hashes, new Float64Array(hashes.length).fill(1), offsets);
        expect(Array.from(result)).toEqual(vectors.map((c) => c.expected));
      });
    });

    describe('compute ≡ oracle', () => {
      it('random and adversarial lists, every input form', () => {
        fc.assert(
          fc.property(u64List(40), (hashes) => {
            const expected = oracle.compute(hashes);
            for (const result of inEveryForm(api(), hashes, (input) => api().compute(input))) {
              expect(result).toBe(expected);
            }
          }),
          fcParams(101, 300),
        );
      });

      it('n = 0, 1, 2 and complements', () => {
        fc.assert(
          fc.property(u64, u64, (x, y) => {
            const cases: bigint[][] = [[], [x], [x, y], [x, U64_MAX ^ x], [x, x, U64_MAX ^ x], [U64_MAX ^ x, x, x]];
            for (const hashes of cases) {
              for (const result of inEveryForm(api(), hashes, (input) => api().compute(input))) {
                expect(result).toBe(oracle.compute(hashes));
              }
            }
          }),
          fcParams(102, 100),
        );
      });

      // Counting implementations keep narrow counters and flush them every so often: check
      // lengths around powers of two, with per-bit counts on both sides of a tie.
      it('lengths around counter boundaries (255 .. 65,537), majorities by one and ties', () => {
        const rng = new SplitMix64(0xc0_0e7n);
        for (const n of [255, 256, 257, 511, 512, 1023, 1024, 4095, 4096, 65535, 65536, 65537]) {
          const x = rng.next();
          const y = rng.next();
          // ceil(n/2) copies of x against floor(n/2) copies of ~x: x when n is odd, 0 when even
          // (a tie in every bit); then a random minority pattern y mixed in.
          const alternating = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? x : U64_MAX ^ x));
          const mixed = alternating.map((v, i) => (i % 7 === 3 ? y : v));
          const allOnes = new Array<bigint>(n).fill(U64_MAX);
          for (const hashes of [alternating, mixed, allOnes]) {
            const expected = oracle.compute(hashes);
            for (const form of INPUT_FORMS) {
              expect(withInput(api(), hashes, form, (input) => api().compute(input)), `n=${n} ${form}`).toBe(expected);
            }
          }
        }
      });
    });

    describe('computeWeighted ≡ oracle (exact f64 order)', () => {
      it('random weights with zeros, ties and far-apart magnitudes', () => {
        fc.assert(
          fc.property(weightedList(30), ({ hashes, weights }) => {
            const expected = oracle.computeWeighted(hashes, weights);
            const fromArray = inEveryForm(api(), hashes, (input) => api().computeWeighted(input, weights));
            const fromTyped = inEveryForm(api(), hashes, (input) =>
              api().computeWeighted(input, Float64Array.from(weights)),
            );
            for (const result of [...fromArray, ...fromTyped]) expect(result).toBe(expected);
          }),
          fcParams(103, 300),
        );
      });

      it('unit weights ≡ compute; all-zero weights give 0; scaling by 2 changes nothing', () => {
        fc.assert(
          fc.property(u64List(30), (hashes) => {
            const ones = new Float64Array(hashes.length).fill(1);
            expect(api().computeWeighted(hashes, ones)).toBe(api().compute(hashes));
            expect(api().computeWeighted(hashes, new Float64Array(hashes.length))).toBe(0n);
            const twos = new Float64Array(hashes.length).fill(2);
            expect(api().computeWeighted(hashes, twos)).toBe(api().compute(hashes));
          }),
          fcParams(104, 150),
        );
      });

      it('weights whose f64 sum depends on the order of addition (1 + 2^54 − 2^54 ≠ 2^54 − 2^54 + 1)', () => {
        // Sums that cancel to about 0 decide the bit by rounding alone: a reversed, pairwise or
        // lane-split summation gives a different fingerprint.
        const awkward = fc.constantFrom(1, 2, 3, 0.1, 0.2, 0.3, 0.7, 1e16, 2 ** 53, 2 ** 54);
        fc.assert(
          fc.property(
            fc.array(fc.tuple(u64, awkward), { minLength: 2, maxLength: 8 }),
            (entries) => {
              const hashes = entries.map(([h]) => h);
              const weights = entries.map(([, w]) => w);
              const expected = oracle.computeWeighted(hashes, weights);
              for (const result of inEveryForm(api(), hashes, (input) => api().computeWeighted(input, weights))) {
                expect(result).toBe(expected);
              }
            },
          ),
          fcParams(110, 300),
        );
        // Deterministic instances: x, x, ~x with weights 1, 2^54, 2^54 sum to exactly 0 in input
        // order in every bit (0), but to ±1 when the small weight is added last (x).
        const x = 0x0123_4567_89ab_cdefn;
        const cases: Array<[bigint[], number[]]> = [
          [[x, x, U64_MAX ^ x], [1, 2 ** 54, 2 ** 54]],
          [[x, U64_MAX ^ x, x], [2 ** 54, 2 ** 54, 1]],
          [[x, x, x, U64_MAX ^ x], [0.1, 0.2, 0, 0.3]],
        ];
        for (const [hashes, weights] of cases) {
          expect(api().computeWeighted(hashes, weights)).toBe(oracle.computeWeighted(hashes, weights));
        }
      });

      it('rounding-order traps: a huge weight followed by many small ones', () => {
        const rng = new SplitMix64(0x0bde_2n);
        for (const n of [3, 17, 1000, 20_000]) {
          const hashes = Array.from({ length: n }, () => rng.next());
          const weights = Array.from({ length: n }, (_, k) => (k === 0 ? 2 ** 53 : k % 3 === 0 ? 1e16 : 1));
          const reversed = weights.slice().reverse();
          for (const w of [weights, reversed]) {
            const expected = oracle.computeWeighted(hashes, w);
            for (const result of inEveryForm(api(), hashes, (input) => api().computeWeighted(input, Float64Array.from(w)))) {
              expect(result).toBe(expected);
            }
          }
        }
      });
    });

    describe('computeMany ≡ oracle', () => {
      it('random offsets including empty documents, not starting at 0 or ending at n', () => {
        fc.assert(
          fc.property(
            u64List(40).chain((hashes) => fc.tuple(fc.constant(hashes), offsetsArb(hashes.length, 12))),
            ([hashes, offsets]) => {
              const expected = oracle.computeMany(hashes, offsets);
              for (const result of inEveryForm(api(), hashes, (input) => api().computeMany(input, offsets))) {
                expect(result).toBeInstanceOf(BigUint64Array);
                expect(Array.from(result)).toEqual(expected);
              }
            },
          ),
          fcParams(105, 200),
        );
      });

      it('0 and 1 offsets describe no document', () => {
        fc.assert(
          fc.property(u64List(10), fc.nat(), (hashes, at) => {
            for (const offsets of [new Uint32Array(0), Uint32Array.of(at % (hashes.length + 1))]) {
              for (const result of inEveryForm(api(), hashes, (input) => api().computeMany(input, offsets))) {
                expect(result).toBeInstanceOf(BigUint64Array);
                expect(result.length).toBe(0);
              }
            }
          }),
          fcParams(106, 30),
        );
      });

      it('many documents of varied sizes equal compute per document', () => {
        const rng = new SplitMix64(0xd0c5n);
        const hashes: bigint[] = [];
        const offsets = [0];
        for (let d = 0; d < 500; d++) {
          const size = d % 10 === 0 ? 0 : rng.below(120);
          const base = rng.next();
          for (let k = 0; k < size; k++) hashes.push(rng.below(3) === 0 ? rng.next() : oracle.flipBits(base, rng.below(20), rng));
          offsets.push(hashes.length);
        }
        const o = Uint32Array.from(offsets);
        const expected = oracle.computeMany(hashes, o);
        for (const result of inEveryForm(api(), hashes, (input) => api().computeMany(input, o))) {
          expect(Array.from(result)).toEqual(expected);
        }
      });
    });

    describe('computeManyWeighted ≡ oracle', () => {
      it('random weights and offsets', () => {
        fc.assert(
          fc.property(
            weightedList(30).chain((w) => fc.tuple(fc.constant(w), offsetsArb(w.hashes.length, 10))),
            ([{ hashes, weights }, offsets]) => {
              const expected = oracle.computeManyWeighted(hashes, weights, offsets);
              for (const form of INPUT_FORMS) {
                for (const w of [weights, Float64Array.from(weights)]) {
                  const result = withInput(api(), hashes, form, (input) => api().computeManyWeighted(input, w, offsets));
                  expect(result).toBeInstanceOf(BigUint64Array);
                  expect(Array.from(result)).toEqual(expected);
                }
              }
            },
          ),
          fcParams(107, 200),
        );
      });
    });

    describe('numDifferingBits ≡ popcount(a ^ b)', () => {
      it('random and edge values', () => {
        fc.assert(
          fc.property(u64, u64, (a, b) => {
            const d = api().numDifferingBits(a, b);
            expect(d).toBe(oracle.numDifferingBits(a, b));
            expect(api().numDifferingBits(b, a)).toBe(d);
            expect(api().numDifferingBits(a, a)).toBe(0);
            expect(api().numDifferingBits(a, U64_MAX ^ a)).toBe(64);
          }),
          fcParams(108, 500),
        );
      });
    });

    describe('hammingDistances ≡ oracle', () => {
      it('random query and fingerprints, every input form', () => {
        fc.assert(
          fc.property(u64, u64List(40), fc.boolean(), (q, fingerprints, fromList) => {
            // Often query one of the fingerprints (or its complement) to get 0 and 64.
            const query = fromList && fingerprints.length > 0 ? fingerprints[Number(q % BigInt(fingerprints.length))]! : q;
            for (const query2 of [query, U64_MAX ^ query]) {
              const expected = oracle.hammingDistances(query2, fingerprints);
              for (const result of inEveryForm(api(), fingerprints, (input) => api().hammingDistances(query2, input))) {
                expect(result).toBeInstanceOf(Uint8Array);
                expect(Array.from(result)).toEqual(expected);
              }
            }
          }),
          fcParams(109, 300),
        );
      });

      it('a long input (100,000 fingerprints) with every distance 0..64 present', () => {
        const rng = new SplitMix64(0x4a11n);
        const query = rng.next();
        const fingerprints = Array.from({ length: 100_000 }, (_, i) => oracle.flipBits(query, i % 65, rng));
        const expected = Uint8Array.from(fingerprints, (_, i) => i % 65);
        for (const result of inEveryForm(api(), fingerprints, (input) => api().hammingDistances(query, input))) {
          expect(result.length).toBe(expected.length);
          expect(Buffer.from(result.buffer, result.byteOffset, result.byteLength).equals(Buffer.from(expected.buffer))).toBe(true);
        }
      });
    });

    it('weights arbitrary is sane (sanity check of the generators)', () => {
      // Guards against a generator change that would silently drop zeros or large magnitudes.
      const sample = fc.sample(weight, { seed: 1, numRuns: 2000 });
      expect(sample.some((w) => w === 0)).toBe(true);
      expect(sample.some((w) => w >= 1e16)).toBe(true);
      expect(sample.every((w) => Number.isFinite(w) && w >= 0)).toBe(true);
    });
  });
}
