/** The inputs the browser and Node must agree on: texts in many scripts, hashes, fingerprints. */

import { makeSample } from './synthetic-sample.js';
import type { ParityInputs } from './fixtures/compute.js';

/** SplitMix64: a seeded stream of 64-bit values. */
function* splitMix64(seed: bigint): Generator<bigint, never> {
  let state = seed;
  for (;;) {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    yield z ^ (z >> 31n);
  }
}

const hex = (value: bigint): string => value.toString(16).padStart(16, '0');

const TEXTS = [
  'The quick brown fox jumps over the lazy dog.',
  'the QUICK brown fox, jumps over the lazy dog!',
  'Crème brûlée à la carte; straße, İstanbul, ΣΊΣΥΦΟΣ.',
  'Cre\u0300me bru\u0302le\u0301e: combining marks after their letters.',
  'ﬁne ﬂour, ＦＵＬＬＷＩＤＴＨ letters and ① circled digits',
  '中文字符的测试文本，没有空格分词。',
  '日本語のテキストとカタカナ、ひらがな。',
  'ภาษาไทยไม่มีช่องว่างระหว่างคำ',
  'emoji 🙂👍🏽 between words 🇫🇷 flags',
  'Ελληνικά και русский текст вместе',
  '',
  '... !!! ???',
  makeSample({ originals: 1, groups: 0, seed: 11 }).documents[0]!.text,
];

/**
 * Builds the parity inputs: the texts under several option sets; 300 documents of hashes;
 * `count` fingerprints of which a fifth are near copies (1 to 6 bits flipped) of others.
 */
export function parityInputs(count: number): ParityInputs {
  const random = splitMix64(2026n);
  const next = (): bigint => random.next().value;
  const fingerprints: bigint[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 5 !== 4 || i === 0) {
      fingerprints.push(next());
      continue;
    }
    let copy = fingerprints[Number(next() % BigInt(i))]!;
    for (let flips = 1 + Number(next() % 6n); flips > 0; flips--) copy ^= 1n << (next() % 64n);
    fingerprints.push(copy);
  }
  const hashes = Array.from({ length: 6000 }, () => hex(next()));
  const offsets = Array.from({ length: 301 }, (_, d) => d * 20);
  return {
    texts: TEXTS,
    textOptions: [
      {},
      { unit: 'char' },
      { unit: 'word', size: 1, weighting: 'binary' },
      { unit: 'char', size: 2, normalize: false, lowercase: false },
      { seed: '0xfedcba9876543210' },
    ],
    hashes,
    weights: hashes.map((_, i) => ((i * 7919) % 1000) / 37),
    offsets,
    fingerprints: fingerprints.map(hex),
    searches: [{ distance: 0 }, { distance: 3 }, { distance: 3, blocks: 6 }, { distance: 6 }, { distance: 10, blocks: 12 }],
  };
}
