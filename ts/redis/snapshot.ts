/**
 * Snapshots of a shared log (`shared-log.ts`): a replica saved at a position of the log, so that a
 * process opening the index loads it and replays only the entries after it, rather than the
 * whole history. Until the log is compacted a snapshot is a cache of it: a snapshot that does not
 * match the log (the log was cut by `repair()` below its position, or otherwise rewritten) is
 * found by the chain of the first entry after it, and the replica is then rebuilt from the log's
 * start. Compacting makes the named snapshot the log's start (`…:start` holds its name) and drops
 * the entries it holds: from then on it stands for them, and a replica rebuilt, or behind the
 * start, loads it.
 *
 * Bytes: magic `89 53 48 53 4E 50 0D 0A` (`\x89SHSNP\r\n`), version (u16, 1), 0 (u16), the log
 * position (u32: entries applied), the chain value of the last of them (16 bytes), the replica's
 * byte count (u32), the count of items removed as near-duplicates (u32), the replica's bytes (its
 * method's save format), per removed item its id, representative (u32 each) and similarity (f64),
 * then SHA-256 over every byte before it. All integers little-endian.
 *
 * In Redis: `…:snapshot` holds `position id chain`, naming the list `…:snapshot:id` of the
 * snapshot's bytes in pieces of {@link SNAPSHOT_PIECE} bytes. A new snapshot is written to a list
 * of its own (which expires unless the script below names it, so a writer that dies leaves
 * nothing for good), then named by one script if the log still holds it and no snapshot of this
 * position or a later one that the log holds is named. The name carries the chain value of the
 * snapshot's last entry, so that a script can tell a snapshot the log no longer holds (a cut log)
 * and replace or drop it. The start's list is never deleted by naming or dropping another
 * snapshot, only by the compaction that moves the start past it, or by a repair that empties the
 * index.
 */

import { createHash } from 'node:crypto';
import { CHAIN_BYTES } from './log-format.js';

const MAGIC = Buffer.from([0x89, 0x53, 0x48, 0x53, 0x4e, 0x50, 0x0d, 0x0a]);
const VERSION = 1;
const HEADER_BYTES = 8 + 2 + 2 + 4 + CHAIN_BYTES + 4 + 4;
const DIGEST_BYTES = 32;
const REMOVED_BYTES = 16;

/** Bytes of each piece of a snapshot in Redis (one request each). */
export const SNAPSHOT_PIECE = 8 << 20;
/** Seconds a snapshot's list lives before it is named (a writer that died leaves it to expire). */
export const UNNAMED_SECONDS = 3600;

/** A replica's state at a log position. */
export interface Snapshot {
  /** Entries of the log applied. */
  readonly position: number;
  /** The chain value of the last of them. */
  readonly chain: Buffer;
  /** The replica in its method's save format. */
  readonly replica: Uint8Array;
  /** Ids removed as near-duplicates, with their representatives and similarities. */
  readonly removed: ReadonlyArray<readonly [id: number, representative: number, similarity: number]>;
}

/** `snapshot` as bytes. */
export function encodeSnapshot(snapshot: Snapshot): Buffer {
  const { position, chain, replica, removed } = snapshot;
  const out = Buffer.alloc(HEADER_BYTES + replica.length + REMOVED_BYTES * removed.length + DIGEST_BYTES);
  MAGIC.copy(out, 0);
  out.writeUInt16LE(VERSION, 8);
  out.writeUInt32LE(position, 12);
  chain.copy(out, 16);
  out.writeUInt32LE(replica.length, 16 + CHAIN_BYTES);
  out.writeUInt32LE(removed.length, 20 + CHAIN_BYTES);
  out.set(replica, HEADER_BYTES);
  let at = HEADER_BYTES + replica.length;
  for (const [id, representative, similarity] of removed) {
    out.writeUInt32LE(id, at);
    out.writeUInt32LE(representative, at + 4);
    out.writeDoubleLE(similarity, at + 8);
    at += REMOVED_BYTES;
  }
  createHash('sha256').update(out.subarray(0, at)).digest().copy(out, at);
  return out;
}

