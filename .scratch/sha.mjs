import { RedisServers } from '/work/wt-redis/scripts/redis-servers.mjs';
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
const s = await RedisServers.single();
try {
  const c = new Redis(s.url, { enableAutoPipelining: true });
  const lua = "return 1";
  const sha = createHash('sha1').update(lua).digest('hex');
  console.log(await c.eval(lua, 0));
  try { console.log(await c.evalshaBuffer(sha, 0)); } catch (e) { console.log('err', e.message); }
  try { console.log(await c.evalsha(sha, 0)); } catch (e) { console.log('err', e.message); }
  c.disconnect();
} finally { await s.stop(); }
