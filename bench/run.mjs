// `npm run bench [-- --quick] [-- --only <text>] [-- --baseline <dist>]`: times every workload
// (or those whose id contains <text>) on the WebAssembly entry and on the pure TypeScript
// entry, and with --baseline on the WebAssembly entry of another build too (say the previous
// release's dist/, for a ratio measured in the same run), prints a table and writes it as JSON
// under bench/results/. With --quick the
// sizes are small enough for CI, and the exit status is 1 when WebAssembly loses anywhere:
// ratios, unlike absolute times, survive a change of machine.

import { spawnSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as wasm from '../dist/esm/index.js';
import * as pure from '../dist/esm/pure/index.js';
import { measure } from './measure.mjs';
import { comparePeers, formatPeers } from './peers.mjs';
import { compareDatasketch, formatMinHash, lshQueries } from './minhash-peers.mjs';
import { formatReport, gitCommit, machine, osName, writeJson } from './report.mjs';
import { workloads } from './workloads.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const REPETITIONS = {
  full: { runs: 7, minMs: 1_000, budgetMs: 20_000 },
  quick: { runs: 5, minMs: 100, budgetMs: 2_000 },
};

const args = process.argv.slice(2);
/** The value after `flag`, with the positions both take; undefined if `flag` is absent. @param {string} flag */
function valueOf(flag) {
  const at = args.indexOf(flag);
  return at === -1 ? { value: undefined, used: [] } : { value: args[at + 1], used: [at, at + 1] };
}
const onlyArg = valueOf('--only');
const baselineArg = valueOf('--baseline');
const only = onlyArg.value;
const used = new Set([...onlyArg.used, ...baselineArg.used]);
const unknown = args.filter((arg, i) => arg !== '--quick' && !used.has(i));
if (unknown.length > 0 || (onlyArg.used.length > 0 && only === undefined) || (baselineArg.used.length > 0 && baselineArg.value === undefined)) {
  console.error(`unknown argument(s): ${unknown.join(' ')}\nusage: node bench/run.mjs [--quick] [--only <text in workload ids>] [--baseline <dist directory>]`);
  process.exit(2);
}
/** @type {'full' | 'quick'} */
const mode = args.includes('--quick') ? 'quick' : 'full';
const repetitions = REPETITIONS[mode];

/**
 * Both entries promise identical results; timing them is only a comparison if they computed
 * the same thing.
 *
 * @param {unknown} a @param {unknown} b
 * @returns {boolean}
 */
function sameResult(a, b) {
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    return a.constructor === b.constructor && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  }
  if (a instanceof RangeError && b instanceof RangeError) return a.message === b.message;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => sameResult(/** @type {any} */ (a)[k], /** @type {any} */ (b)[k]));
  }
  return a === b;
}

/**
 * @param {string} id
 * @returns {import('./report.mjs').MemoryResult}
 */
function wasmMemory(id) {
  const child = spawnSync(process.execPath, [join(here, 'find-all-memory.mjs'), id], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`find-all-memory.mjs ${id} failed:\n${child.stderr}`);
  const { bytesBefore, bytesAfter, bytesPerFingerprint, freshCallMs } = JSON.parse(child.stdout);
  return { bytesBefore, bytesAfter, bytesPerFingerprint, freshCallMs };
}

/**
 * @param {string} id
 * @returns {import('./report.mjs').MemoryResult}
 */
function callMemory(id) {
  const child = spawnSync(process.execPath, [join(here, 'call-memory.mjs'), id], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`call-memory.mjs ${id} failed:\n${child.stderr}`);
  const { bytesBefore, bytesAfter, bytesPerFingerprint, freshCallMs } = JSON.parse(child.stdout);
  return { bytesBefore, bytesAfter, bytesPerFingerprint, freshCallMs };
}

/** Fast operations are sampled hundreds of times; sub-microsecond digits are only noise. @param {number} ms */
const microseconds = (ms) => Math.round(ms * 1000) / 1000;

const started = performance.now();
const date = new Date().toISOString();
await wasm.init();
/** The WebAssembly entry of the --baseline build. @type {typeof wasm | undefined} */
const baseline = baselineArg.value === undefined ? undefined : await import(pathToFileURL(join(resolve(baselineArg.value), 'esm', 'index.js')).href);
await baseline?.init();

