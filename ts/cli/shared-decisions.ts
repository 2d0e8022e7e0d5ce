/**
 * Decisions against a shared index in Redis (`dedup --redis URL --index NAME`): the default
 * method's `RedisTextIndex`, `RedisSimHashIndex` with `--method simhash`, `RedisMinHashIndex`
 * with `--method minhash`.
 *
 * The shared index holds what every process that used it decided, under global ids from a name
 * registry kept next to it (the same name always gets the same id, in the order names first
 * reach it). A process takes its documents in input order, a batch at a time, and decides each
 * batch with the index's `decideMany`, which holds the index's lock from its first read to its
 * last write: the batches of all processes are decided one after another, each seeing every
 * document decided before it. So the decisions are those of one run over every process's
 * documents in the order their batches were decided, whichever processes read them (unless a
 * process holds the lock past its expiry, which fails that run).
 */

import type { Cluster, Redis } from 'ioredis';
import { connectRedis } from '../redis/connect.js';
import { RedisSimHashIndex } from '../redis/redis-index.js';
import { RedisMinHashIndex } from '../redis/redis-minhash-index.js';
import { RedisTextIndex } from '../redis/redis-text-index.js';
import type { MinHashDecisions } from '../shared/decide.js';
import type { MinHashLshOptions } from '../shared/minhash-types.js';
import type { SharedIndex } from './args.js';
import type { Fingerprinted } from './fingerprints.js';
import type { Group, Grouped } from './group.js';
import type { Signed } from './signatures.js';
import type { Sketched } from './text-sketches.js';

/** Documents decided per turn of the lock. */
const BATCH = 2000;

/**
 * Gives each name an id: the one it has, or the next free one. The registry also keeps each
 * id's record (what the processes that find the id as a representative need: its name, after
 * the fingerprint's 16 hex digits for SimHash). KEYS: names hash, ids hash, id counter; ARGV:
 * the characters before the name in each record, then the records.
 */
const REGISTER = `
local skip = tonumber(ARGV[1])
local out = {}
for i = 2, #ARGV do
  local name = string.sub(ARGV[i], skip + 1)
  local id = redis.call('HGET', KEYS[1], name)
  if not id then
    id = redis.call('INCR', KEYS[3]) - 1
    if id > 4294967295 then return redis.error_reply('the shared index has 2^32 names already') end
    redis.call('HSET', KEYS[1], name, id)
  end
  redis.call('HSET', KEYS[2], id, ARGV[i])
  out[i - 1] = tonumber(id)
end
return out
`;

/** Characters before the name in a SimHash index's records: the fingerprint in hex. */
const FINGERPRINT_DIGITS = 16;

/** The report's documents (own ones first, then the representatives other processes added) and decisions, by SimHash. */
export async function sharedDecisions(
  own: Fingerprinted,
  shared: SharedIndex,
  distance: number,
): Promise<{ fingerprinted: Fingerprinted; grouped: Grouped }> {
  checkUniqueNames(own.ids);
  const client = await connectRedis(shared.url);
  try {
    const index = await RedisSimHashIndex.open({ client, name: shared.index, distance });
    if (index.distance !== distance) {
      throw new RangeError(`shared index '${shared.index}' answers up to distance ${index.distance}; run with --distance ${index.distance} or another --index`);
    }
    const keys = registryKeys(`simhash:{${shared.index}}`);
    const ids = await register(client, keys, FINGERPRINT_DIGITS, own.ids, (k) => `${hex(own.fingerprints[k]!)}${own.ids[k]}`);
    const representativeId = new Uint32Array(ids.length);
    const bits = new Uint8Array(ids.length);
    for (let start = 0; start < ids.length; start += BATCH) {
      const end = Math.min(ids.length, start + BATCH);
      const decided = await index.decideMany(ids.subarray(start, end), own.fingerprints.subarray(start, end));
      representativeId.set(decided.representative, start);
      bits.set(decided.distance, start);
    }
    const { names, foreign, representative } = await namesOf(client, shared.index, keys, FINGERPRINT_DIGITS, own.ids, ids, representativeId);
    const fingerprints = new BigUint64Array(names.length);
    fingerprints.set(own.fingerprints);
    foreign.forEach((record, k) => (fingerprints[own.ids.length + k] = BigInt(`0x${record.slice(0, 16)}`)));
    const groups = groupsOf(representative).map((members): Group => ({ members, bits: Uint8Array.from(members, (m, k) => (k === 0 ? 0 : bits[m]!)) }));
    const scores = [...own.scores, ...foreign.map(() => 0)];
    return { fingerprinted: { fingerprints, ids: names, scores, featureless: own.featureless, featurelessAt: own.featurelessAt }, grouped: { groups, representative } };
  } finally {
    client.disconnect();
  }
}

