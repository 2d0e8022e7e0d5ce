/**
 * The Lua scripts the index runs inside Redis. Each touches keys of one hash slot only (they
 * share a hash tag), so Redis Cluster accepts it and runs it atomically: a script's writes reach
 * the AOF and the replicas as one transaction, never half of them. Each checks every key it
 * will write before writing any (Redis keeps the writes of a script that fails part-way), so a
 * script refused for a corrupt key has written nothing.
 *
 * Records are fixed-width binary strings: a bucket is a string of 12-byte members (the table's
 * permuted fingerprint, big-endian, then the id, big-endian) in no order. Queries read buckets
 * whole with MGET, which costs Redis a fraction of a lexicographic range in a sorted set.
 */

import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/**
 * The binary-reply forms of EVALSHA and EVAL, which ioredis generates for every command but does
 * not declare. (`callBuffer` would do, but with auto-pipelining ioredis drops its command name.)
 */
interface ScriptCommands {
  evalshaBuffer(script: string, keyCount: number, keys: readonly string[], args: readonly Buffer[]): Promise<unknown>;
  evalBuffer(script: string, keyCount: number, keys: readonly string[], args: readonly Buffer[]): Promise<unknown>;
}

/** Per id, what {@link GET_RECORDS} found: a record (1), none (0) or an unreadable one (2), and the fingerprint's halves. */
export interface RecordValues {
  readonly found: Uint8Array;
  readonly high: Uint32Array;
  readonly low: Uint32Array;
}

/** A Lua script run by its SHA-1, loaded on the node that holds its keys when it is missing there. */
export class Script {
  readonly #lua: string;
  readonly #sha: string;

  constructor(lua: string) {
    this.#lua = lua;
    this.#sha = createHash('sha1').update(lua).digest('hex');
  }

