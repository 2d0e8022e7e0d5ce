// The MinHash LSH index and batch searches against brute force over the same bands, on
// families of near-duplicate and identical signatures; the byte format, loaded by both entries.

import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as pure from '../ts/pure/index.js';
import * as wasm from '../ts/index.js';

beforeAll(async () => {
  await wasm.init();
});

/** Signatures of families: each a base set of features with a few swapped per member. */
const families = fc
  .record({
    families: fc.array(fc.record({ size: fc.integer({ min: 1, max: 6 }), edits: fc.integer({ min: 0, max: 12 }) }), { minLength: 1, maxLength: 8 }),
    seed: fc.integer({ min: 0, max: 1 << 30 }),
  })
  .map(({ families, seed }) => {
    let next = BigInt(seed) * 7919n + 1n;
    const draw = (): bigint => (next = BigInt.asUintN(64, next * 6364136223846793005n + 1442695040888963407n));
    const sets: bigint[][] = [];
    for (const f of families) {
      const base = Array.from({ length: 40 }, draw);
      for (let m = 0; m < f.size; m++) {
        const member = [...base];
        for (let e = 0; e < (m === 0 ? 0 : f.edits); e++) member[Number(draw() % 40n)] = draw();
        sets.push(member);
      }
    }
    return sets;
  });

const lshOptions = fc.record({
  threshold: fc.constantFrom(0.3, 0.5, 0.7, 0.9, 1),
  bands: fc.integer({ min: 1, max: 8 }),
  rows: fc.integer({ min: 1, max: 4 }),
});

const K = 32;

function signaturesOf(sets: bigint[][]): Uint32Array {
  const flat = BigUint64Array.from(sets.flat());
  const offsets = Uint32Array.from([0, ...sets.map((_, i) => sets.slice(0, i + 1).flat().length)]);
  return wasm.minhashMany(flat, offsets, { numPerm: K });
}

function equalCount(sigs: Uint32Array, x: number, y: number): number {
  let e = 0;
  for (let i = 0; i < K; i++) if (sigs[x * K + i] === sigs[y * K + i]) e++;
  return e;
}

function shareBand(sigs: Uint32Array, x: number, y: number, bands: number, rows: number): boolean {
  for (let b = 0; b < bands; b++) {
    let same = true;
    for (let r = b * rows; r < (b + 1) * rows; r++) same &&= sigs[x * K + r] === sigs[y * K + r];
    if (same) return true;
  }
  return false;
}

/** Brute force: every pair that shares a band and reaches the threshold. */
function bruteForce(sigs: Uint32Array, o: { threshold: number; bands: number; rows: number }): [number, number][] {
  const n = sigs.length / K;
  const pairs: [number, number][] = [];
  for (let x = 0; x < n; x++) {
    for (let y = x + 1; y < n; y++) {
      if (shareBand(sigs, x, y, o.bands, o.rows) && equalCount(sigs, x, y) >= Math.ceil(o.threshold * K - 1e-9)) pairs.push([x, y]);
    }
  }
  return pairs;
}

