// `node bench/redis-minhash-compact.mjs [--signatures N]`: what `RedisMinHashIndex.compact()`
// bounds. N MinHash signatures (128 positions; pairs of sets of 30 features one feature apart,
// so about half are removed as near-duplicates) are decided in batches of 1,000 by one process
// into an index on a standalone server the script starts; then Redis's memory for the index's
// keys and the time of `open` are measured before and after `compact()`. Prints the load.

import { loadavg } from 'node:os';
import { RedisServers } from '../scripts/redis-servers.mjs';
import { init, minhashMany } from '../dist/esm/index.js';
import { RedisMinHashIndex, connectRedis } from '../dist/esm/redis/index.js';
import { xorshift32 } from './xorshift.mjs';

const args = process.argv.slice(2);
const N = args.includes('--signatures') ? Number(args[args.indexOf('--signatures') + 1]) : 100_000;
const K = 128;
const BATCH = 1000;
await init();

const random = xorshift32(7);
const feature = () => (BigInt(random.next()) << 32n) | BigInt(random.next());
const sets = [];
while (sets.length < N) {
  const base = Array.from({ length: 30 }, feature);
  const copy = [...base];
  copy[random.below(30)] = feature();
  sets.push(base, copy);
}
sets.length = N;
const signatures = minhashMany(BigUint64Array.from(sets.flat()), Uint32Array.from({ length: N + 1 }, (_, i) => 30 * i), { numPerm: K });

const servers = await RedisServers.single();
const client = await connectRedis(servers.url);
try {
  const name = `bench-${Date.now()}`;
  const index = await RedisMinHashIndex.open({ client, name, numPerm: K, threshold: 0.8 });
  let kept = 0;
  for (let at = 0; at < N; at += BATCH) {
    const ids = Uint32Array.from({ length: Math.min(BATCH, N - at) }, (_, q) => at + q);
    const decided = await index.decideMany(ids, signatures.subarray(at * K, (at + ids.length) * K));
    kept += decided.representative.filter((r, q) => r === ids[q]).length;
  }
  const bytes = async () => {
    let total = 0;
    for (const key of await client.keys(`minhashindex:{${name}}*`)) total += Number(await client.memory('USAGE', key, 'SAMPLES', '0'));
    return total;
  };
  const timeOpen = async () => {
    const started = performance.now();
    const opened = await RedisMinHashIndex.open({ client, name });
    const ms = performance.now() - started;
    opened.close();
    return ms;
  };
  const [before, openBefore] = [await bytes(), await timeOpen()];
  const started = performance.now();
  const report = await index.compact();
  const compactMs = performance.now() - started;
  const [after, openAfter] = [await bytes(), await timeOpen()];
  index.close();
  console.log(`${N} signatures decided, ${kept} kept; load ${loadavg()[0].toFixed(2)}, Node ${process.version}`);
  console.log(`Redis bytes per signature decided: ${(before / N).toFixed(0)} before compact(), ${(after / N).toFixed(0)} after (${(after / kept).toFixed(0)} per kept signature)`);
  console.log(`compact(): ${compactMs.toFixed(0)} ms, ${report.dropped} entries dropped, snapshot ${report.bytes} bytes`);
  console.log(`open: ${openBefore.toFixed(0)} ms replaying the log, ${openAfter.toFixed(0)} ms from the start's snapshot`);
} finally {
  client.disconnect();
  await servers.stop();
}