/** The snapshot in `bytes`, or a sentence saying why they are none (damaged, or of another version). */
export function decodeSnapshot(bytes: Buffer): Snapshot | string {
  if (bytes.length < HEADER_BYTES + DIGEST_BYTES || !bytes.subarray(0, 8).equals(MAGIC)) return 'it does not begin as a snapshot';
  if (bytes.readUInt16LE(8) !== VERSION) return `it is of version ${bytes.readUInt16LE(8)}, not ${VERSION}`;
  const replicaBytes = bytes.readUInt32LE(16 + CHAIN_BYTES);
  const removedCount = bytes.readUInt32LE(20 + CHAIN_BYTES);
  const end = HEADER_BYTES + replicaBytes + REMOVED_BYTES * removedCount;
  if (bytes.length !== end + DIGEST_BYTES) return `it holds ${bytes.length} bytes where its header gives ${end + DIGEST_BYTES}`;
  if (!createHash('sha256').update(bytes.subarray(0, end)).digest().equals(bytes.subarray(end))) return 'its checksum does not match its bytes';
  const removed: [number, number, number][] = [];
  for (let at = HEADER_BYTES + replicaBytes; at < end; at += REMOVED_BYTES) {
    removed.push([bytes.readUInt32LE(at), bytes.readUInt32LE(at + 4), bytes.readDoubleLE(at + 8)]);
  }
  return {
    position: bytes.readUInt32LE(12),
    chain: Buffer.from(bytes.subarray(16, 16 + CHAIN_BYTES)),
    replica: bytes.subarray(HEADER_BYTES, HEADER_BYTES + replicaBytes),
    removed,
  };
}

/** `…:snapshot`'s value for the snapshot of `position` (whose last entry's chain value is `chain`) in list `id`. */
export function snapshotName(position: number, id: string, chain: Buffer): string {
  return `${position} ${id} ${chain.toString('hex')}`;
}

/** The position, list id and chain value `…:snapshot` names, or `undefined` for a value that names none. */
export function parseSnapshotName(value: string): { position: number; id: string; chain: Buffer } | undefined {
  const match = new RegExp(`^(\\d+) ([0-9a-f]{32}) ([0-9a-f]{${2 * CHAIN_BYTES}})$`).exec(value);
  return match === null ? undefined : { position: Number(match[1]), id: match[2]!, chain: Buffer.from(match[3]!, 'hex') };
}

/**
 * Lua: `holds(name, log, start)`, whether the log `log`, starting from the snapshot the key
 * `start` names (if any), holds the snapshot `name` names as it was: at least its position's
 * entries, the last of them with its chain value (or, at the start's position, the start's).
 * `startOf(start)`, the start's position and list id (0 and nil for none). `listOf(key, id)`, the
 * list of snapshot `id` under the name key `key`.
 */
const HOLDS = `local function startOf(start)
  local s = redis.pcall('GET', start)
  if type(s) ~= 'string' then return 0, nil, nil end
  local position, id, chain = string.match(s, '^(%d+) (%x+) (%x+)$')
  if not position then return 0, nil, nil end
  return tonumber(position), id, chain
end
local function listOf(key, id)
  return key .. ':' .. id
end
local function holds(name, log, start)
  local position, chain = string.match(name, '^(%d+) %x+ (%x+)$')
  if not position then return false end
  position = tonumber(position)
  local first, _, firstChain = startOf(start)
  if position < first or first + redis.call('LLEN', log) < position then return false end
  if position == 0 then return true end
  if position == first then return chain == firstChain end
  local entry = redis.call('LINDEX', log, position - first - 1)
  local self = string.sub(entry, ${CHAIN_BYTES + 1}, ${2 * CHAIN_BYTES}):gsub('.', function(c) return string.format('%02x', string.byte(c)) end)
  return self == chain
end`;

