// `node bench/parallel.mjs [--quick] [--only <text>] [--threads 1,2,4,8] [--n N] [--queries Q] [--runs R]`: the worker pool against
// the synchronous API on this thread, in one run, on the same inputs: fingerprintMany of 40 MB
// of real text (documentation files on this machine), findAll and findClusters over 1M
// fingerprints at distances 3 and 10, queryMany of 100k queries on an index of 1M, and what one
// crossing to a worker costs. Every pool result is checked equal to the synchronous one before
// it is timed. Prints a table and writes JSON under bench/results/.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as simhash from '../dist/esm/index.js';
import { createPool } from '../dist/esm/parallel/index.js';
import { workersOf } from '../dist/esm/parallel/pool.js';
import { gitCommit, machine, osName, writeJson } from './report.mjs';

const root = join(import.meta.dirname, '..');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const threadCounts = args.includes('--threads') ? args[args.indexOf('--threads') + 1].split(',').map(Number) : [1, 2, 4, 8];
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : quick ? 1 : 3;
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const N = option('--n', quick ? 50_000 : 1_000_000);
const QUERIES = option('--queries', quick ? 5_000 : 100_000);
const TEXT_BYTES = quick ? 2 << 20 : 40 << 20;

await simhash.init();

/** Median wall time of `runs` calls of `fn`, in ms (callers make one untimed call first). */
async function time(fn, runs = RUNS) {
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

/** Text files from the machine's documentation and this repository's dependencies, one document each. */
function realTexts(bytes) {
  const texts = [];
  let total = 0;
  const visit = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (total >= bytes) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && /(\.md|\.txt|^README.*|^copyright|^changelog.*\.gz)$/i.test(entry.name) && statSync(path).size > 1024) {
        const raw = readFileSync(path);
        const text = (entry.name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
        // Long files become documents of about 8 KB, split at paragraphs.
        for (const part of text.split(/\n\s*\n(?=[\s\S]{8192})/)) {
          texts.push(part);
          total += Buffer.byteLength(part);
        }
      }
    }
  };
  visit('/usr/share/doc');
  visit(join(import.meta.dirname, '..', 'node_modules'));
  return { texts, total };
}

/** `n` fingerprints: random values, and near copies (up to `spread` bits) of a tenth of them. */
function fingerprints(n, spread, seed) {
  let s = seed >>> 0;
  const next32 = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const out = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    if (i > 0 && next32() % 10 === 0) {
      let x = out[next32() % i];
      for (let b = next32() % (spread + 1); b > 0; b--) x ^= 1n << BigInt(next32() % 64);
      out[i] = x;
    } else {
      out[i] = (BigInt(next32()) << 32n) | BigInt(next32());
    }
  }
  return out;
}

