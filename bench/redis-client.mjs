// One client process of the Redis benchmark (bench/redis.mjs starts several): loads its share
// of the entries with addMany, or runs queries, and prints what it measured as one JSON line.
//
// node bench/redis-client.mjs <json job>
//   job: { url, name, op: 'add' | 'queryMany' | 'query', first, count, batch, concurrency,
//          seconds, total, replicas, dist }

const job = JSON.parse(process.argv[2] ?? '{}');
// `job.dist`: the build to measure (another checkout's dist/, for a baseline); this one's by default.
const { connectRedis, RedisSimHashIndex } = await import(job.dist === undefined ? '../dist/esm/redis/index.js' : `${job.dist}/esm/redis/index.js`);

/** Fingerprint of entry i: splitmix64(i), so every process derives the same entries. @param {number} i */
export function entry(i) {
  let z = BigInt.asUintN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n);
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}

/** Query k: a near-duplicate (2 bits flipped) of an entry for even k, an unrelated value for odd k. @param {number} k @param {number} total */
function probe(k, total) {
  const base = entry((k * 7919) % total);
  return k % 2 === 0 ? base ^ (1n << BigInt(k % 64)) ^ (1n << BigInt((k * 13 + 5) % 64)) : entry(total + 1_000_000 + k);
}

const client = await connectRedis(job.url);
const index = await RedisSimHashIndex.open({ client, name: job.name, replicas: job.replicas ?? 0 });
const result = { op: job.op, items: 0, ms: 0, cpuMs: 0, latencies: /** @type {number[]} */ ([]), hits: 0 };
const start = performance.now();
const cpuStart = process.cpuUsage();
if (job.op === 'add') {
  for (let at = job.first; at < job.first + job.count; at += job.batch) {
    const n = Math.min(job.batch, job.first + job.count - at);
    const ids = new Uint32Array(n);
    const values = new BigUint64Array(n);
    for (let k = 0; k < n; k++) {
      ids[k] = at + k;
      values[k] = entry(at + k);
    }
    await index.addMany(ids, values);
    result.items += n;
  }
} else {
  const deadline = start + job.seconds * 1000;
  let next = job.first;
  if (job.op === 'queryMany') {
    while (performance.now() < deadline) {
      const values = new BigUint64Array(job.batch);
      for (let k = 0; k < job.batch; k++) values[k] = probe(next++, job.total);
      const found = await index.queryMany(values);
      result.hits += found.ids.length;
      result.items += job.batch;
    }
  } else {
    // `concurrency` queries in flight at once, each timed from call to answer.
    await Promise.all(
      Array.from({ length: job.concurrency }, async () => {
        while (performance.now() < deadline) {
          const value = probe(next++, job.total);
          const t = performance.now();
          const found = await index.query(value);
          result.latencies.push(performance.now() - t);
          result.hits += found.ids.length;
          result.items++;
        }
      }),
    );
  }
}
result.ms = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
result.cpuMs = (cpu.user + cpu.system) / 1000;
index.close();
client.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
