/**
 * TextIndex on both entries: decideMany over random splits of a stream of real lines (their
 * edits, typos and exact copies, and long texts) into batches ≡ decideTexts over the whole
 * stream, with queries between batches changing nothing and listing first what a decision would
 * remove the text for; saved bytes equal across entries and loading into either decides alike;
 * removal, ids in use, options and damaged bytes refused with errors that name them.
 */

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ENTRIES } from './index-oracle.js';
import { SplitMix64 } from './oracle.js';
import { expectThrows, useApi } from './suite/helpers.js';
import { loose, type Api } from './api.js';

/** Real lines with their recorded edits, some copied exactly, and long texts made of many lines. */
function stream(seed: bigint, n: number): string[] {
  const rows = readFileSync(new URL('../quality/sets/short-lines.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { text: string; edit1: string; edit2: string });
  const rng = new SplitMix64(seed);
  const pick = <T>(list: readonly T[]): T => list[rng.below(list.length)]!;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const kind = rng.below(12);
    if (kind === 0 && out.length > 0) out.push(pick(out));
    else if (kind === 1) out.push(Array.from({ length: 6 }, () => pick(rows).text).join(' '));
    else if (kind === 2) out.push('');
    else {
      const row = pick(rows);
      out.push(pick([row.text, row.text, row.edit1, row.edit2]));
    }
  }
  return out;
}

/** `n` split into batches of random sizes (some empty). */
function splits(rng: SplitMix64, n: number): number[] {
  const ends: number[] = [];
  for (let at = 0; at < n; ) ends.push((at = Math.min(n, at + rng.below(120))));
  return ends;
}

function decideInBatches(index: ReturnType<typeof newIndex>, texts: readonly string[], ends: readonly number[], beforeEach?: () => void) {
  const representative = new Uint32Array(texts.length);
  const similarity = new Float64Array(texts.length);
  let start = 0;
  for (const end of ends) {
    beforeEach?.();
    const ids = Uint32Array.from({ length: end - start }, (_, q) => start + q);
    const got = index.decideMany(ids, texts.slice(start, end));
    representative.set(got.representative, start);
    similarity.set(got.similarity, start);
    start = end;
  }
  return { representative, similarity };
}

function newIndex(api: Api, templates?: 'keep' | 'remove') {
  return new api.TextIndex(templates === undefined ? undefined : { templates });
}

describe('TextIndex', () => {
  const apis = ENTRIES.map(([name, load]) => [name, useApi(load)] as const);

  for (const [name, api] of apis) {
    describe(name, () => {
      it('decides any split of a stream into batches as decideTexts decides the whole stream', () => {
        const rng = new SplitMix64(3n);
        for (let round = 0; round < 6; round++) {
          const texts = stream(BigInt(round), 500);
          for (const templates of ['keep', 'remove'] as const) {
            const want = api().decideTexts(texts, { templates });
            using index = newIndex(api(), templates);
            // A query between batches lists first what deciding the text would remove it for, and changes nothing.
            const got = decideInBatches(index, texts, splits(rng, texts.length), () => {
              const text = texts[rng.below(texts.length)]!;
              // Texts never seen leave nothing behind, not even their words.
              if (rng.below(6) === 0) {
                const saved = index.save();
                index.query(`${text} unseenword${rng.below(1000)} c++${rng.below(9)} re-made`);
                expect(index.save()).toEqual(saved);
              }
              const listed = index.query(text);
              expect(Array.from(listed.similarity)).toEqual(Array.from(listed.similarity).sort((a, b) => b - a));
              const copy = api().TextIndex.load(index.save());
              const decided = copy.decideMany(Uint32Array.of(1e9), [text]);
              copy.free();
              expect([decided.representative[0], decided.similarity[0]]).toEqual(listed.ids.length > 0 ? [listed.ids[0], listed.similarity[0]] : [1e9, 1]);
            });
            expect(got.representative).toEqual(want.representative);
            expect(got.similarity).toEqual(want.similarity);
            expect(index.size).toBe(want.representative.filter((r, i) => r === i).length);
            expect(index.decided).toBe(texts.length);
          }
        }
      });

      it('forgets removed texts and frees their ids; what they taught stays', () => {
        using index = newIndex(api());
        const fix = 'Fix a crash when the configuration file is missing';
        expect(Array.from(index.decideMany(Uint32Array.of(10, 11), [fix, fix + '.']).representative)).toEqual([10, 10]);
        expect(index.remove(10)).toBe(true);
        expect(index.remove(10)).toBe(false);
        expect(index.has(10)).toBe(false);
        expect(index.query(fix).ids.length).toBe(0);
        expect(Array.from(index.decideMany(Uint32Array.of(10, 12), [fix, 'Update the Brazilian Portuguese translation']).representative)).toEqual([10, 12]);
        expect(index.size).toBe(2);
        expect(Array.from(index.query('fix the crash when the configuraton file is missing').ids)).toEqual([10]);
        // Lines of one word set whose shapes clash are each kept; with the first removed, a line
        // that clashes with none goes to the one kept first, online, by query and once loaded.
        index.decideMany(Uint32Array.of(21, 22), ['english-czech dictionary', 'czech-english dictionary']);
        index.remove(21);
        expect(Array.from(index.decideMany(Uint32Array.of(23), ['english-czech dictionary']).representative)).toEqual([23]);
        using loaded = api().TextIndex.load(index.save());
        expect(index.query('english czech dictionary').ids[0]).toBe(22);
        for (const each of [index, loaded]) expect(Array.from(each.decideMany(Uint32Array.of(24), ['english czech dictionary']).representative)).toEqual([22]);
      });

      it('finds sentences of the same words when every list of their words is full', () => {
        using index = newIndex(api());
        // 70 sentences of 25 common words and 5 of their own: each kept (5 heavy words apart),
        // so that every common word's list fills.
        const rng = new SplitMix64(0x5e7n);
        const word = (): string => Array.from({ length: 9 }, () => String.fromCharCode(97 + rng.below(26))).join('');
        const common = Array.from({ length: 25 }, word);
        const owned = Array.from({ length: 70 }, () => Array.from({ length: 5 }, word));
        const own = (i: number): string[] => owned[i]!;
        const fills = Array.from({ length: 70 }, (_, i) => [...common, ...own(i)].join(' '));
        const ids = Uint32Array.from(fills, (_, i) => i);
        expect(Array.from(index.decideMany(ids, fills).representative)).toEqual(Array.from(ids));
        const sentence = common.join(' ');
        index.addMany(Uint32Array.of(100, 101), [sentence, sentence]);
        index.remove(100);
        expect(Array.from(index.query(sentence).ids)).toEqual([101]);
        expect(Array.from(index.decideMany(Uint32Array.of(102, 103), [sentence, `${sentence} ${own(0)[0]}`]).representative)).toEqual([101, 103]);
      });

      it('keeps added texts unjudged, and judges later texts against them', () => {
        using index = newIndex(api());
        index.addMany(Uint32Array.of(1, 2), ['The Qt 5 network module', 'The Qt 5 netwrok module']);
        index.add(3, 'The Qt 5 network module');
        expect([index.size, index.has(2), index.has(3)]).toEqual([3, true, true]);
        expect(Array.from(index.decideMany(Uint32Array.of(4), ['the qt 5 network module.']).representative)).toEqual([1]);
        expectThrows(() => index.add(3, 'x y'), RangeError, 'ids[0]');
        expectThrows(() => index.add(-3, 'x y'), TypeError, 'id');
        expect(index.decided).toBe(4);
      });

      it('refuses ids in use, bad arguments and misspelt options, deciding nothing', () => {
        using index = newIndex(api());
        index.decideMany(Uint32Array.of(1, 2), ['a yaml parser', 'a json parser for node']);
        const l = loose(api());
        expectThrows(() => index.decideMany(Uint32Array.of(3, 1), ['x y', 'z w']), RangeError, 'ids[1]');
        expectThrows(() => index.decideMany(Uint32Array.of(4, 4), ['x y', 'z w']), RangeError, 'ids[1]');
        expectThrows(() => index.decideMany(Uint32Array.of(5), ['x y', 'z w']), RangeError, 'ids');
        expectThrows(() => index.decideMany([6] as unknown as Uint32Array, ['x y']), TypeError, 'ids');
        expectThrows(() => index.decideMany(Uint32Array.of(7), [7] as unknown as string[]), TypeError, 'texts[0]');
        expectThrows(() => index.query(7 as unknown as string), TypeError, 'text');
        expectThrows(() => index.remove(-1), TypeError, 'id');
        expect(index.decided).toBe(2);
        expectThrows(() => new (l.TextIndex as unknown as new (o: unknown) => unknown)({ template: 'remove' }), TypeError, 'template');
        expectThrows(() => new (l.TextIndex as unknown as new (o: unknown) => unknown)({ templates: 'drop' }), RangeError, 'options.templates');
        index.free();
        expectThrows(() => index.size, TypeError, 'freed');
      });

      it('names what is wrong with bytes that are not a saved text index', () => {
        using index = newIndex(api());
        index.decideMany(Uint32Array.of(1, 2, 3), ['the qt 5 network module', 'english-czech dictionary', 'convert json to yaml']);
        const bytes = index.save();
        const problem = (b: Uint8Array) => {
          try {
            api().TextIndex.load(b);
          } catch (error) {
            expect(error).toBeInstanceOf(api().IndexFormatError);
            return (error as InstanceType<Api['IndexFormatError']>).problem;
          }
          return 'loaded';
        };
        const resealed = (edit: (b: Uint8Array) => void) => {
          const b = bytes.slice();
          edit(b);
          new DataView(b.buffer).setUint32(b.length - 4, crc32(b.subarray(0, b.length - 4)), true);
          return b;
        };
        expect(problem(bytes)).toBe('loaded');
        expect(problem(bytes.subarray(0, 30))).toBe('length');
        expect(problem(Uint8Array.of(0x89, 0x53, 0x48, 0x49))).toBe('magic');
        const flipped = bytes.slice();
        flipped[40]! ^= 1;
        expect(problem(flipped)).toBe('checksum');
        expect(problem(resealed((b) => (b[8] = 1)))).toBe('version');
        expect(problem(resealed((b) => (b[8] = 2)))).toBe('version');
        expect(problem(resealed((b) => (b[10] = 7)))).toBe('header');
        // The first text's state (after the vocabulary and the ids) out of range.
        const view = new DataView(bytes.buffer, bytes.byteOffset);
        const states = 36 + 17 * view.getUint32(12, true) + 8 * view.getUint32(16, true) + 4 * 3;
        expect(problem(resealed((b) => (b[states] = 3)))).toBe('contents');
        // Two kept texts of id 1.
        expect(problem(resealed((b) => b.set([1, 0, 0, 0], states - 8)))).toBe('ids');
        expectThrows(() => api().TextIndex.load([1, 2] as unknown as Uint8Array), TypeError, 'bytes');
      });
    });
  }

  it('saves the same bytes in both entries, and either loads the other\'s and decides alike', () => {
    const [wasm, pure] = apis.map(([, api]) => api());
    const texts = stream(11n, 900);
    const ids = Uint32Array.from(texts.keys());
    for (const templates of ['keep', 'remove'] as const) {
      using a = newIndex(wasm!, templates);
      using b = newIndex(pure!, templates);
      for (const index of [a, b]) index.addMany(Uint32Array.of(5000, 5001), [texts[3]!, texts[3]!]);
      const first = [a, b].map((index) => index.decideMany(ids.subarray(0, 600), texts.slice(0, 600)));
      expect(first[0]).toEqual(first[1]);
      for (let id = 0; id < 600; id += 9) expect(a.remove(id)).toBe(b.remove(id));
      const saved = a.save();
      expect(b.save()).toEqual(saved);
      using fromPure = wasm!.TextIndex.load(b.save());
      using fromWasm = pure!.TextIndex.load(saved);
      expect(fromWasm.templates).toBe(templates);
      const rest = [a, fromPure, fromWasm].map((index) => index.decideMany(ids.subarray(600), texts.slice(600)));
      expect(rest[1]).toEqual(rest[0]);
      expect(rest[2]).toEqual(rest[0]);
      expect(fromWasm.save()).toEqual(a.save());
    }
  });

  it('saves and loads short texts whose signs and marks make more words than their 40 tokens, in both entries and the pool\'s sketches', () => {
    const [wasm, pure] = apis.map(([, api]) => api());
    const tokens = Array.from({ length: 39 }, (_, i) => `w${i.toString(36)}x`);
    // 40 tokens: `of` and `of-` (a common word beginning a compound), `c` with signs.
    const texts = [`${tokens.join(' ')} of of-${tokens[0]}`, `c ${Array.from({ length: 45 }, (_, i) => `c${'+'.repeat(i + 1)}`).join(' ')}`, `${tokens.join(' ')} of-${tokens[1]} of`];
    const ids = Uint32Array.from(texts.keys());
    using a = newIndex(wasm!, 'keep');
    using b = newIndex(pure!, 'keep');
    const decided = [a, b].map((index) => index.decideMany(ids, texts));
    expect(decided[1]).toEqual(decided[0]);
    expect(Array.from(decided[0]!.representative)).toEqual([0, 1, 0]);
    const saved = a.save();
    expect(b.save()).toEqual(saved);
    for (const api of [wasm!, pure!]) {
      using loaded = api.TextIndex.load(saved);
      expect(loaded.decideMany(Uint32Array.of(7), [texts[0]!]).representative).toEqual(Uint32Array.of(0));
    }
  });
});

/** zlib's CRC-32, to make damaged bytes whose checksum holds. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