/** A shared index of the log kind (`RedisTextIndex`, `RedisMinHashIndex`), deciding this process's documents by position. */
interface Online {
  /** Decides the documents at `positions` under `ids`; those the index decided before are answered as then. */
  decide(ids: Uint32Array, positions: readonly number[]): Promise<MinHashDecisions>;
  /** Runs once every document is decided (`--compact`: compacts the log). */
  finish?(): Promise<void>;
  close(): void;
}

/** What {@link sharedLogDecisions} needs of the documents: their names, priorities and those without words. */
type Documents = Pick<Sketched, 'ids' | 'scores' | 'featureless' | 'featurelessAt'>;

/** {@link sharedDecisions} by the default rule, against a `RedisTextIndex` (see {@link sharedLogDecisions}). */
export function sharedTextDecisions(own: Sketched, shared: SharedIndex): Promise<{ fingerprinted: Fingerprinted; grouped: Grouped }> {
  const texts = own.texts!;
  return sharedLogDecisions(own, shared, 'textindex', async (client) => {
    const index = await RedisTextIndex.open({ client, name: shared.index });
    return {
      decide: (ids, positions) => index.decideMany(ids, positions.map((k) => texts[k]!), { known: 'answer' }),
      finish: shared.compact ? async () => void (await index.compact()) : undefined,
      close: () => index.close(),
    };
  });
}

/** {@link sharedDecisions} by MinHash, against a `RedisMinHashIndex` planned by `lsh` (see {@link sharedLogDecisions}). */
export function sharedMinHashDecisions(own: Signed, shared: SharedIndex, lsh: MinHashLshOptions): Promise<{ fingerprinted: Fingerprinted; grouped: Grouped }> {
  const k = own.numPerm;
  return sharedLogDecisions(own, shared, 'minhashindex', async (client) => {
    const index = await RedisMinHashIndex.open({ client, name: shared.index, ...lsh, numPerm: k });
    const gather = (positions: readonly number[]): Uint32Array => {
      const out = new Uint32Array(positions.length * k);
      positions.forEach((p, q) => out.set(own.signatures.subarray(p * k, (p + 1) * k), q * k));
      return out;
    };
    return {
      decide: (ids, positions) => index.decideMany(ids, gather(positions), { known: 'answer' }),
      finish: shared.compact ? async () => void (await index.compact()) : undefined,
      close: () => index.close(),
    };
  });
}

/**
 * {@link sharedDecisions} against an index shared through a log. Each document is decided once:
 * one the log decided before (an earlier run, or another process at once, read it) is answered
 * as it was decided then (`known: 'answer'`, under the index's lock) — the default rule counts
 * every text it decides, so deciding a text twice would shift later decisions.
 */
