/**
 * The worker pool (the built dist/esm/parallel, which `npm test` builds first: workers load
 * its worker.js): every method equals the synchronous API of both entries on random and
 * adversarial inputs, bit for bit and error for error; streaming reads ahead only boundedly;
 * a worker that throws or exits rejects what it was running and is replaced; a closed or idle
 * pool leaves Node free to exit; the sharded index answers as one SimHashIndex does.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ENTRIES } from './index-oracle.js';
import * as oracle from './oracle.js';
import { distance as distanceArb, materialize, steps } from './suite/arbitraries.js';
import { fcParams, plainPairs } from './suite/helpers.js';
import type { Api } from './api.js';

type Parallel = typeof import('../ts/parallel/index.js');
type PoolModule = typeof import('../ts/parallel/pool.js');
type Pool = import('../ts/parallel/index.js').Pool;

const distUrl = new URL('../dist/esm/parallel/', import.meta.url);
let parallel: Parallel;
let poolModule: PoolModule;
let pool: Pool;
const apis: Array<readonly [string, Api]> = [];

beforeAll(async () => {
  parallel = (await import(new URL('index.js', distUrl).href)) as Parallel;
  poolModule = (await import(new URL('pool.js', distUrl).href)) as PoolModule;
  pool = await parallel.createPool({ threads: 3 });
  for (const [name, load] of ENTRIES) apis.push([name, await load()]);
});

afterAll(async () => {
  await pool?.close();
});

/** The rejection of `promise`, failing the test if it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  expect.fail('expected the promise to reject');
}

/** The error the synchronous call throws. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  expect.fail('expected the call to throw');
}

const words = ['alpha', 'beta', 'gamma', 'delta', 'Ωmega', 'straße', '日本語', 'x', 'the', 'and'];
const text = fc.oneof(
  fc.array(fc.constantFrom(...words), { maxLength: 40 }).map((w) => w.join(' ')),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

describe('pool ≡ the synchronous API of both entries', () => {
  it('fingerprintMany and fingerprintStream, for every text option', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { maxLength: 300 }),
        fc.record({ unit: fc.constantFrom('word' as const, 'char' as const), weighting: fc.constantFrom('tf' as const, 'binary' as const) }),
        async (texts, options) => {
          const got = await pool.fingerprintMany(texts, options);
          const streamed: bigint[] = [];
          async function* source(): AsyncGenerator<string> {
            yield* texts;
          }
          for await (const chunk of pool.fingerprintStream(source(), options)) streamed.push(...chunk);
          for (const [, api] of apis) {
            const expected = Array.from(api.fingerprintMany(texts, options));
            expect(Array.from(got)).toEqual(expected);
            expect(streamed).toEqual(expected);
          }
        },
      ),
      fcParams(1401, 40),
    );
  });

  it('fingerprintMany over many chunks keeps the order', async () => {
    const rng = new oracle.SplitMix64(1402n);
    const texts = Array.from({ length: 30_000 }, (_, i) => `${words[rng.below(words.length)]} document ${i} ${'lorem '.repeat(rng.below(20))}`);
    const got = await pool.fingerprintMany(texts);
    for (const [, api] of apis) expect(got).toEqual(api.fingerprintMany(texts));
  });

  it('minhashMany and minhashStream, for every text option, over many chunks, with 1 and 3 workers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { maxLength: 200 }),
        fc.record({ unit: fc.constantFrom('word' as const, 'char' as const), numPerm: fc.constantFrom(16, 128) }),
        async (texts, options) => {
          const got = await pool.minhashMany(texts, options);
          const streamed: number[] = [];
          async function* source(): AsyncGenerator<string> {
            yield* texts;
          }
          for await (const chunk of pool.minhashStream(source(), options)) streamed.push(...chunk);
          for (const [, api] of apis) {
            const expected = Array.from(api.minhashMany(texts, options));
            expect(Array.from(got)).toEqual(expected);
            expect(streamed).toEqual(expected);
          }
        },
      ),
      fcParams(1403, 15),
    );
    const rng = new oracle.SplitMix64(1404n);
    const many = Array.from({ length: 8_000 }, (_, i) => `${words[rng.below(words.length)]} document ${i} ${'lorem '.repeat(rng.below(20))}`);
    const one = await parallel.createPool({ threads: 1 });
    try {
      const expected = apis[0]![1].minhashMany(many);
      expect(await pool.minhashMany(many)).toEqual(expected);
      expect(await one.minhashMany(many)).toEqual(expected);
    } finally {
      await one.close();
    }
    await expect(pool.minhashMany(['a', 3 as never])).rejects.toThrow(/texts\[1\] must be a string/);
    await expect(pool.minhashMany(['a'], { numPerm: 0 })).rejects.toThrow(/options.numPerm/);
  });

  it('computeMany and computeManyWeighted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.bigInt({ min: 0n, max: oracle.U64_MAX }), { maxLength: 200 }), fc.array(fc.nat(), { maxLength: 30 }), async (hashes, cuts) => {
        const offsets = Uint32Array.from(cuts.map((c) => c % (hashes.length + 1)).sort((a, b) => a - b));
        const weights = Float64Array.from(hashes, (h) => Number(h % 7n) / 3);
        const got = await pool.computeMany(hashes, offsets);
        const gotWeighted = await pool.computeManyWeighted(hashes, weights, offsets);
        for (const [, api] of apis) {
          expect(got).toEqual(api.computeMany(hashes, offsets));
          expect(gotWeighted).toEqual(api.computeManyWeighted(hashes, weights, offsets));
        }
      }),
      fcParams(1403, 60),
    );
  });

  it('findAll and findClusters on random and adversarial inputs, automatic and explicit layouts', async () => {
    await fc.assert(
      fc.asyncProperty(distanceArb, steps(60), fc.constantFrom(undefined, 1, 2), async (distance, s, extra) => {
        const values = materialize(s, distance);
        const blocks = extra === undefined || distance + extra > 64 ? undefined : distance + extra;
        const options = blocks === undefined ? { distance } : { distance, blocks };
        const pairs = await pool.findAll(values, options);
        const labels = await pool.findClusters(values, options);
        for (const [, api] of apis) {
          expect(plainPairs(pairs)).toEqual(plainPairs(api.findAll(values, options)));
          expect(labels).toEqual(api.findClusters(values, options));
        }
      }),
      fcParams(1404, 120),
    );
  });

  it('findAll and findClusters on families of near-duplicates at distances 3 and 10', async () => {
    const rng = new oracle.SplitMix64(1405n);
    for (const distance of [3, 10]) {
      const bases = Array.from({ length: 20 }, () => rng.next());
      const values = Array.from({ length: 2500 }, () =>
        rng.below(2) === 0 ? rng.next() : oracle.flipBits(bases[rng.below(bases.length)]!, rng.below(distance + 3), rng),
      );
      const pairs = await pool.findAll(values, { distance, maxPairs: 2 ** 24 });
      const labels = await pool.findClusters(values, { distance });
      for (const [, api] of apis) {
        expect(pairs).toEqual(api.findAll(values, { distance, maxPairs: 2 ** 24 }));
        expect(labels).toEqual(api.findClusters(values, { distance }));
      }
    }
  });

  it('decide, with 1, 2 and 3 workers and a priority, on families of near-duplicates and random values', async () => {
    const rng = new oracle.SplitMix64(1406n);
    const pools = [await parallel.createPool({ threads: 1 }), await parallel.createPool({ threads: 2 }), pool];
    try {
      for (const distance of [3, 10]) {
        const bases = Array.from({ length: 20 }, () => rng.next());
        const values = Array.from({ length: 3000 }, () =>
          rng.below(2) === 0 ? rng.next() : oracle.flipBits(bases[rng.below(bases.length)]!, rng.below(distance + 3), rng),
        );
        const priority = values.map(() => rng.below(5));
        for (const options of [{ distance }, { distance, priority }]) {
          const expected = apis[0]![1].decide(values, options);
          expect(expected.representative.some((r, i) => r !== i)).toBe(true);
          for (const [, api] of apis) expect(api.decide(values, options)).toEqual(expected);
          for (const each of pools) expect(await each.decide(values, options)).toEqual(expected);
        }
      }
      // A family of identical documents: one kept, the rest removed for it.
      const family = await pool.decide(new BigUint64Array(50_000).fill(42n), { distance: 10 });
      expect(family.representative.every((r) => r === 0)).toBe(true);
    } finally {
      await pools[0]!.close();
      await pools[1]!.close();
    }
  });

  it('decideTexts, with 1, 2 and 3 workers, by every rule and a priority, as the synchronous API decides', async () => {
    // Real lines with their recorded edits and exact copies, a few long texts and empty ones:
    // more than one chunk of texts goes to each worker.
    const rows = readFileSync(fileURLToPath(new URL('../quality/sets/short-lines.jsonl', import.meta.url)), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { text: string; edit1: string; edit2: string });
    const rng = new oracle.SplitMix64(77n);
    const texts = Array.from({ length: 12_000 }, (_, i) => {
      const row = rows[rng.below(rows.length)]!;
      const kind = rng.below(40);
      if (kind === 0) return '';
      if (kind === 1) return Array.from({ length: 5 }, () => rows[rng.below(rows.length)]!.text).join(' ');
      // 40 tokens holding more words (a sign, a common word beginning a compound): still short.
      if (kind === 2) return `${Array.from({ length: 38 }, (_, k) => `t${(i * 38 + k) % 997}`).join(' ')} of of-c c++`;
      return [row.text, row.edit1, row.edit2, `${row.text} (${i % 7})`][rng.below(4)]!;
    });
    const priority = texts.map(() => rng.below(4));
    const pools = [await parallel.createPool({ threads: 1 }), await parallel.createPool({ threads: 2 }), pool];
    try {
      for (const options of [undefined, { templates: 'remove' as const }, { version: 2 as const }, { priority }]) {
        const expected = apis[0]![1].decideTexts(texts, options);
        expect(apis[1]![1].decideTexts(texts, options)).toEqual(expected);
        for (const each of pools) expect(await each.decideTexts(texts, options)).toEqual(expected);
      }
    } finally {
      await pools[0]!.close();
      await pools[1]!.close();
    }
    expect((await rejection(pool.decideTexts(['a b', 3 as unknown as string]))).message).toBe(thrown(() => apis[0]![1].decideTexts(['a b', 3 as unknown as string])).message);
    expect((await rejection(pool.decideTexts(['a b'], { priorty: [1] } as never))).message).toMatch(/unknown option 'priorty' of pool.decideTexts/);
  });

  it('rejects what the synchronous API throws, with the same class and message', async () => {
    const [, api] = apis[0]!;
    const cases: Array<[() => Promise<unknown>, () => unknown]> = [
      [() => pool.fingerprintMany(['a', 'b', 3 as unknown as string]), () => api.fingerprintMany(['a', 'b', 3 as unknown as string])],
      [() => pool.fingerprintMany('text' as unknown as string[]), () => api.fingerprintMany(7 as unknown as string[])],
      [() => pool.fingerprintMany(['a'], { size: 0 }), () => api.fingerprintMany(['a'], { size: 0 })],
      [() => pool.findAll([1n, 2n], { distance: 65 }), () => api.findAll([1n, 2n], { distance: 65 })],
      [() => pool.findAll([1n, -2n], { distance: 3 }), () => api.findAll([1n, -2n], { distance: 3 })],
      [() => pool.findAll([5n, 5n, 5n], { distance: 0, maxPairs: 2 }), () => api.findAll([5n, 5n, 5n], { distance: 0, maxPairs: 2 })],
      [() => pool.findClusters([1n], { distance: 3, blocks: 3 }), () => api.findClusters([1n], { distance: 3, blocks: 3 })],
      [() => pool.computeMany([1n], Uint32Array.of(0, 2)), () => api.computeMany([1n], Uint32Array.of(0, 2))],
    ];
    for (const [parallelCall, syncCall] of cases) {
      const expected = thrown(syncCall);
      const got = await rejection(parallelCall());
      expect(got.constructor).toBe(expected.constructor);
      if (parallelCall !== cases[1]![0]) expect(got.message).toBe(expected.message);
    }
    await expect(parallel.createPool({ threads: 0 })).rejects.toThrow(RangeError);
  });
});

describe('fingerprintStream', () => {
  it('reads only a bounded distance ahead of what it has yielded', async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<string> {
      for (;;) {
        pulled++;
        yield `text ${pulled}`;
      }
    }
    let yielded = 0;
    for await (const chunk of pool.fingerprintStream(endless())) {
      yielded += chunk.length;
      if (yielded > 50_000) break;
    }
    // At most 2 threads + 1 chunks of 4096 texts are ever waiting.
    expect(pulled - yielded).toBeLessThanOrEqual((2 * pool.threads + 2) * 4096);
  });
});

describe('packed texts', () => {
  it('send ASCII texts as bytes and the others as strings, and fingerprint as the texts do, with and without Node’s Buffer', async () => {
    const { packTexts } = (await import(new URL('../shared/packed-texts.js', distUrl).href)) as typeof import('../ts/shared/packed-texts.js');
    const { fingerprintPacked, fingerprintMany } = (await import(new URL('../wasm/text.js', distUrl).href)) as typeof import('../ts/wasm/text.js');
    const piece = fc.oneof(text, fc.constantFrom('', 'é', '\ud800', 'ÀB', 'A'.repeat(300), 'Ж'.repeat(200), '\u00ff', 'x\uD83D\uDE00y'));
    const withBuffer = (present: boolean, body: () => void): void => {
      const scope = globalThis as { Buffer?: unknown };
      const saved = scope.Buffer;
      if (!present) scope.Buffer = undefined;
      try {
        body();
      } finally {
        scope.Buffer = saved;
      }
    };
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.boolean(), fc.constantFrom(undefined, { unit: 'char' as const }, { lowercase: false }), (texts, nodeBuffer, options) => {
        withBuffer(nodeBuffer, () => {
          const packed = packTexts(texts);
          const isAscii = (t: string): boolean => /^[\x00-\x7f]*$/.test(t);
          expect(packed.strings).toEqual(texts.filter((t) => !isAscii(t)));
          expect(Array.from(packed.stringAt)).toEqual(texts.flatMap((t, i) => (isAscii(t) ? [] : [i])));
          expect(new TextDecoder().decode(packed.ascii)).toBe(texts.filter(isAscii).join(''));
          expect(fingerprintPacked(packed, options)).toEqual(fingerprintMany(texts, options));
        });
      }),
      fcParams(1454, 200),
    );
  });
});

describe('fingerprintJsonLines', () => {
  /** A line of a JSON Lines file, good or bad, as a string (without its `\n`). */
  const line = fc.oneof(
    fc.record({ text, id: fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(undefined), fc.constant(null)) }).map((r) => JSON.stringify(r)),
    fc.record({ text }).map((r) => JSON.stringify(r) + '\r'),
    fc.constantFrom('', '   ', '\r', '{"text": 5}', '[1,2]', 'null', '{"text": "cut', '{"body": "no text field"}', '{"id": 3.5, "text": "a b c d"}'),
  );

  /** What a decoder reading the whole input, one line at a time, finds: the oracle. */
  function expected(bytes: Uint8Array, idField: string | undefined): { lines: number[]; texts: string[]; ids: (string | number | undefined)[]; skipped: { line: number; reason: string }[] } {
    const all = new TextDecoder().decode(bytes).split('\n');
    if (all[all.length - 1] === '') all.pop();
    const out = { lines: [] as number[], texts: [] as string[], ids: [] as (string | number | undefined)[], skipped: [] as { line: number; reason: string }[] };
    all.forEach((raw, k) => {
      if (raw.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return out.skipped.push({ line: k + 1, reason: 'not valid JSON' });
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return out.skipped.push({ line: k + 1, reason: 'not a JSON object' });
      const record = value as { text?: unknown; id?: unknown };
      if (typeof record.text !== 'string') return out.skipped.push({ line: k + 1, reason: "no string field 'text'" });
      // A record without its id is read all the same, with no id; an id keeps its JSON type.
      const hasId = typeof record.id === 'string' || (typeof record.id === 'number' && Number.isFinite(record.id));
      out.lines.push(k + 1);
      out.texts.push(record.text);
      out.ids.push(hasId ? (record.id as string | number) : undefined);
    });
    return out;
  }

  /** `bytes` cut into pieces at the given (sorted, possibly repeated) positions. */
  function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
    const points = [0, ...at.map((p) => p % (bytes.length + 1)).sort((a, b) => a - b), bytes.length];
    return points.slice(1).map((end, k) => bytes.slice(points[k], end));
  }

  async function check(chunks: Uint8Array[], idField: string | undefined): Promise<void> {
    const whole = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    chunks.reduce((at, c) => (whole.set(c, at), at + c.length), 0);
    const want = expected(whole, idField);
    const got = { lines: [] as number[], fingerprints: [] as bigint[], ids: [] as (string | number | undefined)[], featureless: [] as number[], skipped: [] as { line: number; reason: string }[], bytes: 0 };
    async function* source(): AsyncGenerator<Uint8Array> {
      yield* chunks;
    }
    for await (const batch of pool.fingerprintJsonLines(source(), idField === undefined ? {} : { id: idField })) {
      batch.featureless.forEach((i) => got.featureless.push(got.fingerprints.length + i));
      got.lines.push(...batch.lines);
      got.fingerprints.push(...batch.fingerprints);
      if (idField !== undefined) got.ids.push(...batch.ids!);
      else expect(batch.ids).toBeUndefined();
      got.skipped.push(...batch.skipped);
      got.bytes += batch.bytes;
    }
    expect(got.bytes).toBe(whole.length);
    expect(got.lines).toEqual(want.lines);
    expect(got.skipped).toEqual(want.skipped);
    if (idField !== undefined) expect(got.ids).toEqual(want.ids);
    const api = apis[0]![1];
    expect(got.fingerprints).toEqual(Array.from(api.fingerprintMany(want.texts)));
    expect(got.featureless).toEqual(want.texts.flatMap((t, i) => (api.features(t).length === 0 ? [i] : [])));
  }

  it('finds the records, lines, ids and fingerprints a whole-stream reader finds, however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 60 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom(undefined, 'id'),
        async (lines, bom, finalNewline, cuts, idField) => {
          let body = new TextEncoder().encode((bom ? '\uFEFF' : '') + lines.join('\n') + (finalNewline ? '\n' : ''));
          // Invalid UTF-8 now and then: a stray continuation byte and a truncated sequence.
          if (cuts.length % 3 === 1 && body.length > 4) body = Uint8Array.of(...body.subarray(0, 2), 0x80, 0xe6, ...body.subarray(2));
          await check(cut(body, cuts), idField);
        },
      ),
      fcParams(1451, 60),
    );
  });

  it('numbers lines across blocks of a megabyte, with a line longer than a block', async () => {
    const rng = new oracle.SplitMix64(1452n);
    const lines: string[] = [];
    for (let d = 0, length = 0; length < 3_500_000; d++) {
      const body = Array.from({ length: 20 + rng.below(200) }, () => words[rng.below(words.length)]).join(' ');
      lines.push(d % 501 === 7 ? 'not json' : d % 97 === 3 ? '' : JSON.stringify({ id: d, text: d === 900 ? body.repeat(800) : body }));
      length += lines[lines.length - 1]!.length + 1;
    }
    const bytes = new TextEncoder().encode(lines.join('\n'));
    const cuts = Array.from({ length: 60 }, () => rng.below(bytes.length));
    await check(cut(bytes, cuts), 'id');
  });

  it('rejects what is not bytes, and bad options, naming them', async () => {
    const first = async (chunks: unknown, options?: unknown): Promise<Error> =>
      rejection((pool.fingerprintJsonLines as (c: unknown, o?: unknown) => AsyncGenerator<unknown>)(chunks, options).next());
    expect(await first(['{"text": "a"}\n'])).toMatchObject({ name: 'TypeError', message: expect.stringMatching(/chunks\[0\] must be a Uint8Array/) });
    expect(await first(42)).toMatchObject({ name: 'TypeError', message: expect.stringMatching(/chunks must be an iterable/) });
    expect(await first([], { field: 3 })).toMatchObject({ name: 'TypeError', message: expect.stringMatching(/options\.field must be a string/) });
    expect(await first([], { id: [] })).toMatchObject({ name: 'TypeError', message: expect.stringMatching(/options\.id must be a string/) });
    expect(await first([], { size: 0 })).toMatchObject({ name: 'RangeError', message: expect.stringMatching(/options\.size/) });
  });
});

