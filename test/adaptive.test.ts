/**
 * decideTexts (text decision specification v2) on both entries: ≡ the rule applied by brute
 * force to sketches made with the public API — short texts (≤ 40 distinct words) by the exact
 * Jaccard of their word sets, every pair of them looked at; other pairs by the estimated
 * Jaccard of their word-pair signatures, only through a shared LSH band and only when a short
 * text among them has 25 distinct word pairs or more — on random texts of every length around the boundary, families of
 * edited and identical copies and texts without words; edits of short lines and of passages
 * found; a family of 100,000 identical texts in linear time; argument errors.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ENTRIES } from './index-oracle.js';
import { SplitMix64 } from './oracle.js';
import { expectThrows, useApi } from './suite/helpers.js';
import { loose } from './api.js';

const K = 128;
const VOCABULARY = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}`);

/** Texts of 0 to 80 words: fresh ones, and copies of earlier ones with a few words edited. */
function texts(rng: SplitMix64, n: number): string[] {
  const out: string[] = [];
  for (let d = 0; d < n; d++) {
    if (d > 0 && rng.below(3) !== 0) {
      const words = out[rng.below(d)]!.split(' ').filter(Boolean);
      for (let e = rng.below(4); e > 0 && words.length > 0; e--) words[rng.below(words.length)] = VOCABULARY[rng.below(VOCABULARY.length)]!;
      if (rng.below(4) === 0) words.push(VOCABULARY[rng.below(VOCABULARY.length)]!);
      out.push(words.join(' '));
    } else {
      const length = [0, 1, 3, 8, 20, 39, 40, 41, 45, 80][rng.below(10)]!;
      out.push(Array.from({ length }, () => VOCABULARY[rng.below(VOCABULARY.length)]!).join(' '));
    }
  }
  return out;
}

