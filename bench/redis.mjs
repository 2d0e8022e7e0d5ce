// `npm run bench:redis [-- --entries N] [--entries10 N] [--quick] [--only one|cluster] [--distances 3,10]`:
// the shared index on real
// servers started here (scripts/redis-servers.mjs), nothing left running afterwards.
//
// 1. One server: our index against datasketch's Redis-backed MinHashLSH (PyPI, installed into
//    .venv-datasketch by scripts/setup-datasketch.mjs) on the same server in the same run.
// 2. A cluster of 3 masters + 3 replicas on loopback: `addMany` from 4 client processes,
//    `queryMany` and `query` from 4 processes, one client's query latency, memory per entry,
//    at distance 3 and 10, writes acknowledged with `replicas: 1` (the durable mode).
//
// Prints a table and writes it as JSON to bench/results/redis-<time>.json.

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { RedisServers } from '../scripts/redis-servers.mjs';
import { mastersMemory, serversCpu } from './redis-stats.mjs';
import { connectRedis, RedisSimHashIndex } from '../dist/esm/redis/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const quick = args.includes('--quick');
const entries3 = option('--entries', quick ? 20_000 : 1_000_000);
const entries10 = option('--entries10', quick ? 10_000 : 200_000);
const seconds = quick ? 2 : 8;
// `--only cluster` or `--only one`: one of the two parts; `--distances 3,10`: the cluster's;
// `--baseline DIST`: every cluster row measured for that build too, the two alternated (the
// index formats must agree: both builds query the index the first one loaded).
const baseline = args.includes('--baseline') ? args[args.indexOf('--baseline') + 1] : undefined;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const distances = args.includes('--distances') ? args[args.indexOf('--distances') + 1].split(',').map(Number) : [3, 10];
const CLIENTS = 4;

execFileSync(process.execPath, [`${root}scripts/ensure-redis.mjs`], { stdio: 'inherit' });

/** Runs bench/redis-client.mjs with `job` and returns its JSON line. @param {object} job */
function client(job) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}bench/redis-client.mjs`, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited ${code}`))));
  });
}

/** Runs `count` clients at once; items per second over the slowest one's time. */
async function parallel(count, job) {
  const share = Math.ceil(job.count / count);
  const results = await Promise.all(
    Array.from({ length: count }, (_, k) => client({ ...job, first: job.op === 'add' ? k * share : k * 1_000_003, count: Math.min(share, job.count - k * share) })),
  );
  const items = results.reduce((sum, r) => sum + r.items, 0);
  const ms = Math.max(...results.map((r) => r.ms));
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const clientCpuMs = results.reduce((sum, r) => sum + r.cpuMs, 0);
  return { items, perSecond: (items / ms) * 1000, ...percentiles(latencies), hits: results.reduce((sum, r) => sum + r.hits, 0), clientCpuMs };
}

/** @param {number[]} sorted */
function percentiles(sorted) {
  if (sorted.length === 0) return {};
  return { medianMs: sorted[Math.floor(sorted.length / 2)], p99Ms: sorted[Math.floor(sorted.length * 0.99)] };
}


/**
 * Runs `measure` and adds the CPU time it cost per item, in the clients and in the servers:
 * figures that do not depend on how busy the machine was, unlike the rates.
 * @param {RedisServers} servers @param {() => Promise<any>} measure
 */
async function withCpu(servers, measure) {
  const before = await serversCpu(servers);
  const result = await measure();
  const serverUs = ((await serversCpu(servers)) - before) * 1e6 / result.items;
  return { ...result, cpu: `CPU ${(result.clientCpuMs * 1000 / result.items).toFixed(0)} µs client + ${serverUs.toFixed(0)} µs servers per item` };
}


/** Creates index `name` (distance, capacity), so that client processes open it. */
async function create(url, name, distance, capacity) {
  const redis = await connectRedis(url);
  const index = await RedisSimHashIndex.open({ client: redis, name, distance, capacity });
  const blocks = index.blocks;
  redis.disconnect();
  return blocks;
}

const rows = [];
const row = (section, what, figure, note = '') => {
  rows.push({ section, what, figure, note });
  console.log(`${section.padEnd(28)} ${what.padEnd(44)} ${figure.padStart(14)}  ${note}`);
};
const rate = (n) => `${Math.round(n).toLocaleString('en')}/s`;
const ms = (n) => `${n.toFixed(2)} ms`;

