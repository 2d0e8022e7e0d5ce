/**
 * decideTexts on both entries, by text decision specification v3 (the default) and v2
 * (`version: 2`): ≡ the rule applied by brute force — v2's short texts (≤ 40 distinct words)
 * by the exact Jaccard of their word sets, from the library's public sketches; v3's by the
 * line rule (the same heavy words but one typo, few light words apart) or the weighted word-set
 * similarity with typos paired and unpaired words counted, written from the specification over
 * the words as strings; every pair of short texts looked
 * at; other pairs by the estimated Jaccard of their word-pair signatures, only through a shared
 * LSH band and only when a short text among them has 25 distinct word pairs or more — on random
 * texts of every length around the boundary, families of edited, misspelt and identical copies
 * and texts without words; edits found and template siblings kept; families of identical texts
 * and lines sharing words in linear time; both entries alike; the constants the Rust core
 * holds equal to TypeScript's; argument errors.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ENTRIES } from './index-oracle.js';
import { SplitMix64 } from './oracle.js';
import { expectThrows, useApi } from './suite/helpers.js';
import { loose } from './api.js';
import { readFileSync } from 'node:fs';
import * as shared from '../ts/shared/adaptive.js';
import { COMMON_WORDS } from '../ts/shared/adaptive-words.js';

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

const LETTERS = 'abcde';
/** Words of three to eight letters over five letters (so that many are typos of others), common words and numbers. */
function letteredVocabulary(rng: SplitMix64): string[] {
  const words = new Set(['the', 'for', 'a', 'of', 'and', '2', 'v3', 'x', 'arm64', 'arm65', 'ab1', 'ab2', 'c', 'c++', 'c#', 'abc+', '9', '10', '12', '45', '1.2', '1.3', '2.2', '1.2-3', '1.2-4', 'sha-1', 'sha-2', '8859-10', '8859-11', '2nd.5', '1.v2', 'ab1.0-0']);
  while (words.size < 90) words.add(Array.from({ length: 3 + rng.below(6) }, () => LETTERS[rng.below(5)]).join(''));
  return [...words];
}

/**
 * Lines of 0 to 45 such words, some joined by hyphens, and copies of earlier ones with words
 * substituted, inserted, dropped, misspelt, joined, reversed, swapped or said again.
 */
function letteredTexts(rng: SplitMix64, n: number): string[] {
  const vocabulary = letteredVocabulary(rng);
  const out: string[][] = [];
  const misspell = (word: string): string => {
    const c = [...word];
    const digits = c.flatMap((d, i) => (/[0-9]/.test(d) ? [i] : []));
    if (digits.length > 0 && /^[a-z0-9]+$/.test(word)) {
      c[digits[rng.below(digits.length)]!] = String(rng.below(10));
      return c.join('');
    }
    if (!/^[a-z]+$/.test(word)) return word;
    const at = rng.below(c.length);
    const letter = LETTERS[rng.below(5)]!;
    const kind = rng.below(4);
    if (kind === 0) c[at] = letter;
    else if (kind === 1) c.splice(at, 0, letter);
    else if (kind === 2 && c.length > 1) c.splice(at, 1);
    else if (at + 1 < c.length) [c[at], c[at + 1]] = [c[at + 1]!, c[at]!];
    return c.join('');
  };
  while (out.length < n) {
    if (out.length > 0 && rng.below(3) !== 0) {
      const copy = [...out[rng.below(out.length)]!];
      for (let e = rng.below(4); e > 0; e--) {
        const at = rng.below(copy.length + 1);
        const word = vocabulary[rng.below(vocabulary.length)]!;
        const kind = rng.below(8);
        if (kind === 0 && at < copy.length) copy[at] = word;
        else if (kind === 1 && at < copy.length) copy.splice(at, 1);
        else if (kind === 2 && at < copy.length) copy[at] = misspell(copy[at]!);
        // Two words joined by a hyphen, or a compound's words reversed.
        else if (kind === 3 && at + 1 < copy.length) copy.splice(at, 2, `${copy[at]}-${copy[at + 1]}`);
        else if (kind === 4 && at < copy.length && copy[at]!.includes('-')) copy[at] = copy[at]!.split('-').reverse().join('-');
        // Two words either side of a third swapped; a word said again.
        else if (kind === 5 && at + 2 < copy.length) [copy[at], copy[at + 2]] = [copy[at + 2]!, copy[at]!];
        else if (kind === 6 && at < copy.length) copy.splice(rng.below(copy.length + 1), 0, copy[at]!);
        else copy.splice(at, 0, word);
      }
      out.push(copy);
    } else {
      const length = [0, 1, 2, 3, 5, 7, 9, 12, 14, 18, 20, 22, 26, 30, 45][rng.below(15)]!;
      let words = Array.from({ length }, () => vocabulary[rng.below(vocabulary.length)]!);
      if (length === 45 && rng.below(2) === 0) {
        // A long run of a few words joined in pairs: a shape past its bound.
        const few = Array.from({ length: 12 }, () => vocabulary[16 + rng.below(vocabulary.length - 16)]!);
        words = Array.from({ length: 24 }, () => `${few[rng.below(12)]}-${few[rng.below(12)]}`);
      }
      if (words.length > 1 && rng.below(2) === 0) {
        const at = rng.below(words.length - 1);
        words.splice(at, 2, `${words[at]}-${words[at + 1]}`);
      }
      out.push(words);
    }
  }
  return out.map((words) => words.join(' '));
}