describe('findAllMinHash and findClustersMinHash', () => {
  it('equal brute force on families of near-duplicates', () => {
    fc.assert(
      fc.property(families, lshOptions, (sets, o) => {
        fc.pre(o.bands * o.rows <= K);
        const sigs = signaturesOf(sets);
        const expected = bruteForce(sigs, o);
        const options = { ...o, numPerm: K };
        const found = wasm.findAllMinHash(sigs, options);
        expect(Array.from(found.left, (l, i) => [l, found.right[i]!])).toEqual(expected);
        expected.forEach(([x, y], i) => expect(found.similarity[i]).toBe(equalCount(sigs, x, y) / K));
        expect(pure.findAllMinHash(sigs, options)).toEqual(found);
        // Components of the same pairs, labelled by their smallest position.
        const n = sets.length;
        const label = Array.from({ length: n }, (_, i) => i);
        const root = (x: number): number => (label[x] === x ? x : root(label[x]!));
        for (const [x, y] of expected) {
          const [a, b] = [root(x), root(y)];
          label[Math.max(a, b)] = Math.min(a, b);
        }
        expect(Array.from(wasm.findClustersMinHash(sigs, options))).toEqual(label.map((_, i) => root(i)));
      }),
      { numRuns: 150 },
    );
  });

  it('findClustersMinHash joins a family of 100,000 identical signatures in linear time, and the rest as before', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const texts = [words.join(' '), words.slice(0, 57).join(' '), 'an unrelated text about other things altogether', words.join(' ')];
    const few = wasm.minhashMany(texts, { numPerm: K, size: 1 });
    const n = 100_000;
    const sigs = new Uint32Array(n * K);
    for (let d = 0; d < n; d++) sigs.set(few.subarray((d < 3 ? d : 0) * K, ((d < 3 ? d : 0) + 1) * K), d * K);
    const labels = wasm.findClustersMinHash(sigs, { numPerm: K, threshold: 0.8 });
    expect(Array.from(labels.subarray(0, 4))).toEqual([0, 0, 2, 0]);
    expect(labels.subarray(3).every((label) => label === 0)).toBe(true);
    expect(pure.findClustersMinHash(sigs.subarray(0, 1000 * K), { numPerm: K, threshold: 0.8 })).toEqual(labels.subarray(0, 1000));
  });

  it('confirm candidates by exact Jaccard when given the feature sets', () => {
    const texts = ['a b c d e f g h i j', 'a b c d e f g h i k', 'a b c d e f g h x y', 'p q r s t u v w'];
    const sigs = wasm.minhashMany(texts, { numPerm: 64, size: 1 });
    const exact = texts.map((t) => wasm.features(t, { size: 1 }));
    const found = wasm.findAllMinHash(sigs, { numPerm: 64, threshold: 0.8, bands: 64, rows: 1, exact });
    // Exact Jaccard: 9/11 for the first pair, 8/12 and 8/12 for the others.
    expect(Array.from(found.left)).toEqual([0]);
    expect(Array.from(found.right)).toEqual([1]);
    expect(found.similarity[0]).toBe(9 / 11);
    expect(Array.from(wasm.findClustersMinHash(sigs, { numPerm: 64, threshold: 0.6, bands: 64, rows: 1, exact }))).toEqual([0, 0, 0, 3]);
    expect(() => wasm.findAllMinHash(sigs, { numPerm: 64, exact: exact.slice(1) })).toThrow(/one feature set per signature/);
    expect(() => wasm.findAllMinHash(sigs, { numPerm: 64, exact: [exact[0]!, exact[1]!, exact[2]!, BigUint64Array.of(2n, 1n)] })).toThrow(/sorted/);
  });

  it('refuse more than maxPairs and bad signatures', () => {
    const sigs = new Uint32Array(10 * K);
    expect(wasm.findAllMinHash(sigs, { numPerm: K }).left.length).toBe(45);
    expect(() => wasm.findAllMinHash(sigs, { numPerm: K, maxPairs: 44 })).toThrow(/maxPairs \(44\)/);
    expect(Array.from(wasm.findClustersMinHash(sigs, { numPerm: K }))).toEqual(Array(10).fill(0));
    expect(() => wasm.findAllMinHash(new Uint32Array(K + 1), { numPerm: K })).toThrow(/multiple of numPerm/);
    expect(() => wasm.findAllMinHash([1, 2] as unknown as Uint32Array)).toThrow(TypeError);
  });
});

