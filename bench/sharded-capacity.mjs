// `node bench/sharded-capacity.mjs <fingerprints> <shards> <distance> [queries] [blocks=B | parts=P]`:
// builds a ShardedIndex of that many random fingerprints over one worker per shard, in batches
// of a million, and reports the build time, the process's resident memory per fingerprint
// (every worker's WebAssembly instance lives in this process), and queries per second at the
// index's distance and at distance 3. The capacity of one process is its memory divided by
// that figure. A fixed layout (`blocks=4`) keeps the shards from re-planning as they grow.

import { availableParallelism } from 'node:os';
import { createPool } from '../dist/esm/parallel/index.js';

const [n, shards, distance, queryCount] = process.argv.slice(2, 6).map(Number);
const layoutArg = /^(blocks|parts)=(\d+)$/.exec(process.argv[6] ?? '');
const layout = layoutArg === null ? {} : { [layoutArg[1]]: Number(layoutArg[2]) };
if (!(n > 0 && shards > 0 && distance >= 0)) {
  console.error('usage: node bench/sharded-capacity.mjs <fingerprints> <shards> <distance> [queries]');
  process.exit(2);
}
const BATCH = 1_000_000;

let state = 0x1234_5678;
function next32() {
  state = (state + 0x9e3779b9) >>> 0;
  let z = state;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}
function randomFingerprints(count) {
  const words = new Uint32Array(2 * count);
  for (let i = 0; i < words.length; i++) words[i] = next32();
  return new BigUint64Array(words.buffer);
}

const gib = (bytes) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
const rssBefore = process.memoryUsage().rss;
const pool = await createPool({ threads: shards });
const index = await pool.createIndex({ distance, shards, ...layout });
const rssEmpty = process.memoryUsage().rss;
const kept = randomFingerprints(Math.min(n, 100_000));
let peak = rssEmpty;
const start = performance.now();
for (let first = 0; first < n; first += BATCH) {
  const count = Math.min(BATCH, n - first);
  const ids = new Uint32Array(count);
  for (let i = 0; i < count; i++) ids[i] = first + i;
  const fingerprints = first === 0 ? randomFingerprints(count) : randomFingerprints(count);
  if (first === 0) fingerprints.set(kept.subarray(0, Math.min(count, kept.length)));
  await index.addMany(ids, fingerprints);
  peak = Math.max(peak, process.memoryUsage().rss);
  if ((first / BATCH) % 10 === 9) console.error(`${((first + count) / 1e6).toFixed(0)}M in ${((performance.now() - start) / 1000).toFixed(0)} s, rss ${gib(process.memoryUsage().rss)}`);
}
const buildMs = performance.now() - start;
const rss = process.memoryUsage().rss;
console.log(`${n.toLocaleString('en')} fingerprints, ${shards} shards on ${shards} workers (${availableParallelism()} cores), distance ${distance}${layoutArg === null ? '' : `, ${layoutArg[0]}`}`);
console.log(`build: ${(buildMs / 1000).toFixed(1)} s (${((n / buildMs) * 1000).toFixed(0)} fingerprints/s), size ${index.size.toLocaleString('en')}`);
console.log(`resident: ${gib(rss)} after the build, ${gib(peak)} at the peak, ${gib(rssBefore)} before the pool`);
console.log(`per fingerprint: ${((rss - rssEmpty) / n).toFixed(1)} bytes resident after the build, ${((peak - rssEmpty) / n).toFixed(1)} at the peak`);

// Queries: half of them near indexed fingerprints (one bit flipped), half random.
const q = queryCount ?? 10_000;
const queries = randomFingerprints(q);
for (let i = 0; i < q; i += 2) queries[i] = kept[i % kept.length] ^ (1n << BigInt(i % 64));
for (const d of [...new Set([3, distance])].filter((d) => d <= distance)) {
  const t = performance.now();
  const result = await index.queryMany(queries, { distance: d });
  const ms = performance.now() - t;
  console.log(`queryMany at d=${d}: ${q.toLocaleString('en')} queries in ${ms.toFixed(0)} ms: ${((q / ms) * 1000).toFixed(0)} queries/s, ${result.ids.length} ids found`);
}
await pool.close();
