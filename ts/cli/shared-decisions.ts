/**
 * Decisions against a shared index in Redis (`dedup --redis URL --index NAME`).
 *
 * The shared index holds the kept documents of every process that used it, under global ids
 * from a name registry kept next to it (the same name always gets the same id). A process takes
 * its documents in input order, a batch at a time; for each batch it holds the index's lock,
 * queries the index, applies the rule (a document is removed when a kept document lies within
 * the distance, and points to the closest, ties to the smaller id, the index's documents before
 * the batch's own), adds the batch's kept documents and lets the lock go. Batches of all
 * processes are therefore decided one after another, each seeing every document kept before
 * it: every removed document is within the distance of a kept one, and no two kept documents
 * are within it of each other, whichever processes read them. The lock expires after
 * {@link LOCK_MS}, so a process that dies holding it delays the others by that much; a process
 * paused for longer than that while holding it loses it, and then two batches can overlap.
 */

import type { Cluster, Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { connectRedis } from '../redis/connect.js';
import { RedisSimHashIndex } from '../redis/redis-index.js';
import { SimHashIndex } from '../wasm/simhash-index.js';
import type { SharedIndex } from './args.js';
import type { Fingerprinted } from './fingerprints.js';
import type { Grouped, Group } from './groups.js';

/** Documents decided per turn of the lock. */
const BATCH = 2000;

/** How long a process may hold the index's lock before it expires, in milliseconds. */
const LOCK_MS = 30_000;

/**
 * Gives each name an id: the one it has, or the next free one. The registry also keeps each
 * id's name and latest fingerprint, for the processes that find the id as a representative.
 * KEYS: names hash, ids hash, id counter; ARGV: 16 hex digits of fingerprint + name, each.
 */
const REGISTER = `
local out = {}
for i = 1, #ARGV do
  local name = string.sub(ARGV[i], 17)
  local id = redis.call('HGET', KEYS[1], name)
  if not id then
    id = redis.call('INCR', KEYS[3]) - 1
    if id > 4294967295 then return redis.error_reply('the shared index has 2^32 names already') end
    redis.call('HSET', KEYS[1], name, id)
  end
  redis.call('HSET', KEYS[2], id, ARGV[i])
  out[i] = tonumber(id)
end
return out
`;

/** Deletes the lock only if this process still holds it. KEYS: lock; ARGV: token. */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** The report's documents (own ones first, then the representatives other processes added) and decisions. */
export async function sharedDecisions(
  own: Fingerprinted,
  shared: SharedIndex,
  distance: number,
): Promise<{ fingerprinted: Fingerprinted; grouped: Grouped }> {
  const client = await connectRedis(shared.url);
  try {
    const index = await RedisSimHashIndex.open({ client, name: shared.index, distance });
    if (index.distance !== distance) {
      throw new RangeError(`shared index '${shared.index}' answers up to distance ${index.distance}; run with --distance ${index.distance} or another --index`);
    }
    const ids = await register(client, shared.index, own);
    const representativeId = new Uint32Array(ids.length);
    const bits = new Uint8Array(ids.length);
    for (let start = 0; start < ids.length; start += BATCH) {
      const end = Math.min(ids.length, start + BATCH);
      await withLock(client, shared.index, () => decideBatch(index, distance, own.fingerprints, ids, start, end, representativeId, bits));
    }
    return await report(client, shared.index, own, ids, representativeId, bits);
  } finally {
    client.disconnect();
  }
}

function registryKeys(index: string): string[] {
  return [`simhash:{${index}}:names`, `simhash:{${index}}:ids`, `simhash:{${index}}:next`];
}

async function register(client: Redis | Cluster, index: string, own: Fingerprinted): Promise<Uint32Array> {
  const ids = new Uint32Array(own.ids.length);
  for (let start = 0; start < ids.length; start += BATCH) {
    const entries = own.ids.slice(start, start + BATCH).map((name, k) => `${hex(own.fingerprints[start + k]!)}${name}`);
    const reply = (await client.eval(REGISTER, 3, ...registryKeys(index), ...entries)) as number[];
    ids.set(reply, start);
  }
  return ids;
}

/** Runs `work` while holding the index's lock, waiting for it as long as another process holds it. */
async function withLock<T>(client: Redis | Cluster, index: string, work: () => Promise<T>): Promise<T> {
  const key = `simhash:{${index}}:lock`;
  const token = randomBytes(16).toString('hex');
  for (let wait = 5; (await client.set(key, token, 'PX', LOCK_MS, 'NX')) !== 'OK'; wait = Math.min(200, wait * 2)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  try {
    return await work();
  } finally {
    await client.eval(UNLOCK, 1, key, token);
  }
}

/**
 * Decides documents `start..end`: the shared index answers for the documents kept before the
 * batch, a local index for those the batch keeps. A document whose own id the shared index
 * holds was kept by an earlier run and stays kept.
 */
async function decideBatch(
  shared: RedisSimHashIndex,
  distance: number,
  fingerprints: BigUint64Array,
  ids: Uint32Array,
  start: number,
  end: number,
  representativeId: Uint32Array,
  bits: Uint8Array,
): Promise<void> {
  const values = fingerprints.subarray(start, end);
  const found = await shared.queryMany(values, { limit: 2 });
  const local = new SimHashIndex({ distance });
  const keptIds: number[] = [];
  const keptValues: bigint[] = [];
  try {
    for (let q = 0; q < end - start; q++) {
      const i = start + q;
      const id = ids[i]!;
      let best = -1;
      let bestBits = 65;
      let keptBefore = false;
      for (let m = found.offsets[q]!; m < found.offsets[q + 1]!; m++) {
        if (found.ids[m] === id) keptBefore = true;
        else if (best < 0) [best, bestBits] = [found.ids[m]!, found.distances[m]!];
      }
      // Ranks in the batch are the local ids: the closest, ties to the one taken first.
      const near = keptBefore ? undefined : local.query(values[q]!, { limit: 1 });
      if (near !== undefined && near.ids.length > 0 && near.distances[0]! < bestBits) [best, bestBits] = [keptIds[near.ids[0]!]!, near.distances[0]!];
      if (keptBefore || best < 0) {
        representativeId[i] = id;
        local.add(keptIds.length, values[q]!);
        keptIds.push(id);
        keptValues.push(values[q]!);
      } else {
        representativeId[i] = best;
        bits[i] = bestBits;
      }
    }
  } finally {
    local.free();
  }
  if (keptIds.length > 0) await shared.addMany(Uint32Array.from(keptIds), BigUint64Array.from(keptValues));
}

/** The decisions as groups, with representatives other processes kept looked up by id. */
async function report(
  client: Redis | Cluster,
  index: string,
  own: Fingerprinted,
  ids: Uint32Array,
  representativeId: Uint32Array,
  bits: Uint8Array,
): Promise<{ fingerprinted: Fingerprinted; grouped: Grouped }> {
  const position = new Map<number, number>();
  ids.forEach((id, k) => position.set(id, k));
  const foreign = Array.from(new Set(Array.from(representativeId).filter((id) => !position.has(id))));
  const records = foreign.length === 0 ? [] : await client.hmget(registryKeys(index)[1]!, ...foreign.map(String));
  const names = [...own.ids];
  const fingerprints = new BigUint64Array(own.ids.length + foreign.length);
  fingerprints.set(own.fingerprints);
  foreign.forEach((id, k) => {
    const record = records[k];
    if (record === null || record === undefined) throw new Error(`shared index '${index}' has no name for id ${id}`);
    position.set(id, names.length);
    fingerprints[names.length] = BigInt(`0x${record.slice(0, 16)}`);
    names.push(record.slice(16));
  });
  const representative = new Uint32Array(names.length);
  for (let k = 0; k < names.length; k++) representative[k] = k < ids.length ? position.get(representativeId[k]!)! : k;
  const members = new Map<number, number[]>();
  for (let k = 0; k < ids.length; k++) {
    const kept = representative[k]!;
    if (kept === k) continue;
    const list = members.get(kept);
    if (list === undefined) members.set(kept, [k]);
    else list.push(k);
  }
  const groups = Array.from(members.entries())
    .sort((a, b) => a[0] - b[0])
    .map(([kept, removed]): Group => ({ members: Uint32Array.from([kept, ...removed]), bits: Uint8Array.from([0, ...removed.map((k) => bits[k]!)]) }));
  const scores = [...own.scores, ...foreign.map(() => 0)];
  return { fingerprinted: { fingerprints, ids: names, scores, featureless: own.featureless }, grouped: { groups, representative } };
}

function hex(value: bigint): string {
  return value.toString(16).padStart(16, '0');
}
