/**
 * The format of a shared log in Redis (`shared-log.ts`): every change made to an index, in the
 * one order every process applies it. The default rule weighs a text's words by how many texts
 * before it hold them, so a decision depends on every text decided before it, not only on the
 * kept texts it resembles: the state that decides is the whole history, and the log is that
 * history (and MinHash, whose decisions do not depend on it, is shared the same way).
 *
 * An entry is `prev (16 bytes) · self (16 bytes) · body`, where `self` is the first 16 bytes of
 * SHA-256 over `prev · body` and `prev` the `self` of the entry before it (16 zero bytes for the
 * first). A body is a kind byte, a count n (u32, little-endian) and n ids (u32); a decided batch
 * then holds the n representatives its writer decided; decided and added batches then hold n item
 * lengths in bytes (u32) and the items (a text as UTF-8, a signature as its u32s). So an entry whose bytes were changed fails its
 * own `self`, and a log rewritten under a reader (writes lost in a failover, a repair) fails the
 * reader's chain at the first entry it did not have.
 *
 * The log is a Redis list of entries from the position `…:start` names (0 until it is compacted:
 * see `snapshot.ts`); every script counts positions from there, so positions never change when
 * the entries before the start are dropped.
 */

import { createHash } from 'node:crypto';
import { CorruptKey } from './errors.js';

/** Bytes of a chain value. */
export const CHAIN_BYTES = 16;
/** The chain before the first entry. */
export const GENESIS: Buffer = Buffer.alloc(CHAIN_BYTES);

/** A batch decided by the rule: `representative[q]` as its writer decided it. */
export interface DecidedEntry {
  readonly kind: 'decided';
  readonly ids: Uint32Array;
  readonly items: readonly Buffer[];
  readonly representative: Uint32Array;
}

/** Items kept without being judged (`addMany`). */
export interface AddedEntry {
  readonly kind: 'added';
  readonly ids: Uint32Array;
  readonly items: readonly Buffer[];
}

/** Kept items removed (`remove`). */
export interface RemovedEntry {
  readonly kind: 'removed';
  readonly ids: Uint32Array;
}

/** One change to the index. */
export type LogEntry = DecidedEntry | AddedEntry | RemovedEntry;

/** An entry as read from the log: its chain values and what it says. */
export interface ReadEntry {
  readonly prev: Buffer;
  readonly self: Buffer;
  readonly entry: LogEntry;
}

const KINDS = ['decided', 'added', 'removed'] as const;

/** The chain value of `body` after `prev`. */
function chain(prev: Buffer, body: Buffer): Buffer {
  return createHash('sha256').update(prev).update(body).digest().subarray(0, CHAIN_BYTES);
}

/** `entry` as log bytes after the entry whose chain value is `prev`. */
export function encodeEntry(prev: Buffer, entry: LogEntry): Buffer {
  const n = entry.ids.length;
  const texts = entry.kind === 'removed' ? [] : entry.items;
  const words = 1 + n * (entry.kind === 'decided' ? 3 : entry.kind === 'added' ? 2 : 1);
  const body = Buffer.alloc(1 + 4 * words + texts.reduce((sum, text) => sum + text.length, 0));
  body[0] = KINDS.indexOf(entry.kind);
  let at = 1;
  const put = (value: number): void => {
    body.writeUInt32LE(value, at);
    at += 4;
  };
  put(n);
  entry.ids.forEach(put);
  if (entry.kind === 'decided') entry.representative.forEach(put);
  for (const text of texts) put(text.length);
  for (const text of texts) at += text.copy(body, at);
  return Buffer.concat([prev, chain(prev, body), body]);
}

/**
 * The entry in `bytes`, read from position `position` of the log at `key`.
 *
 * @throws {CorruptKey} when the bytes are not an entry this module wrote.
 */