async function sharedLogDecisions(
  own: Documents,
  shared: SharedIndex,
  prefix: string,
  open: (client: Redis | Cluster) => Promise<Online>,
): Promise<{ fingerprinted: Fingerprinted; grouped: Grouped }> {
  checkUniqueNames(own.ids);
  const client = await connectRedis(shared.url);
  try {
    const index = await open(client);
    try {
      const keys = registryKeys(`${prefix}:{${shared.index}}`);
      const ids = await register(client, keys, 0, own.ids, (k) => own.ids[k]!);
      const representativeId = new Uint32Array(ids.length);
      const similarity = new Float64Array(ids.length);
      for (let start = 0; start < ids.length; start += BATCH) {
        const end = Math.min(ids.length, start + BATCH);
        const decided = await index.decide(ids.slice(start, end), Array.from({ length: end - start }, (_, q) => start + q));
        representativeId.set(decided.representative, start);
        similarity.set(decided.similarity, start);
      }
      await index.finish?.();
      const { names, foreign, representative } = await namesOf(client, shared.index, keys, 0, own.ids, ids, representativeId);
      const groups = groupsOf(representative).map(
        (members): Group => ({ members, bits: new Uint8Array(members.length), similarity: Float64Array.from(members, (m, k) => (k === 0 ? 1 : similarity[m]!)) }),
      );
      const scores = [...own.scores, ...foreign.map(() => 0)];
      return {
        fingerprinted: { fingerprints: new BigUint64Array(0), ids: names, scores, featureless: own.featureless, featurelessAt: own.featurelessAt },
        grouped: { groups, representative },
      };
    } finally {
      index.close();
    }
  } finally {
    client.disconnect();
  }
}

/** Refuses two documents of one name: the shared index knows documents by name. */
function checkUniqueNames(names: readonly string[]): void {
  const first = new Map<string, number>();
  names.forEach((name, k) => {
    const earlier = first.get(name);
    if (earlier !== undefined) throw new Error(`--redis: documents ${earlier + 1} and ${k + 1} are both named '${name}'; the shared index knows documents by name (give --id a field that is unique)`);
    first.set(name, k);
  });
}

/** The registry's keys under `prefix` (the index's, so they share its hash slot): names → ids, ids → records, the next id. */
function registryKeys(prefix: string): string[] {
  return [`${prefix}:names`, `${prefix}:ids`, `${prefix}:next`];
}

/** Each name's id, registering `record(k)` (`skip` characters, then the name) for document k. */
async function register(client: Redis | Cluster, keys: readonly string[], skip: number, names: readonly string[], record: (k: number) => string): Promise<Uint32Array> {
  const ids = new Uint32Array(names.length);
  for (let start = 0; start < ids.length; start += BATCH) {
    const entries = names.slice(start, start + BATCH).map((_, k) => record(start + k));
    const reply = (await client.eval(REGISTER, 3, ...keys, String(skip), ...entries)) as number[];
    ids.set(reply, start);
  }
  return ids;
}

/**
 * The report's names (own documents, then representatives other processes kept, looked up in the
 * registry), the records of those others, and each own document's representative as a position.
 */
async function namesOf(
  client: Redis | Cluster,
  index: string,
  keys: readonly string[],
  skip: number,
  own: readonly string[],
  ids: Uint32Array,
  representativeId: Uint32Array,
): Promise<{ names: string[]; foreign: string[]; representative: Uint32Array }> {
  const position = new Map<number, number>();
  ids.forEach((id, k) => position.set(id, k));
  const foreignIds = Array.from(new Set(Array.from(representativeId).filter((id) => !position.has(id))));
  const records = foreignIds.length === 0 ? [] : await client.hmget(keys[1]!, ...foreignIds.map(String));
  const names = [...own];
  const foreign = foreignIds.map((id, k) => {
    const record = records[k];
    if (record === null || record === undefined) throw new Error(`shared index '${index}' has no name for id ${id}`);
    position.set(id, names.length);
    names.push(record.slice(skip));
    return record;
  });
  // This process's documents only: the others' kept documents are named, not decided on here.
  const representative = Uint32Array.from(representativeId, (id) => position.get(id)!);
  return { names, foreign, representative };
}

/** The groups of decisions: each kept document with those removed for it, by the kept one's position. */
function groupsOf(representative: Uint32Array): Uint32Array[] {
  const members = new Map<number, number[]>();
  representative.forEach((kept, k) => {
    if (kept === k) return;
    const list = members.get(kept);
    if (list === undefined) members.set(kept, [k]);
    else list.push(k);
  });
  return Array.from(members.entries())
    .sort((a, b) => a[0] - b[0])
    .map(([kept, removed]) => Uint32Array.from([kept, ...removed]));
}

function hex(value: bigint): string {
  return value.toString(16).padStart(16, '0');
}
