/**
 * RedisMinHashIndex against real servers: batches decided from two objects taking turns equal
 * decideMinHash over the stream (families of near-duplicate and identical signatures), queries
 * agree with a MinHashLSH fed the same, a reopened index replays what was written, snapshots and
 * compaction keep the answers (ties included), and options that plan other bands are refused.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster, Redis } from 'ioredis';
import { MinHashLSH, decideMinHash, init, minhashMany } from '../../ts/index.js';
import { RedisMinHashIndex } from '../../ts/redis/index.js';
import { SplitMix64 } from '../oracle.js';
import { uniqueName, useClients, useServers } from './servers.js';

const K = 64;

/** Signatures of families: a base set of 30 features, members with up to 12 swapped, some identical, shuffled. */
function stream(seed: bigint, families: number): Uint32Array {
  const rng = new SplitMix64(seed);
  const sets: bigint[][] = [];
  for (let f = 0; f < families; f++) {
    const base = Array.from({ length: 30 }, () => rng.next());
    const members = 1 + rng.below(5);
    for (let m = 0; m < members; m++) {
      const set = [...base];
      const edits = m === 0 ? 0 : rng.below(13);
      for (let e = 0; e < edits; e++) set[rng.below(30)] = rng.next();
      sets.push(set);
    }
  }
  for (let k = sets.length - 1; k > 0; k--) {
    const j = rng.below(k + 1);
    [sets[k], sets[j]] = [sets[j]!, sets[k]!];
  }
  const flat = BigUint64Array.from(sets.flat());
  const offsets = Uint32Array.from({ length: sets.length + 1 }, (_, i) => 30 * i);
  return minhashMany(flat, offsets, { numPerm: K });
}

/** An index opened now holds what `local` holds: its size, and its answers to the signatures at `probes`. */
async function expectOpenedAlike(open: () => Promise<RedisMinHashIndex>, local: MinHashLSH, sigs: Uint32Array, probes: readonly number[]): Promise<void> {
  const late = await open();
  try {
    expect(await late.size()).toBe(local.size);
    for (const q of probes) expect(await late.query(sigs.subarray(q * K, (q + 1) * K))).toEqual(local.query(sigs.subarray(q * K, (q + 1) * K)));
  } finally {
    late.close();
  }
}

beforeAll(async () => {
  await init();
});