/** Each word with at most one code point removed (itself only, when of three or fewer). */
const FORMS = new Map<string, string[]>();

/** The digits of a bare number (digits, `v` and digits, or digits and an ordinal suffix). */
const bareDigits = (w: string): string | undefined => /^(?:v?([0-9]+)|([0-9]+)(?:st|nd|rd|th))$/.exec(w)?.slice(1).find((d) => d !== undefined);
/** Light: a number (bare, or a release's: its digits and a `.`) or a common word. */
const light = (w: string): boolean => bareDigits(w) !== undefined || (w.endsWith('.') && bareDigits(w.slice(0, -1)) !== undefined) || COMMON_WORDS.includes(w);

/** Whether two bare numbers are one edit apart: one apart, or of as many digits with one changed (none past 15 digits). */
function numberEdit(a: string, b: string): boolean {
  const [da, db] = [bareDigits(a)!, bareDigits(b)!];
  if (da.length > 15 || db.length > 15) return false;
  const apart = BigInt(da) - BigInt(db);
  return (apart >= -1n && apart <= 1n) || (da.length === db.length && Array.from(da).filter((d, i) => d !== db[i]).length <= 1);
}

/**
 * A text's words in order, each with whether a hyphen alone comes before it. A number with a dot
 * and a digit on one side (`1.2`, `2nd.5`'s `2nd`), and one after such a number by a hyphen
 * (`1.2-3`), are a release's: each its digits and a `.`;
 * any other number after a hyphen (`x-3`), and a common word that begins a compound (`of-x`, not
 * `x-of-y`), is a name's part, its token and a `-`.
 */
function tokens(text: string): [word: string, hyphen: boolean][] {
  return text.split(/\s+/).flatMap((chunk) => {
    const parts = chunk.split('-');
    let afterRelease = false;
    return parts.flatMap((part, i): [string, boolean][] => {
      const hyphen = i > 0 && parts[i - 1] !== '';
      const pieces = part.split('.');
      if (pieces.length > 1) {
        // A number beside a dot with a digit on its other side is a release's (`5.14`, `2nd.5`
        // holds `2nd.` and `5`); other pieces are words of their own.
        return pieces.map((p, k): [string, boolean] => {
          const digitAfter = /^[0-9]/.test(pieces[k + 1] ?? '');
          const digitBefore = k > 0 && /[0-9]$/.test(pieces[k - 1]!);
          const number = bareDigits(p) !== undefined;
          const release = number && (digitAfter || digitBefore || (k === 0 && hyphen && afterRelease));
          afterRelease = release;
          return [release ? `${p}.` : number && k === 0 && hyphen ? `${p}-` : p, k === 0 && hyphen];
        });
      }
      const release = afterRelease && hyphen && bareDigits(part) !== undefined;
      afterRelease = release;
      if (release) return [[`${part}.`, true]];
      // A number a hyphen joins to the token before it, and a common word that begins a
      // compound, are a name's parts: each its token and a `-`.
      if (hyphen && bareDigits(part) !== undefined) return [[`${part}-`, true]];
      if (!hyphen && (parts[i + 1] ?? '') !== '' && bareDigits(part) === undefined && COMMON_WORDS.includes(part)) return [[`${part}-`, false]];
      return part === '' ? [] : [[part, hyphen]];
    });
  });
}

/**
 * Whether the shapes of two lines clash, from their words in order, as the specification says:
 * each says a heavy word both hold more often than the other, or one joins two heavy words with
 * one light word and the other joins them the other way round, each word said once in each, or a
 * heavy word said once in each stands before a hyphen joining heavy words and after none in one,
 * and after one and before none in the other (repeats counted up to 1,023); a text whose repeated heavy words and joints number more
 * than 32 clashes with none.
 * `typo`: x's word and y's typo of it, paired.
 */
