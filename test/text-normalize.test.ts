// Step 1 applied by runs (ts/shared/text-normalize.ts): every fact its correctness argument
// rests on, checked against this engine code point by code point, and both entries against the
// literal specification (step 1 over the whole text in JavaScript, nothing left to the pipeline)
// on adversarial text.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as pure from '../ts/pure/index.js';
import { astralClass, bmpClasses } from '../ts/pure/text-classify.js';
import * as wasm from '../ts/index.js';
import { SEPARATOR } from '../ts/shared/text-classes.js';
import { SETTLED_FIXED, SETTLED_SEPARATORS, normalizeRuns } from '../ts/shared/text-normalize.js';
import { normalizeText, resolveTextOptions } from '../ts/shared/text-options.js';
import type { TextOptions } from '../ts/shared/types.js';

beforeAll(async () => {
  await wasm.init();
});

const classOf = (cp: number): number => (cp < 0x10000 ? bmpClasses()[cp]! : astralClass(cp));

function codePoints(ranges: readonly (readonly [number, number])[]): number[] {
  const out: number[] = [];
  for (const [first, last] of ranges) for (let cp = first; cp <= last; cp++) out.push(cp);
  return out;
}

/**
 * Code points that could combine with, reorder around or otherwise reach across what follows
 * them under NFKC: every mark and letter below U+0800, the Hangul jamo, kana and their sound
 * marks, compatibility and presentation forms, and a seeded sample of the rest of the BMP.
 */
function probes(): string[] {
  const out = new Set<number>();
  for (let cp = 0; cp < 0x800; cp++) out.add(cp);
  for (let cp = 0x1100; cp < 0x1200; cp++) out.add(cp);
  for (let cp = 0x3040; cp < 0x3100; cp++) out.add(cp);
  for (let cp = 0xfb00; cp < 0xfb50; cp++) out.add(cp);
  let x = 7;
  for (let k = 0; k < 1500; k++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.add(x % 0x10000);
  }
  return [...out].filter((cp) => cp < 0xd800 || cp > 0xdfff).map((cp) => String.fromCharCode(cp));
}

/** Every ASCII-range and punctuation entry, and a sample of the long script ranges. */
function sample(cps: number[]): number[] {
  return cps.filter((cp, i) => cp < 0x3000 || i % 499 === 0 || cp % 0x1000 === 0 || cp % 0x1000 === 0xfff);
}

describe('settled code points', () => {
  const fixed = codePoints(SETTLED_FIXED);
  const separators = codePoints(SETTLED_SEPARATORS);

  it('are in the BMP and not surrogates, and the two kinds do not overlap', () => {
    expect([...fixed, ...separators].filter((cp) => !(cp < 0xd800 || (cp > 0xdfff && cp < 0x10000)))).toEqual([]);
    const set = new Set(fixed);
    expect(separators.filter((cp) => set.has(cp))).toEqual([]);
    for (let cp = 0; cp < 0x80; cp++) expect(set.has(cp)).toBe(true);
  });

  it('fixed ones are their own NFKC and lower case (ASCII capitals lower as A-Z to a-z), and no marks', () => {
    const wrong = fixed.filter((cp) => {
      const c = String.fromCharCode(cp);
      const lower = cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp | 0x20) : c;
      return c.normalize('NFKC') !== c || c.toLowerCase() !== lower || /\p{M}/u.test(c);
    });
    expect(wrong.map((cp) => cp.toString(16))).toEqual([]);
  });

  it('separator ones are separators whose NFKC, lowered, is separators only', () => {
    for (const cp of separators) {
      const c = String.fromCharCode(cp);
      expect(classOf(cp), cp.toString(16)).toBe(SEPARATOR);
      expect(c.toLowerCase()).toBe(c);
      for (const out of c.normalize('NFKC').toLowerCase()) expect(classOf(out.codePointAt(0)!), cp.toString(16)).toBe(SEPARATOR);
    }
  });

  it('are normalisation boundaries: nothing before them reaches across', () => {
    const before = probes();
    for (const cp of sample([...fixed, ...separators])) {
      const c = String.fromCharCode(cp);
      const own = c.normalize('NFKC');
      for (const x of before) {
        const joined = (x + c).normalize('NFKC');
        if (joined !== x.normalize('NFKC') + own) throw new Error(`U+${x.charCodeAt(0).toString(16)} U+${cp.toString(16)}`);
      }
    }
  });
});