  /**
   * Runs the script over `keys` (all in one hash slot) with `args`; the reply keeps its bytes.
   * Keys and arguments go as arrays, which ioredis flattens: spread into the call, a round's
   * hundreds of thousands of them would overflow the stack.
   */
  async run(client: Redis | Cluster, keys: readonly string[], args: readonly Buffer[]): Promise<unknown> {
    try {
      return await (client as unknown as ScriptCommands).evalshaBuffer(this.#sha, keys.length, keys, args);
    } catch (error) {
      // A node that restarted or took over a slot may not have the script cached yet.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await (client as unknown as ScriptCommands).evalBuffer(this.#lua, keys.length, keys, args);
    }
  }
}

/**
 * Lua: `share(i)`, the bytes of `KEYS[i]` in the two arguments a call gets (see
 * `GroupedCalls`): `ARGV[1]` all keys' bytes in key order, `ARGV[2]` each key's byte count as a
 * big-endian 32-bit number. Called for i = 1, 2, ... in order.
 *
 * `corrupt(key, problem)`, the error a script returns for a key the index never writes so: the
 * client names the key in its error ("CORRUPT <key> <problem>").
 *
 * `bucket(key)`, what bucket `key` holds (`''` when absent), or nil and the error when it is not
 * a string of whole 12-byte members; `whole(key)`, that error alone (nil for a good bucket),
 * without reading it.
 *
 * `records(key)`, nil when `key` is a hash of records or absent, else the error.
 */
const SHARES = `
local shared, taken = ARGV[1], 1
local function share(i)
  local n = struct.unpack('>I4', ARGV[2], 4 * i - 3)
  local s = string.sub(shared, taken, taken + n - 1)
  taken = taken + n
  return s
end
local function corrupt(key, problem)
  return redis.error_reply('CORRUPT ' .. key .. ' ' .. problem)
end
local function bucket(key)
  local s = redis.pcall('GET', key)
  if type(s) == 'table' then return nil, corrupt(key, 'is a ' .. redis.call('TYPE', key).ok .. ', not a string of members') end
  s = s or ''
  if #s % 12 ~= 0 then return nil, corrupt(key, 'holds ' .. #s .. ' bytes, not whole 12-byte members') end
  return s
end
local function whole(key)
  local n = redis.pcall('STRLEN', key)
  if type(n) == 'table' then return corrupt(key, 'is a ' .. redis.call('TYPE', key).ok .. ', not a string of members') end
  if n % 12 ~= 0 then return corrupt(key, 'holds ' .. n .. ' bytes, not whole 12-byte members') end
end
local function records(key)
  local t = redis.call('TYPE', key).ok
  if t ~= 'hash' and t ~= 'none' then return corrupt(key, 'is a ' .. t .. ', not a hash of records') end
end
`;

/**
 * Appends packed 12-byte members to bucket strings: share i holds the members for `KEYS[i]`.
 * The bucket is not searched first, so running this twice leaves a second copy of each member:
 * answers do not change (a query counts an id once), {@link REMOVE_MEMBERS} removes every copy,
 * and `repair` removes the second one. A bucket that is not whole members is refused.
 */
export const ADD_MEMBERS = new Script(`${SHARES}
for i = 1, #KEYS do
  local err = whole(KEYS[i])
  if err then return err end
end
for i = 1, #KEYS do redis.call('APPEND', KEYS[i], share(i)) end
return 0
`);

/**
 * Appends to bucket strings, as {@link ADD_MEMBERS} does, only the members a bucket does not
 * hold yet (at an offset that is a multiple of 12: a plain find could match across two
 * members). For entries written again unchanged, whose members are normally there: it costs a
 * read of each bucket, but restores members a `repair` running during a write, or two writers
 * of one id, took away.
 */
export const ADD_MISSING_MEMBERS = new Script(`${SHARES}
local function holds(s, m)
  local at = 1
  while true do
    local found = string.find(s, m, at, true)
    if not found then return false end
    if (found - 1) % 12 == 0 then return true end
    at = found + 1
  end
end
local held = {}
for i = 1, #KEYS do
  local err
  held[i], err = bucket(KEYS[i])
  if not held[i] then return err end
end
for i = 1, #KEYS do
  local s = share(i)
  local missing = {}
  for j = 1, #s, 12 do
    local m = string.sub(s, j, j + 11)
    if not holds(held[i], m) then missing[#missing + 1] = m end
  end
  if #missing > 0 then redis.call('APPEND', KEYS[i], table.concat(missing)) end
end
return 0
`);

/**
 * Removes packed 12-byte members, laid out as for {@link ADD_MEMBERS}, from bucket strings,
 * together with any second copy of a member the bucket holds; an emptied bucket is deleted.
 * Returns how many members went. Running it again removes nothing more.
 */
export const REMOVE_MEMBERS = new Script(`${SHARES}
local removed = 0
local buckets = {}
for i = 1, #KEYS do
  local err
  buckets[i], err = bucket(KEYS[i])
  if not buckets[i] then return err end
end
for i = 1, #KEYS do
  local held = buckets[i]
  local s = share(i)
  if #held > 0 then
    local drop = {}
    for j = 1, #s, 12 do drop[string.sub(s, j, j + 11)] = true end
    local kept = {}
    for j = 1, #held - 11, 12 do
      local m = string.sub(held, j, j + 11)
      if drop[m] then
        removed = removed + 1
      else
        kept[#kept + 1] = m
        drop[m] = true
      end
    end
    if #kept == 0 then
      redis.call('DEL', KEYS[i])
    elseif #kept * 12 ~= #held then
      redis.call('SET', KEYS[i], table.concat(kept))
    end
  end
end
return removed
`);

/** A group's entry counter as the index writes it: decimal digits (the `countable` rule below). */
export const COUNT_RULE = /^\d{1,19}$/;

/**
 * Lua: `countable(key)`, the error for a group's entry counter that is not a count, else nil.
 */
const COUNT = `
local function countable(key)
  local n = redis.pcall('GET', key)
  if type(n) == 'table' or (n and not string.match(n, '^%d+$')) then return corrupt(key, 'is not an entry count') end
end
`;

/**
 * Lua, first of a script that writes records: returns the error for any record hash
 * (`KEYS[1..m]`) or entry counter (`KEYS[m+1]`) that is not what the index writes.
 */
const WRITABLE = `${COUNT}
for i = 1, #KEYS - 1 do
  local err = records(KEYS[i])
  if err then return err end
end
local err = countable(KEYS[#KEYS])
if err then return err end
`;

/**
 * Sets id records: `KEYS[1..m]` are record hashes, `KEYS[m+1]` the group's entry counter, and
 * share i packs 12-byte (id, fingerprint) pairs for `KEYS[i]`, each id once. The counter grows
 * by the number of new ids only (as HSET counts them), so a retry leaves it right. Returns that
 * number.
 */
export const SET_RECORDS = new Script(`${SHARES}${WRITABLE}
local added = 0
for i = 1, #KEYS - 1 do
  local s = share(i)
  for first = 1, #s, 12 * 512 do
    local args = {}
    for j = first, math.min(#s, first + 12 * 512 - 1), 12 do
      args[#args + 1] = string.sub(s, j, j + 3)
      args[#args + 1] = string.sub(s, j + 4, j + 11)
    end
    added = added + redis.call('HSET', KEYS[i], unpack(args))
  end
end
if added > 0 then redis.call('INCRBY', KEYS[#KEYS], added) end
return added
`);

/**
 * Deletes id records, only those that still hold what the caller read: keys as for
 * {@link SET_RECORDS}, share i packs 16-byte pieces (id, fingerprint, then 4 bytes: 1 to delete
 * whatever the record holds, for an unreadable one). Lowers the counter by the ids deleted and
 * returns their number. Running it again deletes nothing more.
 */
export const DELETE_RECORDS = new Script(`${SHARES}${WRITABLE}
local removed = 0
for i = 1, #KEYS - 1 do
  local s = share(i)
  for j = 1, #s, 16 do
    local id = string.sub(s, j, j + 3)
    local held = redis.call('HGET', KEYS[i], id)
    if held and (held == string.sub(s, j + 4, j + 11) or string.byte(s, j + 15) == 1) then
      redis.call('HDEL', KEYS[i], id)
      removed = removed + 1
    end
  end
end
if removed > 0 then redis.call('DECRBY', KEYS[#KEYS], removed) end
return removed
`);

/**
 * Reads id records: `KEYS[i]` record hashes, share i packed 4-byte ids. Returns, per id in
 * order, 9 bytes: 1 and the fingerprint the id holds, 0 and eight zero bytes when it holds none,
 * 2 and eight zero bytes when what it holds is not a fingerprint.
 */
export const GET_RECORDS = new Script(`${SHARES}
for i = 1, #KEYS do
  local err = records(KEYS[i])
  if err then return err end
end
local out = {}
for i = 1, #KEYS do
  local s = share(i)
  for j = 1, #s, 4 do
    local held = redis.call('HGET', KEYS[i], string.sub(s, j, j + 3))
    if not held then
      out[#out + 1] = '\\0\\0\\0\\0\\0\\0\\0\\0\\0'
    elseif #held == 8 then
      out[#out + 1] = '\\1' .. held
    else
      out[#out + 1] = '\\2\\0\\0\\0\\0\\0\\0\\0\\0'
    end
  end
end
return table.concat(out)
`);

/**
 * Writes records for `repair()`: `KEYS[1]` a record hash, `ARGV[1]` packed 12-byte (id,
 * fingerprint) pairs, `ARGV[2]` `'1'` to delete the key first (it is not a hash), in one step.
 * Leaves the counter to `repair()`, which sets it from the records.
 */
export const REPLACE_RECORDS = new Script(`
if ARGV[2] == '1' then redis.call('DEL', KEYS[1]) end
local s = ARGV[1]
for j = 1, #s, 12 do redis.call('HSET', KEYS[1], string.sub(s, j, j + 3), string.sub(s, j + 4, j + 11)) end
return 0
`);

/**
 * Creates the index's description unless one exists: `KEYS[1]` the description hash, `ARGV`
 * field/value pairs (none: only read). Returns the stored description as a flat field/value list.
 */
export const DESCRIBE = new Script(`
if #ARGV > 0 and redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], unpack(ARGV)) end
return redis.call('HGETALL', KEYS[1])
`);