describe('MinHashLSH', () => {
  it('answers queries as brute force while ids come and go', () => {
    fc.assert(
      fc.property(families, lshOptions, fc.array(fc.nat(), { maxLength: 20 }), (sets, o, removals) => {
        fc.pre(o.bands * o.rows <= K);
        const sigs = signaturesOf(sets);
        const n = sets.length;
        const index = new wasm.MinHashLSH({ ...o, numPerm: K });
        // Ids are positions times 3; a few added twice (replaced) and removed.
        index.addMany(Uint32Array.from({ length: n }, (_, i) => 3 * i), sigs);
        const present = new Set(Array.from({ length: n }, (_, i) => i));
        for (const r of removals) {
          const i = r % n;
          expect(index.remove(3 * i)).toBe(present.delete(i));
        }
        for (const r of removals.slice(0, 3)) {
          const i = r % n;
          index.add(3 * i, sigs.subarray(i * K, (i + 1) * K));
          present.add(i);
        }
        expect(index.size).toBe(present.size);
        const many = index.queryMany(sigs);
        for (let q = 0; q < n; q++) {
          const expected = [...present]
            .filter((i) => shareBand(sigs, q, i, o.bands, o.rows) && equalCount(sigs, q, i) >= Math.ceil(o.threshold * K - 1e-9))
            .sort((a, b) => equalCount(sigs, q, b) - equalCount(sigs, q, a) || a - b);
          const got = index.query(sigs.subarray(q * K, (q + 1) * K));
          expect(Array.from(got.ids)).toEqual(expected.map((i) => 3 * i));
          expect(Array.from(got.similarities)).toEqual(expected.map((i) => equalCount(sigs, q, i) / K));
          expect(many.ids.subarray(many.offsets[q]!, many.offsets[q + 1]!)).toEqual(got.ids);
          const limited = index.query(sigs.subarray(q * K, (q + 1) * K), { limit: 1 });
          expect(Array.from(limited.ids)).toEqual(expected.slice(0, 1).map((i) => 3 * i));
        }
        // Saved and loaded by either entry: the same bytes, the same answers.
        const bytes = index.serialize();
        const loaded = pure.MinHashLSH.deserialize(bytes);
        expect(loaded.serialize()).toEqual(bytes);
        expect(loaded.queryMany(sigs)).toEqual(many);
        expect([loaded.threshold, loaded.bands, loaded.rows, loaded.numPerm]).toEqual([o.threshold, o.bands, o.rows, K]);
      }),
      { numRuns: 100 },
    );
  });

  it('adds, replaces and removes 50,000 identical signatures in linear time, in any order', () => {
    const n = 50_000;
    const one = wasm.minhash('the same text in every document of the family');
    const all = new Uint32Array(n * one.length);
    for (let i = 0; i < n; i++) all.set(one, i * one.length);
    const ids = Uint32Array.from({ length: n }, (_, i) => i);
    const index = new wasm.MinHashLSH();
    index.addMany(ids, all);
    // Every id again: each replaces itself, in the middle of its band chains.
    index.addMany(ids, all);
    expect(index.size).toBe(n);
    // Every other id, from the middle of the chains outwards.
    for (let i = 1; i < n; i += 2) expect(index.remove(i)).toBe(true);
    const { ids: found } = index.query(one);
    expect(found.length).toBe(n / 2);
    expect(Array.from(found).every((id) => id % 2 === 0)).toBe(true);
    for (let i = n - 2; i >= 0; i -= 2) expect(index.remove(i)).toBe(true);
    expect(index.size).toBe(0);
    expect(index.query(one).ids.length).toBe(0);
    index.add(7, one);
    expect(Array.from(index.query(one).ids)).toEqual([7]);
  });

  it('decides after a save and load as before it: ties go to the signature added first, not the lowest id', () => {
    for (const entry of [wasm, pure]) {
      // Two kept signatures sharing 3 of 8 positions (below the threshold), and a query sharing 5
      // with each; added in descending id order, so the first added is not the lowest id.
      const sig = (...values: number[]) => Uint32Array.from(values);
      const [a, b, query] = [sig(1, 1, 1, 1, 2, 2, 2, 2), sig(3, 3, 3, 3, 3, 2, 2, 2), sig(1, 1, 3, 3, 9, 2, 2, 2)];
      const index = new entry.MinHashLSH({ threshold: 0.5, numPerm: 8, bands: 4, rows: 2 });
      expect(index.decideMany(Uint32Array.of(9, 3), Uint32Array.of(...a, ...b)).representative).toEqual(Uint32Array.of(9, 3));
      const bytes = index.serialize();
      const loaded = entry.MinHashLSH.deserialize(bytes);
      expect(loaded.serialize()).toEqual(bytes);
      expect(index.decideMany(Uint32Array.of(20), query).representative).toEqual(Uint32Array.of(9));
      expect(loaded.decideMany(Uint32Array.of(20), query).representative).toEqual(Uint32Array.of(9));
      // Version 1 saved the ids ascending and reads as if added in that order.
      const v1 = bytes.slice();
      const view = new DataView(v1.buffer);
      view.setUint32(8, 1, true);
      const ids = [view.getUint32(36, true), view.getUint32(40, true)];
      expect(ids).toEqual([9, 3]);
      const at = 44;
      const sigs = [v1.slice(at, at + 32), v1.slice(at + 32, at + 64)];
      view.setUint32(36, 3, true);
      view.setUint32(40, 9, true);
      v1.set(sigs[1]!, at);
      v1.set(sigs[0]!, at + 32);
      view.setUint32(v1.length - 4, crc32(v1.subarray(0, v1.length - 4)), true);
      const old = entry.MinHashLSH.deserialize(v1);
      expect(old.decideMany(Uint32Array.of(20), query).representative).toEqual(Uint32Array.of(3));
      expect(old.serialize()[8]).toBe(2);
    }
  });

  it('refuses damaged, truncated and foreign bytes', () => {
    const index = new wasm.MinHashLSH({ numPerm: 16, bands: 4, rows: 4 });
    index.add(7, wasm.minhash('a saved index', { numPerm: 16 }));
    const bytes = index.serialize();
    const problem = (b: Uint8Array): unknown => {
      try {
        wasm.MinHashLSH.deserialize(b);
      } catch (e) {
        expect(e).toBeInstanceOf(wasm.IndexFormatError);
        return (e as InstanceType<typeof wasm.IndexFormatError>).problem;
      }
      return 'accepted';
    };
    expect(problem(bytes)).toBe('accepted');
    expect(problem(bytes.subarray(0, bytes.length - 1))).toBe('length');
    const flipped = bytes.slice();
    flipped[40]! ^= 1;
    expect(problem(flipped)).toBe('checksum');
    const foreign = bytes.slice();
    foreign[1] = 0;
    expect(problem(foreign)).toBe('magic');
    expect(problem(new wasm.SimHashIndex({ distance: 3 }).serialize())).toBe('magic');
    expect(() => wasm.MinHashLSH.deserialize([1, 2] as unknown as Uint8Array)).toThrow(TypeError);
    // An id saved twice, with a checksum that matches.
    const two = new wasm.MinHashLSH({ numPerm: 16, bands: 4, rows: 4 });
    two.addMany(Uint32Array.of(7, 8), new Uint32Array(32));
    const twice = two.serialize();
    new DataView(twice.buffer).setUint32(40, 7, true);
    new DataView(twice.buffer).setUint32(twice.length - 4, crc32(twice.subarray(0, twice.length - 4)), true);
    expect(problem(twice)).toBe('ids');
  });

  it('rejects bad ids, signatures and options by name', () => {
    const index = new pure.MinHashLSH({ numPerm: 8, bands: 2, rows: 4 });
    expect(() => index.add(-1, new Uint32Array(8))).toThrow(/id must be an integer/);
    expect(() => index.add(1, new Uint32Array(9))).toThrow(/signature/);
    expect(() => index.query(new Uint32Array(8), { threshold: 2 })).toThrow(/options.threshold/);
    expect(() => index.query(new Uint32Array(8), { limit: -1 })).toThrow(/options.limit/);
    expect(() => index.addMany(Uint32Array.of(1, 2), new Uint32Array(8))).toThrow(/one signature per id/);
    expect(() => new pure.MinHashLSH({ numPerm: 0 })).toThrow(/options.numPerm/);
  });
});

