import { RedisServers } from '/work/wt-redis/scripts/redis-servers.mjs';
import { RedisSimHashIndex, connectRedis } from '/work/wt-redis/dist/esm/redis/index.js';
const s = await RedisServers.single();
try {
  const client = await connectRedis(s.url);
  const idx = await RedisSimHashIndex.open({ client, name: 'p', distance: 3, capacity: 20000 });
  const n = 20000;
  const ids = new Uint32Array(n), fps = new BigUint64Array(n);
  for (let i = 0; i < n; i++) { ids[i] = i; fps[i] = BigInt.asUintN(64, BigInt(Math.floor(Math.random()*2**32)) << 32n | BigInt(Math.floor(Math.random()*2**32))); }
  await idx.addMany(ids, fps);
  for (let r = 0; r < 300; r++) await idx.query(fps[r]);
  await s.nodes[0].cli('CONFIG', 'RESETSTAT');
  const c0 = process.cpuUsage(); const t = performance.now();
  for (let r = 0; r < 2000; r++) await idx.query(fps[r]);
  const c = process.cpuUsage(c0);
  console.log('2000 query', (performance.now() - t).toFixed(0), 'ms wall', ((c.user + c.system) / 2000).toFixed(0), 'µs CPU per query');
  console.log((await s.nodes[0].cli('INFO', 'commandstats')).split('\n').filter(l => l.includes('eval')).join('\n'));
  client.disconnect();
} finally { await s.stop(); }