function shapesClash(x: readonly [string, boolean][], y: readonly [string, boolean][], typo: readonly [string, string] | undefined): boolean {
  const shape = (t: readonly [string, boolean][]) => {
    const counts = new Map<string, number>();
    // A shape counts a word's repeats up to 1,023.
    for (const [w] of t) if (!light(w)) counts.set(w, Math.min(1023, (counts.get(w) ?? 0) + 1));
    const joints = new Set<string>();
    t.forEach(([a], k) => {
      const [b, hyphen] = t[k + 1] ?? ['', false];
      if (b !== '' && !light(a) && !light(b) && hyphen && a !== b) joints.add(`${a} - ${b}`);
      const c = t[k + 2]?.[0];
      if (c !== undefined && !light(a) && light(b) && !light(c) && a !== c) joints.add(`${a} ${b} ${c}`);
    });
    const overflow = [...counts.values()].filter((n) => n > 1).length + joints.size > 32;
    return { counts, joints, overflow };
  };
  const [sx, sy] = [shape(x), shape(y)];
  if (sx.overflow || sy.overflow) return false;
  const map = (w: string): string => (typo !== undefined && w === typo[1] ? typo[0] : w);
  const cy = new Map<string, number>();
  for (const [w, n] of sy.counts) cy.set(map(w), (cy.get(map(w)) ?? 0) + n);
  let [moreX, moreY] = [false, false];
  for (const [w, n] of sx.counts) {
    const m = cy.get(w);
    if (m === undefined) continue;
    moreX ||= n > m;
    moreY ||= n < m;
  }
  if (moreX && moreY) return true;
  const jy = new Set([...sy.joints].map((j) => j.split(' ')).map(([a, j, b]) => `${map(a!)} ${j} ${map(b!)}`));
  const once = (w: string): boolean => sx.counts.get(w) === 1 && cy.get(w) === 1;
  // A hyphen's word said once in each, before one (and after none) in x and after one (and before
  // none) in y, or the other way round; words either side of a light word, each said once, swapped.
  const sides = (joints: Iterable<string>, w: string): string => {
    const hyphens = [...joints].map((j) => j.split(' ')).filter(([, j]) => j === '-');
    return `${hyphens.some(([c]) => c === w)} ${hyphens.some(([, , d]) => d === w)}`;
  };
  const turned = (w: string, before: boolean): boolean => once(w) && sides(sx.joints, w) === `${before} ${!before}` && sides(jy, w) === `${!before} ${before}`;
  return [...sx.joints]
    .map((j) => j.split(' '))
    .some(([a, j, b]) => (j === '-' ? turned(a!, true) || turned(b!, false) : once(a!) && once(b!) && jy.has(`${b} ${j} ${a}`)));
}

/**
 * Specification v3's judgement of two short texts' words, from the specification; `held(w)`
 * counts the short texts taken before that hold w; `fillers(s, pair)` the kept texts of at most
 * 23 words whose heavy words are s and one more, not in pair, that can be a typo and that no text
 * taken before them held; `shapes`, the two texts' words in order
 * when their shapes count.
 */