/**
 * Names the snapshot of list `KEYS[2]` (`ARGV[2]`, its name) in `KEYS[1]` if that still names
 * `ARGV[1]` (empty: nothing), the list `KEYS[3]`, and if the log `KEYS[4]` (from the start
 * `KEYS[5]`) holds the new one and the one named is not of this position or a later one that the
 * log holds too: the new list is kept for good and the old one deleted, unless the log starts
 * from it. Answers 1 when named (also when a re-sent request finds it named); 2 when a snapshot
 * of this position or a later one is named (the new list is deleted); 0 when `KEYS[1]` changed
 * meanwhile (read it again); 3 when the new list is gone (it expired before it was named); 4 when
 * the log no longer holds the new one (cut or compacted past it meanwhile: the new list is
 * deleted).
 */
export const NAME_SNAPSHOT = `${HOLDS}
local now = redis.call('GET', KEYS[1]) or ''
if now == ARGV[2] then return 1 end
if now ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 0 then return 3 end
if not holds(ARGV[2], KEYS[4], KEYS[5]) then
  redis.call('DEL', KEYS[2])
  return 4
end
local named = tonumber(string.match(now, '^(%d+) ') or '-1')
if named >= tonumber(string.match(ARGV[2], '^(%d+) ')) and holds(now, KEYS[4], KEYS[5]) then
  redis.call('DEL', KEYS[2])
  return 2
end
redis.call('PERSIST', KEYS[2])
redis.call('SET', KEYS[1], ARGV[2])
local _, startId = startOf(KEYS[5])
if now ~= '' and KEYS[3] ~= KEYS[2] and (not startId or KEYS[3] ~= listOf(KEYS[1], startId)) then redis.call('DEL', KEYS[3]) end
return 1`;

/**
 * Compacts the log: makes the snapshot `KEYS[1]` names, `ARGV[1]`, the one the log starts from
 * (`KEYS[2]`) and drops the entries of the log `KEYS[3]` it holds, if `KEYS[1]` still names it
 * and the log holds it. The list of the snapshot the log started from before, `KEYS[4]`, is
 * deleted unless it is this one's. Answers the entries dropped (0 also when a re-sent request
 * finds it done), or -1 when `KEYS[1]` names another snapshot now or the log no longer holds it.
 */
export const COMPACT = `${HOLDS}
if redis.call('GET', KEYS[2]) == ARGV[1] then return 0 end
if redis.call('GET', KEYS[1]) ~= ARGV[1] or not holds(ARGV[1], KEYS[3], KEYS[2]) then return -1 end
local first, firstId = startOf(KEYS[2])
local position, id = string.match(ARGV[1], '^(%d+) (%x+) ')
local dropped = tonumber(position) - first
redis.call('LTRIM', KEYS[3], dropped, -1)
redis.call('SET', KEYS[2], ARGV[1])
if firstId and firstId ~= id then redis.call('DEL', KEYS[4]) end
return dropped`;

/**
 * Appends piece `ARGV[1]` (counted from 0), `ARGV[2]`, to the snapshot list `KEYS[1]` unless it
 * holds it already (a request re-sent after its reply was lost), and lets the list live
 * `ARGV[3]` seconds more. Answers the list's length.
 */
export const PUSH_PIECE = `if redis.call('LLEN', KEYS[1]) == tonumber(ARGV[1]) then redis.call('RPUSH', KEYS[1], ARGV[2]) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return redis.call('LLEN', KEYS[1])`;

/**
 * Deletes the snapshot name `KEYS[1]` and its list `KEYS[2]` if the name is still `ARGV[1]` and
 * the log `KEYS[3]` (from the start `KEYS[4]`) no longer holds that snapshot (a cut log); the
 * list stays when the log starts from it. Answers 1 when deleted.
 */
export const DROP_SNAPSHOT = `${HOLDS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] or holds(ARGV[1], KEYS[3], KEYS[4]) then return 0 end
redis.call('DEL', KEYS[1])
local _, startId = startOf(KEYS[4])
if not startId or KEYS[2] ~= listOf(KEYS[1], startId) then redis.call('DEL', KEYS[2]) end
return 1`;