function same(a, b) {
  if (ArrayBuffer.isView(a)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return Object.keys(a).every((k) => same(a[k], b[k]));
}

const rows = [];
const pools = new Map();
for (const threads of threadCounts) pools.set(threads, await createPool({ threads }));

/** Median of a list of samples. */
function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/**
 * Times the synchronous call and the pool of each size in interleaved rounds, so that a change
 * in the load other jobs put on the machine falls on every configuration alike.
 */
async function compare(id, items, unit, syncCall, poolCall) {
  if (only !== undefined && !id.includes(only)) return;
  // The checked calls double as warm-up.
  const expected = await syncCall();
  for (const [threads, pool] of pools) {
    if (!same(await poolCall(pool), expected)) throw new Error(`${id}: the pool with ${threads} threads disagrees with the synchronous API`);
  }
  const baseline = [];
  const samples = new Map([...pools.keys()].map((t) => [t, []]));
  for (let r = 0; r < RUNS; r++) {
    baseline.push(await time(syncCall, 1));
    for (const [threads, pool] of pools) samples.get(threads).push(await time(() => poolCall(pool), 1));
  }
  const baselineMs = median(baseline);
  const row = { id, items, unit, baselineMs, baselineSamplesMs: baseline, threads: {} };
  for (const [threads, list] of samples) row.threads[threads] = { ms: median(list), samplesMs: list, speedup: baselineMs / median(list) };
  row.control = await controlRatio();
  controls.push(row.control);
  rows.push(row);
  console.error(`  control: two busy workers did ${row.control.toFixed(2)}× the work of one`);
  console.error(
    `${id}: one thread ${baselineMs.toFixed(0)} ms; ` +
      Object.entries(row.threads)
        .map(([t, r]) => `${t} workers ${r.ms.toFixed(0)} ms (${r.speedup.toFixed(2)}×)`)
        .join(', '),
  );
}

/**
 * How much parallel capacity the machine had during the run: a busy loop on one worker against
 * the same loop on two at once, interleaved with the workloads. On an idle two-core machine
 * the ratio is 2; other jobs lower it, and every speedup above should be read against it.
 */
async function controlRatio() {
  const code = `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (n) => { let x = 0; for (let i = 0; i < n; i++) x = (x + i * 7) | 0; parentPort.postMessage(x); });`;
  const { Worker } = await import('node:worker_threads');
  const a = new Worker(code, { eval: true });
  const b = new Worker(code, { eval: true });
  const run = (w) => new Promise((resolve) => { w.once('message', resolve); w.postMessage(2e8); });
  await Promise.all([run(a), run(b)]);
  const one = await time(() => run(a), 1);
  const two = await time(() => Promise.all([run(a), run(b)]), 1);
  await Promise.all([a.terminate(), b.terminate()]);
  return (2 * one) / two;
}
const controls = [];

const { texts, total } = realTexts(TEXT_BYTES);
await compare(`fingerprintMany ${(total / 2 ** 20).toFixed(0)} MB`, total / 2 ** 20, 'MB', () => simhash.fingerprintMany(texts), (pool) => pool.fingerprintMany(texts));

for (const distance of [3, 10]) {
  const values = fingerprints(N, distance + 2, 7 + distance);
  await compare(`findAll ${N} d=${distance}`, N, 'fingerprints', () => simhash.findAll(values, { distance }), (pool) => pool.findAll(values, { distance }));
  await compare(`findClusters ${N} d=${distance}`, N, 'fingerprints', () => simhash.findClusters(values, { distance }), (pool) => pool.findClusters(values, { distance }));
}

for (const distance of [3, 10]) {
  const id = `queryMany ${QUERIES} on ${N} d=${distance}`;
  if (only !== undefined && !id.includes(only)) continue;
  const values = fingerprints(N, distance + 2, 100 + distance);
  const ids = Uint32Array.from({ length: N }, (_, i) => i);
  const queries = fingerprints(QUERIES, distance + 2, 200 + distance);
  // Queries near indexed values, so that they find something.
  for (let q = 0; q < QUERIES; q += 2) queries[q] = values[(q * 7919) % N] ^ (1n << BigInt(q % 64));
  const one = new simhash.SimHashIndex({ distance });
  one.addMany(ids, values);
  // Sharded: one shard per worker, every query asked of every shard. Replicated: one shard held
  // by every worker, the queries split between them.
  for (const layout of ['sharded', 'replicated']) {
    const indexes = new Map();
    for (const [threads, pool] of pools) {
      const index = await pool.createIndex(layout === 'sharded' ? { distance } : { distance, shards: 1, replicas: threads });
      await index.addMany(ids, values);
      indexes.set(pool, index);
    }
    await compare(`${id} (${layout})`, QUERIES, 'queries', () => one.queryMany(queries), (pool) => indexes.get(pool).queryMany(queries));
    for (const index of indexes.values()) await index.free();
  }
  one.free();
}

// What one crossing costs: a round trip with nothing in it, and 8 MB there and back copied,
// moved (transferred) and shared.
const crossings = [];
if (only === undefined || 'crossing'.includes(only) || only === 'crossing') {
  const workers = workersOf(pools.get(threadCounts.find((t) => t >= 1)));
  const bytes = 8 << 20;
  const echo = (payload, transfer, transferBack) => workers.run({ op: 'echo', payload, transferBack }, transfer, 0);
  const cases = [
    ['round trip, empty', async () => echo(0, [], false), 0],
    ['8 MB copied there and back', async () => echo(new Uint8Array(bytes), [], false), bytes],
    ['8 MB transferred there and back', async () => {
      const a = new Uint8Array(bytes);
      return echo(a, [a.buffer], true);
    }, bytes],
    ['8 MB SharedArrayBuffer there and back', async () => echo(new Uint8Array(new SharedArrayBuffer(bytes)), [], false), bytes],
  ];
  for (const [name, fn, size] of cases) {
    await fn();
    const ms = await time(fn, quick ? 5 : 50);
    crossings.push({ name, bytes: size, ms });
    console.error(`crossing: ${name}: ${(ms * 1000).toFixed(0)} µs`);
  }
}

for (const pool of pools.values()) await pool.close();

const lines = [
  '| workload | one thread (sync API) | ' + threadCounts.map((t) => `${t} worker${t > 1 ? 's' : ''}`).join(' | ') + ' | control |',
  '|---|---:|' + threadCounts.map(() => '---:').join('|') + '|---:|',
];
for (const row of rows) {
  lines.push(
    `| ${row.id} | ${row.baselineMs.toFixed(0)} ms | ` +
      threadCounts.map((t) => `${row.threads[t].ms.toFixed(0)} ms (${row.threads[t].speedup.toFixed(2)}×)`).join(' | ') +
      ` | ${row.control.toFixed(2)}× |`,
  );
}
if (crossings.length > 0) {
  lines.push('', '| crossing | median |', '|---|---:|');
  for (const c of crossings) lines.push(`| ${c.name} | ${(c.ms * 1000).toFixed(0)} µs |`);
}
console.log(lines.join('\n'));
const report = { date: new Date().toISOString(), commit: gitCommit(root), os: osName(), machine: machine(), node: process.version, quick, rows, crossings };
console.log(`\n${report.os}, ${report.machine.cpu}, ${availableParallelism()} cores available, Node ${process.version}, commit ${report.commit}`);
console.error(`wrote ${writeJson({ ...report, commit: `parallel-${report.commit}` }, join(root, 'bench', 'results'))}`);