function v3Similarity(x: readonly string[], y: readonly string[], templates: boolean, held: (w: string) => number, fillers: (s: readonly string[], pair: readonly string[]) => number, shapes?: readonly [readonly [string, boolean][], readonly [string, boolean][]]): number | undefined {
  const weight = (w: string): number => (light(w) ? 1 : 4);
  const forms = (w: string): string[] => {
    let known = FORMS.get(w);
    if (known === undefined) {
      const c = [...w];
      known = c.length > 3 ? [w, ...c.map((_, i) => [...c.slice(0, i), ...c.slice(i + 1)].join(''))] : [w];
      FORMS.set(w, known);
    }
    return known;
  };
  const eligible = (w: string): boolean => [...w].length >= 3 && !/[0-9+#-]/.test(w);
  // Names with digits: the same but for one digit.
  const oneDigit = (a: string, b: string): boolean => {
    const [ca, cb] = [[...a], [...b]];
    if (ca.length !== cb.length || ca.length < 3 || /[+#-]/.test(a + b)) return false;
    const apart = ca.flatMap((c, i) => (c === cb[i] ? [] : [i]));
    return apart.length === 1 && /[0-9]/.test(ca[apart[0]!]!) && /[0-9]/.test(cb[apart[0]!]!);
  };
  // x's a and y's b pair when typos, not both common words, and one is held by no other short
  // text taken before (y was).
  const typos = (a: string, b: string): boolean =>
    ((eligible(a) && eligible(b) && forms(a).some((f) => forms(b).includes(f))) || oneDigit(a, b)) && !(light(a) && light(b)) && (held(a) === 0 || held(b) <= 1);
  const sum = (ws: readonly string[]): number => ws.reduce((t, w) => t + weight(w), 0);
  let shared = sum(x.filter((w) => y.includes(w)));
  const ux = x.filter((w) => !light(w) && !y.includes(w));
  const uy = y.filter((w) => !light(w) && !x.includes(w));
  if (!templates && Math.min(x.length, y.length) < 20) {
    // Lines: the same heavy words but one typo (with two heavy words shared besides), light
    // words changed no more than the heavy words shared, nor than three, each way.
    const sharedHeavy = x.filter((w) => !light(w) && y.includes(w)).length;
    const changes = Math.min(sharedHeavy, 3);
    if (x.filter((w) => light(w) && !y.includes(w)).length > changes || y.filter((w) => light(w) && !x.includes(w)).length > changes) return undefined;
    // Bare numbers only one side holds: the side with fewer holds one at most, one edit from one of the other's.
    const [nx, ny] = [x.filter((w) => bareDigits(w) !== undefined && !y.includes(w)), y.filter((w) => bareDigits(w) !== undefined && !x.includes(w))];
    const [fewer, more] = nx.length <= ny.length ? [nx, ny] : [ny, nx];
    if (fewer.length > 1 || (fewer.length === 1 && !more.some((b) => numberEdit(fewer[0]!, b)))) return undefined;
    let paired = false;
    if (ux.length + uy.length > 0) {
      if (sharedHeavy < 2) return undefined;
      if (ux.length === 1 && uy.length === 1 && typos(ux[0]!, uy[0]!)) paired = true;
      else if (!((ux.length === 1 && uy.length === 0 && y.some((w) => typos(ux[0]!, w))) || (ux.length === 0 && uy.length === 1 && x.some((w) => typos(w, uy[0]!))))) return undefined;
      // A typo in a slot other kept lines fill names another item.
      if (fillers(x.filter((w) => !light(w) && y.includes(w)), [...ux, ...uy]) >= 1) return undefined;
    }
    if (shapes !== undefined && shapesClash(shapes[0], shapes[1], paired ? [ux[0]!, uy[0]!] : undefined)) return undefined;
    const total = shared + (paired ? 3 : 0);
    return total / (sum(x) + sum(y) - total);
  }
  const partner: (number | undefined)[] = uy.map(() => undefined);
  const augment = (i: number, seen: boolean[]): boolean =>
    uy.some((b, j) => {
      if (seen[j] || !typos(ux[i]!, b)) return false;
      seen[j] = true;
      if (partner[j] !== undefined && !augment(partner[j]!, seen)) return false;
      partner[j] = i;
      return true;
    });
  const paired = ux.filter((_, i) => augment(i, uy.map(() => false))).length;
  shared += 3 * paired;
  const allowed = Math.floor(Math.min(x.length, y.length) / 10);
  if (!templates && (ux.length - paired > allowed || uy.length - paired > allowed)) return undefined;
  const [num, den] = templates ? [1, 2] : [7, 10];
  const union = sum(x) + sum(y) - shared;
  return shared * den >= num * union ? shared / union : undefined;
}

for (const [name, load] of ENTRIES) {
  describe(`${name}: decideTexts`, () => {
    const api = useApi(load);

    /** The rule by brute force, from the library's public sketches of the same texts (v3: from their words as strings). */
    function brute(list: readonly string[], priority?: readonly number[], rule: 'v2' | 'v3' | 'templates' = 'v2') {
      const a = api();
      const sequences = list.map(tokens);
      const strings = sequences.map((t) => [...new Set(t.map(([w]) => w))]);
      const heavyWords = (i: number): string => strings[i]!.filter((w) => !light(w)).sort().join(' ');
      const held = new Map<string, number>();
      // The first short text taken holding each word.
      const first = new Map<string, number>();
      // Kept sentences (20 words or more) holding each word: sentences compare through a word
      // fewer than SENTENCES_PER_WORD of them hold, or when they hold the same words.
      const sentences = new Map<string, number>();
      const sentence = (i: number): boolean => strings[i]!.length >= 20;
      const compared = (p: number, q: number): boolean =>
        rule !== 'v3' || !sentence(p) || !sentence(q) || [...strings[p]!].sort().join() === [...strings[q]!].sort().join() || strings[p]!.some((w) => strings[q]!.includes(w) && (sentences.get(w) ?? 0) < shared.SENTENCES_PER_WORD);
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
        // Shapes count while fewer than 8 kept lines (at most 23 words) hold p's heavy words.
        const shaped = rule === 'v3' && kept.filter((q) => short[q] && strings[q]!.length <= 23 && heavyWords(q) === heavyWords(p)).length < 8;
        for (const q of kept) {
          let value = -1;
          if (short[p] && short[q] && rule !== 'v2') {
            if (!compared(p, q)) continue;
            const shapes = shaped ? ([sequences[p]!, sequences[q]!] as const) : undefined;
            // Kept lines holding the slot's heavy words and one more that can be a typo, first held by that line.
            const fillers = (slot: readonly string[], pair: readonly string[]): number =>
              kept.filter((k) => {
                const heavy = strings[k]!.filter((w) => !light(w));
                const own = heavy.filter((w) => !slot.includes(w));
                const z = own[0];
                return !pair.includes(z!) && short[k] && strings[k]!.length <= 23 && heavy.length === slot.length + 1 && own.length === 1 && first.get(z!) === k && [...z!].length >= 3 && !/[+#]/.test(z!);
              }).length;
            value = v3Similarity(strings[p]!, strings[q]!, rule === 'templates', (w) => held.get(w) ?? 0, fillers, shapes) ?? -1;
          } else if (short[p] && short[q]) {
            if (exact(words[p]!, words[q]!) >= 0.4) value = exact(words[p]!, words[q]!);
          } else if (signed[p] && signed[q]) {
            const x = longSig.subarray(p * K, (p + 1) * K);
            const y = longSig.subarray(q * K, (q + 1) * K);
            const equal = x.filter((v, i) => v === y[i]).length;
            if (shares(x, y, longPlan) && equal >= Math.ceil(0.62 * K - 1e-9)) value = equal / K;
          }
          if (value > bestValue) [best, bestValue] = [q, value];
        }
        if (short[p])
          for (const w of strings[p]!) {
            if (!first.has(w)) first.set(w, p);
            held.set(w, (held.get(w) ?? 0) + 1);
          }
        if (best >= 0) [representative[p], similarity[p]] = [best, bestValue];
        else {
          kept.push(p);
          if (short[p] && sentence(p)) for (const w of strings[p]!) sentences.set(w, (sentences.get(w) ?? 0) + 1);
        }
      }
      return { representative, similarity };
    }

    it('v3 ≡ the rule by brute force on lines of letters with misspelt, edited and identical copies, with and without a priority', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 90 }), fc.bigInt({ min: 1n, max: 1n << 60n }), fc.boolean(), fc.boolean(), (n, seed, withPriority, templates) => {
          const rng = new SplitMix64(seed);
          const list = letteredTexts(rng, n);
          const priority = withPriority ? list.map(() => rng.below(3)) : undefined;
          const got = api().decideTexts(list, { ...(priority === undefined ? {} : { priority }), ...(templates ? { templates: 'remove' } : {}) });
          const expected = brute(list, priority, templates ? 'templates' : 'v3');
          expect(Array.from(got.representative)).toEqual(expected.representative);
          expect(Array.from(got.similarity)).toEqual(expected.similarity);
        }),
        { numRuns: 50, seed: 0x3ada },
      );
    });

    it('v3 ≡ the rule by brute force on hundreds of sentences of ninety words, whose lists fill', () => {
      const rng = new SplitMix64(0x64n);
      const list = letteredTexts(rng, 6000).filter((t) => t.split(/\s+/).length >= 24).slice(0, 600);
      const got = api().decideTexts(list);
      const expected = brute(list, undefined, 'v3');
      expect(Array.from(got.representative)).toEqual(expected.representative);
      expect(Array.from(got.similarity)).toEqual(expected.similarity);
      // The bound was reached: some word is held by more kept sentences than its list holds.
      const counts = new Map<string, number>();
      for (const [i, t] of list.entries()) if (got.representative[i] === i) for (const w of new Set(tokens(t).map(([w]) => w))) counts.set(w, (counts.get(w) ?? 0) + 1);
      expect(Math.max(...counts.values())).toBeGreaterThan(shared.SENTENCES_PER_WORD);
    });

    it('v2 ≡ the rule by brute force on texts of every length around the boundary, with and without a priority', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 40 }), fc.bigInt({ min: 1n, max: 1n << 60n }), fc.boolean(), (n, seed, withPriority) => {
          const rng = new SplitMix64(seed);
          const list = texts(rng, n);
          const priority = withPriority ? list.map(() => rng.below(3)) : undefined;
          const got = api().decideTexts(list, { version: 2, ...(priority === undefined ? {} : { priority }) });
          const expected = brute(list, priority);
          expect(Array.from(got.representative)).toEqual(expected.representative);
          expect(Array.from(got.similarity)).toEqual(expected.similarity);
        }),
        { numRuns: 60, seed: 0xada },
      );
    });

    it('finds edits of a short line and a 5 % edit of a passage, and keeps different items and unrelated texts apart', () => {
      const line = 'Fix a crash when the configuration file is missing';
      const passage = Array.from({ length: 300 }, (_, i) => VOCABULARY[(i * 7) % VOCABULARY.length]).join(' ');
      const edited = passage.split(' ').map((w, i) => (i % 20 === 3 ? 'changed' : w)).join(' ');
      const list = [line, line.replace('crash', 'hang'), passage, edited, 'Update the translations for Brazilian Portuguese', '', 'Fix a crash when the configuraton file is missing.', '[WIP] fix the crash when the configuration file is missing'];
      expect(Array.from(api().decideTexts(list).representative)).toEqual([0, 1, 2, 2, 4, 5, 0, 0]);
      // v2 removed the hang for the crash.
      const v2 = api().decideTexts(list, { version: 2 });
      expect(v2.representative[1]).toBe(0);
      expect(v2.similarity[1]).toBeCloseTo(8 / 10);
      expect(api().decideTexts(list, { templates: 'remove' }).representative[1]).toBe(0);
    });

    it('pairs typos through a key only for the first words listed under it (TYPO_KEY_WORDS), whatever the batches', () => {
      // `qrst`, then `q…rst` with 100 letters: all share the typo key `qrst`, which lists the
      // first 64 words to come, `qrst` among them.
      const letters: string[] = [];
      for (let c = 0x100; letters.length < 100; c++) {
        const ch = String.fromCodePoint(c);
        if (/^\p{Ll}$/u.test(ch) && ch.normalize('NFKC').toLowerCase() === ch) letters.push(ch);
      }
      const texts = ['maple syrup harvest qrst', ...letters.map((l) => `maple syrup harvest q${l}rst`)];
      const { representative } = api().decideTexts(texts);
      const listed = shared.TYPO_KEY_WORDS - 1;
      expect(Array.from(representative)).toEqual(texts.map((_, i) => (i >= 1 && i <= listed ? 0 : i)));
      const sketches = new (api().TextSketches)();
      for (let at = 0; at < texts.length; at += 7) sketches.add(texts.slice(at, at + 7));
      expect(sketches.decide().representative).toEqual(representative);
      sketches.free();
    });

    it('pairs a word taken before with a typo exactly one earlier text holds, found through the other heavy words of its text', () => {
      // Every word of the last line of each group is held before, by two texts but `delta`, so
      // neither line probes typos of a new word nor finds the kept line through a word of its own
      // that one text holds: each finds it through that line's single typo (`deltx` replacing
      // `delta`; `kilx` beside `kilo`) and the heavy words around it.
      const texts = ['alpha bravo charlie deltx', 'alpha bravo charlie', 'zulu yankee delta', 'alpha bravo charlie delta', 'golf hotel kilo kilx', 'golf hotel', 'mike november kilo', 'golf hotel kilo'];
      const { representative, similarity } = api().decideTexts(texts);
      expect(Array.from(representative)).toEqual([0, 1, 2, 0, 4, 5, 6, 4]);
      expect(similarity[7]).toBe(12 / 16);
      const index = new (api().TextIndex)();
      for (const [i, text] of texts.entries()) expect(index.decideMany(Uint32Array.of(i), [text]).representative[0]).toBe(representative[i]);
      index.free();
    });

    it('judges lines by their heavy words: typos forgiven whichever line came first and only beside two shared heavy words, annotations light, words that say more kept', () => {
      const list = [
        'zulu echo',
        'alpha bravo charlie delta echoo',
        'alpha bravo charlie delta echo',
        'validation for isbn',
        'validation for iban',
        'the window manager library from the mutter window manager',
        'the window manager library from the mutter windwo manager',
        'fix the crash with the configuration file',
        'fix the crash witg the configuration file',
        'cmake build system for ros 2 ament packages',
        'cmake build system for ros 2 ament packages (flake8)',
        'cmake build system for ros 2 ament packages (draft)',
        'python for data analysis',
        'python for data analysis (2nd edition)',
        'parser for the configuraton file',
        'configuration manual',
        'parser for the configuraton configuration file',
        'vmxnet3 virtual interface controller',
        'vmxnet2 virtual interface controller',
      ];
      expect(Array.from(api().decideTexts(list).representative)).toEqual([0, 1, 1, 3, 4, 5, 5, 7, 7, 9, 10, 9, 12, 12, 14, 15, 14, 17, 17]);
    });

    it('keeps a line whose bare number is not one edit from the other line\'s, and forgives releases', () => {
      const list = [
        'Fix Savannah bug #44890 in the parser',
        'Fix Savannah bug #32301 in the parser',
        'Fix Savannah bug #44891 in the parser',
        'Qt 5 network module',
        'Qt 6 network module',
        '100 dpi fonts for X servers',
        '75 dpi fonts for X servers',
        '42 files changed, 207 insertions(+), 199 deletions(-)',
        '12 files changed, 30 insertions(+), 7 deletions(-)',
        'what is new for perl v5.14.2',
        'what is new for perl v5.20.2',
        'Header files for Linux 6.1.0-47 amd64',
        'Header files for Linux 6.1.0-55 amd64',
        'release notes for version 9 of GNU tar',
        'release notes for version 10 of GNU tar',
        'Python 3 bindings for the GTK toolkit',
        'Python 3.11 bindings for the GTK toolkit',
        'GNU tar 3 and 90 release notes',
        'GNU tar 4 and 5 release notes',
      ];
      // Another bug, resolution or count stays; a version edited (one digit, one more, or any
      // change inside a release) goes, and so does a release beside a bare number.
      // `4` and `5` are both one edit from `3`, and from no other: one of them names another thing.
      const expected = [0, 1, 0, 3, 3, 5, 6, 7, 8, 9, 9, 11, 11, 13, 13, 15, 15, 17, 18];
      expect(Array.from(api().decideTexts(list).representative)).toEqual(expected);
      const index = new (api().TextIndex)();
      const ids = Uint32Array.from(list, (_, i) => i);
      const halves = [index.decideMany(ids.subarray(0, 8), list.slice(0, 8)), index.decideMany(ids.subarray(8), list.slice(8))];
      expect(halves.flatMap((h) => Array.from(h.representative))).toEqual(expected);
      const restored = api().TextIndex.load(index.save());
      expect(Array.from(restored.decideMany(Uint32Array.of(100, 101), ['Fix Savannah bug #44892 in the parser', '80 dpi fonts for X servers']).representative)).toEqual([0, 101]);
      index.free();
      restored.free();
    });

    it('forgives no typo in a slot other kept lines fill (TYPO_SIBLINGS), whatever the batches', () => {
      const list = [
        'explain chdir system call errors',
        'explain fchdir system call errors',
        'explain mkdir system call errors',
        'explain lchdir system call errors',
        'explain system call errros mkdir',
        'TypeScript definitions for vue',
        'TypeScript definitions for vuex',
        'TypeScript definitions for react',
        'TypeScript definitons for react',
        'TypeScript definitions for reactx',
      ];
      // `fchdir` beside `chdir` alone is a typo; with `mkdir` kept in the slot too, `lchdir` is
      // another item; a typo outside the slot (`errros`) is still one.
      const expected = [0, 0, 2, 3, 2, 5, 5, 7, 7, 9];
      expect(Array.from(api().decideTexts(list).representative)).toEqual(expected);
      const sketches = new (api().TextSketches)();
      for (let i = 0; i < list.length; i += 3) sketches.add(list.slice(i, i + 3));
      expect(Array.from(sketches.decide().representative)).toEqual(expected);
      sketches.free();
    });

    it('tells lines of the same words apart by their shapes: compounds reversed, words either side of a light one swapped, repeated words replaced', () => {
      const list = [
        'English-Czech dictionary for the dict server/client',
        'Czech-English dictionary for the dict server/client',
        'English Czech dictionary for the dict server/client',
        'convert JSON to YAML',
        'convert YAML to JSON',
        'JSON to YAML convert',
        'secure POP3/IMAP server - POP3 daemon',
        'secure POP3/IMAP server - IMAP daemon',
        'secure POP3/IMAP server daemon',
        'Python bindings for Qt5 Charts module (Python 3)',
        "Python 3 bindings for Qt5's Charts module",
        'set scheduling parameter attributes in thread attributes object',
        'set scheduling parameter attributes thread in attributes object',
      ];
      // A hyphen dropped, words moved, a word said once less, words swapped beside a word said twice: edits.
      expect(Array.from(api().decideTexts(list).representative)).toEqual([0, 1, 0, 3, 4, 3, 6, 7, 6, 9, 9, 11, 11]);
      expect(Array.from(api().decideTexts(list, { templates: 'remove' }).representative)).toEqual([0, 0, 0, 3, 3, 3, 6, 6, 6, 9, 9, 11, 11]);
    });

    it('decides 50,000 lines of one word set in as many shapes in linear time, shapes telling apart no more than SHAPES_PER_WORD_SET kept lines', () => {
      const rng = new SplitMix64(0x5a9en);
      const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
      const list = Array.from({ length: 50_000 }, () => {
        const w = [...words];
        for (let i = w.length - 1; i > 0; i--) {
          const j = rng.below(i + 1);
          [w[i], w[j]] = [w[j]!, w[i]!];
        }
        return `${w[0]}-${w[1]}-${w[2]}-${w[3]} ${w[4]}-${w[5]} ${w[6]}-${w[7]}`;
      });
      const { representative } = api().decideTexts(list);
      const kept = representative.filter((r, i) => r === i).length;
      expect(kept).toBeGreaterThan(1);
      expect(kept).toBeLessThanOrEqual(shared.SHAPES_PER_WORD_SET);
    });

    it('decides a family of 100,000 identical short texts and of 10,000 identical passages in linear time', () => {
      const shortFamily = api().decideTexts(Array.from({ length: 100_000 }, () => 'Rebuild against the new version of the library'));
      expect(shortFamily.representative.every((r) => r === 0)).toBe(true);
      const page = Array.from({ length: 200 }, (_, i) => VOCABULARY[(i * 13) % VOCABULARY.length]).join(' ');
      expect(api().decideTexts(Array.from({ length: 10_000 }, () => page)).representative.every((r) => r === 0)).toBe(true);
    });

    it('keeps 20,000 template siblings and lines sharing common words apart, in near-linear time', () => {
      // Each name twice over, so that two names are never one digit apart (a version edit).
      const list = Array.from({ length: 20_000 }, (_, i) => (i % 2 === 0 ? `Stub TypeScript definitions entry for pkg${i}${i}` : `A library for the q${i}${i} format`));
      const { representative } = api().decideTexts(list);
      expect(representative.every((r, i) => r === i)).toBe(true);
    });

    it('misses no pair of short texts at the threshold, where LSH bands would miss some (v2)', () => {
      // 500 pairs of 7-word lines sharing 4 words: Jaccard exactly 4/10.
      const rng = new SplitMix64(0x40n);
      const list: string[] = [];
      for (let p = 0; p < 500; p++) {
        const fresh = (): string => `u${rng.below(1 << 30).toString(36)}`;
        const shared = Array.from({ length: 4 }, fresh);
        list.push([...shared, fresh(), fresh(), fresh()].join(' '), [fresh(), ...shared, fresh(), fresh()].join(' '));
      }
      const { representative, similarity } = api().decideTexts(list, { version: 2 });
      for (let p = 0; p < 500; p++) {
        expect(representative[2 * p + 1]).toBe(2 * p);
        expect(similarity[2 * p + 1]).toBe(0.4);
      }
    });

    it('keeps 50,000 lines that all share one word, each just under the threshold, in linear time', () => {
      // Every pair has Jaccard 1/3: candidates of a low threshold, were the common word listed.
      const list = Array.from({ length: 50_000 }, (_, i) => `release v${i.toString(36)}`);
      expect(api().decideTexts(list, { version: 2 }).representative.every((r, i) => r === i)).toBe(true);
      // By v3 a version edit is one (`release v2`, `release v3`): other items stay.
      // Item names with digits, so that none is a misspelling of another.
      const items = list.map((_, i) => `release r${i}`);
      expect(api().decideTexts(items).representative.every((r, i) => r === i)).toBe(true);
    });

    it('gives both entries the same answer as the other entry', async () => {
      const rng = new SplitMix64(99n);
      const list = [...texts(rng, 300), ...letteredTexts(rng, 600)];
      const other = await ENTRIES.find(([n]) => n !== name)![1]();
      for (const options of [{}, { templates: 'remove' as const }, { version: 2 as const }]) {
        expect(api().decideTexts(list, options)).toEqual(other.decideTexts(list, options));
      }
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
      expectThrows(() => l.decideTexts(['a'], { version: 1 }), RangeError, 'options.version');
      expectThrows(() => l.decideTexts(['a'], { templates: 'drop' }), RangeError, 'options.templates');
      expectThrows(() => l.decideTexts(['a'], { version: 2, templates: 'remove' }), RangeError, 'options.templates');
      expect(api().TEXT_DECISION_VERSION).toBe(3);
    });
  });
}