/** @type {import('./report.mjs').Row[]} */
const rows = [];
for (const workload of workloads(mode).filter((w) => only === undefined || w.id.includes(only))) {
  const inputs = workload.prepare();
  const bound = [wasm, pure].map((api) => workload.bind(api, inputs));
  if (baseline !== undefined) bound.push(workload.bind(baseline, inputs));
  let timings;
  try {
    timings = measure(bound.map((b) => b.call), { ...repetitions, throws: workload.throws });
  } finally {
    for (const b of bound) b.free();
  }
  const [w, p, b] = timings;
  if (!sameResult(w.result, p.result)) throw new Error(`${workload.operation} (${workload.size}): the WASM and pure results differ`);

  /** @type {import('./report.mjs').Row} */
  const row = {
    id: workload.id,
    operation: workload.operation,
    size: workload.size,
    items: workload.items,
    unit: workload.unit,
    throws: workload.throws,
    ...(workload.shared ? { shared: true } : {}),
    wasm: { medianMs: w.medianMs, samplesMs: w.samplesMs.map(microseconds), capped: w.capped },
    pure: { medianMs: p.medianMs, samplesMs: p.samplesMs.map(microseconds), capped: p.capped },
    wasmItemsPerSecond: workload.items / (w.medianMs / 1000),
    ratio: p.medianMs / w.medianMs,
  };
  if (b !== undefined) {
    row.baseline = { medianMs: b.medianMs, samplesMs: b.samplesMs.map(microseconds), capped: b.capped };
    row.baselineRatio = b.medianMs / w.medianMs;
    // Text fingerprints are specified (v1): a different answer from the baseline is a bug.
    if (workload.id.startsWith('text-') && !sameResult(w.result, b.result)) throw new Error(`${workload.operation}: WASM and baseline results differ`);
  }
  if (workload.findAll && !workload.throws) row.pairs = /** @type {import('../dist/esm/index.js').PairResult} */ (w.result).left.length;
  // A fresh process per measurement: the quick mode, a speed gate for CI, leaves memory out.
  if (mode === 'full' && workload.findAll) row.wasmMemory = wasmMemory(workload.id);
  if (mode === 'full' && workload.peakMemory) row.wasmMemory = callMemory(workload.id);
  rows.push(row);
  console.error(`${workload.operation} (${workload.size}): WASM ${w.medianMs.toFixed(2)} ms, pure ${p.medianMs.toFixed(2)} ms${b ? `, baseline ${b.medianMs.toFixed(2)} ms` : ''}`);
}

const peers = only === undefined || 'peers'.includes(only) ? comparePeers(wasm, pure, repetitions, mode === 'full' ? 2_000 : 300) : [];

const minhashPeers =
  only === undefined || 'minhash-peers'.includes(only)
    ? { datasketch: compareDatasketch(wasm, pure, repetitions, mode === 'full' ? 2_000 : 200), lsh: lshQueries(wasm, mode === 'full' ? 1_000_000 : 20_000) }
    : undefined;

/** @type {import('./report.mjs').Report} */
const report = {
  mode,
  baseline: baselineArg.value,
  date,
  commit: gitCommit(root),
  machine: machine(),
  os: osName(),
  node: process.version,
  repetitions,
  rows,
  peers,
  minhashPeers,
  totalSeconds: (performance.now() - started) / 1000,
};
console.log(formatReport(report));
if (peers.length > 0) console.log(`\n${formatPeers(peers)}\n`);
if (minhashPeers !== undefined) console.log(`${formatMinHash(minhashPeers.datasketch, minhashPeers.lsh)}\n`);
const file = writeJson(report, join(here, 'results'));
console.log(`wrote ${relative(process.cwd(), file)}`);

if (mode === 'quick') {
  const slower = rows.filter((row) => row.ratio < 1 && !row.shared);
  if (slower.length > 0) {
    console.error(`FAIL: WebAssembly is slower than pure TypeScript on: ${slower.map((row) => `${row.operation} (${row.size}, ratio ${row.ratio.toFixed(2)})`).join('; ')}`);
    process.exit(1);
  }
  console.log('OK: WebAssembly is at least as fast as pure TypeScript on every operation');
}
