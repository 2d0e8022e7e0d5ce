// Text fingerprints (specification v1): the pinned vectors for both entries, the WebAssembly and
// pure TypeScript implementations against each other on random Unicode text, and the properties
// the specification promises for scripts written without spaces.

import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as pure from '../ts/pure/index.js';
import * as wasm from '../ts/index.js';
import type { TextOptions } from '../ts/shared/types.js';

interface TextCase {
  text: string;
  options: Omit<TextOptions, 'seed'> & { seed?: string };
  fingerprint: string;
  features: string[];
}

const vectors = JSON.parse(readFileSync(new URL('./vectors/text_v1.json', import.meta.url), 'utf8')) as {
  cases: TextCase[];
};

function optionsOf(c: TextCase): TextOptions {
  const { seed, ...rest } = c.options;
  return seed === undefined ? rest : { ...rest, seed: BigInt(seed) };
}

const entries = [
  ['wasm', wasm],
  ['pure', pure],
] as const;

beforeAll(async () => {
  await wasm.init();
});

describe.each(entries)('%s entry: text vectors v1', (_, api) => {
  it(`reproduces all ${vectors.cases.length} pinned fingerprints and features`, () => {
    expect(vectors.cases.length).toBeGreaterThan(100);
    for (const c of vectors.cases) {
      const options = optionsOf(c);
      expect(api.fingerprint(c.text, options).toString(), JSON.stringify(c)).toBe(c.fingerprint);
      expect(Array.from(api.features(c.text, options), String)).toEqual(c.features);
    }
  });

  it('gives the same fingerprints one by one, as an array and as an iterable', () => {
    const texts = vectors.cases.slice(0, 40).map((c) => c.text);
    const expected = texts.map((t) => api.fingerprint(t));
    expect(Array.from(api.fingerprintMany(texts))).toEqual(expected);
    expect(Array.from(api.fingerprintMany(new Set(texts).values()))).toEqual([...new Set(texts)].map((t) => api.fingerprint(t)));
    expect(api.fingerprintMany([]).length).toBe(0);
  });

  it('gives each text of a batch its own fingerprint when step 1 lengthens texts (NFKC expands U+FDFA to 18 code units)', () => {
    // A text that outgrows its room shrinks the next one's: whatever that leaves, the next text
    // must be written whole, or the whole batch normalised first.
    for (const first of ['\ufdfa', '\ufdfa\ufdfa', 'a\ufdfa b']) {
      for (let k = 0; k < 60; k++) {
        for (const texts of [[first, `\u00e9${'a'.repeat(k)}`], [first, `\u00e9${'a'.repeat(k)}`, '']]) {
          expect(Array.from(api.fingerprintMany(texts))).toEqual(texts.map((t) => api.fingerprint(t)));
        }
      }
    }
    const expanding = ['Q9\ufdfa\ufb01\u0301  \u00f7', 'Q9\ufdfaFI\u0301  \u00f7', '', '\ufdfa'.repeat(40), 'plain ascii after them', 'x\ufdfay ascii tail'];
    for (const options of [{}, { normalize: true, lowercase: false, size: 1, weighting: 'tf' as const }]) {
      // Every order, so that an expanded text eats into the room of each kind of neighbour.
      for (let shift = 0; shift < expanding.length; shift++) {
        const texts = [...expanding.slice(shift), ...expanding.slice(0, shift)];
        expect(Array.from(api.fingerprintMany(texts, options))).toEqual(texts.map((t) => api.fingerprint(t, options)));
        expect(Array.from(api.minhashMany(texts, options))).toEqual(texts.flatMap((t) => Array.from(api.minhash(t, options))));
      }
    }
  });

  it('folds its features as compute does', () => {
    for (const c of vectors.cases.slice(0, 60)) {
      const options = optionsOf(c);
      expect(api.compute(api.features(c.text, options))).toBe(api.fingerprint(c.text, options));
    }
  });

  it('rejects bad texts and options with errors naming them', () => {
    expect(() => api.fingerprint(3 as unknown as string)).toThrow(/text/);
    expect(() => api.fingerprintMany(['a', 7 as unknown as string])).toThrow(/texts\[1\]/);
    expect(() => api.fingerprintMany(5 as unknown as string[])).toThrow(TypeError);
    expect(() => api.fingerprint('a', { size: 0 })).toThrow(RangeError);
    expect(() => api.fingerprint('a', { size: 65 })).toThrow(/options\.size/);
    expect(() => api.fingerprint('a', { unit: 'line' as 'word' })).toThrow(/options\.unit/);
    expect(() => api.fingerprint('a', { weighting: 'idf' as 'tf' })).toThrow(/options\.weighting/);
    expect(() => api.fingerprint('a', { seed: -1n })).toThrow(/options\.seed/);
    expect(() => api.fingerprint('a', { seed: 1 as unknown as bigint })).toThrow(TypeError);
    expect(() => api.features('a', { normalize: 'yes' as unknown as boolean })).toThrow(/options\.normalize/);
    expect(api.fingerprint('still works')).toBe(api.fingerprint('Still works!'));
  });
});

