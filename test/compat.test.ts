// The simhash-py compatibility helpers against simhash-py's own outputs (test/vectors), for both
// entries: `shingle`, `unsignedHash`, and the text pipeline of simhash-py's tests with its
// fingerprints and distances.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Api } from './api.js';
import { md5 } from '../ts/shared/md5.js';

interface ShingleCase {
  name: string;
  tokens: Array<string | number> | string;
  tokens_is_string: boolean;
  window: number;
  window_passed: boolean;
  expected?: Array<Array<string | number>>;
  expected_error?: string;
}

interface UnsignedHashCase {
  bytes_hex: string;
  md5_hex: string;
  expected: string;
}

interface PipelineCase {
  name: string;
  text: string;
  shingles: string[];
  hashes: string[];
  expected_simhash: string;
}

function cases<T>(file: string): T[] {
  return (JSON.parse(readFileSync(new URL(`./vectors/${file}`, import.meta.url), 'utf8')) as { cases: T[] }).cases;
}

const shingleCases = cases<ShingleCase>('shingle_vectors.json');
const unsignedHashCases = cases<UnsignedHashCase>('unsigned_hash_vectors.json');
const pipelineCases = cases<PipelineCase>('pipeline_vectors.json');

const bytesOf = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

it('md5 gives the digests of unsigned_hash_vectors.json', () => {
  for (const c of unsignedHashCases) expect(hexOf(md5(bytesOf(c.bytes_hex)))).toBe(c.md5_hex);
  // Block boundaries: the padding spills into a second block from 56 bytes on.
  const known: Array<[number, string]> = [
    [55, 'ef1772b6dff9a122358552954ad0df65'],
    [56, '3b0c8ac703f828b04c6c197006d17218'],
    [64, '014842d480b571495a4a0363793f7367'],
    [1000, 'cabe45dcc9ae5b66ba86600cca6b8ba8'],
  ];
  for (const [length, digest] of known) expect(hexOf(md5(new TextEncoder().encode('a'.repeat(length))))).toBe(digest);
});

const entries: Array<[string, () => Promise<Api>]> = [
  ['pure', async () => import('../ts/pure/index.js')],
  [
    'wasm',
    async () => {
      const m: Api = await import('../ts/index.js');
      await m.init();
      return m;
    },
  ],
];

describe.each(entries)('%s entry: simhash-py compatibility', (_, load) => {
  let api: Api;
  beforeAll(async () => {
    api = await load();
  });

  it.each(shingleCases.map((c) => [c.name, c] as const))('shingle: %s', (_, c) => {
    const call = (): unknown => (c.window_passed ? api.shingle(c.tokens, c.window) : api.shingle(c.tokens));
    expect(typeof c.tokens === 'string').toBe(c.tokens_is_string);
    if (c.expected_error !== undefined) {
      expect(call).toThrow(RangeError);
      expect(call).toThrow(/window/);
    } else {
      expect(call()).toEqual(c.expected);
    }
  });

  it('shingle takes any iterable, and checks its arguments', () => {
    expect(api.shingle(new Set([1, 2, 3]), 2)).toEqual([[1, 2], [2, 3]]);
    expect(api.shingle('a😀b', 2)).toEqual([['a', '😀'], ['😀', 'b']]);
    expect(() => api.shingle(5 as unknown as string)).toThrow(TypeError);
    expect(() => api.shingle('abc', '2' as unknown as number)).toThrow(TypeError);
    expect(() => api.shingle('abc', 1.5)).toThrow(RangeError);
  });

  it(`unsignedHash: all ${unsignedHashCases.length} cases, as bytes and as strings`, () => {
    for (const c of unsignedHashCases) {
      const bytes = bytesOf(c.bytes_hex);
      expect(api.unsignedHash(bytes).toString(), c.bytes_hex).toBe(c.expected);
      const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
      if (hexOf(new TextEncoder().encode(text)) === c.bytes_hex) {
        expect(api.unsignedHash(text).toString()).toBe(c.expected);
      }
    }
    expect(() => api.unsignedHash([1, 2] as unknown as Uint8Array)).toThrow(TypeError);
  });

  it.each(pipelineCases.map((c) => [c.name, c] as const))('simhash-py pipeline: %s', (_, c) => {
    expect(c.shingles.map((s) => api.unsignedHash(s).toString())).toEqual(c.hashes);
    expect(Array.from(api.simhashPyFeatures(c.text), String)).toEqual(c.hashes);
    expect(api.simhashPyFingerprint(c.text).toString()).toBe(c.expected_simhash);
  });

  it('reproduces the distances of simhash-py’s functional test', () => {
    const byName = new Map(pipelineCases.map((c) => [c.name, api.simhashPyFingerprint(c.text)]));
    const jabberwocky = byName.get('jabberwocky')!;
    const extended = byName.get('jabberwocky + " - Lewis Carroll (Alice in Wonderland)"')!;
    expect(api.numDifferingBits(jabberwocky, extended)).toBe(3);
    expect(api.numDifferingBits(jabberwocky, byName.get('pope')!)).toBe(30);
    expect(() => api.simhashPyFeatures(3 as unknown as string)).toThrow(TypeError);
  });
});
