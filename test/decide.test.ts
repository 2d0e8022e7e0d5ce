/**
 * Decisions (`decide`, `decideMinHash`) on both entries: ≡ the rule applied by brute force on
 * random and adversarial inputs (planted near copies, families of identical documents, chains,
 * all-equal bands), with and without a priority; the invariants a user relies on when deleting
 * what is removed; linear behaviour on a family of 100,000 identical documents; argument errors.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ENTRIES } from './index-oracle.js';
import { SplitMix64, flipBits, numDifferingBits } from './oracle.js';
import { distance as distanceArb, materialize, steps } from './suite/arbitraries.js';
import { expectThrows, fcParams, inEveryForm, useApi } from './suite/helpers.js';
import { loose } from './api.js';

/** The positions in taking order: descending score, then input order. */
function takingOrder(n: number, priority?: readonly number[]): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  if (priority !== undefined) order.sort((a, b) => priority[b]! - priority[a]! || a - b);
  return order;
}

/** The rule, by brute force: every kept document is compared with every later one. */
function bruteSimHash(values: readonly bigint[], distance: number, priority?: readonly number[]) {
  const representative = values.map((_, i) => i);
  const bits = values.map(() => 0);
  const kept: number[] = [];
  for (const p of takingOrder(values.length, priority)) {
    let best = -1;
    let bestBits = 65;
    for (const q of kept) {
      const d = numDifferingBits(values[p]!, values[q]!);
      if (d <= distance && d < bestBits) [best, bestBits] = [q, d];
    }
    if (best < 0) kept.push(p);
    else [representative[p], bits[p]] = [best, bestBits];
  }
  return { representative, distance: bits };
}

/** The MinHash rule, by brute force, with the same bands and rows. */
function bruteMinHash(signatures: Uint32Array, k: number, bands: number, rows: number, threshold: number, priority?: readonly number[]) {
  const n = signatures.length / k;
  const needed = Math.max(0, Math.ceil(threshold * k - 1e-9));
  const representative = Array.from({ length: n }, (_, i) => i);
  const similarity = Array.from({ length: n }, () => 1);
  const kept: number[] = [];
  const at = (d: number, i: number) => signatures[d * k + i]!;
  for (const p of takingOrder(n, priority)) {
    let best = -1;
    let bestEqual = -1;
    for (const q of kept) {
      let sharesBand = false;
      for (let b = 0; b < bands && !sharesBand; b++) {
        sharesBand = true;
        for (let r = b * rows; r < (b + 1) * rows; r++) if (at(p, r) !== at(q, r)) sharesBand = false;
      }
      if (!sharesBand) continue;
      let equal = 0;
      for (let i = 0; i < k; i++) if (at(p, i) === at(q, i)) equal++;
      if (equal >= needed && equal > bestEqual) [best, bestEqual] = [q, equal];
    }
    if (best < 0) kept.push(p);
    else [representative[p], similarity[p]] = [best, bestEqual / k];
  }
  return { representative, similarity };
}

const priorityArb = (n: number) => fc.option(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n }), { nil: undefined });

