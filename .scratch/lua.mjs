import { RedisServers } from '/work/wt-redis/scripts/redis-servers.mjs';
import { Redis } from 'ioredis';
const s = await RedisServers.single();
const FILTER = `
local q1, q2 = struct.unpack('>I4>I4', ARGV[1])
local d = tonumber(ARGV[2])
local out = {}
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local a, b = struct.unpack('>I4>I4', m)
  local x, y = bit.bxor(a, q1), bit.bxor(b, q2)
  local c = 0
  while x ~= 0 do x = bit.band(x, x - 1); c = c + 1 end
  while y ~= 0 do y = bit.band(y, y - 1); c = c + 1 end
  if c <= d then out[#out + 1] = m end
end
return table.concat(out)`;
const ALL = `return table.concat(redis.call('ZRANGE', KEYS[1], 0, -1))`;
try {
  const c = new Redis(s.url);
  for (const size of [16, 64, 150, 256]) {
    const key = `b${size}`;
    const members = [];
    for (let i = 0; i < size; i++) { const m = Buffer.alloc(12); m.writeUInt32BE((Math.random() * 2 ** 32) >>> 0, 0); m.writeUInt32BE((Math.random() * 2 ** 32) >>> 0, 4); m.writeUInt32BE(i, 8); members.push(0, m); }
    await c.zadd(key, ...members);
    const q = Buffer.alloc(8, 7);
    for (const [label, lua, args] of [['filter in Lua', FILTER, [q, '3']], ['all to client', ALL, []]]) {
      await s.nodes[0].cli('CONFIG', 'RESETSTAT');
      for (let r = 0; r < 2000; r++) await c.evalBuffer(lua, 1, key, ...args);
      const stats = await s.nodes[0].cli('INFO', 'commandstats');
      const usec = Number(/cmdstat_eval:calls=\d+,usec=\d+,usec_per_call=([\d.]+)/.exec(stats)[1]);
      console.log(`${size} members: ${label} ${usec.toFixed(1)} µs per call in Redis`);
    }
  }
  c.disconnect();
} finally { await s.stop(); }
