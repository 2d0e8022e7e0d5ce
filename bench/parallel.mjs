// `node bench/parallel.mjs [--quick] [--only <text>] [--threads 1,2,4,8] [--n N] [--queries Q]
// [--runs R] [--pools-only]`: the worker pool against the synchronous API on this thread, in
// one run, on the same inputs: fingerprintMany and minhashMany of 40 MB of real text
// (documentation files on this machine), findAll and findClusters over 1M fingerprints at distances 3 and 10, queryMany
// of 100k queries on an index of 1M, and what one crossing to a worker costs. Every pool result
// is checked equal to the synchronous one before it is timed. Beside each row, the machine's
// capacity for that very work: the synchronous call on two plain workers at once against one
// alone. With --pools-only, the rounds time the pools alone, call after call, against the first
// of --threads (pool sizes compared with nothing else running between them). Prints a table and
// writes JSON under bench/results/.

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
const poolsOnly = args.includes('--pools-only');
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
 * A plain worker that runs one synchronous call of the API on inputs it was given once: the
 * capacity control. `setup` names the call and carries its inputs; each run answers once the
 * call is done (the round trip is timed on this thread, as the pool's calls are).
 */
const CONTROL_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = import(workerData.entry).then(async (simhash) => {
  await simhash.init();
  const { op, texts, values, distance, queries } = workerData.setup;
  if (op === 'fingerprintMany') return () => simhash.fingerprintMany(texts);
  if (op === 'minhashMany') return () => simhash.minhashMany(texts);
  if (op === 'findAll' || op === 'findClusters') return () => simhash[op](values, { distance });
  const index = new simhash.SimHashIndex({ distance });
  index.addMany(Uint32Array.from({ length: values.length }, (_, i) => i), values);
  return () => index.queryMany(queries);
});
parentPort.on('message', async () => {
  (await ready)();
  parentPort.postMessage('done');
});
parentPort.postMessage('loading');`;

/**
 * Two control workers holding the inputs of `setup`. `alone()` times the synchronous call on
 * one of them; `both()` the same call on both at once. `2 × alone / both` is what two threads
 * doing this very work get out of this machine at that moment: 2 on two free cores, less when
 * the cores are shared with other jobs or slowed by each other (memory, caches, clocks); a
 * busy loop would miss the memory part. It is a reference, not a ceiling: the baseline runs on
 * this thread, and a pool can beat it (its calling thread works beside the workers).
 */
async function controlPair(setup) {
  const { Worker } = await import('node:worker_threads');
  const entry = new URL('../dist/esm/index.js', import.meta.url).href;
  const workers = [0, 1].map(() => new Worker(CONTROL_WORKER, { eval: true, workerData: { entry, setup } }));
  const run = (worker) =>
    new Promise((resolve, reject) => {
      const fail = (error) => {
        worker.off('message', done);
        reject(error);
      };
      const done = (value) => {
        worker.off('error', fail);
        resolve(value);
      };
      worker.once('message', done);
      worker.once('error', fail);
      worker.postMessage('run');
    });
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
  await Promise.all(workers.map(run));
  return {
    alone: () => time(() => run(workers[0]), 1),
    both: () => time(() => Promise.all(workers.map(run)), 1),
    close: () => Promise.all(workers.map((w) => w.terminate())),
  };
}

/**
 * The order of `n` steps in round `r`: a Williams design, in which over `n` rounds (`2n` when
 * `n` is odd) each step comes right after each other step equally often. Balanced over whole
 * cycles only: the bench says so when `--runs` is not a multiple of the cycle.
 */
function roundOrder(r, n) {
  // 0, n-1, 1, n-2, 2, …: successive differences -1, +2, -3, … are distinct modulo an even n;
  // for an odd n, the mirrored rounds of every second cycle make up the pairs that repeat.
  const order = Array.from({ length: n }, (_, k) => ((k % 2 === 0 ? k / 2 : n - (k + 1) / 2) + r) % n);
  return n % 2 === 1 && Math.floor(r / n) % 2 === 1 ? order.reverse() : order;
}

/**
 * Times the synchronous call, the pool of each size and the capacity control (with
 * --pools-only, the pools alone) in interleaved rounds, in an order that changes from round to
 * round, so that a change in the machine's speed (this VM's vary by ±25 % from minute to
 * minute) falls on every configuration alike. Each speedup is reported twice: the ratio of the
 * medians, and the median of the rounds' own ratios (each round's pool time against that
 * round's time of the reference: the synchronous call, or with --pools-only the first pool),
 * which is steadier when the machine drifts.
 */
async function compare(id, items, unit, syncCall, poolCall, controlSetup) {
  if (only !== undefined && !id.includes(only)) return;
  // The checked calls double as warm-up.
  const expected = await syncCall();
  for (const [threads, pool] of pools) {
    if (!same(await poolCall(pool), expected)) throw new Error(`${id}: the pool with ${threads} threads disagrees with the synchronous API`);
  }
  const control = poolsOnly ? undefined : await controlPair(controlSetup);
  const baseline = [];
  const capacity = [];
  const samples = new Map([...pools.keys()].map((t) => [t, []]));
  // The order changes from round to round so that no configuration is always timed right
  // after the same one (a pool timed right after another ran slower for it).
  const steps = [...pools].map(([threads, pool]) => async () => samples.get(threads).push(await time(() => poolCall(pool), 1)));
  if (control !== undefined) {
    steps.push(
      async () => baseline.push(await time(syncCall, 1)),
      async () => {
        const alone = await control.alone();
        capacity.push((2 * alone) / (await control.both()));
      },
    );
  }
  const cycle = steps.length % 2 === 0 ? steps.length : 2 * steps.length;
  if (!quick && RUNS % cycle !== 0) console.error(`${id}: ${RUNS} rounds are not whole cycles of ${cycle}: the order is not balanced`);
  for (let r = 0; r < RUNS; r++) {
    for (const k of roundOrder(r, steps.length)) await steps[k]();
  }
  await control?.close();
  const reference = control === undefined ? samples.get(threadCounts[0]) : baseline;
  const baselineMs = median(reference);
  const row = {
    id,
    items,
    unit,
    reference: control === undefined ? `${threadCounts[0]} workers` : 'synchronous API',
    baselineMs,
    baselineSamplesMs: reference,
    capacity: control === undefined ? null : median(capacity),
    capacitySamples: capacity,
    threads: {},
  };
  for (const [threads, list] of samples) {
    row.threads[threads] = {
      ms: median(list),
      samplesMs: list,
      speedup: baselineMs / median(list),
      pairedSpeedup: median(list.map((ms, r) => reference[r] / ms)),
    };
  }
  rows.push(row);
  console.error(
    `${id}: ${row.reference} ${baselineMs.toFixed(0)} ms; ` +
      Object.entries(row.threads)
        .map(([t, r]) => `${t} workers ${r.ms.toFixed(0)} ms (${r.speedup.toFixed(2)}×, rounds ${r.pairedSpeedup.toFixed(2)}×)`)
        .join(', ') +
      (control === undefined ? '' : `; two threads' capacity ${row.capacity.toFixed(2)}× (rounds: ${capacity.map((c) => c.toFixed(2)).join(' ')})`),
  );
}