for (const [name, load] of ENTRIES) {
  describe(`${name}: decide`, () => {
    const api = useApi(load);

    it('≡ the rule by brute force on random and adversarial inputs, with and without a priority, every input form', () => {
      fc.assert(
        fc.property(
          distanceArb,
          steps(40).chain((s) => fc.tuple(fc.constant(s), priorityArb(s.length))),
          (distance, [s, priority]) => {
            const values = materialize(s, distance);
            const expected = bruteSimHash(values, distance, priority);
            const options = priority === undefined ? { distance } : { distance, priority };
            for (const got of inEveryForm(api(), values, (input) => api().decide(input, options))) {
              expect(Array.from(got.representative)).toEqual(expected.representative);
              expect(Array.from(got.distance)).toEqual(expected.distance);
            }
          },
        ),
        fcParams(0xdec1de, 300),
      );
    });

    it('removes every document only for a kept one within the distance, and keeps no two within it', () => {
      const rng = new SplitMix64(7n);
      for (const distance of [3, 10]) {
        // Chains: each value `distance` bits from the one before, so components reach far.
        const values: bigint[] = [];
        for (let c = 0; c < 60; c++) {
          let v = rng.next();
          for (let j = 0; j < 20; j++) values.push((v = flipBits(v, 1 + rng.below(distance), rng)));
        }
        const { representative, distance: bits } = api().decide(BigUint64Array.from(values), { distance });
        const kept = values.flatMap((_, i) => (representative[i] === i ? [i] : []));
        values.forEach((v, i) => {
          const r = representative[i]!;
          expect(representative[r]).toBe(r);
          expect(numDifferingBits(v, values[r]!)).toBe(bits[i]);
          expect(bits[i]).toBeLessThanOrEqual(distance);
        });
        for (const a of kept) for (const b of kept) if (a < b) expect(numDifferingBits(values[a]!, values[b]!)).toBeGreaterThan(distance);
        // Components (findClusters) join what decisions keep apart: the chains are longer than the distance.
        const labels = api().findClusters(BigUint64Array.from(values), { distance });
        expect(new Set(labels).size).toBeLessThan(kept.length);
      }
    });

    it('≡ the rule by brute force on one component that keeps many documents (compared, then indexed)', () => {
      const rng = new SplitMix64(11n);
      for (const distance of [2, 10]) {
        // A walk of steps of `distance` bits: one component, a kept document every few steps.
        const values: bigint[] = [rng.next()];
        for (let j = 1; j < 400; j++) values.push(flipBits(values[j - 1]!, distance, rng));
        const priority = values.map(() => rng.below(5));
        for (const p of [undefined, priority]) {
          const expected = bruteSimHash(values, distance, p);
          expect(expected.representative.filter((r, i) => r === i).length).toBeGreaterThan(40);
          const got = api().decide(BigUint64Array.from(values), p === undefined ? { distance } : { distance, priority: p });
          expect(Array.from(got.representative)).toEqual(expected.representative);
          expect(Array.from(got.distance)).toEqual(expected.distance);
        }
      }
    });

    it('keeps the first of a family of 100,000 identical documents and points the rest to it', () => {
      const values = new BigUint64Array(100_000).fill(0x0123_4567_89ab_cdefn);
      values[50_000] = values[0]! ^ 0b111n;
      const { representative, distance } = api().decide(values, { distance: 3 });
      expect(representative.every((r) => r === 0)).toBe(true);
      expect(distance[50_000]).toBe(3);
      expect(distance.reduce((sum, d) => sum + d, 0)).toBe(3);
    });

    it('takes the priority: the highest score of a family is kept, equal scores in input order', () => {
      const values = [10n, 11n, 1n << 40n, 10n];
      const got = api().decide(values, { distance: 2, priority: [0, 5, 1, 5] });
      expect(Array.from(got.representative)).toEqual([1, 1, 2, 1]);
      expect(Array.from(got.distance)).toEqual([1, 0, 0, 1]);
    });

    it('ties go to the document taken first', () => {
      // 0b01 and 0b10 are kept (2 bits apart, distance 1); 0b00 and 0b11 are 1 bit from both.
      const got = api().decide([1n, 2n, 0n, 3n], { distance: 1 });
      expect(Array.from(got.representative)).toEqual([0, 1, 0, 0]);
      const reversed = api().decide([1n, 2n, 0n, 3n], { distance: 1, priority: [0, 1, 0, 0] });
      expect(Array.from(reversed.representative)).toEqual([0, 1, 1, 1]);
    });

    it('edges: n = 0 and 1, distance 0 and 64', () => {
      expect(api().decide([], { distance: 3 }).representative).toEqual(new Uint32Array(0));
      expect(Array.from(api().decide([5n], { distance: 64 }).representative)).toEqual([0]);
      expect(Array.from(api().decide([5n, 6n, 5n], { distance: 0 }).representative)).toEqual([0, 1, 0]);
      expect(Array.from(api().decide([0n, ~0n & ((1n << 64n) - 1n)], { distance: 64 }).distance)).toEqual([0, 64]);
    });

    it('SimHashIndex.decideMany, in batches of any size, ≡ decide in input order; kept documents are what the index holds', () => {
      fc.assert(
        fc.property(distanceArb, steps(40), fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 8 }), (distance, s, cuts) => {
          const values = materialize(s, distance);
          const expected = api().decide(values, { distance });
          const index = new (api().SimHashIndex)({ distance });
          try {
            const representative: number[] = [];
            const bits: number[] = [];
            for (let start = 0, c = 0; start < values.length; c++) {
              const end = Math.min(values.length, start + cuts[c % cuts.length]! + 1);
              const ids = Uint32Array.from({ length: end - start }, (_, k) => start + k);
              const got = index.decideMany(ids, values.slice(start, end));
              representative.push(...got.representative);
              bits.push(...got.distance);
              start = end;
            }
            expect(representative).toEqual(Array.from(expected.representative));
            expect(bits).toEqual(Array.from(expected.distance));
            expect(index.size).toBe(expected.representative.filter((r, i) => r === i).length);
            // The same documents again: each kept one finds itself and stays kept; each other one is
            // removed again, for the closest of all kept documents now (one kept after it, maybe).
            const again = index.decideMany(Uint32Array.from(values, (_, i) => i), values);
            again.representative.forEach((r, i) => {
              expect(r === i).toBe(expected.representative[i] === i);
              expect(expected.representative[r]).toBe(r);
              expect(again.distance[i]).toBe(numDifferingBits(values[i]!, values[r]!));
              expect(again.distance[i]).toBeLessThanOrEqual(expected.distance[i]!);
            });
          } finally {
            index.free();
          }
        }),
        fcParams(0xdec1d3, 150),
      );
    });

    it('reads a HashArray view as it was, however much memory the search and the index take', () => {
      const rng = new SplitMix64(31n);
      const values = Array.from({ length: 400_000 }, () => rng.next());
      values[399_999] = values[0]! ^ 1n;
      const array = api().allocHashArray(values.length);
      try {
        array.view.set(values);
        const { representative, distance } = api().decide(array.view, { distance: 3 });
        expect(representative.length).toBe(values.length);
        expect(representative[399_999]).toBe(0);
        expect(distance[399_999]).toBe(1);
        expect(api().decide(array, { distance: 3 }).representative).toEqual(representative);
      } finally {
        array.free();
      }
    });

    it('decideMany: an id given again is decided afresh, its old entry replaced or removed; an id twice in a batch is refused', () => {
      const index = new (api().SimHashIndex)({ distance: 3 });
      try {
        // 1 and 2 kept; 3 removed for 1.
        expect(Array.from(index.decideMany(Uint32Array.of(1, 2, 3), [0x0n, 0xffffn, 0x1n]).representative)).toEqual([1, 2, 1]);
        // The same documents again: unchanged decisions, the kept ones recognised by their own entry.
        expect(Array.from(index.decideMany(Uint32Array.of(1, 2, 3), [0x0n, 0xffffn, 0x1n]).representative)).toEqual([1, 2, 1]);
        // Document 1 edited next to document 2: removed for 2, and its old entry leaves the index,
        // so 0x0 has no kept twin any more and document 4 is kept.
        expect(Array.from(index.decideMany(Uint32Array.of(1), [0xfffen]).representative)).toEqual([2]);
        expect(index.has(1)).toBe(false);
        expect(Array.from(index.decideMany(Uint32Array.of(4), [0x2n]).representative)).toEqual([4]);
        // Document 2 edited far away, and document 5 near its old fingerprint in the same batch:
        // the old entry of 2 is no candidate for 5.
        expect(Array.from(index.decideMany(Uint32Array.of(2, 5), [0xf0f0_0000n, 0xfffdn]).representative)).toEqual([2, 5]);
        expect(index.query(0xfffdn).ids).toEqual(Uint32Array.of(5));
        expect(() => index.decideMany(Uint32Array.of(7, 8, 7), [1n, 2n, 3n])).toThrow(/ids must be distinct within a batch: ids\[0\] and ids\[2\] are both 7/);
      } finally {
        index.free();
      }
    });

    it('rejects bad arguments, naming them', () => {
      const l = loose(api());
      const index = new (api().SimHashIndex)({ distance: 3 });
      expectThrows(() => index.decideMany([1] as unknown as Uint32Array, [1n]), TypeError, 'ids');
      expectThrows(() => index.decideMany(Uint32Array.of(1, 2), [1n]), RangeError, 'fingerprints');
      index.free();
      expectThrows(() => l.decide([1n], { distance: 65 }), RangeError, 'distance');
      expectThrows(() => l.decide([1n], null), TypeError, 'options');
      expectThrows(() => l.decide([1n, 2n], { distance: 1, priority: [1] }), RangeError, 'options.priority');
      expectThrows(() => l.decide([1n, 2n], { distance: 1, priority: [1, Number.NaN] }), TypeError, 'options.priority[1]');
      expectThrows(() => l.decide([1n, 2n], { distance: 1, priority: 'longest' }), TypeError, 'options.priority');
      expectThrows(() => l.decide([1], { distance: 1 }), TypeError, 'fingerprints');
    });
  });

  describe(`${name}: decideMinHash`, () => {
    const api = useApi(load);

    /** Signatures of `n` documents planted as near copies of a few originals. */
    function planted(rng: SplitMix64, n: number, k: number, edits: number): Uint32Array {
      const signatures = new Uint32Array(n * k);
      for (let d = 0; d < n; d++) {
        const source = d === 0 || rng.below(3) === 0 ? -1 : rng.below(d);
        for (let i = 0; i < k; i++) signatures[d * k + i] = source < 0 ? rng.below(1000) : signatures[source * k + i]!;
        if (source >= 0) for (let e = rng.below(edits + 1); e > 0; e--) signatures[d * k + rng.below(k)] = rng.below(1000);
      }
      return signatures;
    }

    it('≡ the rule by brute force over the same bands, with and without a priority', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 60 }),
          fc.bigInt({ min: 1n, max: 1n << 60n }),
          fc.constantFrom(0.3, 0.5, 0.6, 0.8, 1),
          fc.integer({ min: 0, max: 12 }),
          fc.boolean(),
          (n, seed, threshold, edits, withPriority) => {
            const rng = new SplitMix64(seed);
            const k = 16;
            const signatures = planted(rng, n, k, edits);
            const plan = api().planMinHashLsh({ threshold, numPerm: k });
            const priority = withPriority ? Array.from({ length: n }, () => rng.below(4)) : undefined;
            const expected = bruteMinHash(signatures, k, plan.bands, plan.rows, threshold, priority);
            const got = api().decideMinHash(signatures, { threshold, numPerm: k, ...(priority === undefined ? {} : { priority }) });
            expect(Array.from(got.representative)).toEqual(expected.representative);
            expect(Array.from(got.similarity)).toEqual(expected.similarity);
          },
        ),
        fcParams(0x5eed, 200),
      );
    });

    it('all-equal bands: removed documents reach the threshold against their representative, kept ones never do when they share a band', () => {
      const rng = new SplitMix64(11n);
      const k = 32;
      // Every signature shares its first band with every other; the rest differ by a few positions.
      const n = 400;
      const signatures = new Uint32Array(n * k);
      for (let d = 0; d < n; d++) for (let i = 0; i < k; i++) signatures[d * k + i] = i < 4 ? 7 : rng.below(3);
      const threshold = 0.5;
      const { representative, similarity } = api().decideMinHash(signatures, { threshold, numPerm: k, bands: 8, rows: 4 });
      const sim = (a: number, b: number) => api().estimateJaccard(signatures.subarray(a * k, (a + 1) * k), signatures.subarray(b * k, (b + 1) * k));
      const kept: number[] = [];
      representative.forEach((r, i) => {
        if (r === i) kept.push(i);
        else {
          expect(representative[r]).toBe(r);
          expect(similarity[i]).toBe(sim(i, r));
          expect(similarity[i]).toBeGreaterThanOrEqual(threshold);
        }
      });
      for (const a of kept) for (const b of kept) if (a < b) expect(sim(a, b)).toBeLessThan(threshold);
    });

    it('decides a family of 100,000 identical signatures in linear time: the first is kept', () => {
      const k = 128;
      const one = api().minhash('the same words again and again');
      const signatures = new Uint32Array(100_000 * k);
      for (let d = 0; d < 100_000; d++) signatures.set(one, d * k);
      const { representative, similarity } = api().decideMinHash(signatures);
      expect(representative.every((r) => r === 0)).toBe(true);
      expect(similarity.every((s) => s === 1)).toBe(true);
    });

    it('rejects bad arguments, naming them', () => {
      const l = loose(api());
      expectThrows(() => l.decideMinHash(new Uint32Array(3), { numPerm: 2 }), RangeError, 'signatures');
      expectThrows(() => l.decideMinHash(new Uint32Array(4), { numPerm: 2, priority: [1] }), RangeError, 'options.priority');
      expectThrows(() => l.decideMinHash(new Uint32Array(4), { numPerm: 2, threshold: 2 }), RangeError, 'threshold');
    });
  });

  describe(`${name}: decisionGroups`, () => {
    const api = useApi(load);
    it('lists each kept document that represents others first, then those it represents', () => {
      const groups = api().decisionGroups(Uint32Array.from([0, 1, 0, 3, 1, 0]));
      expect(groups.map((g) => Array.from(g.members))).toEqual([
        [0, 2, 5],
        [1, 4],
      ]);
      expectThrows(() => api().decisionGroups(Uint32Array.of(1, 0)), RangeError, 'representative[0]');
      expectThrows(() => api().decisionGroups(Uint32Array.of(0, 7)), RangeError, 'representative[1]');
      expectThrows(() => loose(api()).decisionGroups([0]), TypeError, 'representative');
    });
  });
}
