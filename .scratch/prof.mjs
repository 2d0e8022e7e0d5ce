import { RedisServers } from '/work/wt-redis/scripts/redis-servers.mjs';
import { RedisSimHashIndex, connectRedis } from '/work/wt-redis/dist/esm/redis/index.js';
const s = await RedisServers.single();
try {
  const client = await connectRedis(s.url);
  const idx = await RedisSimHashIndex.open({ client, name: 'p', distance: 3, capacity: 20000 });
  const n = 20000;
  const ids = new Uint32Array(n), fps = new BigUint64Array(n);
  for (let i = 0; i < n; i++) { ids[i] = i; fps[i] = BigInt.asUintN(64, BigInt(Math.floor(Math.random()*2**32)) << 32n | BigInt(Math.floor(Math.random()*2**32))); }
  let t = performance.now();
  await idx.addMany(ids, fps);
  console.log('addMany', n, (performance.now() - t).toFixed(0), 'ms');
  await s.nodes[0].cli('CONFIG', 'RESETSTAT');
  t = performance.now();
  for (let r = 0; r < 5; r++) await idx.queryMany(fps.subarray(r * 1000, r * 1000 + 1000));
  console.log('5 x queryMany 1000', (performance.now() - t).toFixed(0), 'ms');
  t = performance.now();
  for (let r = 0; r < 1000; r++) await idx.query(fps[r]);
  console.log('1000 query', (performance.now() - t).toFixed(0), 'ms');
  console.log(await s.nodes[0].cli('INFO', 'commandstats'));
  client.disconnect();
} finally { await s.stop(); }