const machine = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).trim()}`;
// Other work on the machine takes CPU from the servers and clients: say how much there was.
const load = () => loadavg()[0]?.toFixed(1);
console.log(`${machine}; load average ${load()}`);

// 1. One server: ours against datasketch.
if (only === undefined || only === 'one') {
  const servers = await RedisServers.single();
  try {
    const n = quick ? 5000 : 20_000;
    await create(servers.url, 'one', 3, n);
    const add = await withCpu(servers, () => parallel(1, { url: servers.url, name: 'one', op: 'add', count: n, batch: 1000 }));
    const one = await withCpu(servers, () => parallel(1, { url: servers.url, name: 'one', op: 'query', count: 0, concurrency: 1, seconds, total: n }));
    const many = await withCpu(servers, () => parallel(1, { url: servers.url, name: 'one', op: 'queryMany', count: 0, batch: 1000, seconds, total: n }));
    row('one server, d=3', `addMany (batches of 1000), ${n.toLocaleString('en')} entries`, rate(add.perSecond), add.cpu);
    row('one server, d=3', 'query, one at a time', rate(one.perSecond), `median ${ms(one.medianMs)}, p99 ${ms(one.p99Ms)}; ${one.cpu}`);
    row('one server, d=3', 'queryMany (batches of 1000), one client', rate(many.perSecond), many.cpu);
    let python;
    try {
      python = execFileSync(process.execPath, [`${root}scripts/setup-datasketch.mjs`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
    } catch {
      console.log('datasketch could not be installed: no comparison');
    }
    if (python !== undefined) {
      const ds = JSON.parse(execFileSync(python, [`${root}bench/redis-datasketch.py`, String(servers.nodes[0].port), String(quick ? 2000 : 20_000), String(seconds)], { encoding: 'utf8' }));
      row('one server, datasketch', 'MinHashLSH.insert, one at a time', rate(ds.insert.perSecond), `${ds.insert.items} items`);
      row('one server, datasketch', 'insertion_session', rate(ds.sessionInsert.perSecond), `${ds.sessionInsert.items} items`);
      row('one server, datasketch', 'MinHashLSH.query, one at a time', rate(ds.query.perSecond), `median ${ms(ds.query.medianMs)}, p99 ${ms(ds.query.p99Ms)}`);
      row('ratio (same server, same run)', 'addMany / insertion_session', `${(add.perSecond / ds.sessionInsert.perSecond).toFixed(1)}×`);
      row('ratio (same server, same run)', 'addMany / insert', `${(add.perSecond / ds.insert.perSecond).toFixed(1)}×`);
      row('ratio (same server, same run)', 'query / query', `${(one.perSecond / ds.query.perSecond).toFixed(1)}×`);
      row('ratio (same server, same run)', 'queryMany / query', `${(many.perSecond / ds.query.perSecond).toFixed(1)}×`);
    }
  } finally {
    await servers.stop();
  }
}

// 2. The cluster.
if (only === undefined || only === 'cluster') {
  // A longer node timeout than the tests': a loaded 2-core machine must not fail over mid-run.
  const servers = await RedisServers.cluster(3, 5000);
  try {
    for (const [distance, n] of distances.map((d) => [d, d > 5 ? entries10 : entries3])) {
      const name = `d${distance}`;
      const section = `cluster 3+3, d=${distance}`;
      const builds = baseline === undefined ? [undefined] : [undefined, baseline];
      /** Runs `job` for each build, this one first, and prints a row each (with the ratio to the baseline). */
      const compare = async (what, count, job, note, figure = (r) => rate(r.perSecond)) => {
        const results = [];
        for (const dist of builds) results.push(await withCpu(servers, () => parallel(count, { ...job, ...(dist === undefined ? {} : { dist }) })));
        results.forEach((r, k) => {
          const ratio = k === 0 && results.length > 1 ? `; ${(r.perSecond / results[1].perSecond).toFixed(2)}× the baseline` : '';
          row(section, `${what}${k === 0 ? '' : ' [baseline]'}`, figure(r), `${note(r)}${ratio}`);
        });
        return results[0];
      };
      const before = await mastersMemory(servers);
      const blocks = await create(servers.url, name, distance, n);
      // Each build loads its own copy (the baseline's under another name, then dropped by
      // measuring only), so each add row writes the same entries to an empty index.
      const results = [];
      for (const dist of builds) {
        const target = dist === undefined ? name : `${name}-baseline`;
        if (dist !== undefined) await create(servers.url, target, distance, n);
        results.push(await withCpu(servers, () => parallel(CLIENTS, { url: servers.url, name: target, op: 'add', count: n, batch: 10_000, replicas: 1, ...(dist === undefined ? {} : { dist }) })));
        if (dist === undefined) row(section, 'memory per entry (masters; replicas hold as much)', `${((await mastersMemory(servers)) - before) / n | 0} B`);
      }
      results.forEach((add, k) => {
        const ratio = k === 0 && results.length > 1 ? `; ${(add.perSecond / results[1].perSecond).toFixed(2)}× the baseline` : '';
        row(section, `addMany, ${CLIENTS} processes, ${n.toLocaleString('en')} entries${k === 0 ? '' : ' [baseline]'}`, rate(add.perSecond), `blocks ${blocks}, WAIT 1 replica; ${add.cpu}${ratio}`);
      });
      const batch = distance > 5 ? 50 : 1000;
      await compare(`queryMany (batches of ${batch}), ${CLIENTS} processes`, CLIENTS, { url: servers.url, name, op: 'queryMany', count: 0, batch, seconds, total: n }, (r) => `${r.hits} hits; ${r.cpu}`);
      // Latency grows with the queries in flight (they wait for the cores): two loads.
      for (const concurrency of [16, 4]) {
        await compare(`query, ${CLIENTS} processes × ${concurrency} in flight`, CLIENTS, { url: servers.url, name, op: 'query', count: 0, concurrency, seconds, total: n }, (r) => `median ${ms(r.medianMs)}, p99 ${ms(r.p99Ms)}; ${r.cpu}`);
      }
      await compare('query, one client, one at a time', 1, { url: servers.url, name, op: 'query', count: 0, concurrency: 1, seconds, total: n }, (r) => `median ${ms(r.medianMs)}, p99 ${ms(r.p99Ms)}; ${r.cpu}`);
      row(section, 'load average', load());
    }
  } finally {
    await servers.stop();
  }
}

mkdirSync(`${root}bench/results`, { recursive: true });
const file = `${root}bench/results/redis-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
console.log(`load average at the end ${load()}`);
writeFileSync(file, `${JSON.stringify({ machine, quick, rows }, null, 2)}\n`);
console.log(`written to ${file}`);