describe('the constants of the rule', () => {
  const rust = readFileSync(new URL('../crates/simhash-core/src/adaptive/mod.rs', import.meta.url), 'utf8');
  const constant = (name: string): string => new RegExp(`pub const ${name}: [^=]+= ([^;]+);`).exec(rust)![1]!.replace(/_/g, '');

  it('are the same in the Rust core and in TypeScript', () => {
    const numbers = ['TEXT_DECISION_VERSION', 'SHORT_WORDS', 'NUM_PERM', 'LONG_EQUAL', 'LONG_BANDS', 'LONG_ROWS', 'PAIRS_TO_MEET_LONG', 'HEAVY_WEIGHT', 'LIGHT_WEIGHT', 'TYPO_SHARED', 'LINE_WORDS', 'SUBSTITUTION_SPAN', 'LIGHT_CHANGES', 'TYPO_CONTEXT', 'TYPO_SIBLINGS', 'SHAPE_ENTRIES', 'SHAPES_PER_WORD_SET', 'SENTENCES_PER_WORD'] as const;
    for (const name of numbers) expect([name, Number(constant(name))]).toEqual([name, shared[name]]);
    expect(constant('THRESHOLD')).toBe(`(${shared.THRESHOLD.join(', ')})`);
    expect(constant('TEMPLATES_THRESHOLD')).toBe(`(${shared.TEMPLATES_THRESHOLD.join(', ')})`);
    const typoChars = readFileSync(new URL('../crates/simhash-core/src/adaptive/vocabulary.rs', import.meta.url), 'utf8');
    expect(Number(/pub const TYPO_CHARS: usize = (\d+);/.exec(typoChars)![1])).toBe(shared.TYPO_CHARS);
    expect(Number(/pub const TYPO_KEY_WORDS: usize = (\d+);/.exec(typoChars)![1])).toBe(shared.TYPO_KEY_WORDS);
  });

  it('hold the same common words', () => {
    const source = readFileSync(new URL('../crates/simhash-core/src/adaptive/common_words.rs', import.meta.url), 'utf8');
    const literal = /COMMON_WORDS: &str = "([^"]*)";/.exec(source)![1]!.replace(/\\\n\s*/g, '');
    expect(literal.split(' ')).toEqual(COMMON_WORDS);
    expect(COMMON_WORDS.length).toBeGreaterThan(300);
  });
});
