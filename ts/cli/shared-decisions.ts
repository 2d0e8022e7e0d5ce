/**
 * Decisions against a shared index in Redis (`dedup --redis URL --index NAME`).
 *
 * The shared index holds the kept documents of every process that used it, under global ids
 * from a name registry kept next to it (the same name always gets the same id, in the order
 * names first reach it). A process takes its documents in input order, a batch at a time, and
 * decides each batch with `RedisSimHashIndex.decideMany`, which holds the index's lock from its
 * query to its last write: the batches of all processes are decided one after another, each
 * seeing every document kept before it. So every removed document is within the distance of a
 * kept one, and no two kept documents are within it of each other, whichever processes read
 * them (unless a process holds the lock past its expiry, which fails that run).
 */

import type { Cluster, Redis } from 'ioredis';
import { connectRedis } from '../redis/connect.js';
import { RedisSimHashIndex } from '../redis/redis-index.js';
import type { SharedIndex } from './args.js';
import type { Fingerprinted } from './fingerprints.js';
import type { Group, Grouped } from './group.js';

/** Documents decided per turn of the lock. */
const BATCH = 2000;

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

/** The report's documents (own ones first, then the representatives other processes added) and decisions. */
export async function sharedDecisions(
  own: Fingerprinted,
  shared: SharedIndex,
  distance: number,
): Promise<{ fingerprinted: Fingerprinted; grouped: Grouped }> {
  const first = new Map<string, number>();
  own.ids.forEach((name, k) => {
    const earlier = first.get(name);
    // One name, one entry of the shared index: two documents cannot share it.
    if (earlier !== undefined) throw new Error(`--redis: documents ${earlier + 1} and ${k + 1} are both named '${name}'; the shared index knows documents by name (give --id a field that is unique)`);
    first.set(name, k);
  });
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
      const decided = await index.decideMany(ids.subarray(start, end), own.fingerprints.subarray(start, end));
      representativeId.set(decided.representative, start);
      bits.set(decided.distance, start);
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
  // This process's documents only: the others' kept documents are named, not decided on here.
  const representative = new Uint32Array(ids.length);
  for (let k = 0; k < ids.length; k++) representative[k] = position.get(representativeId[k]!)!;
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
  return { fingerprinted: { fingerprints, ids: names, scores, featureless: own.featureless, featurelessAt: own.featurelessAt }, grouped: { groups, representative } };
}

function hex(value: bigint): string {
  return value.toString(16).padStart(16, '0');
}