/** Text where step 1 is at its most treacherous, with runs long and short. */
const alphabet = fc.oneof(
  fc.constantFrom('a', 'Z', 'Q9', ' ', ',', '\n', '<', '=', '>', 'e', 'E', 'i', 'I', 'ss', 'A'),
  fc.constantFrom('\u0301', '\u0308', '\u0338', '\u0345', '\u3099', '\u11a8', '\u1161', '\u1100'),
  fc.constantFrom('é', 'É', 'ê', 'ß', 'ẞ', 'İ', 'Σ', 'σ', 'ς', 'Α', '𝚺', 'ǅ', 'Ǆ', 'ﬁ', '½', '²', '™', 'Ⅻ', 'ª'),
  fc.constantFrom('\u00a0', '©', '’', '…', '\u3000', '，', '＜', 'Ａ', '１', '．', '中', 'か', 'カ', '가', 'ｶ', 'ﷺ'),
  fc.constantFrom('😀', '\ud800', '\udc00', '\u0130\u0307', 'ø', '×', '÷', 'ÿ', '\u2010', '\u2011', '\u2024'),
);
const text = fc.array(alphabet, { maxLength: 50 }).map((a) => a.join(''));
const options: fc.Arbitrary<TextOptions> = fc.record({
  unit: fc.constantFrom('word' as const, 'char' as const),
  size: fc.integer({ min: 1, max: 4 }),
  weighting: fc.constantFrom('tf' as const, 'binary' as const),
  normalize: fc.boolean(),
  lowercase: fc.boolean(),
});

describe('step 1 by runs', () => {
  it('differs from step 1 over the whole text only in ASCII capitals and separators', () => {
    fc.assert(
      fc.property(text, fc.boolean(), fc.boolean(), (t, normalize, lowercase) => {
        const resolved = resolveTextOptions({ normalize, lowercase });
        const runs = normalizeRuns(t, resolved);
        const whole = normalizeText(t, resolved);
        const lowered = lowercase ? runs.replace(/[A-Z]/g, (c) => c.toLowerCase()) : runs;
        // Same tokens: equal once every run of separators is made one space.
        const tokens = (s: string): string =>
          Array.from(s, (c) => (classOf(c.codePointAt(0)!) === SEPARATOR ? ' ' : c))
            .join('')
            .replace(/ +/g, ' ');
        expect(tokens(lowered)).toBe(tokens(whole));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['wasm', wasm],
    ['pure', pure],
  ] as const)('%s entry: features and fingerprints are those of the literal step 1', (_, api) => {
    fc.assert(
      fc.property(text, options, (t, o) => {
        const literal = { ...o, normalize: false, lowercase: false };
        const normalized = normalizeText(t, resolveTextOptions(o));
        expect(api.features(t, o)).toEqual(api.features(normalized, literal));
        expect(api.fingerprint(t, o)).toBe(api.fingerprint(normalized, literal));
        expect(api.fingerprintMany([t, t.toUpperCase(), ''], o)).toEqual(
          api.fingerprintMany([normalized, normalizeText(t.toUpperCase(), resolveTextOptions(o)), ''], literal),
        );
      }),
      { numRuns: 1500 },
    );
  });

  it('sends text with a long run, or a capital sigma in a run, through step 1 whole', () => {
    const o = resolveTextOptions({});
    const greek = 'ΟΔΥΣΣΕΥΣ ΚΑΙ ΑΣ';
    expect(normalizeRuns(`Hello ${greek}.`, o)).toBe(normalizeText(`Hello ${greek}.`, o));
    expect(normalizeRuns('AΣ b', o)).toBe('aς b');
    const long = 'Привет мир, это длинный текст';
    expect(normalizeRuns(long, o)).toBe(normalizeText(long, o));
    expect(normalizeRuns('Plain ASCII, Capitals kept', o)).toBe('Plain ASCII, Capitals kept');
    expect(normalizeRuns('Cafe\u0301 ﬁn', o)).toBe('Café fin');
  });
});