/** Text drawn from many scripts, with separators and marks between, so tokens vary. */
const pieces = [
  'the', 'cat', 'Straße', 'naïve', 'e\u0301', '中', '文字', 'テスト', 'ひらがな', 'ภาษา', 'ไทย', '한국어',
  'Съешь', 'עִבְרִית', 'हिन्दी', '١٢٣', '😀', '👍🏽', '\u0301', '\ud800', ' ', '  ', '\n', ',', '.', '-', 'ﬁ', 'Ａ',
];
const mixedText = fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), mixedText, fc.string({ maxLength: 80 }));
const textOptions: fc.Arbitrary<TextOptions> = fc.record(
  {
    unit: fc.constantFrom('word' as const, 'char' as const),
    size: fc.integer({ min: 1, max: 8 }),
    weighting: fc.constantFrom('tf' as const, 'binary' as const),
    normalize: fc.boolean(),
    lowercase: fc.boolean(),
    seed: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  },
  { requiredKeys: [] },
);

describe('WebAssembly and pure TypeScript agree on random text', () => {
  it('fingerprint and features, for any text and options', () => {
    fc.assert(
      fc.property(anyText, textOptions, (text, options) => {
        expect(Array.from(wasm.features(text, options))).toEqual(Array.from(pure.features(text, options)));
        expect(wasm.fingerprint(text, options)).toBe(pure.fingerprint(text, options));
      }),
      { seed: 20261122, numRuns: 400 },
    );
  });

  it('fingerprintMany over batches of texts', () => {
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 30 }), textOptions, (texts, options) => {
        expect(Array.from(wasm.fingerprintMany(texts, options))).toEqual(Array.from(pure.fingerprintMany(texts, options)));
      }),
      { seed: 7, numRuns: 60 },
    );
  });

  it('texts that look ASCII where sampled but hold characters step 1 changes elsewhere', () => {
    // The WebAssembly entry writes a text that looks ASCII (its first 32 code units and 32 spread
    // over the rest) before step 1, then writes it again if step 1 changes it: a fullwidth
    // letter, a ligature, a capital outside ASCII, each placed off the sampled positions.
    const base = 'the quick brown fox jumps over the lazy dog '.repeat(40);
    for (const odd of ['Ｆｏｘ', 'ﬁve', 'ÉTÉ', 'Straße', '½']) {
      const text = `${base.slice(0, 101)}${odd}${base.slice(101)}`;
      const edited = [text, `${text}${odd}`, text.toUpperCase()];
      for (const t of edited) {
        expect(wasm.fingerprint(t)).toBe(pure.fingerprint(t));
        expect(wasm.fingerprint(t)).toBe(wasm.fingerprint(t.normalize('NFKC').toLowerCase()));
      }
      expect(Array.from(wasm.fingerprintMany(edited))).toEqual(Array.from(pure.fingerprintMany(edited)));
    }
  });

  it('long texts spanning several WebAssembly batches', () => {
    const long = Array.from({ length: 3 }, (_, i) => `${pieces.join(' ')} ${i} `.repeat(20_000));
    expect(Array.from(wasm.fingerprintMany(long))).toEqual(Array.from(pure.fingerprintMany(long)));
  });
});

describe('scripts written without spaces', () => {
  const chinese = [
    '我们在这里测试中文文本的指纹，希望相似的文章得到相近的指纹，而不相关的文章则相距很远。这个方法把每个汉字当作一个词，再把连续的三个字组成一个片段，计算它们的哈希值，最后合成一个六十四位的指纹。如果两篇文章只有一两个字不同，它们的指纹通常只差几位；如果内容完全不同，指纹大约有一半的位不同。',
    '天气预报说明天会下大雨，出门的时候记得带伞，路上注意安全，早点回家吃饭。周末我们打算去山里露营，带上帐篷、睡袋和足够的食物，还要准备一些驱蚊的药水。孩子们最喜欢在小溪边捉鱼，晚上围着篝火唱歌，看满天的星星。',
  ];
  const japanese = 'きょうはとてもいいてんきなので、こうえんまでさんぽにいきました。さくらがきれいにさいていました。';
  const thai = 'ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำ ทำให้การตัดคำเป็นเรื่องที่ยาก';

  it('gives many features, not one giant token', () => {
    for (const text of [...chinese, japanese, thai]) {
      expect(wasm.features(text).length).toBeGreaterThan(20);
    }
  });

  it('keeps a text with a small edit close and unrelated texts far', () => {
    const [a, b] = chinese as [string, string];
    // A two-character edit in a paragraph of 140 characters (131 shingles).
    const edited = a.replace('测试', '检验');
    expect(wasm.numDifferingBits(wasm.fingerprint(a), wasm.fingerprint(edited))).toBeLessThanOrEqual(8);
    expect(wasm.numDifferingBits(wasm.fingerprint(a), wasm.fingerprint(b))).toBeGreaterThan(16);
    expect(wasm.numDifferingBits(wasm.fingerprint(japanese), wasm.fingerprint(thai))).toBeGreaterThan(16);
  });

  it('gives featureless texts 0n and nothing else does', () => {
    for (const empty of ['', '   ', '...!?', '\u0301\u0302', '😀😀']) {
      expect(wasm.features(empty).length).toBe(0);
      expect(wasm.fingerprint(empty)).toBe(0n);
    }
    expect(wasm.fingerprint('x')).not.toBe(0n);
  });
});
