// MinHash: datasketch's own signatures and LSH plans reproduced by both entries; the
// WebAssembly and pure TypeScript signatures equal on random and adversarial input; the
// estimator's error within its bound on pairs of known Jaccard similarity; the LSH index and
// batch searches against brute force; the byte format; errors.

import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as pure from '../ts/pure/index.js';
import * as wasm from '../ts/index.js';
import { Mt19937 } from '../ts/shared/mt19937.js';

interface Case {
  scheme: 'legacy' | 'affine32';
  seed: number;
  numPerm: number;
  a: string[];
  b: string[];
  signatures: number[][];
}

const vectors = JSON.parse(readFileSync(new URL('./vectors/minhash_datasketch.json', import.meta.url), 'utf8')) as {
  tokenLists: string[][];
  cases: Case[];
  plans: { threshold: number; numPerm: number; falsePositiveWeight: number; falseNegativeWeight: number; bands: number; rows: number }[];
};

const entries = [
  ['wasm', wasm],
  ['pure', pure],
] as const;

beforeAll(async () => {
  await wasm.init();
});

/** A seeded SplitMix64: distinct 64-bit features for sets of known overlap. */
function splitmix(seed: bigint): () => bigint {
  let state = seed;
  return () => {
    state = BigInt.asUintN(64, state + 0x9e37_79b9_7f4a_7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58_476d_1ce4_e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d0_49bb_1331_11ebn);
    return z ^ (z >> 31n);
  };
}

/** Two sets of `n` features each, exactly `common` of them shared. */
function pairWithOverlap(draw: () => bigint, n: number, common: number): [BigUint64Array, BigUint64Array] {
  const shared = Array.from({ length: common }, draw);
  const a = BigUint64Array.from([...shared, ...Array.from({ length: n - common }, draw)]);
  const b = BigUint64Array.from([...shared, ...Array.from({ length: n - common }, draw)]);
  return [a, b];
}

describe('NumPy RandomState reproduction', () => {
  it('MT19937 gives the reference outputs of init_genrand(5489)', () => {
    const mt = new Mt19937(5489);
    expect([mt.next32(), mt.next32(), mt.next32()]).toEqual([3499211612, 581869302, 3890346734]);
    for (let i = 3; i < 9999; i++) mt.next32();
    expect(mt.next32()).toBe(4123659995);
  });
});

describe.each(entries)('%s entry: datasketch compatibility', (_, api) => {
  it(`reproduces datasketch's signatures in ${vectors.cases.length} cases`, () => {
    expect(vectors.cases.length).toBeGreaterThan(20);
    for (const c of vectors.cases) {
      const options = { numPerm: c.numPerm, seed: c.seed, scheme: c.scheme };
      const many = api.datasketchMinhashMany(vectors.tokenLists, options);
      vectors.tokenLists.forEach((tokens, d) => {
        expect(Array.from(many.subarray(d * c.numPerm, (d + 1) * c.numPerm)), `${c.scheme} seed ${c.seed} k ${c.numPerm} list ${d}`).toEqual(c.signatures[d]);
      });
      const bytes = vectors.tokenLists[2]!.map((t) => new TextEncoder().encode(t));
      expect(Array.from(api.datasketchMinhash(bytes, options))).toEqual(c.signatures[2]);
    }
  });

  it('defaults to MinHash(num_perm=128, seed=1) in the affine32 scheme', () => {
    const c = vectors.cases.find((x) => x.scheme === 'affine32' && x.seed === 1 && x.numPerm === 128)!;
    expect(Array.from(api.datasketchMinhash(vectors.tokenLists[2]!))).toEqual(c.signatures[2]);
  });

  it('rejects bad tokens and options by name', () => {
    expect(() => api.datasketchMinhash(['a', 3 as unknown as string])).toThrow(/documents\[0\]\[1\] must be a string or a Uint8Array/);
    expect(() => api.datasketchMinhash(['a'], { seed: -1 })).toThrow(RangeError);
    expect(() => api.datasketchMinhash(['a'], { seed: 2 ** 32 })).toThrow(/options.seed/);
    expect(() => api.datasketchMinhash(['a'], { numPerm: 0 })).toThrow(/options.numPerm/);
    expect(() => api.datasketchMinhash(['a'], { scheme: 'affine64' as 'legacy' })).toThrow(/options.scheme/);
    expect(() => api.datasketchMinhashMany(5 as unknown as string[][])).toThrow(TypeError);
    // The argument named is the one given, and null is no default.
    expect(() => api.datasketchMinhash(5 as unknown as string[])).toThrow(/^tokens must be an iterable of strings or Uint8Arrays, got number 5/);
    expect(() => api.datasketchMinhash(['a'], { scheme: null as unknown as 'legacy' })).toThrow(TypeError);
    expect(() => api.datasketchMinhash(['a'], { scheme: null as unknown as 'legacy' })).toThrow(/options.scheme must be a string/);
    expect(() => api.minhashMany(new BigUint64Array(3), [0, 2] as unknown as Uint32Array)).toThrow(/^offsets must be a Uint32Array, got an array/);
  });
});

