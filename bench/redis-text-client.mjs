// One client process of bench/redis-text.mjs: decides its share of the texts through a
// RedisTextIndex, or queries it, or opens it (from its snapshot if it has one, else replaying the
// log), or opens it and takes a snapshot (or compacts the log to one), and prints what it measured as one JSON line: items,
// wall and CPU milliseconds, and the bytes its connections moved (`snapshot`: of the snapshot
// alone, and its bytes).
//
// node bench/redis-text-client.mjs <json job>
//   job: { url, name, op: 'decide' | 'query' | 'open' | 'snapshot' | 'compact', file, batch, replicas }
//   file: JSON of { ids: number[], texts: string[] } (decide) or { texts: string[] } (query)

import { readFileSync } from 'node:fs';
import { connectRedis, RedisTextIndex } from '../dist/esm/redis/index.js';

const job = JSON.parse(process.argv[2] ?? '{}');
const input = job.file === undefined ? {} : JSON.parse(readFileSync(job.file, 'utf8'));
const client = await connectRedis(job.url);
if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));

/** Bytes read and written so far over every connection of the client. */
function bytesMoved() {
  const connections = 'nodes' in client && typeof client.nodes === 'function' ? client.nodes() : [client];
  let read = 0;
  let written = 0;
  for (const connection of connections) {
    read += connection.stream?.bytesRead ?? 0;
    written += connection.stream?.bytesWritten ?? 0;
  }
  return { read, written };
}

const result = { op: job.op, items: 0, ms: 0, cpuMs: 0, read: 0, written: 0, retries: 0 };
let start = performance.now();
let cpu = process.cpuUsage();
let bytes = bytesMoved();
const index = await RedisTextIndex.open({ client, name: job.name, replicas: job.replicas ?? 0, timeout: 30_000, lockFor: 120_000 });
if (job.op !== 'open') {
  // What is timed is the operation, not the open before it.
  start = performance.now();
  cpu = process.cpuUsage();
  bytes = bytesMoved();
}
if (job.op === 'decide') {
  for (let at = 0; at < input.ids.length; at += job.batch) {
    const ids = Uint32Array.from(input.ids.slice(at, at + job.batch));
    const texts = input.texts.slice(at, at + job.batch);
    for (let attempt = 0; ; attempt++) {
      try {
        await index.decideMany(ids, texts);
        break;
      } catch (error) {
        if (error.name !== 'RedisIndexError' || attempt === 10) throw error;
        result.retries++;
      }
    }
    result.items += ids.length;
  }
} else if (job.op === 'query') {
  for (const text of input.texts) {
    await index.query(text);
    result.items++;
  }
} else if (job.op === 'snapshot') {
  result.snapshotBytes = (await index.snapshot()).bytes;
  result.items = await index.decided();
} else if (job.op === 'compact') {
  const report = await index.compact();
  result.snapshotBytes = report.bytes;
  result.dropped = report.dropped;
  result.items = await index.decided();
} else {
  result.items = await index.decided();
}
const used = process.cpuUsage(cpu);
const moved = bytesMoved();
result.ms = performance.now() - start;
result.cpuMs = (used.user + used.system) / 1000;
result.read = moved.read - bytes.read;
result.written = moved.written - bytes.written;
index.close();
client.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
