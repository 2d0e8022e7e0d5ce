import { RedisServers } from '/work/wt-redis/scripts/redis-servers.mjs';
import { execFileSync } from 'node:child_process';
const s = await RedisServers.single();
try {
  console.log(execFileSync(process.execPath, ['examples/crawler-redis.mjs', s.url, 'ex'], { encoding: 'utf8' }));
  console.log(execFileSync(process.execPath, ['examples/crawler-redis.mjs', s.url, 'ex'], { encoding: 'utf8' }));
} finally { await s.stop(); }