describe('MinHashLSH.decideMany', () => {
  it('decides any split of a stream into batches as decideMinHash over the whole stream', () => {
    fc.assert(
      fc.property(families, lshOptions, fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 30 }), (sets, options, cuts) => {
        // Empty batches included; some batch must take texts.
        fc.pre(cuts.some((cut) => cut > 0));
        // Shuffled so that a family's members arrive apart, the edited ones sometimes first.
        const order = sets.map((_, i) => i).sort((a, b) => ((a * 7919) % 97) - ((b * 7919) % 97));
        const sigs = signaturesOf(order.map((i) => sets[i]!));
        const n = order.length;
        const plan = { numPerm: K, ...options };
        const expected = wasm.decideMinHash(sigs, plan);
        for (const api of [wasm, pure]) {
          const index = new api.MinHashLSH(plan);
          const representative = new Uint32Array(n);
          const similarity = new Float64Array(n);
          let start = 0;
          for (let c = 0; start < n; c++) {
            const end = Math.min(n, start + cuts[c % cuts.length]!);
            // Ids 1000 + position: decisions name ids, not positions.
            const ids = Uint32Array.from({ length: end - start }, (_, q) => 1000 + start + q);
            const got = index.decideMany(ids, sigs.subarray(start * K, end * K));
            representative.set(got.representative, start);
            similarity.set(got.similarity, start);
            start = end;
          }
          expect(Array.from(representative, (id) => id - 1000)).toEqual(Array.from(expected.representative));
          expect(similarity).toEqual(expected.similarity);
          expect(index.size).toBe(Array.from(expected.representative).filter((r, i) => r === i).length);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('ties go to the signature added first, and 20,000 identical signatures cost one candidate each', () => {
    const index = new wasm.MinHashLSH({ numPerm: K, threshold: 0.5, bands: 4, rows: 2 });
    const same = signaturesOf([Array.from({ length: 40 }, (_, i) => BigInt(i + 1))]);
    index.add(9, same);
    index.add(3, same);
    expect(Array.from(index.decideMany(Uint32Array.of(5), same).representative)).toEqual([9]);
    const many = new Uint32Array(20_000 * K);
    for (let q = 0; q < 20_000; q++) many.set(same, q * K);
    const decided = index.decideMany(Uint32Array.from({ length: 20_000 }, (_, q) => 100 + q), many);
    expect(decided.representative.every((id) => id === 9)).toBe(true);
    expect(index.size).toBe(2);
  });

  it('refuses ids it holds or the batch names twice, before deciding anything', () => {
    const index = new pure.MinHashLSH({ numPerm: K });
    const sigs = signaturesOf([[1n, 2n, 3n], [4n, 5n, 6n]]);
    index.add(1, sigs.subarray(0, K));
    expect(() => index.decideMany(Uint32Array.of(2, 1), sigs)).toThrow(/ids\[1\] = 1 is held by the index/);
    expect(() => index.decideMany(Uint32Array.of(2, 2), sigs)).toThrow(/ids\[1\] = 2 is named twice/);
    expect(() => index.decideMany([2, 3] as never, sigs)).toThrow(TypeError);
    expect(index.size).toBe(1);
  });
});