export function decodeEntry(bytes: Buffer, key: string, position: number): ReadEntry {
  const corrupt = (problem: string): CorruptKey => new CorruptKey(key, `holds at position ${position} ${problem}`);
  if (bytes.length < 2 * CHAIN_BYTES + 5) throw corrupt(`${bytes.length} bytes, too few for an entry`);
  const prev = bytes.subarray(0, CHAIN_BYTES);
  const self = bytes.subarray(CHAIN_BYTES, 2 * CHAIN_BYTES);
  const body = bytes.subarray(2 * CHAIN_BYTES);
  if (!chain(prev, body).equals(self)) throw corrupt('an entry whose checksum does not match its contents');
  const kind = KINDS[body[0]!];
  if (kind === undefined) throw corrupt(`an entry of unknown kind ${body[0]}`);
  const n = body.readUInt32LE(1);
  const words = 1 + n * (kind === 'decided' ? 3 : kind === 'added' ? 2 : 1);
  if (1 + 4 * words > body.length) throw corrupt(`an entry of ${n} texts in ${body.length} bytes`);
  const numbers = (from: number): Uint32Array => {
    const out = new Uint32Array(n);
    for (let q = 0; q < n; q++) out[q] = body.readUInt32LE(from + 4 * q);
    return out;
  };
  const ids = numbers(5);
  if (kind === 'removed') {
    if (body.length !== 5 + 4 * n) throw corrupt(`a removal of ${n} ids in ${body.length} bytes`);
    return { prev, self, entry: { kind, ids } };
  }
  const representative = kind === 'decided' ? numbers(5 + 4 * n) : undefined;
  const lengths = numbers(5 + 4 * n * (kind === 'decided' ? 2 : 1));
  const items: Buffer[] = [];
  let at = 1 + 4 * words;
  for (const length of lengths) {
    if (at + length > body.length) throw corrupt(`items longer than the entry's ${body.length} bytes`);
    items.push(body.subarray(at, at + length));
    at += length;
  }
  if (at !== body.length) throw corrupt(`${body.length - at} bytes after its items`);
  return { prev, self, entry: representative === undefined ? { kind: 'added', ids, items } : { kind: 'decided', ids, items, representative } };
}

/**
 * Lua: fails, naming the key as the client's `indexError` reads it, unless the log is a list
 * (`LOG_CHECK`) and the head a string of a chain value (`TYPES_CHECK`), or they are absent; and
 * sets `start`, the position of the log's first entry (0 until it is compacted), and
 * `startName`, the snapshot name `KEYS[3]` holds (nil when it holds none): the snapshot the log
 * starts from. KEYS: log, head, start.
 */
const LOG_CHECK = `local function corrupt(key, problem) return redis.error_reply('CORRUPT ' .. key .. ' ' .. problem) end
local logType = redis.call('TYPE', KEYS[1]).ok
if logType ~= 'list' and logType ~= 'none' then return corrupt(KEYS[1], 'is a ' .. logType .. ', not a list of entries') end
local startType = redis.call('TYPE', KEYS[3]).ok
if startType ~= 'string' and startType ~= 'none' then return corrupt(KEYS[3], 'is a ' .. startType .. ', not a snapshot name') end
local start, startName = 0, nil
if startType == 'string' then
  startName = redis.call('GET', KEYS[3])
  start = tonumber(string.match(startName, '^(%d+) %x+ %x+$') or '')
  if not start then return corrupt(KEYS[3], 'does not name a snapshot') end
end`;
const TYPES_CHECK = `${LOG_CHECK}
local headType = redis.call('TYPE', KEYS[2]).ok
if headType ~= 'string' and headType ~= 'none' then return corrupt(KEYS[2], 'is a ' .. headType .. ', not a chain value') end
if headType == 'string' and redis.call('STRLEN', KEYS[2]) ~= ${CHAIN_BYTES} then return corrupt(KEYS[2], 'holds ' .. redis.call('STRLEN', KEYS[2]) .. ' bytes, not a ${CHAIN_BYTES}-byte chain value') end`;

/**
 * Appends an entry if the log is where its writer last saw it: `len` entries, the last with chain
 * value `prev`. Answers 1 when appended; 2 when the log already ends with this very entry (a
 * request re-sent after its reply was lost); 0 when another writer appended first.
 * KEYS: log, head, start; ARGV: len, prev, self, entry.
 */
