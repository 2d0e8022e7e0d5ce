/**
 * Checks of the pure TypeScript entry's internals (32-bit halves, bit counting, radix sort, the
 * permuted-table search) against naive `bigint` models, and of its results against the
 * reference vectors. The shared conformance suite covers the public behaviour of every entry.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as pure from '../ts/pure/index.js';
import { addSignedWeights, countSetBits } from '../ts/pure/bit-counts.js';
import { popcount32, popcount64 } from '../ts/shared/popcount.js';
import { KeySorter } from '../ts/pure/radix-sort.js';
import { bigintsFromWords, fromWords, toWords, wordsFromBigints } from '../ts/pure/words.js';
import type { HashArray, PairResult } from '../ts/shared/types.js';

/** A small deterministic generator (xorshift32), so failures reproduce. */
function rng(seed: number): { u32(): number; below(n: number): number; u64(): bigint } {
  let state = seed >>> 0 || 1;
  const u32 = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  return {
    u32,
    below: (n) => u32() % n,
    u64: () => (BigInt(u32()) << 32n) | BigInt(u32()),
  };
}

type Rng = ReturnType<typeof rng>;

const ALL_ONES = (1n << 64n) - 1n;

function naivePopcount(x: bigint): number {
  let count = 0;
  for (; x > 0n; x >>= 1n) count += Number(x & 1n);
  return count;
}

function naiveCompute(hashes: readonly bigint[]): bigint {
  let result = 0n;
  for (let b = 0n; b < 64n; b++) {
    let set = 0;
    for (const h of hashes) set += Number((h >> b) & 1n);
    if (2 * set > hashes.length) result |= 1n << b;
  }
  return result;
}

function naiveComputeWeighted(hashes: readonly bigint[], weights: readonly number[]): bigint {
  let result = 0n;
  for (let b = 0n; b < 64n; b++) {
    let sum = 0;
    for (let k = 0; k < hashes.length; k++) sum += (hashes[k]! >> b) & 1n ? weights[k]! : -weights[k]!;
    if (sum > 0) result |= 1n << b;
  }
  return result;
}

/** Distances of all pairs `i < j`, row by row: the expensive part of the brute force. */
function pairDistances(fingerprints: readonly bigint[]): number[] {
  const distances: number[] = [];
  for (let i = 0; i < fingerprints.length; i++) {
    for (let j = i + 1; j < fingerprints.length; j++) {
      distances.push(naivePopcount(fingerprints[i]! ^ fingerprints[j]!));
    }
  }
  return distances;
}

function naiveFindAll(
  fingerprints: readonly bigint[],
  distance: number,
  distances = pairDistances(fingerprints),
): PairResult {
  const left: number[] = [];
  const right: number[] = [];
  const dist: number[] = [];
  let k = 0;
  for (let i = 0; i < fingerprints.length; i++) {
    for (let j = i + 1; j < fingerprints.length; j++) {
      const d = distances[k++]!;
      if (d <= distance) {
        left.push(i);
        right.push(j);
        dist.push(d);
      }
    }
  }
  return { left: Uint32Array.from(left), right: Uint32Array.from(right), distance: Uint8Array.from(dist) };
}

function flipBits(value: bigint, count: number, r: Rng): bigint {
  const bits = new Set<number>();
  while (bits.size < count) bits.add(r.below(64));
  for (const b of bits) value ^= 1n << BigInt(b);
  return value;
}

/** Families of near copies of a few bases, with exact duplicates and complements mixed in. */
function clusteredFingerprints(n: number, maxFlips: number, r: Rng): bigint[] {
  const bases = Array.from({ length: 1 + r.below(5) }, () => r.u64());
  const values: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const roll = r.below(10);
    if (roll === 0 && values.length > 0) values.push(values[r.below(values.length)]!);
    else if (roll === 1) values.push(ALL_ONES ^ bases[r.below(bases.length)]!);
    else values.push(flipBits(bases[r.below(bases.length)]!, r.below(maxFlips + 1), r));
  }
  return values;
}