for (const kind of ['single', 'cluster'] as const) {
  describe(`RedisMinHashIndex on ${kind === 'single' ? 'one server' : 'a cluster of 3 masters + 3 replicas'}`, () => {
    const servers = useServers(kind);
    const replicas = kind === 'cluster' ? 1 : 0;
    const clients = useClients(servers, 2);
    let client: Redis | Cluster;
    let other: Redis | Cluster;
    beforeAll(() => ([client, other] = clients() as [Redis | Cluster, Redis | Cluster]));

    it('decides batches from two objects, taking turns at random, as decideMinHash over the stream; queries agree with a MinHashLSH fed the same', async () => {
      const sigs = stream(kind === 'single' ? 1n : 2n, 300);
      const n = sigs.length / K;
      const plan = { numPerm: K, threshold: 0.7 };
      const name = uniqueName('minhash');
      const a = await RedisMinHashIndex.open({ client, name, ...plan, replicas });
      const b = await RedisMinHashIndex.open({ client: other, name });
      const local = new MinHashLSH(plan);
      try {
        expect([b.threshold, b.numPerm, b.bands, b.rows]).toEqual([local.threshold, local.numPerm, local.bands, local.rows]);
        const rng = new SplitMix64(3n);
        const representative = new Uint32Array(n);
        for (let start = 0; start < n; ) {
          const end = Math.min(n, start + rng.below(60));
          const ids = Uint32Array.from({ length: end - start }, (_, q) => start + q);
          const writer = rng.below(2) === 0 ? a : b;
          const got = await writer.decideMany(ids, sigs.subarray(start * K, end * K));
          representative.set(got.representative, start);
          expect(Array.from(got.representative)).toEqual(Array.from(local.decideMany(ids, sigs.subarray(start * K, end * K)).representative));
          const probe = rng.below(n);
          const reader = writer === a ? b : a;
          expect(await reader.query(sigs.subarray(probe * K, (probe + 1) * K))).toEqual(local.query(sigs.subarray(probe * K, (probe + 1) * K)));
          start = end;
        }
        expect(Array.from(representative)).toEqual(Array.from(decideMinHash(sigs, plan).representative));
        expect(await a.size()).toBe(local.size);
        // Removals and a reopened index: the replay holds what was written.
        const removed = Array.from(representative).filter((r, i) => r === i).slice(0, 5);
        for (const id of removed) {
          expect(await b.remove(id)).toBe(true);
          expect(await b.remove(id)).toBe(false);
          local.remove(id);
        }
        await expectOpenedAlike(() => RedisMinHashIndex.open({ client, name, numPerm: K, threshold: 0.7 }), local, sigs, Array.from({ length: 40 }, (_, q) => q));
      } finally {
        a.close();
        b.close();
      }
    }, 120_000);

    it('opens from a snapshot and from a compacted log as from the whole log: ties to the signature added first, a replica behind the start loads it', async () => {
      // Two kept signatures below the threshold of each other, a query as close to both; added
      // in descending id order, so a replica that loaded them by id would answer otherwise.
      const tie = { numPerm: 8, bands: 4, rows: 2, threshold: 0.5 };
      const sig = (...values: number[]) => Uint32Array.from(values);
      const query = sig(1, 1, 3, 3, 9, 2, 2, 2);
      const tied = uniqueName('minhash-tie');
      const first = await RedisMinHashIndex.open({ client, name: tied, ...tie, replicas });
      try {
        expect(Array.from((await first.decideMany(Uint32Array.of(9, 3), Uint32Array.of(1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 2, 2, 2))).representative)).toEqual([9, 3]);
        const snapshot = await first.snapshot();
        expect([snapshot.position, snapshot.named]).toEqual([1, true]);
        const compacted = await first.compact();
        expect([compacted.position, compacted.dropped, compacted.bytes]).toEqual([1, 1, 0]);
        const opened = await RedisMinHashIndex.open({ client: other, name: tied });
        try {
          expect(Array.from((await opened.decideMany(Uint32Array.of(20), query)).representative)).toEqual([9]);
        } finally {
          opened.close();
        }
      } finally {
        first.close();
      }

      // A stream decided in three parts: b idles through the second and a compaction, then
      // decides the third from behind the log's start.
      const sigs = stream(kind === 'single' ? 5n : 6n, 240);
      const n = sigs.length / K;
      const plan = { numPerm: K, threshold: 0.7 };
      const name = uniqueName('minhash-compact');
      const a = await RedisMinHashIndex.open({ client, name, ...plan, replicas });
      const b = await RedisMinHashIndex.open({ client: other, name });
      const local = new MinHashLSH(plan);
      const representative = new Uint32Array(n);
      const decide = async (index: RedisMinHashIndex, start: number, end: number) => {
        for (let at = start; at < end; at += 25) {
          const stop = Math.min(end, at + 25);
          const ids = Uint32Array.from({ length: stop - at }, (_, q) => at + q);
          const got = await index.decideMany(ids, sigs.subarray(at * K, stop * K));
          expect(got.representative).toEqual(local.decideMany(ids, sigs.subarray(at * K, stop * K)).representative);
          representative.set(got.representative, at);
        }
      };
      try {
        const [third, twoThirds] = [Math.floor(n / 3), Math.floor((2 * n) / 3)];
        await decide(a, 0, third);
        expect(await b.size()).toBe(local.size);
        await decide(a, third, twoThirds);
        const compacted = await a.compact();
        expect(compacted.position).toBeGreaterThan(0);
        expect(compacted.dropped).toBe(compacted.position);
        await decide(b, twoThirds, n);
        expect(Array.from(representative)).toEqual(Array.from(decideMinHash(sigs, plan).representative));
        for (let q = 0; q < n; q += 7) expect(await a.query(sigs.subarray(q * K, (q + 1) * K))).toEqual(local.query(sigs.subarray(q * K, (q + 1) * K)));
        // Compacted twice: the earlier start goes, and an index opened now loads the later one.
        const again = await b.compact();
        expect(again.position).toBeGreaterThan(compacted.position);
        await expectOpenedAlike(() => RedisMinHashIndex.open({ client, name }), local, sigs, Array.from({ length: Math.ceil((n - 1) / 5) }, (_, k) => 1 + 5 * k));
      } finally {
        a.close();
        b.close();
      }
    }, 120_000);

    it('refuses options that plan other bands, unknown options, ids it holds and signatures of another length', async () => {
      const name = uniqueName('minhash-options');
      const index = await RedisMinHashIndex.open({ client, name, numPerm: 32, bands: 8, rows: 4 });
      try {
        await expect(RedisMinHashIndex.open({ client, name, numPerm: 32, bands: 4, rows: 8 })).rejects.toThrow(/was created with bands '8', not '4'/);
        // What is given is compared, not the defaults the planner fills in.
        const planned = await RedisMinHashIndex.open({ client, name: `${name}-t`, numPerm: 32, threshold: 0.8, bands: 8, rows: 4 });
        planned.close();
        const again = await RedisMinHashIndex.open({ client, name: `${name}-t`, numPerm: 32, bands: 8, rows: 4 });
        expect(again.threshold).toBe(0.8);
        again.close();
        await expect(RedisMinHashIndex.open({ client, name: `${name}-t`, threshold: 0.7 })).rejects.toThrow(/was created with threshold '0.8', not '0.7'/);
        await expect(RedisMinHashIndex.open({ client, name, num_perm: 32 } as never)).rejects.toThrow(/num_perm is spelt numPerm/);
        await index.add(1, new Uint32Array(32));
        await expect(index.decideMany(Uint32Array.of(1), new Uint32Array(32))).rejects.toThrow(/ids\[0\] = 1 is held by a kept signature/);
        await expect(index.decideMany(Uint32Array.of(2), new Uint32Array(31))).rejects.toThrow(/multiple of numPerm 32/);
        expect(Array.from((await index.decideMany(Uint32Array.of(2), new Uint32Array(32))).representative)).toEqual([1]);
      } finally {
        index.close();
      }
    }, 60_000);
  });
}
