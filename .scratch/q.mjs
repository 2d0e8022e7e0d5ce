import { RedisServers } from '/work/wt-redis/scripts/redis-servers.mjs';
import { Redis } from 'ioredis';
const s = await RedisServers.single();
try {
  const c = new Redis(s.url, { enableAutoPipelining: true });
  const big = Buffer.alloc(8000 * 16 / 64);
  for (let round = 0; round < 5; round++) {
    let t = performance.now();
    await Promise.all(Array.from({ length: 64 }, (_, g) => c.evalBuffer("return ARGV[1]", 1, `k{${g}}`, big)));
    console.log('64 evals', (performance.now() - t).toFixed(1));
    t = performance.now();
    await Promise.all(Array.from({ length: 64 }, (_, g) => c.get(`k{${g}}`)));
    console.log('64 gets', (performance.now() - t).toFixed(1));
  }
  c.disconnect();
} finally { await s.stop(); }
