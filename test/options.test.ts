/**
 * Every options object of every entry is checked: a misspelled option is a `TypeError` naming it,
 * the call and the option meant, never a default silently kept. The walk below names every export
 * of the two entries, so an export added later must say whether it takes options.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis, RedisSimHashIndex, RedisTextIndex } from '../ts/redis/index.js';
import { loose, type Api } from './api.js';
import { ENTRIES } from './index-oracle.js';

/** A call of an export with one option misspelt, and what the error must say. */
type Misspelt = readonly [call: (api: Api) => unknown, message: RegExp];

/** An object whose methods are called with deliberately wrong arguments. */
type Loose = Record<string, (...args: unknown[]) => unknown>;
const looseObject = (value: object): Loose => value as unknown as Loose;

const FPS = [1n, 2n, 3n];

/** Each export that takes options, called with one misspelt. */
const MISSPELT: Readonly<Record<string, Misspelt>> = {
  findAll: [(a) => loose(a).findAll(FPS, { distance: 3, maxPair: 10 }), /unknown option 'maxPair' of findAll \(did you mean 'maxPairs'\?\)/],
  findClusters: [(a) => loose(a).findClusters(FPS, { distance: 3, blcoks: 4 }), /unknown option 'blcoks' of findClusters \(did you mean 'blocks'\?\)/],
  decide: [(a) => loose(a).decide(FPS, { distance: 3, priorty: [1, 2, 3] }), /unknown option 'priorty' of decide \(did you mean 'priority'\?\)/],
  decideTexts: [(a) => loose(a).decideTexts(['a b c'], { priorty: [1] }), /unknown option 'priorty' of decideTexts \(did you mean 'priority'\?\)/],
  TextSketches: [
    (a) => {
      const sketches = new a.TextSketches();
      try {
        return looseObject(sketches).decide!({ templtes: 'remove' });
      } finally {
        sketches.free();
      }
    },
    /unknown option 'templtes' of TextSketches.decide \(did you mean 'templates'\?\)/,
  ],
  decideMinHash: [(a) => loose(a).decideMinHash(new Uint32Array(0), { treshold: 0.5 }), /unknown option 'treshold' of decideMinHash \(did you mean 'threshold'\?\)/],
  TextIndex: [(a) => new (a.TextIndex as unknown as new (o: unknown) => unknown)({ templtes: 'remove' }), /unknown option 'templtes' of TextIndex \(did you mean 'templates'\?\)/],
  SimHashIndex: [(a) => new (a.SimHashIndex as unknown as new (o: unknown) => unknown)({ distance: 3, blcoks: 4 }), /unknown option 'blcoks' of SimHashIndex \(did you mean 'blocks'\?\)/],
  planTables: [(a) => loose(a).planTables({ n: 10, distance: 3, famliy: 'parts' }), /unknown option 'famliy' of planTables \(did you mean 'family'\?\)/],
  fingerprint: [(a) => loose(a).fingerprint('a b c', { sise: 2 }), /unknown option 'sise' of fingerprint \(did you mean 'size'\?\)/],
  fingerprintMany: [(a) => loose(a).fingerprintMany(['a b c'], { wieghting: 'tf' }), /unknown option 'wieghting' of fingerprintMany \(did you mean 'weighting'\?\)/],
  features: [(a) => loose(a).features('a b c', { lowercse: false }), /unknown option 'lowercse' of features \(did you mean 'lowercase'\?\)/],
  minhash: [(a) => loose(a).minhash('a b c', { numPerms: 64 }), /unknown option 'numPerms' of minhash \(did you mean 'numPerm'\?\)/],
  minhashMany: [(a) => loose(a).minhashMany(['a b c'], { num_perm: 64 }), /unknown option 'num_perm' of minhashMany \(num_perm is spelt numPerm here\)/],
  datasketchMinhash: [(a) => loose(a).datasketchMinhash(['a'], { schema: 'legacy' }), /unknown option 'schema' of datasketchMinhash\w* \(did you mean 'scheme'\?\)/],
  datasketchMinhashMany: [(a) => loose(a).datasketchMinhashMany([['a']], { num_perm: 64 }), /unknown option 'num_perm' of datasketchMinhashMany \(num_perm is spelt numPerm here\)/],
  MinHashLSH: [(a) => new (a.MinHashLSH as unknown as new (o: unknown) => unknown)({ treshold: 0.5 }), /unknown option 'treshold' of MinHashLSH \(did you mean 'threshold'\?\)/],
  planMinHashLsh: [(a) => loose(a).planMinHashLsh({ params: [4, 32] }), /unknown option 'params' of planMinHashLsh \(params is spelt bands and rows here\)/],
  findAllMinHash: [(a) => loose(a).findAllMinHash(new Uint32Array(0), { maxpairs: 5 }), /unknown option 'maxpairs' of findAllMinHash \(did you mean 'maxPairs'\?\)/],
  findClustersMinHash: [(a) => loose(a).findClustersMinHash(new Uint32Array(0), { exakt: [] }), /unknown option 'exakt' of findClustersMinHash \(did you mean 'exact'\?\)/],
};

