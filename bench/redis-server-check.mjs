// `node bench/redis-server-check.mjs`: what the data-model choice of simhash-wasm/redis rests
// on. Redis CPU time per bucket read (the scarce resource: one thread per server), from Redis's
// own command statistics, for buckets of 16 to 256 members of 12 bytes:
//
// - strings read whole with MGET, every member checked on the client (the design in use);
// - sorted sets read by a lexicographic range inside a Lua script (the design before it): one
//   range per prefix, as a table's prefix picks out part of a bucket;
// - sorted sets checked inside Redis in Lua, so that only matches cross the network.

import { Redis } from 'ioredis';
import { RedisServers } from '../scripts/redis-servers.mjs';

const KEYS_PER_CALL = 100;
const CALLS = 400;

const FILTER = `
local q1, q2 = struct.unpack('>I4>I4', ARGV[1])
local d = tonumber(ARGV[2])
local out = {}
for _, key in ipairs(KEYS) do
  for _, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    local a, b = struct.unpack('>I4>I4', m)
    local x, y = bit.bxor(a, q1), bit.bxor(b, q2)
    local c = 0
    while x ~= 0 do x = bit.band(x, x - 1); c = c + 1 end
    while y ~= 0 do y = bit.band(y, y - 1); c = c + 1 end
    if c <= d then out[#out + 1] = m end
  end
end
return table.concat(out)`;
// A quarter of the bucket: a 16-bit prefix in buckets named by 14 bits.
const RANGE = `
local out = {}
for _, key in ipairs(KEYS) do
  out[#out + 1] = table.concat(redis.call('ZRANGEBYLEX', key, '[' .. ARGV[1], '[' .. ARGV[2]))
end
return out`;

/** A random 12-byte member whose last 4 bytes are `i`. @param {number} i */
function member(i) {
  const m = Buffer.alloc(12);
  m.writeUInt32BE((Math.random() * 2 ** 32) >>> 0, 0);
  m.writeUInt32BE((Math.random() * 2 ** 32) >>> 0, 4);
  m.writeUInt32BE(i, 8);
  return m;
}

/** Microseconds per call of `command` in Redis since the last reset. @param {string} stats @param {string} command */
function usecPerCall(stats, command) {
  return Number(new RegExp(`cmdstat_${command}:calls=\\d+,usec=\\d+,usec_per_call=([\\d.]+)`).exec(stats)?.[1]);
}

const s = await RedisServers.single();
try {
  const c = new Redis(s.url);
  console.log(`Redis CPU per bucket read (calls of ${KEYS_PER_CALL} buckets, ${CALLS} calls each):`);
  for (const size of [16, 64, 256]) {
    const strings = [];
    const sets = [];
    for (let k = 0; k < KEYS_PER_CALL; k++) {
      const members = Array.from({ length: size }, (_, i) => member(i));
      strings.push(`s${size}:${k}`);
      sets.push(`z${size}:${k}`);
      await c.set(`s${size}:${k}`, Buffer.concat(members));
      await c.zadd(`z${size}:${k}`, ...members.flatMap((m) => [0, m]));
    }
    const low = Buffer.from([0x40, 0, 0, 0, 0, 0, 0, 0]);
    const high = Buffer.from([0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    const q = Buffer.alloc(8, 7);
    const row = [];
    for (const [label, command, run] of [
      ['MGET of strings', 'mget', () => c.mgetBuffer(strings)],
      ['range in Lua', 'eval', () => c.evalBuffer(RANGE, sets.length, sets, [low, high])],
      ['Hamming check in Lua', 'eval', () => c.evalBuffer(FILTER, sets.length, sets, [q, '3'])],
    ]) {
      await s.nodes[0].cli('CONFIG', 'RESETSTAT');
      for (let r = 0; r < CALLS; r++) await run();
      const usec = usecPerCall(await s.nodes[0].cli('INFO', 'commandstats'), command) / KEYS_PER_CALL;
      row.push(`${label} ${usec.toFixed(2)} µs`);
    }
    console.log(`${String(size).padStart(4)} members: ${row.join(', ')}`);
  }
  c.disconnect();
} finally {
  await s.stop();
}