for (const [name, load] of ENTRIES) {
  describe(`${name}: decideTexts`, () => {
    const api = useApi(load);

    /** The rule by brute force, from the library's public sketches of the same texts. */
    function brute(list: readonly string[], priority?: readonly number[]) {
      const a = api();
      const words = list.map((t) => a.features(t, { size: 1, weighting: 'binary' }));
      const short = words.map((w) => w.length <= 40);
      const longSig = a.minhashMany(list as string[], { size: 2, numPerm: K });
      const pairs = list.map((t) => a.features(t, { size: 2, weighting: 'binary' }).length);
      const signed = list.map((_, i) => !short[i] || pairs[i]! >= 25);
      const longPlan = a.planMinHashLsh({ threshold: 0.62, numPerm: K, falsePositiveWeight: 0.1, falseNegativeWeight: 0.9 });
      const shares = (x: Uint32Array, y: Uint32Array, plan: { bands: number; rows: number }) =>
        Array.from({ length: plan.bands }, (_, b) => b).some((b) => x.subarray(b * plan.rows, (b + 1) * plan.rows).every((v, r) => v === y[b * plan.rows + r]));
      const exact = (x: BigUint64Array, y: BigUint64Array) => {
        const ys = new Set(y);
        const common = Array.from(x).filter((v) => ys.has(v)).length;
        return common / (x.length + y.length - common);
      };
      const order = list.map((_, i) => i);
      if (priority !== undefined) order.sort((x, y) => priority[y]! - priority[x]! || x - y);
      const representative = list.map((_, i) => i);
      const similarity = list.map(() => 1);
      const kept: number[] = [];
      for (const p of order) {
        if (words[p]!.length === 0) continue;
        let best = -1;
        let bestValue = -1;
        for (const q of kept) {
          let value = -1;
          if (short[p] && short[q]) {
            if (exact(words[p]!, words[q]!) >= 0.4) value = exact(words[p]!, words[q]!);
          } else if (signed[p] && signed[q]) {
            const x = longSig.subarray(p * K, (p + 1) * K);
            const y = longSig.subarray(q * K, (q + 1) * K);
            const equal = x.filter((v, i) => v === y[i]).length;
            if (shares(x, y, longPlan) && equal >= Math.ceil(0.62 * K - 1e-9)) value = equal / K;
          }
          if (value > bestValue) [best, bestValue] = [q, value];
        }
        if (best < 0) kept.push(p);
        else [representative[p], similarity[p]] = [best, bestValue];
      }
      return { representative, similarity };
    }

    it('≡ the rule by brute force on texts of every length around the boundary, with and without a priority', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 40 }), fc.bigInt({ min: 1n, max: 1n << 60n }), fc.boolean(), (n, seed, withPriority) => {
          const rng = new SplitMix64(seed);
          const list = texts(rng, n);
          const priority = withPriority ? list.map(() => rng.below(3)) : undefined;
          const got = api().decideTexts(list, priority === undefined ? undefined : { priority });
          const expected = brute(list, priority);
          expect(Array.from(got.representative)).toEqual(expected.representative);
          expect(Array.from(got.similarity)).toEqual(expected.similarity);
        }),
        { numRuns: 60, seed: 0xada },
      );
    });

    it('finds a one-word edit of a short line and a 5 % edit of a passage, and keeps unrelated texts apart', () => {
      const line = 'Fix a crash when the configuration file is missing';
      const passage = Array.from({ length: 300 }, (_, i) => VOCABULARY[(i * 7) % VOCABULARY.length]).join(' ');
      const edited = passage.split(' ').map((w, i) => (i % 20 === 3 ? 'changed' : w)).join(' ');
      const got = api().decideTexts([line, line.replace('crash', 'hang'), passage, edited, 'Update the translations for Brazilian Portuguese', '']);
      expect(Array.from(got.representative)).toEqual([0, 0, 2, 2, 4, 5]);
      expect(got.similarity[1]).toBeCloseTo(8 / 10);
    });

    it('decides a family of 100,000 identical short texts and of 10,000 identical passages in linear time', () => {
      const shortFamily = api().decideTexts(Array.from({ length: 100_000 }, () => 'Rebuild against the new version of the library'));
      expect(shortFamily.representative.every((r) => r === 0)).toBe(true);
      const page = Array.from({ length: 200 }, (_, i) => VOCABULARY[(i * 13) % VOCABULARY.length]).join(' ');
      expect(api().decideTexts(Array.from({ length: 10_000 }, () => page)).representative.every((r) => r === 0)).toBe(true);
    });

    it('misses no pair of short texts at the threshold, where LSH bands would miss some', () => {
      // 500 pairs of 7-word lines sharing 4 words: Jaccard exactly 4/10.
      const rng = new SplitMix64(0x40n);
      const list: string[] = [];
      for (let p = 0; p < 500; p++) {
        const fresh = (): string => `u${rng.below(1 << 30).toString(36)}`;
        const shared = Array.from({ length: 4 }, fresh);
        list.push([...shared, fresh(), fresh(), fresh()].join(' '), [fresh(), ...shared, fresh(), fresh()].join(' '));
      }
      const { representative, similarity } = api().decideTexts(list);
      for (let p = 0; p < 500; p++) {
        expect(representative[2 * p + 1]).toBe(2 * p);
        expect(similarity[2 * p + 1]).toBe(0.4);
      }
    });

    it('keeps 50,000 lines that all share one word, each just under the threshold, in linear time', () => {
      // Every pair has Jaccard 1/3: candidates of a low threshold, were the common word listed.
      const list = Array.from({ length: 50_000 }, (_, i) => `release v${i.toString(36)}`);
      const { representative } = api().decideTexts(list);
      expect(representative.every((r, i) => r === i)).toBe(true);
    });

    it('gives both entries the same answer as the other entry', async () => {
      const rng = new SplitMix64(99n);
      const list = texts(rng, 300);
      const other = await ENTRIES.find(([n]) => n !== name)![1]();
      expect(api().decideTexts(list)).toEqual(other.decideTexts(list));
    });

    it('TextSketches: batches added one by one decide as decideTexts does on all of them', () => {
      const rng = new SplitMix64(7n);
      const list = [...texts(rng, 200), '', '...', 'one'];
      const priority = list.map(() => rng.below(4));
      const sketches = new (api().TextSketches)();
      for (let at = 0; at < list.length; at += 37) sketches.add(list.slice(at, at + 37));
      expect(sketches.length).toBe(list.length);
      expect(Array.from(sketches.wordless())).toEqual(list.flatMap((t, i) => (api().features(t, { size: 1 }).length === 0 ? [i] : [])));
      expect(sketches.decide({ priority })).toEqual(api().decideTexts(list, { priority }));
      expect(sketches.decide()).toEqual(api().decideTexts(list));
      const l = sketches as unknown as { add(texts: unknown): void; decide(options: unknown): unknown };
      expectThrows(() => l.add(['fine', 7]), TypeError, 'texts[1]');
      expect(sketches.length).toBe(list.length);
      expectThrows(() => l.decide({ priority: [1] }), RangeError, 'options.priority');
      sketches.free();
      sketches.free();
      expectThrows(() => sketches.add(['x']), TypeError, 'freed');
      expectThrows(() => sketches.decide(), TypeError, 'freed');
    });

    it('rejects bad arguments, naming them', () => {
      const l = loose(api());
      expectThrows(() => l.decideTexts('one text'), TypeError, 'texts');
      expectThrows(() => l.decideTexts(['a', 3]), TypeError, 'texts[1]');
      expectThrows(() => l.decideTexts(['a'], { priority: [1, 2] }), RangeError, 'options.priority');
      expect(api().TEXT_DECISION_VERSION).toBe(2);
    });
  });
}