/** Exports that take no options object. */
const WITHOUT_OPTIONS = new Set([
  'IndexFormatError', 'MINHASH_VERSION', 'TEXT_DECISION_VERSION', 'TEXT_FINGERPRINT_VERSION', 'allocHashArray', 'compute', 'computeMany',
  'computeManyWeighted', 'computeWeighted', 'decisionGroups', 'estimateJaccard', 'hammingDistances', 'init', 'initSync', 'numDifferingBits',
  'permutationLayout', 'permute', 'shingle', 'simhashPyFeatures', 'simhashPyFingerprint', 'unsignedHash',
]);

for (const [name, load] of ENTRIES) {
  describe(`${name}: options`, () => {
    it('names every export as taking options or not', async () => {
      const api = await load();
      const unclassified = Object.keys(api).filter((key) => !(key in MISSPELT) && !WITHOUT_OPTIONS.has(key));
      expect(unclassified).toEqual([]);
    });

    it('refuses a misspelt option of every call, naming it, the call and the option meant', async () => {
      const api = await load();
      for (const [exported, [call, message]] of Object.entries(MISSPELT)) {
        expect(exported in api, exported).toBe(true);
        let thrown: unknown;
        try {
          call(api);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, exported).toBeInstanceOf(TypeError);
        expect((thrown as Error).message, exported).toMatch(message);
      }
    });

    it('names a bad option value as options.<name> in every call', async () => {
      const api = await load();
      const calls: [() => unknown, RegExp][] = [
        [() => api.findAll(FPS, { distance: 65 }), /^options\.distance must be an integer in 0\.\.64/],
        [() => api.findClusters(FPS, { distance: 3, blocks: 2 }), /^options\.blocks must be greater than distance/],
        [() => api.findAll(FPS, { distance: 3, maxPairs: -1 }), /^options\.maxPairs must be/],
        [() => new api.SimHashIndex({ distance: 3, parts: 0 }), /^options\.parts must be an integer in 1\.\.64/],
        [() => api.planTables({ n: -1, distance: 3 }), /^options\.n must/],
        [() => new api.MinHashLSH({ threshold: 2 }), /^options\.threshold must/],
        [() => api.fingerprint('a b c', { size: 0 }), /^options\.size must/],
        [() => api.minhash('a b c', { numPerm: 0 }), /^options\.numPerm must/],
      ];
      for (const [call, message] of calls) expect(call).toThrow(message);
      const index = new api.SimHashIndex({ distance: 3 });
      try {
        expect(() => index.query(1n, { limit: -1 })).toThrow(/^options\.limit must/);
        expect(() => index.query(1n, { distance: 4 })).toThrow(/^options\.distance must not exceed the index's distance/);
      } finally {
        index.free();
      }
      // A positional argument keeps its own name.
      expect(() => api.permutationLayout(2, 3)).toThrow(/^blocks must be greater than distance/);
    });

    it('refuses misspelt query options of the indexes, and lists the options when none is close', async () => {
      const api = await load();
      const index = new api.SimHashIndex({ distance: 3 });
      try {
        expect(() => looseObject(index).query!(1n, { distnace: 2 })).toThrow(/unknown option 'distnace' of a query \(did you mean 'distance'\?\)/);
        expect(() => looseObject(index).queryMany!(FPS, { zzz: 1 })).toThrow(/unknown option 'zzz' of a query; the options are distance, limit/);
      } finally {
        index.free();
      }
      const lsh = new api.MinHashLSH({ threshold: 0.5 });
      expect(() => looseObject(lsh).query!(new Uint32Array(128), { limt: 1 })).toThrow(/unknown option 'limt' of MinHashLSH.query \(did you mean 'limit'\?\)/);
      // The options a call knows are accepted, those of another call are not.
      expect(api.findAll(FPS, { distance: 3, maxPairs: 10 }).left.length).toBe(3);
      expect(() => loose(api).findClusters(FPS, { distance: 3, maxPairs: 10 })).toThrow(/unknown option 'maxPairs' of findClusters/);
    });
  });
}

describe('simhash-wasm/parallel and simhash-wasm/redis: options', () => {
  type Parallel = typeof import('../ts/parallel/index.js');
  let pool: import('../ts/parallel/index.js').Pool | undefined;
  afterAll(async () => pool?.close());

  it('refuses misspelt options of the pool, its calls and its indexes, and names bad values as options.<name>', async () => {
    // The built entry: its workers load the built worker script.
    const { createPool } = (await import(new URL('../dist/esm/parallel/index.js', import.meta.url).href)) as Parallel;
    await expect(createPool({ thread: 1 } as never)).rejects.toThrow(/unknown option 'thread' of createPool \(did you mean 'threads'\?\)/);
    await expect(createPool({ threads: 0 })).rejects.toThrow(/^options\.threads must be an integer/);
    pool = await createPool({ threads: 1 });
    await expect(pool.findAll(FPS, { distance: 3, maxpairs: 1 } as never)).rejects.toThrow(/unknown option 'maxpairs' of pool.findAll/);
    await expect(pool.findClusters(FPS, { distance: 3, part: 2 } as never)).rejects.toThrow(/unknown option 'part' of pool.findClusters \(did you mean 'parts'\?\)/);
    await expect(pool.decide(FPS, { distance: 3, priorty: [] } as never)).rejects.toThrow(/unknown option 'priorty' of pool.decide/);
    await expect(pool.fingerprintMany(['a b c'], { sise: 2 } as never)).rejects.toThrow(/unknown option 'sise' of pool.fingerprintStream/);
    await expect(pool.createIndex({ distance: 3, shard: 1 } as never)).rejects.toThrow(/unknown option 'shard' of pool.createIndex \(did you mean 'shards'\?\)/);
    const chunks = pool.fingerprintJsonLines([new TextEncoder().encode('{"text":"a"}\n')], { feild: 'text' } as never);
    await expect(chunks.next()).rejects.toThrow(/unknown option 'feild' of pool.fingerprintJsonLines \(did you mean 'field'\?\)/);
  });

  it('refuses misspelt options of the Redis index before it connects, and names bad values as options.<name>', async () => {
    await expect(RedisSimHashIndex.open({ client: {} as never, name: 'n', distance: 3, replica: 1 } as never)).rejects.toThrow(
      /unknown option 'replica' of RedisSimHashIndex.open \(did you mean 'replicas'\?\)/,
    );
    await expect(RedisSimHashIndex.open({ client: {} as never, name: 'n', distance: 3 })).rejects.toThrow(/^options\.client must be an ioredis/);
    await expect(RedisTextIndex.open({ client: {} as never, name: 'n', templtes: 'keep' } as never)).rejects.toThrow(
      /unknown option 'templtes' of RedisTextIndex.open \(did you mean 'templates'\?\)/,
    );
    await expect(RedisTextIndex.open({ client: {} as never, name: 'n' })).rejects.toThrow(/^options\.client must be an ioredis/);
    await expect(RedisTextIndex.open({ client: { evalsha() {} } as never, name: 'n', lockFor: 0 })).rejects.toThrow(/^options\.lockFor must be an integer in 1\.\.3600000, got 0/);
    await expect(connectRedis('redis://127.0.0.1:1', { connectTimeout: 0 })).rejects.toThrow(/^options\.connectTimeout must be a positive integer/);
    await expect(connectRedis('redis://127.0.0.1:1', { connectTimout: 10 } as never)).rejects.toThrow(/unknown option 'connectTimout' of connectRedis \(did you mean 'connectTimeout'\?\)/);
  });
});
