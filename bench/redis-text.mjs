// `node bench/redis-text.mjs [--texts N] [--clients C] [--batch B] [--queries Q] [--single]`: the
// default rule shared through Redis (`RedisTextIndex`) on servers started here — a cluster of
// 3 masters + 3 replicas on loopback, writes acknowledged with `replicas: 1`, or one server with
// `--single` — over N real short lines (bench/short-lines.mjs's cache), each figure beside its
// baseline in the same run:
// - deciding: C client processes at once, each deciding batches of B (batch k goes to client
//   k mod C), against one in-process `TextIndex.decideMany` over the same lines in the same
//   batches: texts per second, and per text the client CPU (every client replays the others'
//   batches), the servers' CPU and the bytes the clients' connections moved;
// - query: one client, Q single `query` calls (half of them lines decided before, half new),
//   against `TextIndex.query` of the same lines on the in-process index: client CPU and bytes per
//   query;
// - open: a new process opening the index (it replays the whole log), against the in-process
//   fill; then a snapshot taken by another process, and an open that loads it; then a
//   compaction and an open of the compacted log;
// - the masters' memory per text.
// Prints the load beside each figure and writes bench/results/redis-text-<time>.json.

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RedisServers } from '../scripts/redis-servers.mjs';
import { mastersMemory, serversCpu } from './redis-stats.mjs';
import { TextIndex, init } from '../dist/esm/index.js';
import { shortLines } from './short-lines.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const N = option('--texts', 1_000_000);
const CLIENTS = option('--clients', 4);
const BATCH = option('--batch', 1000);
const QUERIES = option('--queries', 5000);
const single = args.includes('--single');
const load = () => loadavg()[0].toFixed(2);
const scratch = mkdtempSync(join(tmpdir(), 'redis-text-bench-'));

execFileSync(process.execPath, [`${root}scripts/ensure-redis.mjs`], { stdio: 'inherit' });
await init();

/** Runs bench/redis-text-client.mjs with `job`; its JSON line. */
function client(job) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}bench/redis-text-client.mjs`, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited ${code}`))));
  });
}



const all = shortLines(N + QUERIES / 2);
const texts = all.slice(0, N);
const probes = Array.from({ length: QUERIES }, (_, k) => (k % 2 === 0 ? texts[(k * 7919) % N] : all[N + (k >> 1)]));
console.log(`RedisTextIndex over ${N.toLocaleString('en')} real short lines, ${CLIENTS} clients, batches of ${BATCH}, ${single ? 'one server' : 'cluster 3 + 3, replicas: 1'} (load ${load()})`);

// The baseline: one process, one TextIndex, the same batches.
let start = performance.now();
let cpu = process.cpuUsage();
const local = new TextIndex();
for (let at = 0; at < N; at += BATCH) {
  const end = Math.min(N, at + BATCH);
  local.decideMany(Uint32Array.from({ length: end - at }, (_, q) => at + q), texts.slice(at, end));
}
const fillMs = performance.now() - start;
const fillCpu = process.cpuUsage(cpu);
const fillCpuUs = ((fillCpu.user + fillCpu.system) / N).toFixed(1);
console.log(`baseline TextIndex.decideMany in one process: ${((N / fillMs) * 1000).toFixed(0)} texts/s, ${fillCpuUs} µs CPU per text (load ${load()})`);
start = performance.now();
cpu = process.cpuUsage();
for (const text of probes) local.query(text);
const localQuery = process.cpuUsage(cpu);
const localQueryUs = (localQuery.user + localQuery.system) / QUERIES;
local.free();