describe('datasketch permutation parameters', () => {
  it('are NumPy RandomState draws, as datasketch made them', async () => {
    const { datasketchPermutations } = await import('../ts/shared/datasketch.js');
    for (const c of vectors.cases) {
      const p = datasketchPermutations({ numPerm: c.numPerm, seed: c.seed, scheme: c.scheme });
      expect(Array.from(p.a, String)).toEqual(c.a);
      expect(Array.from(p.b, String)).toEqual(c.b);
    }
  });
});

describe('LSH planner', () => {
  it(`chooses datasketch's bands × rows in ${vectors.plans.length} cases`, () => {
    for (const p of vectors.plans) {
      const plan = wasm.planMinHashLsh(p);
      expect([plan.bands, plan.rows], JSON.stringify(p)).toEqual([p.bands, p.rows]);
      expect(plan.bands * plan.rows).toBeLessThanOrEqual(p.numPerm);
    }
  });

  it('integrates the S-curve: a steeper curve trades false negatives for false positives', () => {
    const plan = wasm.planMinHashLsh({ threshold: 0.8, bands: 16, rows: 8 });
    // FP + FN areas against a midpoint-rule integral of the same curve.
    const p = (s: number): number => 1 - (1 - s ** 8) ** 16;
    let fp = 0;
    let fn = 0;
    const steps = 200_000;
    for (let i = 0; i < steps; i++) {
      const s = (i + 0.5) / steps;
      if (s < 0.8) fp += p(s) / steps;
      else fn += (1 - p(s)) / steps;
    }
    expect(plan.falsePositive).toBeCloseTo(fp, 6);
    expect(plan.falseNegative).toBeCloseTo(fn, 6);
    const fnHeavy = wasm.planMinHashLsh({ threshold: 0.8, falsePositiveWeight: 0.1, falseNegativeWeight: 0.9 });
    const fpHeavy = wasm.planMinHashLsh({ threshold: 0.8, falsePositiveWeight: 0.9, falseNegativeWeight: 0.1 });
    expect(fnHeavy.falseNegative).toBeLessThan(fpHeavy.falseNegative);
    expect(fnHeavy.falsePositive).toBeGreaterThan(fpHeavy.falsePositive);
  });

  it('rejects bad options by name', () => {
    expect(() => wasm.planMinHashLsh({ threshold: 0 })).toThrow(/options.threshold/);
    expect(() => wasm.planMinHashLsh({ threshold: 1.5 })).toThrow(RangeError);
    expect(() => wasm.planMinHashLsh({ bands: 4 })).toThrow(/together/);
    expect(() => wasm.planMinHashLsh({ bands: 20, rows: 7 })).toThrow(/must not exceed numPerm/);
    expect(() => wasm.planMinHashLsh({ falseNegativeWeight: -1 })).toThrow(/falseNegativeWeight/);
  });
});

