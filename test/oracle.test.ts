/**
 * The oracle against the reference vectors, independently of any implementation: if the brute
 * force disagreed with simhash-cpp, every property test built on it would be meaningless.
 */
import { describe, expect, it } from 'vitest';
import * as oracle from './oracle.js';
import { loadComputeCases, loadFindAllCases, loadPermutationCases } from './vectors.js';

describe('oracle', () => {
  it('compute reproduces every compute vector', () => {
    for (const c of loadComputeCases()) expect(oracle.compute(c.hashes), c.name).toBe(c.expected);
  });

  it('computeWeighted with unit weights reproduces every compute vector', () => {
    for (const c of loadComputeCases()) {
      expect(oracle.computeWeighted(c.hashes, new Array<number>(c.hashes.length).fill(1)), c.name).toBe(c.expected);
    }
  });

  it('findAll, mapped to de-duplicated value pairs, reproduces every find_all vector', () => {
    for (const c of loadFindAllCases()) {
      const pairs = oracle.findAll(c.hashes, c.distance);
      const seen = new Map<string, [bigint, bigint]>();
      pairs.left.forEach((l, k) => {
        const a = c.hashes[l]!;
        const b = c.hashes[pairs.right[k]!]!;
        expect(pairs.distance[k]).toBe(oracle.numDifferingBits(a, b));
        if (a !== b) seen.set(`${a < b ? a : b},${a < b ? b : a}`, a < b ? [a, b] : [b, a]);
      });
      const sorted = [...seen.values()].sort((x, y) => (x[0] !== y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
      expect(sorted, c.name).toEqual(c.expected);
    }
  });

  it('popcount, binomial and flipBits behave', () => {
    expect(oracle.popcount(0n)).toBe(0);
    expect(oracle.popcount(oracle.U64_MAX)).toBe(64);
    expect(oracle.popcount(0xf0n)).toBe(4);
    expect(oracle.binomial(64, 3)).toBe((64 * 63 * 62) / 6);
    const rng = new oracle.SplitMix64(7n);
    for (let k = 0; k <= 64; k++) expect(oracle.popcount(oracle.flipBits(0n, k, rng))).toBe(k);
  });

  it('the permutation vectors agree with the block split rule (sanity of the loader)', () => {
    for (const c of loadPermutationCases()) {
      c.blockBitRanges.forEach(([low, high], i) => {
        expect(low).toBe(Math.floor((64 * i) / c.blocks));
        expect(high).toBe(Math.floor((64 * (i + 1)) / c.blocks) - 1);
      });
      expect(c.permutations.length).toBe(oracle.binomial(c.blocks, c.distance));
    }
  });
});
