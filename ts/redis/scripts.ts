/**
 * The Lua scripts the index runs inside Redis. Each touches keys of one hash slot only (they
 * share a hash tag), so Redis Cluster accepts it and runs it atomically: a script's writes reach
 * the AOF and the replicas as one transaction, never half of them.
 *
 * Records are fixed-width binary strings: a bucket member is 12 bytes (the table's permuted
 * fingerprint, big-endian, then the id, big-endian), so sorting members as bytes sorts them by
 * permuted fingerprint and a lexicographic range picks out one prefix.
 */

import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/**
 * The binary-reply forms of EVALSHA and EVAL, which ioredis generates for every command but does
 * not declare. (`callBuffer` would do, but with auto-pipelining ioredis drops its command name.)
 */
interface ScriptCommands {
  evalshaBuffer(...args: (string | number | Buffer)[]): Promise<unknown>;
  evalBuffer(...args: (string | number | Buffer)[]): Promise<unknown>;
}

/** A Lua script run by its SHA-1, loaded on the node that holds its keys when it is missing there. */
export class Script {
  readonly #lua: string;
  readonly #sha: string;

  constructor(lua: string) {
    this.#lua = lua;
    this.#sha = createHash('sha1').update(lua).digest('hex');
  }

  /** Runs the script over `keys` (all in one hash slot) with `args`; the reply keeps its bytes. */
  async run(client: Redis | Cluster, keys: readonly string[], args: readonly Buffer[]): Promise<unknown> {
    try {
      return await (client as unknown as ScriptCommands).evalshaBuffer(this.#sha, keys.length, ...keys, ...args);
    } catch (error) {
      // A node that restarted or took over a slot may not have the script cached yet.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await (client as unknown as ScriptCommands).evalBuffer(this.#lua, keys.length, ...keys, ...args);
    }
  }
}

/**
 * ZADD of packed 12-byte members: `ARGV[i]` holds the members of sorted set `KEYS[i]`, added with
 * score 0 (only the byte order of members matters). Adding a member twice is a no-op, so a retry
 * is harmless. Members go in chunks to stay under Lua's stack limit for `unpack`.
 */
export const ADD_MEMBERS = new Script(`
for i = 1, #KEYS do
  local s = ARGV[i]
  local n = #s / 12
  for first = 0, n - 1, 512 do
    local args = {}
    for k = first, math.min(n, first + 512) - 1 do
      args[#args + 1] = 0
      args[#args + 1] = string.sub(s, 12 * k + 1, 12 * k + 12)
    end
    redis.call('ZADD', KEYS[i], unpack(args))
  end
end
return 0
`);

/** ZREM of packed 12-byte members, laid out as for {@link ADD_MEMBERS}. */
export const REMOVE_MEMBERS = new Script(`
for i = 1, #KEYS do
  local s = ARGV[i]
  local n = #s / 12
  for first = 0, n - 1, 512 do
    local args = {}
    for k = first, math.min(n, first + 512) - 1 do
      args[#args + 1] = string.sub(s, 12 * k + 1, 12 * k + 12)
    end
    redis.call('ZREM', KEYS[i], unpack(args))
  end
end
return 0
`);

/**
 * Sets id records: `KEYS[1..m]` are record hashes, `KEYS[m+1]` the group's entry counter, and
 * `ARGV[i]` packs 12-byte (id, fingerprint) pairs for `KEYS[i]`. Returns, per pair in order, 9
 * bytes: 1 and the fingerprint the id held before, or 0 and eight zero bytes when it was new.
 * The counter grows by the number of new ids only, so a retry leaves it right.
 */
export const SET_RECORDS = new Script(`
local out = {}
local added = 0
for i = 1, #KEYS - 1 do
  local s = ARGV[i]
  for j = 1, #s, 12 do
    local id = string.sub(s, j, j + 3)
    local old = redis.call('HGET', KEYS[i], id)
    redis.call('HSET', KEYS[i], id, string.sub(s, j + 4, j + 11))
    if old then
      out[#out + 1] = '\\1' .. old
    else
      out[#out + 1] = '\\0\\0\\0\\0\\0\\0\\0\\0\\0'
      added = added + 1
    end
  end
end
if added > 0 then redis.call('INCRBY', KEYS[#KEYS], added) end
return table.concat(out)
`);

/**
 * Deletes id records: keys as for {@link SET_RECORDS}, `ARGV[i]` packs 4-byte ids. Returns the
 * old values as {@link SET_RECORDS} does, and lowers the counter by the ids actually deleted.
 */
export const DELETE_RECORDS = new Script(`
local out = {}
local removed = 0
for i = 1, #KEYS - 1 do
  local s = ARGV[i]
  for j = 1, #s, 4 do
    local id = string.sub(s, j, j + 3)
    local old = redis.call('HGET', KEYS[i], id)
    if old then
      redis.call('HDEL', KEYS[i], id)
      out[#out + 1] = '\\1' .. old
      removed = removed + 1
    else
      out[#out + 1] = '\\0\\0\\0\\0\\0\\0\\0\\0\\0'
    end
  end
end
if removed > 0 then redis.call('DECRBY', KEYS[#KEYS], removed) end
return table.concat(out)
`);

/** Reads id records: `KEYS[i]` record hashes, `ARGV[i]` packed 4-byte ids; replies as {@link SET_RECORDS}. */
export const GET_RECORDS = new Script(`
local out = {}
for i = 1, #KEYS do
  local s = ARGV[i]
  for j = 1, #s, 4 do
    local old = redis.call('HGET', KEYS[i], string.sub(s, j, j + 3))
    if old then out[#out + 1] = '\\1' .. old else out[#out + 1] = '\\0\\0\\0\\0\\0\\0\\0\\0\\0' end
  end
end
return table.concat(out)
`);

/**
 * Probes buckets: `ARGV[i]` packs 16-byte ranges (lowest and highest permuted fingerprint with
 * the wanted prefix) to look up in sorted set `KEYS[i]`. Returns one string per range, in order:
 * the concatenated 12-byte members in it.
 */
export const PROBE = new Script(`
local out = {}
for i = 1, #KEYS do
  local s = ARGV[i]
  for j = 1, #s, 16 do
    local low = '[' .. string.sub(s, j, j + 7)
    local high = '[' .. string.sub(s, j + 8, j + 15) .. '\\255\\255\\255\\255'
    out[#out + 1] = table.concat(redis.call('ZRANGEBYLEX', KEYS[i], low, high))
  end
end
return out
`);

/**
 * Creates the index's description unless one exists: `KEYS[1]` the description hash, `ARGV`
 * field/value pairs (none: only read). Returns the stored description as a flat field/value list.
 */
export const DESCRIBE = new Script(`
if #ARGV > 0 and redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], unpack(ARGV)) end
return redis.call('HGETALL', KEYS[1])
`);