/** Blocks accepted for `distance`, including ones that do not divide 64. */
function blockChoices(distance: number): number[] {
  const candidates = [distance + 1, distance + 2, 5, 7, 10, 64];
  return [...new Set(candidates)].filter(
    (b) => b > distance && b <= 64 && binomial(b, distance) <= 5000,
  );
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

function expectSamePairs(actual: PairResult, expected: PairResult): void {
  expect(Array.from(actual.left)).toEqual(Array.from(expected.left));
  expect(Array.from(actual.right)).toEqual(Array.from(expected.right));
  expect(Array.from(actual.distance)).toEqual(Array.from(expected.distance));
}

interface ComputeVector {
  name: string;
  hashes: string[];
  expected: string;
}

interface FindAllVector {
  name: string;
  hashes: string[];
  blocks: number;
  distance: number;
  expected: [string, string][];
}

function readVectors<T>(file: string): T[] {
  const url = new URL(`./vectors/${file}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { cases: T[] }).cases;
}

describe('32-bit halves', () => {
  const r = rng(1);
  const values = BigUint64Array.from([0n, 1n, ALL_ONES, 1n << 63n, 0xdead_beefn << 32n, ...Array.from({ length: 50 }, () => r.u64())]);

  it('the host view and the arithmetic fallback agree, both ways', () => {
    const words = toWords(values);
    expect(Array.from(words)).toEqual(Array.from(wordsFromBigints(values)));
    for (let i = 0; i < values.length; i++) {
      expect(BigInt(words[2 * i]!) | (BigInt(words[2 * i + 1]!) << 32n)).toBe(values[i]);
    }
    const copy = Uint32Array.from(words);
    expect(Array.from(fromWords(copy))).toEqual(Array.from(values));
    expect(Array.from(bigintsFromWords(copy))).toEqual(Array.from(values));
  });

  it('popcounts match a bit-by-bit count', () => {
    for (const v of values) {
      const low = Number(v & 0xffff_ffffn);
      const high = Number(v >> 32n);
      expect(popcount64(low, high)).toBe(naivePopcount(v));
      // Inputs arrive both as unsigned words and as signed results of `^`.
      expect(popcount64(low | 0, high | 0)).toBe(naivePopcount(v));
      expect(popcount32(low) + popcount32(high | 0)).toBe(naivePopcount(v));
    }
  });
});

describe('bit counting kernels', () => {
  it('counts every bit across flush boundaries of the byte lanes', () => {
    const r = rng(2);
    // 16 * 255 hashes fill the sixteens lanes exactly; the residue and tail take the rest.
    for (const n of [0, 1, 15, 16, 17, 31, 255, 4080, 4081, 4096 + 15, 8160 + 33]) {
      const values = BigUint64Array.from({ length: n }, () => (r.below(3) === 0 ? ALL_ONES : r.u64()));
      const words = toWords(values);
      const counts = new Int32Array(64);
      countSetBits(words, 0, n, 0, counts, 0);
      countSetBits(words, 0, n, 1, counts, 32);
      for (let b = 0n; b < 64n; b++) {
        let expected = 0;
        for (const v of values) expected += Number((v >> b) & 1n);
        expect(counts[Number(b)]).toBe(expected);
      }
    }
  });

  it('adds signed weights in input order, chunk after chunk', () => {
    const r = rng(3);
    const n = 1500;
    const values = BigUint64Array.from({ length: n }, () => r.u64());
    // Weights of very different magnitudes make the result depend on the order of additions.
    const weights = Float64Array.from({ length: n }, (_, k) => (k % 7 === 0 ? 2 ** 53 : r.u32() / 2 ** 20));
    const sums = new Float64Array(64);
    const words = toWords(values);
    addSignedWeights(words, weights, 0, n, 0, sums, 0);
    addSignedWeights(words, weights, 0, n, 1, sums, 32);
    for (let b = 0n; b < 64n; b++) {
      let expected = 0;
      for (let k = 0; k < n; k++) expected += (values[k]! >> b) & 1n ? weights[k]! : -weights[k]!;
      expect(sums[Number(b)]).toBe(expected);
    }
  });
});

describe('compute', () => {
  it('matches every case of compute_vectors.json', () => {
    const cases = readVectors<ComputeVector>('compute_vectors.json');
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const hashes = c.hashes.map(BigInt);
      expect(pure.compute(hashes), c.name).toBe(BigInt(c.expected));
      expect(pure.compute(BigUint64Array.from(hashes)), c.name).toBe(BigInt(c.expected));
    }
  });

  it('matches the naive count on random and skewed inputs', () => {
    const r = rng(4);
    for (let trial = 0; trial < 40; trial++) {
      const n = trial < 5 ? trial : r.below(700);
      const bias = r.below(4);
      const hashes = Array.from({ length: n }, () => (bias === 0 ? r.u64() & r.u64() : r.u64()));
      expect(pure.compute(hashes)).toBe(naiveCompute(hashes));
    }
  });

  it('weighted: matches the naive sum, including zero weights and ties', () => {
    const r = rng(5);
    for (let trial = 0; trial < 30; trial++) {
      const n = r.below(600);
      const hashes = Array.from({ length: n }, () => r.u64());
      const weights = Array.from({ length: n }, () => (r.below(5) === 0 ? 0 : r.below(1000) / 8));
      expect(pure.computeWeighted(hashes, weights)).toBe(naiveComputeWeighted(hashes, weights));
    }
    const x = 0x0123_4567_89ab_cdefn;
    expect(pure.computeWeighted([x, ALL_ONES ^ x], [1, 1])).toBe(0n);
    expect(pure.computeWeighted([x, ALL_ONES ^ x], [0.5, 0.25])).toBe(x);
    expect(pure.computeWeighted([x], [0])).toBe(0n);
  });

  it('batches: one fingerprint per slice, empty documents and a leading gap included', () => {
    const r = rng(6);
    const hashes = Array.from({ length: 400 }, () => r.u64());
    const weights = Array.from({ length: 400 }, () => r.below(100) / 3);
    const offsets = Uint32Array.from([3, 3, 10, 11, 60, 60, 300, 400]);
    const many = pure.computeMany(hashes, offsets);
    const manyWeighted = pure.computeManyWeighted(hashes, weights, offsets);
    expect(many.length).toBe(offsets.length - 1);
    for (let d = 0; d + 1 < offsets.length; d++) {
      const slice = hashes.slice(offsets[d], offsets[d + 1]);
      expect(many[d]).toBe(naiveCompute(slice));
      expect(manyWeighted[d]).toBe(naiveComputeWeighted(slice, weights.slice(offsets[d], offsets[d + 1])));
    }
    expect(pure.computeMany(hashes, new Uint32Array(0)).length).toBe(0);
    expect(pure.computeMany(hashes, Uint32Array.of(5)).length).toBe(0);
  });
});

describe('Hamming distances', () => {
  it('numDifferingBits and hammingDistances match the naive count', () => {
    const r = rng(7);
    const fingerprints = Array.from({ length: 100 }, () => r.u64());
    fingerprints.push(0n, ALL_ONES);
    const query = r.u64();
    const distances = pure.hammingDistances(query, fingerprints);
    fingerprints.forEach((f, i) => {
      expect(distances[i]).toBe(naivePopcount(query ^ f));
      expect(pure.numDifferingBits(query, f)).toBe(naivePopcount(query ^ f));
    });
    expect(pure.numDifferingBits(0n, ALL_ONES)).toBe(64);
  });
});

describe('KeySorter', () => {
  it('sorts keys of every width stably, carrying positions', () => {
    const r = rng(8);
    for (const keyBits of [1, 5, 11, 12, 16, 22, 23, 31, 32, 33, 43, 44, 63, 64]) {
      const n = 3000;
      const sorter = new KeySorter(n, keyBits > 32);
      const keys: bigint[] = [];
      // Few distinct keys, so stability is exercised, and a constant high digit sometimes.
      const distinct = Array.from({ length: 50 }, () => BigInt.asUintN(keyBits, r.u64() & ~(r.below(2) === 0 ? 0xffn << 24n : 0n)));
      for (let p = 0; p < n; p++) {
        const key = distinct[r.below(distinct.length)]!;
        keys.push(key);
        sorter.low[p] = Number(key & 0xffff_ffffn);
        sorter.high[p] = Number(key >> 32n);
      }
      const sorted = sorter.sort(keyBits);
      const expected = keys.map((key, p) => ({ key, p })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.p - b.p));
      expect(Array.from(sorted.positions), `keyBits ${keyBits}`).toEqual(expected.map((e) => e.p));
      for (let i = 0; i < n; i++) {
        const key = BigInt(sorted.low[i]!) | (keyBits > 32 ? BigInt(sorted.high[i]!) << 32n : 0n);
        expect(key).toBe(expected[i]!.key);
      }
    }
  });

  it('leaves the order alone when every digit is shared', () => {
    const sorter = new KeySorter(5, true);
    sorter.low.fill(7);
    sorter.high.fill(9);
    expect(Array.from(sorter.sort(40).positions)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('findAll', () => {
  it('equals brute force on clustered inputs for many distances and blocks', () => {
    const r = rng(9);
    for (const distance of [0, 1, 2, 3, 4, 5, 7, 63, 64]) {
      for (let trial = 0; trial < 4; trial++) {
        const n = [0, 1, 2, 40, 150][trial % 5 === 0 ? 0 : 2 + r.below(3)]!;
        const fingerprints = clusteredFingerprints(n, Math.min(distance + 2, 8), r);
        const expected = naiveFindAll(fingerprints, distance);
        expectSamePairs(pure.findAll(fingerprints, { distance }), expected);
        for (const blocks of blockChoices(distance)) {
          expectSamePairs(pure.findAll(fingerprints, { distance, blocks }), expected);
        }
      }
    }
  });

  it('handles n = 0, 1, 2 for every distance', () => {
    const r = rng(10);
    for (let distance = 0; distance <= 64; distance++) {
      for (const n of [0, 1, 2]) {
        const fingerprints = Array.from({ length: n }, () => r.u64());
        expectSamePairs(pure.findAll(fingerprints, { distance }), naiveFindAll(fingerprints, distance));
        for (const blocks of blockChoices(distance)) {
          expectSamePairs(pure.findAll(fingerprints, { distance, blocks }), naiveFindAll(fingerprints, distance));
        }
      }
    }
  });

  it('reports pairs at exactly distance and not at distance + 1, around block boundaries', () => {
    const r = rng(11);
    for (const distance of [0, 1, 2, 3, 4, 6]) {
      for (const blocks of blockChoices(distance)) {
        const base = r.u64();
        const fingerprints = [base];
        // Flips at the edges of blocks are the likeliest to expose an off-by-one in masks.
        for (const count of [distance, distance + 1]) {
          for (let k = 0; k < 4; k++) {
            let v = base;
            const bits = new Set<number>();
            while (bits.size < count) {
              const block = r.below(blocks);
              const edge = r.below(2) === 0 ? Math.floor((64 * block) / blocks) : Math.floor((64 * (block + 1)) / blocks) - 1;
              bits.add(edge);
              if (bits.size < count) bits.add(r.below(64));
            }
            for (const b of bits) v ^= 1n << BigInt(b);
            fingerprints.push(v);
          }
        }
        const result = pure.findAll(fingerprints, { distance, blocks });
        expectSamePairs(result, naiveFindAll(fingerprints, distance));
        expect(Array.from(result.distance).every((d) => d <= distance)).toBe(true);
      }
    }
  });

  it('all-equal inputs and complements: every pair once, in order', () => {
    const x = 0xfeed_face_cafe_beefn;
    const same = Array.from({ length: 40 }, () => x);
    for (const blocks of [1, 4, 5, 64]) {
      expectSamePairs(pure.findAll(same, { distance: 0, blocks }), naiveFindAll(same, 0));
    }
    const mixed = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? x : ALL_ONES ^ x));
    for (const distance of [0, 3, 63, 64]) {
      expectSamePairs(pure.findAll(mixed, { distance }), naiveFindAll(mixed, distance));
    }
    expectSamePairs(pure.findAll(mixed, { distance: 63, blocks: 64 }), naiveFindAll(mixed, 63));
  });

  it('a larger clustered input equals brute force (large enough for tables to be chosen)', () => {
    const r = rng(12);
    const fingerprints = clusteredFingerprints(1000, 5, r);
    const distances = pairDistances(fingerprints);
    for (const distance of [2, 3, 4]) {
      const expected = naiveFindAll(fingerprints, distance, distances);
      expectSamePairs(pure.findAll(fingerprints, { distance }), expected);
      expectSamePairs(pure.findAll(fingerprints, { distance, blocks: distance + 3 }), expected);
    }
  });

  it('matches find_all_vectors.json once positions are mapped to distinct value pairs', () => {
    const cases = readVectors<FindAllVector>('find_all_vectors.json');
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const hashes = c.hashes.map(BigInt);
      const result = pure.findAll(hashes, { distance: c.distance, blocks: c.blocks });
      const seen = new Set<string>();
      const pairs: [bigint, bigint][] = [];
      for (let k = 0; k < result.left.length; k++) {
        const a = hashes[result.left[k]!]!;
        const b = hashes[result.right[k]!]!;
        if (a === b) continue;
        const pair: [bigint, bigint] = a < b ? [a, b] : [b, a];
        const key = `${pair[0]},${pair[1]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push(pair);
      }
      pairs.sort((p, q) => (p[0] !== q[0] ? (p[0] < q[0] ? -1 : 1) : p[1] < q[1] ? -1 : p[1] > q[1] ? 1 : 0));
      const expected = c.expected.map(([a, b]) => [BigInt(a), BigInt(b)]);
      expect(pairs, c.name).toEqual(expected);
    }
  });

  it('throws instead of returning more than maxPairs', () => {
    const same = Array.from({ length: 10 }, () => 5n);
    expect(pure.findAll(same, { distance: 0, maxPairs: 45 }).left.length).toBe(45);
    expect(() => pure.findAll(same, { distance: 0, maxPairs: 44 })).toThrow(RangeError);
    expect(() => pure.findAll(same, { distance: 0, blocks: 3, maxPairs: 0 })).toThrow(/maxPairs \(0\)/);
    expect(pure.findAll([1n, 2n], { distance: 0, maxPairs: 0 }).left.length).toBe(0);
  });
});