describe('signatures: WebAssembly ≡ pure TypeScript', () => {
  const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
  const adversarial = fc.constantFrom(0n, 1n, 2n ** 64n - 1n, 2n ** 63n, 0x9e37_79b9_7f4a_7c15n);
  const features = fc.array(fc.oneof(u64, adversarial), { maxLength: 300 });
  const options = fc.record({ numPerm: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(1, 128, 4096)), seed: fc.oneof(u64, adversarial) });

  it('on random and adversarial feature sets', () => {
    fc.assert(
      fc.property(features, options, (values, o) => {
        const a = wasm.minhash(values, o);
        expect(a.length).toBe(o.numPerm);
        expect(pure.minhash(values, o)).toEqual(a);
      }),
      { numRuns: 100 },
    );
  });

  it('batch equals one at a time, for features and texts', () => {
    fc.assert(
      fc.property(fc.array(features, { maxLength: 6 }), options, (docs, o) => {
        const flat = BigUint64Array.from(docs.flat());
        const offsets = Uint32Array.from([0, ...docs.map((_, i) => docs.slice(0, i + 1).flat().length)]);
        const many = wasm.minhashMany(flat, offsets, o);
        expect(pure.minhashMany(flat, offsets, o)).toEqual(many);
        docs.forEach((doc, d) => expect(many.subarray(d * o.numPerm, (d + 1) * o.numPerm)).toEqual(wasm.minhash(doc, o)));
      }),
      { numRuns: 25 },
    );
    const text = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 80 }), fc.lorem({ maxCount: 40 }));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 5 }), fc.constantFrom('word' as const, 'char' as const), fc.integer({ min: 1, max: 5 }), u64, (texts, unit, size, seed) => {
        const o = { unit, size, seed, numPerm: 64 };
        const many = wasm.minhashMany(texts, o);
        expect(pure.minhashMany(texts, o)).toEqual(many);
        texts.forEach((t, d) => {
          const one = many.subarray(d * 64, (d + 1) * 64);
          expect(wasm.minhash(t, o)).toEqual(one);
          // One tokenisation serves both methods: a text's signature is that of its features.
          expect(pure.minhash(pure.features(t, { unit, size, seed }), o)).toEqual(one);
        });
      }),
      { numRuns: 25 },
    );
  });

  it('ignore order and repeats, and give an empty set 0xFFFFFFFF everywhere', () => {
    for (const api of [wasm, pure]) {
      const set = [5n, 9n, 2n ** 64n - 1n, 0n];
      expect(api.minhash([...set].reverse().concat(set))).toEqual(api.minhash(set));
      expect(Array.from(api.minhash([], { numPerm: 8 }))).toEqual(Array(8).fill(0xffff_ffff));
      expect(Array.from(api.minhash('... !!!', { numPerm: 4 }))).toEqual(Array(4).fill(0xffff_ffff));
    }
  });
});

describe('estimator accuracy', () => {
  // Pairs with exact Jaccard J = c / (2n − c): over many pairs the mean squared error of the
  // estimate must be within its bound, J(1 − J)/k for sets of at least k features (the
  // variance of k independent permutations) and twice that below (README). 1.25× covers the
  // sampling error of the MSE over 300 pairs (about 8 %) and still fails a biased estimator.
  it.each([
    [1000, 900],
    [400, 300],
    [128, 100],
    [40, 30],
    [12, 6],
  ])('n = %i, common = %i', (n, common) => {
    const k = 128;
    const j = common / (2 * n - common);
    const draw = splitmix(BigInt(n * 31 + common));
    let squared = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const [a, b] = pairWithOverlap(draw, n, common);
      const seed = BigInt(t);
      squared += (wasm.estimateJaccard(wasm.minhash(a, { seed }), wasm.minhash(b, { seed })) - j) ** 2;
    }
    const bound = (n >= k ? 1 : 2) * ((j * (1 - j)) / k);
    expect(squared / trials).toBeLessThanOrEqual(1.25 * bound);
  });

  it('estimateJaccard checks its arguments', () => {
    expect(wasm.estimateJaccard(Uint32Array.of(1, 2, 3, 4), Uint32Array.of(1, 2, 0, 0))).toBe(0.5);
    expect(() => wasm.estimateJaccard(Uint32Array.of(1), Uint32Array.of(1, 2))).toThrow(RangeError);
    expect(() => wasm.estimateJaccard([1] as unknown as Uint32Array, Uint32Array.of(1))).toThrow(/a must be a Uint32Array/);
  });
});