describe('lineBlocks', () => {
  it('gives back every byte, in blocks of whole lines of at least the target, each in its own buffer', async () => {
    const { lineBlocks } = (await import(new URL('line-blocks.js', distUrl).href)) as typeof import('../ts/parallel/line-blocks.js');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }).map((a) => a.map((b) => (b % 4 === 0 ? 0x0a : b))), { maxLength: 30 }), fc.integer({ min: 1, max: 64 }), async (chunks, target) => {
        const blocks: Uint8Array[] = [];
        for await (const block of lineBlocks(chunks, target)) blocks.push(block.slice());
        const joined = (list: Uint8Array[]): number[] => list.flatMap((c) => Array.from(c));
        expect(joined(blocks)).toEqual(joined(chunks));
        blocks.slice(0, -1).forEach((block) => {
          expect(block[block.length - 1]).toBe(0x0a);
          expect(block.length).toBeGreaterThanOrEqual(target);
        });
        expect(blocks.every((b) => b.length > 0)).toBe(true);
      }),
      fcParams(1453, 200),
    );
    const seen = new Set<ArrayBufferLike>();
    for await (const block of lineBlocks([new Uint8Array(10).fill(0x0a), new Uint8Array(10).fill(0x0a)], 5)) {
      expect(block.byteOffset).toBe(0);
      expect(seen.has(block.buffer)).toBe(false);
      seen.add(block.buffer);
    }
  });
});