export const APPEND = `${TYPES_CHECK}
local len = start + redis.call('LLEN', KEYS[1])
local head = redis.call('GET', KEYS[2]) or string.rep('\\0', ${CHAIN_BYTES})
if len == tonumber(ARGV[1]) + 1 and head == ARGV[3] then return 2 end
if len ~= tonumber(ARGV[1]) or head ~= ARGV[2] then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[4])
redis.call('SET', KEYS[2], ARGV[3])
return 1`;

/**
 * The log's length (entries ever appended and not cut, compacted ones included), its head (the
 * last entry's chain value; nil when empty) and the name of the snapshot it starts from (nil:
 * from its first entry). KEYS: log, head, start.
 */
export const HEAD = `${TYPES_CHECK}
return {start + redis.call('LLEN', KEYS[1]), redis.call('GET', KEYS[2]), startName or false}`;

/**
 * Entries `ARGV[1]` up to `ARGV[2]` (positions, the second excluded) after the log's start
 * position: `{start, entries…}`, or `{start}` alone when the first of them was compacted away.
 * Reading the start with the entries tells a reader which positions it got, whatever a compaction
 * did before. KEYS: log, head, start.
 */
export const READ = `${LOG_CHECK}
local from, to = tonumber(ARGV[1]), tonumber(ARGV[2])
if from < start then return {start} end
local out = redis.call('LRANGE', KEYS[1], from - start, to - start - 1)
table.insert(out, 1, start)
return out`;

/**
 * Cuts the log to its first `ARGV[1]` entries and sets the head to `ARGV[2]` (deleted for an
 * empty log), if the log still has `ARGV[3]` entries and the head `ARGV[4]` (`*`: whatever it
 * holds, for a corrupt head). Answers 1 when done, also when a re-sent request finds it done
 * already; 0 when the log changed, or for a cut below the position the log starts from.
 * KEYS: log, head, start.
 */
export const TRUNCATE = `${LOG_CHECK}
local len = start + redis.call('LLEN', KEYS[1])
local head = redis.pcall('GET', KEYS[2])
if type(head) == 'table' then head = '*' elseif not head then head = '' end
local keep = tonumber(ARGV[1])
if len == keep and ((keep == 0 and head == '') or (keep > 0 and head == ARGV[2])) then return 1 end
if len ~= tonumber(ARGV[3]) or (ARGV[4] ~= '*' and head ~= ARGV[4] and not (head == '' and ARGV[4] == string.rep('\\0', ${CHAIN_BYTES}))) then return 0 end
if keep < start then return 0 end
if keep == start then redis.call('DEL', KEYS[1]) else redis.call('LTRIM', KEYS[1], 0, keep - start - 1) end
if keep == 0 then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], ARGV[2]) end
return 1`;

/**
 * Empties the index: deletes its log, head, start and the start's snapshot list (KEYS, whatever
 * they hold), if the start still names `ARGV[1]` (empty: whatever it holds, for a spoilt one).
 * `repair()` runs it under the lock when the snapshot a compacted log starts from is lost: every
 * entry after it was decided knowing what it held. Answers 1 when done, 0 when the start moved
 * (a compaction ran meanwhile).
 */
export const WIPE = `local start = redis.pcall('GET', KEYS[3])
if ARGV[1] ~= '' and start ~= ARGV[1] then return 0 end
redis.call('DEL', unpack(KEYS))
return 1`;

/**
 * Writes the head's own value again: a write on this connection, after every entry the log holds
 * in the master's stream to its replicas, that a `WAIT` after it can count. KEYS: head.
 */
export const CONFIRM = `local head = redis.call('GET', KEYS[1])
if head then redis.call('SET', KEYS[1], head) end
return 1`;

/**
 * Creates the description unless there is one, then answers it as field, value, ….
 * KEYS: description; ARGV: field, value, ….
 */
export const DESCRIBE = `if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], unpack(ARGV)) end
return redis.call('HGETALL', KEYS[1])`;