const { texts, total } = realTexts(TEXT_BYTES);
await compare(
  `fingerprintMany ${(total / 2 ** 20).toFixed(0)} MB`,
  total / 2 ** 20,
  'MB',
  () => simhash.fingerprintMany(texts),
  (pool) => pool.fingerprintMany(texts),
  { op: 'fingerprintMany', texts },
);

await compare(
  `minhashMany ${(total / 2 ** 20).toFixed(0)} MB`,
  total / 2 ** 20,
  'MB',
  () => simhash.minhashMany(texts),
  (pool) => pool.minhashMany(texts),
  { op: 'minhashMany', texts },
);

for (const distance of [3, 10]) {
  const values = fingerprints(N, distance + 2, 7 + distance);
  for (const op of ['findAll', 'findClusters']) {
    await compare(`${op} ${N} d=${distance}`, N, 'fingerprints', () => simhash[op](values, { distance }), (pool) => pool[op](values, { distance }), {
      op,
      values,
      distance,
    });
  }
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
    await compare(`${id} (${layout})`, QUERIES, 'queries', () => one.queryMany(queries), (pool) => indexes.get(pool).queryMany(queries), {
      op: 'queryMany',
      values,
      distance,
      queries,
    });
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
  `| workload | ${poolsOnly ? `reference: ${threadCounts[0]} workers` : 'one thread (sync API)'} | ` +
    threadCounts.map((t) => `${t} worker${t > 1 ? 's' : ''}`).join(' | ') +
    (poolsOnly ? ' |' : " | two threads' capacity |"),
  '|---|---:|' + threadCounts.map(() => '---:').join('|') + (poolsOnly ? '|' : '|---:|'),
];
for (const row of rows) {
  lines.push(
    `| ${row.id} | ${row.baselineMs.toFixed(0)} ms | ` +
      threadCounts
        .map((t) => `${row.threads[t].ms.toFixed(0)} ms (${row.threads[t].speedup.toFixed(2)}×; rounds ${row.threads[t].pairedSpeedup.toFixed(2)}×)`)
        .join(' | ') +
      (row.capacity === null ? ' |' : ` | ${row.capacity.toFixed(2)}× |`),
  );
}
if (crossings.length > 0) {
  lines.push('', '| crossing | median |', '|---|---:|');
  for (const c of crossings) lines.push(`| ${c.name} | ${(c.ms * 1000).toFixed(0)} µs |`);
}
console.log(lines.join('\n'));
const report = { date: new Date().toISOString(), commit: gitCommit(root), os: osName(), machine: machine(), node: process.version, quick, poolsOnly, runs: RUNS, rows, crossings };
console.log(`\n${report.os}, ${report.machine.cpu}, ${availableParallelism()} cores available, Node ${process.version}, commit ${report.commit}`);
console.error(`wrote ${writeJson({ ...report, commit: `parallel-${report.commit}` }, join(root, 'bench', 'results'))}`);