describe('failures', () => {
  it('a worker that throws or exits rejects its calls with a clear error, is replaced, and later calls work', async () => {
    const small = await parallel.createPool({ threads: 1 });
    try {
      const workers = poolModule.workersOf(small);
      const values = Array.from({ length: 2000 }, (_, i) => BigInt(i) * 0x9e37_79b9_7f4a_7c15n % (1n << 64n));
      const expected = apis[0]![1].findAll(values, { distance: 3 });
      for (const how of ['throw', 'exit'] as const) {
        const index = await small.createIndex({ distance: 3 });
        await index.add(1, 5n);
        const crash = workers.run({ op: 'crash', how });
        // Sent while the crash is in flight: it runs (or waits) on the failing worker.
        const victim = small.findAll(values, { distance: 3 });
        const error = await rejection(victim);
        expect(error.message).toMatch(/findAllSlice failed because its worker failed/);
        expect(error.message).toMatch(how === 'throw' ? /crash requested/ : /exited \(code 3\)/);
        await crash.catch(() => undefined);
        expect(plainPairs(await small.findAll(values, { distance: 3 }))).toEqual(plainPairs(expected));
        expect((await rejection(index.has(1))).message).toMatch(/lost a shard/);
      }
      // An error thrown by the operation itself leaves the worker in service.
      const refused = await rejection(workers.run({ op: 'findAllSlice', fingerprints: new BigUint64Array(2), options: { distance: 1 }, slice: { index: 2, count: 2 } }));
      expect(refused).toBeInstanceOf(RangeError);
      expect(refused.message).toMatch(/slice\.index/);
      expect(await small.findClusters([1n, 1n], { distance: 0 })).toEqual(Uint32Array.of(0, 0));
    } finally {
      await small.close();
    }
    await expect(small.findAll([1n], { distance: 1 })).rejects.toThrow(/closed/);
  });

  // With one core, one worker takes every request for any worker (see the next test).
  it.skipIf(availableParallelism() < 2)('deals requests sent together to different workers before giving any worker a second', async () => {
    const two = await parallel.createPool({ threads: 2 });
    try {
      const workers = poolModule.workersOf(two);
      await workers.run({ op: 'echo', payload: 0, transferBack: false });
      // Sent together, as the slices of one findAll are: the echo must go to the idle worker,
      // not queue behind the crash on the first one (which would reject it with the crash).
      const crash = workers.run({ op: 'crash', how: 'exit' });
      // Its rejection may come before the echo's answer.
      crash.catch(() => undefined);
      const echo = workers.run<number>({ op: 'echo', payload: 7, transferBack: false });
      expect(await echo).toBe(7);
      await expect(crash).rejects.toThrow(/exited/);
    } finally {
      await two.close();
    }
  });

  it('a pool with more workers than cores deals requests for any worker to as many workers as cores', async () => {
    const lanes = Math.min(availableParallelism(), 64);
    const pool = await parallel.createPool({ threads: lanes + 2 });
    try {
      const workers = poolModule.workersOf(pool);
      const echoes = Array.from({ length: 2 * lanes + 3 }, (_, i) => workers.run<number>({ op: 'echo', payload: i, transferBack: false }));
      // Dealt at once, before any answer: two in flight on each of the first `lanes` workers.
      for (let slot = 0; slot < lanes + 2; slot++) expect(workers.inFlight(slot)).toBe(slot < lanes ? 2 : 0);
      expect(await Promise.all(echoes)).toEqual(echoes.map((_, i) => i));
      // Shards still live on every worker.
      const index = await pool.createIndex({ distance: 3 });
      await index.addMany(Uint32Array.from({ length: 100 }, (_, i) => i), BigUint64Array.from({ length: 100 }, (_, i) => BigInt(i) << 40n));
      expect(index.size).toBe(100);
    } finally {
      await pool.close();
    }
  });

  it('close() and an idle pool leave nothing that keeps Node running', () => {
    const script = (close: boolean): string => `
      const { createPool } = await import(${JSON.stringify(new URL('index.js', distUrl).href)});
      const pool = await createPool({ threads: 2 });
      const labels = await pool.findClusters([1n, 1n, 3n], { distance: 1 });
      const index = await pool.createIndex({ distance: 3 });
      await index.add(4, 4n);
      ${close ? 'await pool.close();' : ''}
      console.log(Array.from(labels).join(','));
    `;
    for (const close of [true, false]) {
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script(close)], { encoding: 'utf8', timeout: 30_000 });
      expect(result.stderr).toBe('');
      expect(result.stdout.trim()).toBe('0,0,0');
      expect(result.status).toBe(0);
    }
  });
});

