// The pure TypeScript text pipeline on its own: xxh3 against the reference crate's vectors, the
// tokeniser on the cases the specification names, and every step against a straightforward
// model of the README's specification v1 written with strings and bigints.

import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as pure from '../ts/pure/index.js';
import { keepDistinct, sortDistinct } from '../ts/pure/text-shingles.js';
import { Xxh3Seed, xxh3, xxh3Hash } from '../ts/pure/xxh3.js';
import { MARK, RANGES, SEPARATOR, UNSEGMENTED, WORD } from '../ts/shared/text-classes.js';
import type { TextOptions } from '../ts/shared/types.js';

interface Xxh3Vectors {
  seeds: string[];
  texts: Array<{ text: string; hashes: string[] }>;
  lengths: Array<{ length: number; hashes: string[] }>;
}

const xxh3Vectors = JSON.parse(
  readFileSync(new URL('./vectors/xxh3_vectors.json', import.meta.url), 'utf8'),
) as Xxh3Vectors;

/** The generator's input pattern: the top byte of each state of a 32-bit LCG started at 1. */
function pattern(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = 1;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('xxh3 (pure TypeScript) against xxhash-rust 0.8.5', () => {
  const seeds = xxh3Vectors.seeds.map(BigInt);

  it('hashes the published strings', () => {
    const known: Record<string, [string, string]> = {
      '': ['3244421341483603138', '12693748630217917650'],
      a: ['16629034431890738719', '5495374321939846900'],
      abc: ['8696274497037089104', '15583455193834708163'],
      'hello world': ['15296390279056496779', '10892614469087474574'],
      '0123456789abcdef0123456789abcdefXYZ': ['17162283277075654068', '18438321805377830883'],
    };
    for (const [text, [unseeded, seeded]] of Object.entries(known)) {
      expect(xxh3(utf8(text)).toString(), text).toBe(unseeded);
      expect(xxh3(utf8(text), 42n).toString(), text).toBe(seeded);
    }
    for (const { text, hashes } of xxh3Vectors.texts) {
      seeds.forEach((seed, i) => expect(xxh3(utf8(text), seed).toString()).toBe(hashes[i]));
    }
  });

  it(`hashes ${xxh3Vectors.lengths.length} lengths from 0 to 10,000 bytes, every path and boundary, with ${seeds.length} seeds`, () => {
    const bytes = pattern(10_000);
    expect(xxh3Vectors.lengths.length).toBeGreaterThan(300);
    for (const { length, hashes } of xxh3Vectors.lengths) {
      seeds.forEach((seed, i) => {
        expect(xxh3(bytes.subarray(0, length), seed).toString(), `length ${length}, seed ${seed}`).toBe(hashes[i]);
      });
    }
  });

  it('hashes a range in place, wherever it sits in the buffer', () => {
    const bytes = pattern(3000);
    const view = new DataView(bytes.buffer);
    const out = new Uint32Array(4);
    const seed = new Xxh3Seed(0x0123_4567_89ab_cdefn);
    for (const [start, length] of [[0, 0], [1, 3], [7, 8], [13, 16], [5, 100], [33, 200], [101, 1500]] as const) {
      xxh3Hash(view, start, start + length, seed, out, 2);
      const expected = xxh3(bytes.slice(start, start + length), 0x0123_4567_89ab_cdefn);
      expect((BigInt(out[3]!) << 32n) | BigInt(out[2]!)).toBe(expected);
    }
  });
});

/** The class of a code point by a linear scan of the committed ranges. */
function classOf(codePoint: number): number {
  for (let r = 0; r < RANGES.length; r += 3) {
    if (codePoint >= RANGES[r]! && codePoint <= RANGES[r + 1]!) return RANGES[r + 2]!;
  }
  return SEPARATOR;
}

/** Steps 1 to 4 of the specification, on strings. */
function modelTokens(text: string, options: TextOptions = {}): string[] {
  let t = options.normalize === false ? text : text.normalize('NFKC');
  if (options.lowercase !== false) t = t.toLowerCase();
  // Step 2: through UTF-8 and back, which turns lone surrogates into U+FFFD.
  t = new TextDecoder().decode(utf8(t));
  const tokens: string[] = [];
  let open = SEPARATOR;
  for (const c of t) {
    const cls = classOf(c.codePointAt(0)!);
    if (cls === WORD && open === WORD) tokens[tokens.length - 1] += c;
    else if (cls === MARK && open !== SEPARATOR) tokens[tokens.length - 1] += c;
    else if (cls === WORD || cls === UNSEGMENTED) {
      tokens.push(c);
      open = cls;
    } else {
      open = SEPARATOR;
    }
  }
  return tokens;
}

function le64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

/** Steps 5 to 7 from a list of units. */
function modelFeaturesOfUnits(units: readonly string[], options: TextOptions = {}): bigint[] {
  const seed = options.seed ?? 0n;
  const size = options.size ?? (options.unit === 'char' ? 4 : 3);
  const hashes = units.map((u) => xxh3(utf8(u), seed));
  const windows: bigint[][] = [];
  if (hashes.length >= size) {
    for (let j = 0; j + size <= hashes.length; j++) windows.push(hashes.slice(j, j + size));
  } else if (hashes.length > 0) {
    windows.push(hashes);
  }
  const shingles = windows.map((w) => {
    const bytes = new Uint8Array(8 * w.length);
    w.forEach((h, i) => bytes.set(le64(h), 8 * i));
    return xxh3(bytes, seed);
  });
  if (options.weighting === 'tf') return shingles;
  return [...new Set(shingles)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function modelFeatures(text: string, options: TextOptions = {}): bigint[] {
  const tokens = modelTokens(text, options);
  const units = options.unit === 'char' ? tokens.flatMap((t) => Array.from(t)) : tokens;
  return modelFeaturesOfUnits(units, options);
}

/** Step 8 by its definition: bit b is set iff more than half of the hashes have it. */
function modelFold(hashes: readonly bigint[]): bigint {
  let out = 0n;
  for (let b = 0n; b < 64n; b++) {
    const set = hashes.filter((h) => (h >> b) & 1n).length;
    if (2 * set > hashes.length) out |= 1n << b;
  }
  return out;
}

/** Checks `pure` against the model for one text and options. */
function expectAsModel(text: string, options: TextOptions = {}): void {
  const expected = modelFeatures(text, options);
  const where = `${JSON.stringify(text)} ${JSON.stringify(options, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`;
  expect(Array.from(pure.features(text, options)), where).toEqual(expected);
  expect(pure.fingerprint(text, options), where).toBe(modelFold(expected));
}

describe('tokens (specification v1, steps 1 to 4)', () => {
  /** Text, options, and the tokens the specification gives. */
  const cases: Array<[string, TextOptions, string[]]> = [
    // The README's own examples.
    ['Hello, wörld', {}, ['hello', 'wörld']],
    ['中文字', {}, ['中', '文', '字']],
    // Scripts without spaces: one token per letter, marks staying with theirs.
    ['コーヒーを飲む', {}, ['コ', 'ー', 'ヒ', 'ー', 'を', '飲', 'む']],
    ['ภาษาไทย', {}, ['ภ', 'า', 'ษ', 'า', 'ไ', 'ท', 'ย']],
    ['กิน', {}, ['กิ', 'น']],
    ['abc中def', {}, ['abc', '中', 'def']],
    ['東京タワー2024年', {}, ['東', '京', 'タ', 'ワ', 'ー', '2024', '年']],
    // Marks inside and after a word keep it whole; a mark after a separator separates.
    ['e\u0301te\u0301 \u0301x', { normalize: false }, ['e\u0301te\u0301', 'x']],
    ['हिन्दी भाषा', {}, ['हिन्दी', 'भाषा']],
    ['\u0301\u0302', {}, []],
    // NFKC and lower case.
    ['ﬁne Ａ Straße', {}, ['fine', 'a', 'straße']],
    ['ﬁne Ａ', { normalize: false, lowercase: false }, ['ﬁne', 'Ａ']],
    ['ÉTÉ', { normalize: false }, ['été']],
    // Separators: punctuation, symbols, emoji, underscore, lone surrogates.
    ['x1_y2', {}, ['x1', 'y2']],
    ['😀 a👍🏽b', {}, ['a', 'b']],
    ['a\ud800b', {}, ['a', 'b']],
    ['', {}, []],
    ['...!? — ✓', {}, []],
    ['١٢٣ ٤', {}, ['١٢٣', '٤']],
  ];

  it.each(cases)('%j %j', (text, options, tokens) => {
    expect(modelTokens(text, options)).toEqual(tokens);
    // With size 1, each feature is the hash of one token's hash: the tokens are exactly these.
    const single = { ...options, size: 1 };
    expect(Array.from(pure.features(text, single))).toEqual(modelFeaturesOfUnits(tokens, single));
    expectAsModel(text, options);
    expectAsModel(text, { ...options, unit: 'char' });
  });
});

describe('shingles and fold (specification v1, steps 5 to 8)', () => {
  it('uses the default sizes, 3 words and 4 characters', () => {
    const text = 'one two three four five';
    expect(pure.features(text).length).toBe(3);
    expect(pure.features(text, { unit: 'char' }).length).toBe(19 - 3);
    expect(Array.from(pure.features(text))).toEqual(Array.from(pure.features(text, { size: 3, unit: 'word' })));
  });

  it('makes one shingle of all the units when there are fewer than the size, none when there are none', () => {
    expect(Array.from(pure.features('alpha beta'))).toEqual(modelFeaturesOfUnits(['alpha', 'beta']));
    expect(pure.features('alpha beta').length).toBe(1);
    expect(pure.features('ab', { unit: 'char' }).length).toBe(1);
    expect(pure.features('...').length).toBe(0);
    expect(pure.fingerprint('...')).toBe(0n);
    expect(pure.fingerprint('')).toBe(0n);
  });

  it('counts repeats for tf and each distinct shingle once, sorted, for binary', () => {
    const text = 'la la la la la land';
    const tf = Array.from(pure.features(text, { weighting: 'tf' }));
    expect(tf.length).toBe(4);
    expect(tf[0]).toBe(tf[1]);
    expect(tf[1]).toBe(tf[2]);
    const binary = Array.from(pure.features(text, { weighting: 'binary' }));
    expect(binary).toEqual([...new Set(tf)].sort((a, b) => (a < b ? -1 : 1)));
    expect(pure.fingerprint(text, { weighting: 'tf' })).toBe(pure.compute(tf));
    expect(pure.fingerprint(text, { weighting: 'binary' })).toBe(pure.compute(binary));
    // Binary is the default.
    expect(Array.from(pure.features(text))).toEqual(binary);
  });

  it('reaches every xxh3 path with shingle sizes 1 to 64 and the seed everywhere', () => {
    const text = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
    for (const size of [1, 2, 3, 16, 17, 30, 31, 64]) {
      for (const seed of [0n, 1n, (1n << 64n) - 1n]) {
        expectAsModel(text, { size, seed });
        expectAsModel(text, { size, seed, unit: 'char', weighting: 'binary' });
      }
    }
    // A token longer than 240 bytes takes the long path.
    expectAsModel(`${'x'.repeat(5000)} y ${'é'.repeat(300)}`, { size: 2 });
    expect(pure.fingerprint(text, { seed: 1n })).not.toBe(pure.fingerprint(text));
  });

  it('gives the same results after its scratch has grown, and from every function', () => {
    const small = 'a small text, then a long one';
    const long = `${'lorem ipsum dolor sit amet '.repeat(40_000)}中文字`;
    const before = pure.fingerprint(small);
    expect(pure.fingerprint(long)).toBe(pure.compute(pure.features(long)));
    expect(pure.fingerprint(small)).toBe(before);
    expect(Array.from(pure.fingerprintMany([small, long, small]))).toEqual([before, pure.fingerprint(long), before]);
    expect(Array.from(pure.fingerprintMany(new Set([long, small])))).toEqual([pure.fingerprint(long), before]);
    expect(pure.fingerprintMany([]).length).toBe(0);
  });

  it('agrees with the model on random text of many scripts', () => {
    const alphabet = fc.oneof(
      fc.constantFrom('a', 'Z', '9', '_', ' ', ' ', ',', '\n', 'é', 'e\u0301', '\u0301', 'ß', 'ﬁ', 'Ａ', 'İ', 'Σ'),
      fc.constantFrom('中', '文', 'か', 'カ', 'ー', 'ภ', 'ิ', 'ລ', 'ក', 'မ', '한', 'ह', 'ि', '्', 'ع', 'ً'),
      fc.constantFrom('😀', '👍🏽', '\ud800', '\udc00', '𝒳', '𠀀', '\u{e0100}', '\u200d', '\ufe0f'),
    );
    const text = fc.oneof(fc.array(alphabet, { maxLength: 60 }).map((a) => a.join('')), fc.string({ unit: 'binary', maxLength: 60 }));
    const options: fc.Arbitrary<TextOptions> = fc.record(
      {
        unit: fc.constantFrom('word' as const, 'char' as const),
        size: fc.integer({ min: 1, max: 6 }),
        weighting: fc.constantFrom('tf' as const, 'binary' as const),
        normalize: fc.boolean(),
        lowercase: fc.boolean(),
        seed: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(text, options, (t, o) => expectAsModel(t, o)), { seed: 1122, numRuns: 300 });
  });
});

describe('distinct shingles', () => {
  it('keepDistinct keeps first occurrences in order; sortDistinct sorts them', () => {
    // Few distinct values, shared low halves (the set indexes by them) and zeros.
    const value = fc.oneof(
      fc.bigInt({ min: 0n, max: 5n }),
      fc.bigInt({ min: 0n, max: 3n }).map((x) => (x << 40n) | 7n),
      fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 300 }), (values) => {
        const words = () => new Uint32Array(BigUint64Array.from(values).buffer);
        const firsts = [...new Set(values)];
        const kept = words();
        const n = keepDistinct(kept, values.length);
        expect(Array.from(new BigUint64Array(kept.buffer, 0, n))).toEqual(firsts);
        const sorted = words();
        const m = sortDistinct(sorted, values.length);
        expect(Array.from(new BigUint64Array(sorted.buffer, 0, m))).toEqual(firsts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('argument checks', () => {
  it('names the argument or option at fault, with the right kind of error', () => {
    const bad: Array<[() => unknown, typeof TypeError | typeof RangeError, RegExp]> = [
      [() => pure.fingerprint(1 as unknown as string), TypeError, /^text\b/],
      [() => pure.features(null as unknown as string), TypeError, /^text\b/],
      [() => pure.fingerprintMany('abc' as unknown as string[]), TypeError, /^texts\b/],
      [() => pure.fingerprintMany(7 as unknown as string[]), TypeError, /^texts\b/],
      [() => pure.fingerprintMany(['a', 'b', 3] as unknown as string[]), TypeError, /^texts\[2\]/],
      [() => pure.fingerprint('a', 'word' as unknown as TextOptions), TypeError, /^options\b/],
      [() => pure.fingerprint('a', { unit: 'line' as 'word' }), RangeError, /^options\.unit/],
      [() => pure.fingerprint('a', { unit: 1 as unknown as 'word' }), TypeError, /^options\.unit/],
      [() => pure.fingerprint('a', { size: 0 }), RangeError, /^options\.size/],
      [() => pure.fingerprint('a', { size: 65 }), RangeError, /^options\.size/],
      [() => pure.fingerprint('a', { size: 2.5 }), RangeError, /^options\.size/],
      [() => pure.fingerprint('a', { size: '3' as unknown as number }), TypeError, /^options\.size/],
      [() => pure.fingerprint('a', { weighting: 'idf' as 'tf' }), RangeError, /^options\.weighting/],
      [() => pure.fingerprint('a', { normalize: 1 as unknown as boolean }), TypeError, /^options\.normalize/],
      [() => pure.fingerprint('a', { lowercase: 'no' as unknown as boolean }), TypeError, /^options\.lowercase/],
      [() => pure.fingerprint('a', { seed: 1 as unknown as bigint }), TypeError, /^options\.seed/],
      [() => pure.fingerprint('a', { seed: -1n }), RangeError, /^options\.seed/],
      [() => pure.fingerprint('a', { seed: 1n << 64n }), RangeError, /^options\.seed/],
    ];
    for (const [call, kind, message] of bad) {
      expect(call).toThrow(kind);
      expect(call).toThrow(message);
    }
    expect(pure.fingerprint('a', { size: 64, seed: (1n << 64n) - 1n })).toBe(pure.fingerprint('A', { size: 64, seed: (1n << 64n) - 1n }));
    expect(pure.TEXT_FINGERPRINT_VERSION).toBe(1);
  });
});