const servers = single ? await RedisServers.single() : await RedisServers.cluster(3, 5000);
const results = { machine: { load: load(), node: process.version }, texts: N, clients: CLIENTS, batch: BATCH, single, baseline: { fillMs, fillCpuUsPerText: Number(fillCpuUs), queryCpuUs: localQueryUs } };
try {
  const name = `bench-${Date.now()}`;
  const replicas = single ? 0 : 1;
  const memoryBefore = await mastersMemory(servers);
  const files = Array.from({ length: CLIENTS }, (_, c) => {
    const ids = [];
    for (let at = c * BATCH; at < N; at += CLIENTS * BATCH) for (let q = at; q < Math.min(N, at + BATCH); q++) ids.push(q);
    const file = join(scratch, `client-${c}.json`);
    writeFileSync(file, JSON.stringify({ ids, texts: ids.map((i) => texts[i]) }));
    return file;
  });
  const serverCpuBefore = await serversCpu(servers);
  const decided = await Promise.all(files.map((file) => client({ url: servers.url, name, op: 'decide', file, batch: BATCH, replicas })));
  const serverCpuUs = (((await serversCpu(servers)) - serverCpuBefore) * 1e6) / N;
  const wallMs = Math.max(...decided.map((r) => r.ms));
  const clientCpuUs = (decided.reduce((sum, r) => sum + r.cpuMs, 0) * 1000) / N;
  const bytesPerText = decided.reduce((sum, r) => sum + r.read + r.written, 0) / N;
  results.decide = { perSecond: (N / wallMs) * 1000, clientCpuUsPerText: clientCpuUs, serverCpuUsPerText: serverCpuUs, bytesPerText, retries: decided.reduce((sum, r) => sum + r.retries, 0), ratioToOneProcess: fillMs / wallMs };
  console.log(
    `decideMany, ${CLIENTS} processes: ${results.decide.perSecond.toFixed(0)} texts/s (${results.decide.ratioToOneProcess.toFixed(2)}× one in-process TextIndex), ` +
      `per text ${clientCpuUs.toFixed(1)} µs client CPU (${(clientCpuUs / Number(fillCpuUs)).toFixed(2)}× the in-process decision) + ${serverCpuUs.toFixed(1)} µs servers, ` +
      `${bytesPerText.toFixed(0)} B moved; ${results.decide.retries} calls retried (load ${load()})`,
  );
  results.memoryPerText = ((await mastersMemory(servers)) - memoryBefore) / N;
  console.log(`masters' memory: ${results.memoryPerText.toFixed(0)} B per text (the replicas hold as much again)`);

  const queryFile = join(scratch, 'queries.json');
  writeFileSync(queryFile, JSON.stringify({ texts: probes }));
  const queried = await client({ url: servers.url, name, op: 'query', file: queryFile });
  results.query = { perSecond: (queried.items / queried.ms) * 1000, clientCpuUs: (queried.cpuMs * 1000) / queried.items, bytes: (queried.read + queried.written) / queried.items };
  console.log(
    `query, one client one at a time: ${results.query.perSecond.toFixed(0)}/s, ${results.query.clientCpuUs.toFixed(1)} µs client CPU ` +
      `(in-process TextIndex.query ${localQueryUs.toFixed(1)} µs), ${results.query.bytes.toFixed(0)} B moved per query (load ${load()})`,
  );

  const opened = await client({ url: servers.url, name, op: 'open' });
  results.open = { ms: opened.ms, bytes: opened.read + opened.written, ratioToFill: opened.ms / fillMs };
  console.log(`open (replays the log): ${(opened.ms / 1000).toFixed(1)} s, ${(results.open.bytes / 2 ** 20).toFixed(0)} MB read; ${results.open.ratioToFill.toFixed(2)}× the in-process fill (load ${load()})`);

  const memoryBeforeSnapshot = await mastersMemory(servers);
  const snapshot = await client({ url: servers.url, name, op: 'snapshot', replicas });
  results.snapshot = { ms: snapshot.ms, bytes: snapshot.snapshotBytes, mastersMemoryPerText: ((await mastersMemory(servers)) - memoryBeforeSnapshot) / N };
  console.log(
    `snapshot (by a process that opened the index): ${(snapshot.ms / 1000).toFixed(2)} s, ${(snapshot.snapshotBytes / 2 ** 20).toFixed(0)} MB, ` +
      `${results.snapshot.mastersMemoryPerText.toFixed(0)} B per text more on the masters (load ${load()})`,
  );
  const fromSnapshot = await client({ url: servers.url, name, op: 'open' });
  results.openFromSnapshot = { ms: fromSnapshot.ms, bytes: fromSnapshot.read + fromSnapshot.written, ratioToReplay: fromSnapshot.ms / opened.ms };
  console.log(
    `open (loads the snapshot): ${(fromSnapshot.ms / 1000).toFixed(2)} s, ${(results.openFromSnapshot.bytes / 2 ** 20).toFixed(0)} MB read; ` +
      `${results.openFromSnapshot.ratioToReplay.toFixed(2)}× the replay's time (load ${load()})`,
  );

  const memoryBeforeCompaction = await mastersMemory(servers);
  const compacted = await client({ url: servers.url, name, op: 'compact', replicas });
  const memoryAfterCompaction = await mastersMemory(servers);
  results.compact = { ms: compacted.ms, dropped: compacted.dropped, mastersMemoryPerTextDropped: (memoryBeforeCompaction - memoryAfterCompaction) / N, mastersMemoryPerTextAfter: (memoryAfterCompaction - memoryBefore) / N };
  console.log(
    `compact (by a process that opened the index): ${(compacted.ms / 1000).toFixed(2)} s, ${compacted.dropped} entries dropped, ` +
      `${results.compact.mastersMemoryPerTextDropped.toFixed(0)} B per text less on the masters, ${results.compact.mastersMemoryPerTextAfter.toFixed(0)} B per text left (load ${load()})`,
  );
  const fromStart = await client({ url: servers.url, name, op: 'open' });
  results.openCompacted = { ms: fromStart.ms, bytes: fromStart.read + fromStart.written, ratioToReplay: fromStart.ms / opened.ms };
  console.log(`open (the compacted log): ${(fromStart.ms / 1000).toFixed(2)} s, ${(results.openCompacted.bytes / 2 ** 20).toFixed(0)} MB read; ${results.openCompacted.ratioToReplay.toFixed(2)}× the replay's time (load ${load()})`);
} finally {
  await servers.stop();
  rmSync(scratch, { recursive: true, force: true });
}
mkdirSync(`${root}bench/results`, { recursive: true });
const out = `${root}bench/results/redis-text-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`written ${out}`);
