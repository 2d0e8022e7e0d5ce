/**
 * Grouping against a shared index in Redis (`dedup --redis URL --index NAME`).
 *
 * Every document gets a global id from a name registry kept next to the index (the same name
 * always gets the same id), is added to the index, and only then queried. Whichever of two
 * near-duplicate documents finishes its add last finds the other, however many processes run at
 * once, so the near pairs the processes see together are all the near pairs of all their
 * documents. Each process prints the connected components of the pairs it saw, members ordered
 * by id (the group's representative is its smallest id); merged where they share a document,
 * the groups of all processes are the groups one process would print for all inputs.
 */

import type { Cluster, Redis } from 'ioredis';
import { connectRedis } from '../redis/connect.js';
import { RedisSimHashIndex } from '../redis/redis-index.js';
import type { SharedIndex } from './args.js';
import type { Fingerprinted } from './fingerprints.js';
import type { Group } from './groups.js';
import { numDifferingBits } from '../wasm/distance.js';

/** Names registered per script call. */
const NAMES_PER_CALL = 2000;

/**
 * Gives each name an id: the one it has, or the next free one. The registry also keeps each
 * id's name and latest fingerprint, for the processes that find the id as a near-duplicate.
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

/** The report's documents (own ones first, then those other processes added) and groups. */
export async function sharedGroups(
  own: Fingerprinted,
  shared: SharedIndex,
  distance: number,
): Promise<{ fingerprinted: Fingerprinted; groups: Group[] }> {
  const client = await connectRedis(shared.url);
  try {
    const index = await RedisSimHashIndex.open({ client, name: shared.index, distance });
    if (index.distance !== distance) {
      throw new RangeError(`shared index '${shared.index}' answers up to distance ${index.distance}; run with --distance ${index.distance} or another --index`);
    }
    const ids = await register(client, shared.index, own);
    await index.addMany(ids, own.fingerprints);
    const found = await index.queryMany(own.fingerprints);
    return await components(client, shared.index, own, ids, found.offsets, found.ids);
  } finally {
    client.disconnect();
  }
}

function registryKeys(index: string): string[] {
  return [`simhash:{${index}}:names`, `simhash:{${index}}:ids`, `simhash:{${index}}:next`];
}

async function register(client: Redis | Cluster, index: string, own: Fingerprinted): Promise<Uint32Array> {
  const ids = new Uint32Array(own.ids.length);
  for (let start = 0; start < ids.length; start += NAMES_PER_CALL) {
    const entries = own.ids.slice(start, start + NAMES_PER_CALL).map((name, k) => `${hex(own.fingerprints[start + k]!)}${name}`);
    const reply = (await client.eval(REGISTER, 3, ...registryKeys(index), ...entries)) as number[];
    ids.set(reply, start);
  }
  return ids;
}

/** Connected components of the pairs found, with the documents of other processes looked up. */
async function components(
  client: Redis | Cluster,
  index: string,
  own: Fingerprinted,
  ids: Uint32Array,
  offsets: Uint32Array,
  neighbours: Uint32Array,
): Promise<{ fingerprinted: Fingerprinted; groups: Group[] }> {
  const position = new Map<number, number>();
  ids.forEach((id, k) => position.set(id, k));
  const foreign = Array.from(new Set(Array.from(neighbours).filter((id) => !position.has(id))));
  const records = foreign.length === 0 ? [] : await client.hmget(registryKeys(index)[1]!, ...foreign.map(String));
  const names = [...own.ids];
  const fingerprints = new BigUint64Array(own.ids.length + foreign.length);
  fingerprints.set(own.fingerprints);
  const idOf = Array.from(ids);
  foreign.forEach((id, k) => {
    const record = records[k];
    if (record === null || record === undefined) throw new Error(`shared index '${index}' has no name for id ${id}`);
    position.set(id, names.length);
    fingerprints[names.length] = BigInt(`0x${record.slice(0, 16)}`);
    names.push(record.slice(16));
    idOf.push(id);
  });

  const parent = Array.from(names, (_, k) => k);
  const find = (k: number): number => {
    while (parent[k] !== k) k = parent[k] = parent[parent[k]!]!;
    return k;
  };
  for (let q = 0; q < own.ids.length; q++) {
    for (let m = offsets[q]!; m < offsets[q + 1]!; m++) {
      const a = find(q);
      const b = find(position.get(neighbours[m]!)!);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const members = new Map<number, number[]>();
  names.forEach((_, k) => {
    const root = find(k);
    const list = members.get(root);
    if (list === undefined) members.set(root, [k]);
    else list.push(k);
  });
  const groups = Array.from(members.values())
    .filter((list) => list.length > 1)
    .map((list) => list.sort((a, b) => idOf[a]! - idOf[b]!))
    .sort((a, b) => idOf[a[0]!]! - idOf[b[0]!]!)
    .map((list): Group => {
      const first = fingerprints[list[0]!]!;
      return { members: Uint32Array.from(list), bits: Uint8Array.from(list, (k) => numDifferingBits(first, fingerprints[k]!)) };
    });
  return { fingerprinted: { fingerprints, ids: names, featureless: own.featureless }, groups };
}

function hex(value: bigint): string {
  return value.toString(16).padStart(16, '0');
}