describe('process flags', () => {
  const distUrl = new URL('../dist/esm/parallel/', import.meta.url);

  it('starts a pool under flags workers may not take (--max-old-space-size and others), the heap limit passed on', () => {
    const script = `
      import { createPool } from ${JSON.stringify(new URL('index.js', distUrl).href)};
      const pool = await createPool({ threads: 2 });
      const labels = await pool.findClusters([1n, 1n, 3n], { distance: 1 });
      await pool.close();
      console.log(Array.from(labels).join(','));
    `;
    const flags = ['--max-old-space-size=300', '--expose-gc', '--stack-size=2000', '--title=simhash-test', '--max-semi-space-size=16'];
    const result = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('0,0,0');
    expect(result.status).toBe(0);
  });

  it('passes the heap limit on as a resource limit, and reads the flags Node refuses from its error', async () => {
    const { refusedFlags, workerOptions } = await import('../ts/parallel/endpoint.js');
    expect(workerOptions(['--max-old-space-size=512', '--expose-gc', '--eval'])).toEqual({
      execArgv: ['--max-old-space-size=512', '--expose-gc'],
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    expect(workerOptions(['--max_old_space_size', '64'])).toMatchObject({ resourceLimits: { maxOldGenerationSizeMb: 64 } });
    expect(workerOptions(['--no-warnings'])).toEqual({ execArgv: ['--no-warnings'] });
    const { Worker } = await import('node:worker_threads');
    let error: unknown;
    try {
      new Worker('0', { eval: true, execArgv: ['--max-old-space-size=100', '--expose-gc', '--no-warnings'] }).terminate();
    } catch (caught) {
      error = caught;
    }
    expect(refusedFlags(error)).toEqual(new Set(['--max-old-space-size=100', '--expose-gc']));
    expect(refusedFlags(new Error('other'))).toBeNull();
  });
});

describe('the module the workers get', () => {
  const dist = new URL('../dist/', import.meta.url);

  it('is compiled once on the pool\'s thread: the one init loaded, from either entry, or else simhash.wasm', () => {
    // In a process of its own: which modules were loaded is the state of a whole realm.
    const script = `
      import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
      const { poolModule } = await import(${JSON.stringify(new URL('esm/parallel/pool-module.js', dist).href)});
      const fromFile = await poolModule();
      const out = { fromFileOnce: fromFile === (await poolModule()) };
      const given = await WebAssembly.compile(readFileSync(new URL(${JSON.stringify(new URL('simhash.wasm', dist).href)})));
      const slim = await import(${JSON.stringify(new URL('slim/index.js', dist).href)});
      await slim.init(given);
      out.slimModule = (await poolModule()) === given;
      const main = await import(${JSON.stringify(new URL('esm/index.js', dist).href)});
      await main.init();
      const inlined = await poolModule();
      out.mainModule = inlined instanceof WebAssembly.Module && inlined !== given && inlined !== fromFile;
      const { createPool } = await import(${JSON.stringify(new URL('esm/parallel/index.js', dist).href)});
      const pool = await createPool({ threads: 2 });
      out.same = Array.from(await pool.fingerprintMany(['a b c', 'd e f']), String).join() === Array.from(main.fingerprintMany(['a b c', 'd e f']), String).join();
      await pool.close();
      console.log(JSON.stringify(out));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ fromFileOnce: true, slimModule: true, mainModule: true, same: true });
  });

  it('is the only one a worker has: its script carries no copy and imports no file', () => {
    const script = readFileSync(new URL('esm/parallel/worker.js', dist), 'latin1');
    // '\0asm' in base64, which begins every inlined copy of a module.
    expect(script).not.toContain('AGFzbQ');
    // One file: what a bundler copies rather than bundles still runs. (Node's worker_threads is
    // looked up by name at run time.)
    expect([...script.matchAll(/\bimport\s*\(\s*(['"])([^'"]+)\1|\bfrom\s*(['"])([^'"]+)\3/g)]).toEqual([]);
  });

  it('fails the worker, and the pool\'s start, when it is not simhash-wasm\'s', async () => {
    const endpoint = (await import(new URL('endpoint.js', distUrl).href)) as typeof import('../ts/parallel/endpoint.js');
    const empty = await WebAssembly.compile(Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0));
    const events = { response: () => undefined, failure: () => undefined };
    await expect(endpoint.spawn(events, 'wrong-module', empty)).rejects.toThrow(/worker wrong-module threw: .*not simhash-wasm/);
  });
});

describe('ShardedIndex ≡ one SimHashIndex', () => {
  type Step =
    | { kind: 'addMany'; ids: number[]; values: bigint[] }
    | { kind: 'remove'; id: number }
    | { kind: 'query'; value: number; distance: number; limit: number | undefined };

  it('decideMany, in batches and at once from concurrent calls, ≡ decide in input order, in every shard and replica count', async () => {
    const rng = new oracle.SplitMix64(1407n);
    const [, api] = apis[0]!;
    for (const [shards, replicas] of [[1, 1], [2, 1], [3, 2]] as const) {
      const distance = 4;
      const bases = Array.from({ length: 30 }, () => rng.next());
      const values = Array.from({ length: 1500 }, () => (rng.below(3) === 0 ? rng.next() : oracle.flipBits(bases[rng.below(bases.length)]!, rng.below(6), rng)));
      const expected = api.decide(values, { distance });
      const sharded = await pool.createIndex({ distance, shards, replicas });
      try {
        // Calls made together are decided one after another, in the order they were made.
        const batches = [];
        for (let start = 0; start < values.length; start += 200) {
          const ids = Uint32Array.from({ length: Math.min(200, values.length - start) }, (_, k) => start + k);
          batches.push(sharded.decideMany(ids, values.slice(start, start + ids.length)));
        }
        const got = await Promise.all(batches);
        expect(got.flatMap((g) => Array.from(g.representative))).toEqual(Array.from(expected.representative));
        expect(got.flatMap((g) => Array.from(g.distance))).toEqual(Array.from(expected.distance));
        expect(sharded.size).toBe(expected.representative.filter((r, i) => r === i).length);
      } finally {
        await sharded.free();
      }
    }
  });

  it('through random changes and queries, in every shard and replica count; serialize gives the same bytes', async () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('addMany' as const), ids: fc.array(fc.nat(200), { maxLength: 40 }), values: fc.array(fc.bigInt({ min: 0n, max: oracle.U64_MAX }), { maxLength: 40 }) }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.nat(200) }),
      fc.record({ kind: fc.constant('query' as const), value: fc.nat(), distance: fc.integer({ min: 0, max: 4 }), limit: fc.option(fc.nat(5), { nil: undefined }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 3 }), async (stepsList, shards, replicas) => {
        const [, api] = apis[0]!;
        const one = new api.SimHashIndex({ distance: 4 });
        const sharded = await pool.createIndex({ distance: 4, shards, replicas });
        const known: bigint[] = [0n];
        try {
          for (const s of stepsList) {
            if (s.kind === 'addMany') {
              const n = Math.min(s.ids.length, s.values.length);
              // Near copies of earlier values, so that queries find something.
              const values = s.values.slice(0, n).map((v, k) => (k % 2 === 0 ? v : known[Number(v % BigInt(known.length))]! ^ (1n << (v % 64n)))) ;
              const ids = Uint32Array.from(s.ids.slice(0, n));
              one.addMany(ids, values);
              await sharded.addMany(ids, values);
              known.push(...values);
            } else if (s.kind === 'remove') {
              expect(await sharded.remove(s.id)).toBe(one.remove(s.id));
              expect(await sharded.has(s.id)).toBe(false);
            } else {
              const value = known[s.value % known.length]!;
              const options = s.limit === undefined ? { distance: s.distance } : { distance: s.distance, limit: s.limit };
              expect(await sharded.query(value, options)).toEqual(one.query(value, options));
              expect(await sharded.queryMany(known, options)).toEqual(one.queryMany(known, options));
            }
            expect(sharded.size).toBe(one.size);
          }
          const bytes = await sharded.serialize();
          expect(bytes).toEqual(one.serialize());
          const loaded = await pool.loadIndex(bytes, { shards: 6 - shards, replicas: 4 - replicas });
          expect(await loaded.queryMany(known)).toEqual(one.queryMany(known));
          expect(loaded.size).toBe(one.size);
          await loaded.free();
        } finally {
          one.free();
          await sharded.free();
        }
      }),
      fcParams(1406, 40),
    );
  });

  it('checks its arguments as SimHashIndex does', async () => {
    const [, api] = apis[0]!;
    const sharded = await pool.createIndex({ distance: 3 });
    const one = new api.SimHashIndex({ distance: 3 });
    const cases: Array<[() => Promise<unknown>, () => unknown]> = [
      [() => sharded.add(-1, 1n), () => one.add(-1, 1n)],
      [() => sharded.add(1, 1 as unknown as bigint), () => one.add(1, 1 as unknown as bigint)],
      [() => sharded.addMany(Uint32Array.of(1, 2), [1n]), () => one.addMany(Uint32Array.of(1, 2), [1n])],
      [() => sharded.query(1n, { distance: 4 }), () => one.query(1n, { distance: 4 })],
      [() => pool.loadIndex(new Uint8Array(3)), () => api.SimHashIndex.deserialize(new Uint8Array(3))],
      [() => pool.createIndex({ distance: 3, blocks: 2 }), () => new api.SimHashIndex({ distance: 3, blocks: 2 })],
    ];
    for (const [parallelCall, syncCall] of cases) {
      const expected = thrown(syncCall);
      const got = await rejection(parallelCall());
      // The built package's classes are not the source's: compare by name.
      expect(got.name).toBe(expected.name);
      expect(got).toBeInstanceOf(expected instanceof RangeError ? RangeError : TypeError);
      expect(got.message).toBe(expected.message);
    }
    await expect(pool.createIndex({ distance: 3, shards: 0 })).rejects.toThrow(RangeError);
    await expect(pool.createIndex({ distance: 3, replicas: 65 })).rejects.toThrow(/replicas/);
    await sharded.free();
    one.free();
    await expect(sharded.has(1)).rejects.toThrow(TypeError);
  });
});
