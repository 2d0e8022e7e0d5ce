// How the larger-distance searches scale with n, against a baseline build in the same run:
//
//   node bench/scale.mjs [--n 1e6,3e6,10e6,30e6] [--d 3,6,10,16] [--queries 2000]
//                        [--find-all-max 1e6] [--baseline /path/to/dist]
//
// For each (n, d), in a fresh process (WebAssembly memory never shrinks, so its size after a
// step is that step's peak): the SimHashIndex the planner lays out over n random fingerprints,
// its build time, microseconds per query (median of 3 passes over the queries, a third of them
// near a stored value), WebAssembly bytes per fingerprint; and findAll and findClusters for n
// up to --find-all-max. With --baseline, the same in that build (an earlier release's dist/),
// for n up to --find-all-max, and the ratio. Prints one JSON line per row and a Markdown table.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : args[at + 1];
};

if (args[0] === '--child') {
  const [, dist, n, d, queries, withBatch] = args;
  console.log(JSON.stringify(await measure(dist, Number(n), Number(d), Number(queries), withBatch === '1')));
  process.exit(0);
}

const ns = option('n', '1e6,3e6,10e6,30e6').split(',').map(Number);
const ds = option('d', '3,6,10,16').split(',').map(Number);
const queries = Number(option('queries', '2000'));
const findAllMax = Number(option('find-all-max', '1e6'));
const baseline = option('baseline', undefined);
const current = join(here, '..', 'dist');

/** Runs one measurement in a fresh process; `null` when it failed (e.g. out of memory). */
function child(dist, n, d, withBatch) {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dist, String(n), String(d), String(queries), withBatch ? '1' : '0'], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (run.status !== 0) {
    console.error(`n=${n} d=${d} (${dist}) failed: ${run.stderr.split('\n').slice(-3).join(' ')}`);
    return null;
  }
  return JSON.parse(run.stdout);
}

const rows = [];
for (const d of ds) {
  for (const n of ns) {
    const withBatch = n <= findAllMax;
    const row = { n, d, current: child(current, n, d, withBatch) };
    if (baseline !== undefined && n <= findAllMax) row.baseline = child(resolve(baseline), n, d, true);
    console.log(JSON.stringify(row));
    rows.push(row);
  }
}

const fmt = (x, digits = 0) => (x === undefined || x === null ? '–' : x.toFixed(digits));
const ratio = (a, b) => (a && b ? `${(b / a).toFixed(1)}×` : '–');
console.log('\n| d | n | index layout | µs/query | vs n=first | bytes/fp | findAll s | findClusters s | baseline µs/query | query speed-up | findAll speed-up | findClusters speed-up |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const d of ds) {
  const first = rows.find((r) => r.d === d && r.current)?.current;
  for (const r of rows.filter((row) => row.d === d)) {
    const c = r.current;
    const b = r.baseline;
    if (c === null) {
      console.log(`| ${d} | ${r.n / 1e6}M | did not fit | | | | | | | | | |`);
      continue;
    }
    console.log(
      `| ${d} | ${r.n / 1e6}M | ${c.layout} | ${fmt(c.queryMicros, 1)} | ${ratio(first.queryMicros, c.queryMicros)} | ${fmt(c.bytesPerFingerprint)} | ${fmt(c.findAllSeconds, 2)} | ${fmt(c.findClustersSeconds, 2)} | ${fmt(b?.queryMicros, 1)} | ${ratio(c.queryMicros, b?.queryMicros)} | ${ratio(c.findAllSeconds, b?.findAllSeconds)} | ${ratio(c.findClustersSeconds, b?.findClustersSeconds)} |`,
    );
  }
}

/** One (n, d) measurement of the build in `dist`. */
async function measure(dist, n, d, count, withBatch) {
  const api = await import(join(dist, 'esm', 'index.js'));
  await api.init();
  const memory = () => api.allocHashArray(0).view.buffer.byteLength;
  const rng = splitMix(BigInt(n * 131 + d));
  const fingerprints = api.allocHashArray(n);
  const values = fingerprints.view;
  for (let i = 0; i < n; i++) values[i] = rng();
  const qs = new BigUint64Array(count);
  for (let q = 0; q < count; q++) {
    qs[q] = q % 3 === 0 ? values[Number(rng() % BigInt(n))] ^ (1n << (rng() % 64n)) : rng();
  }
  const before = memory();
  let started = performance.now();
  const index = new api.SimHashIndex({ distance: d });
  const ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  index.addMany(ids, fingerprints);
  const buildSeconds = (performance.now() - started) / 1000;
  const bytesPerFingerprint = (memory() - before) / n;
  const layout = index.parts ? `${index.parts} parts` : index.blocks ? `${index.blocks} blocks` : 'direct';
  const passes = [];
  for (let pass = 0; pass < 3; pass++) {
    started = performance.now();
    for (let q = 0; q < count; q++) index.query(qs[q]);
    passes.push(((performance.now() - started) * 1000) / count);
  }
  index.free();
  const result = { layout, buildSeconds, queryMicros: passes.sort((a, b) => a - b)[1], bytesPerFingerprint };
  if (withBatch) {
    started = performance.now();
    result.pairs = api.findAll(fingerprints, { distance: d, maxPairs: 2 ** 30 }).left.length;
    result.findAllSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    api.findClusters(fingerprints, { distance: d });
    result.findClustersSeconds = (performance.now() - started) / 1000;
  }
  return result;
}

/** SplitMix64 from `seed`. */
function splitMix(seed) {
  let state = seed;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & 0xffff_ffff_ffff_ffffn;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffff_ffff_ffff_ffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffff_ffff_ffff_ffffn;
    return z ^ (z >> 31n);
  };
}