describe('inputs and HashArray', () => {
  it('accepts its own and foreign HashArrays, and refuses freed ones', () => {
    const array = pure.allocHashArray(3);
    array.view.set([1n, 3n, 7n]);
    expect(pure.compute(array)).toBe(3n);
    const foreign = { view: BigUint64Array.of(1n, 1n, 2n), freed: false, length: 3, free() {}, [Symbol.dispose]() {} } satisfies HashArray;
    expect(pure.findAll(foreign, { distance: 0 }).left.length).toBe(1);
    array.free();
    expect(array.freed).toBe(true);
    expect(() => array.view).toThrow(/has been freed/);
    expect(() => pure.compute(array)).toThrow(new TypeError('hashes has been freed'));
    expect(() => pure.findAll({ ...foreign, freed: true }, { distance: 0 })).toThrow(new TypeError('fingerprints has been freed'));
    array.free();
    {
      using scoped = pure.allocHashArray(0);
      expect(scoped.length).toBe(0);
    }
  });

  it('checks lengths and elements, naming the argument', () => {
    expect(() => pure.allocHashArray(-1)).toThrow(RangeError);
    expect(() => pure.allocHashArray(1.5)).toThrow(/length/);
    expect(() => pure.allocHashArray('3' as unknown as number)).toThrow(TypeError);
    expect(() => pure.compute([1n, 2n, 3n, 4 as unknown as bigint])).toThrow(new TypeError('hashes[3] must be a bigint, got number 4'));
    expect(() => pure.compute([1n << 64n])).toThrow(RangeError);
    expect(() => pure.hammingDistances(-1n, [])).toThrow(/query/);
    expect(() => pure.findAll([1n], { distance: 3, blocks: 3 })).toThrow(RangeError);
    expect(() => pure.computeWeighted([1n], [1, 2])).toThrow(/weights/);
  });
});
