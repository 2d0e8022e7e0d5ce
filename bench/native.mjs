// `node bench/native.mjs [--only TEXT] [--rounds 3] [--cpu native]`: the WebAssembly build
// against the same Rust core compiled for this machine (bench/native/, built here with the
// rustup toolchain and `-C target-cpu=<cpu>`: `native`, the ceiling, or `x86-64-v2`, 128-bit
// vectors as WebAssembly has; never shipped), on the same seeded inputs, with the same layouts and
// identical results (a digest of each result is compared). Each round runs the native binary
// (one process, its samples) and the WebAssembly call (the same number of samples) one after the
// other, alternating which goes first; the figures are medians over all rounds. Prints the load.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as wasm from '../dist/esm/index.js';
import * as wasmInternals from '../dist/esm/wasm/loader.js';
import { realEnglish } from './texts.mjs';

const { values } = parseArgs({ options: { only: { type: 'string' }, rounds: { type: 'string', default: '3' }, cpu: { type: 'string', default: 'native' } } });
const rounds = Number(values.rounds);
const root = fileURLToPath(new URL('..', import.meta.url));
const crate = join(root, 'bench', 'native');
const build = spawnSync('cargo', ['build', '--release', '--quiet', '--manifest-path', join(crate, 'Cargo.toml')], {
  stdio: 'inherit',
  env: { ...process.env, RUSTFLAGS: `-C target-cpu=${values.cpu}`, CARGO_TARGET_DIR: join(crate, 'target', values.cpu) },
});
if (build.status !== 0) throw new Error('cargo build of bench/native failed (it needs the rustup toolchain on PATH)');
const binary = join(crate, 'target', values.cpu, 'release', 'simhash-bench-native');
await wasm.init();
const work = mkdtempSync(join(tmpdir(), 'simhash-native-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

let state = 0x2545f4914f6cdd1dn;
function random64() {
  state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffff_ffff_ffff_ffffn;
  let x = state ^ (state >> 31n);
  x = (x * 0xbf58476d1ce4e5b9n) & 0xffff_ffff_ffff_ffffn;
  return x ^ (x >> 29n);
}
const randomFingerprints = (n) => BigUint64Array.from({ length: n }, random64);
function file(name, typed) {
  const path = join(work, name);
  writeFileSync(path, new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength));
  return path;
}
/** FNV-1a over 64-bit words, as the native driver computes it. */
function digest(words) {
  let h = 0xcbf29ce484222325n;
  for (const w of words) h = ((h ^ BigInt(w)) * 0x100000001b3n) & 0xffff_ffff_ffff_ffffn;
  return h.toString(16);
}
const filterCode = (plan) => (plan.family === 'parts' ? 0x80 + plan.parts : plan.blocks);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const fps1M = randomFingerprints(1_000_000);
const fpsFile = file('fps.bin', fps1M);
const queries = (count, d) =>
  BigUint64Array.from({ length: count }, (_, q) => (q % 2 === 1 ? random64() : fps1M[(q * 7919) % fps1M.length] ^ (1n << BigInt(q % 64)) ^ (d > 3 ? 1n << BigInt((q * 13) % 64) : 0n)));

const workloads = [];
for (const d of [3, 10]) {
  const plan = wasm.planTables({ n: fps1M.length, distance: d, use: 'batch' });
  workloads.push({
    name: `findAll 1M random, d=${d} (${plan.family === 'parts' ? `${plan.parts} parts` : `${plan.blocks} blocks`})`,
    unit: 'ms',
    native: ['find-all', fpsFile, d, filterCode(plan)],
    wasm: () => {
      const p = wasm.findAll(fps1M, { distance: d, ...(plan.family === 'parts' ? { parts: plan.parts } : { blocks: plan.blocks }) });
      return digest(Array.from(p.left, (l, k) => (BigInt(l) << 32n) | BigInt(p.right[k])));
    },
  });
}
{
  const plan = wasm.planTables({ n: fps1M.length, distance: 10, use: 'batch' });
  workloads.push({
    name: `findClusters 1M random, d=10 (${plan.parts} parts)`,
    unit: 'ms',
    native: ['find-clusters', fpsFile, 10, filterCode(plan)],
    wasm: () => digest(wasm.findClusters(fps1M, { distance: 10, parts: plan.parts })),
  });
}
for (const [d, count] of [[3, 100_000], [6, 20_000], [10, 5_000]]) {
  const plan = wasm.planTables({ n: fps1M.length, distance: d });
  const qs = queries(count, d);
  const layout = plan.family === 'parts' ? { parts: plan.parts } : { blocks: plan.blocks };
  const layoutName = plan.family === 'parts' ? `${plan.parts} parts` : `${plan.blocks} blocks`;
  const native = ['query', fpsFile, file(`queries-${d}.bin`, qs), d, filterCode(plan)];
  /** A row over its own index of the 1M fingerprints, answering `qs` with `run`. */
  const row = (name, run) => {
    let index;
    return {
      name,
      unit: 'queries/s',
      items: count,
      native,
      setup: () => {
        index = new wasm.SimHashIndex({ distance: d, ...layout });
        index.addMany(Uint32Array.from({ length: fps1M.length }, (_, i) => i), fps1M);
      },
      wasm: () => run(index),
      teardown: () => index.free(),
    };
  };
  workloads.push(
    row(`SimHashIndex.query one at a time, 1M, d=${d} (${layoutName})`, (index) => {
      const found = [];
      for (let q = 0; q < qs.length; q++) for (const id of index.query(qs[q]).ids) found.push(id);
      return digest(found);
    }),
    // The same queries in one call: the core's share of a query without the per-call crossing
    // (argument checks, the 64-bit argument, the answer copied out per query).
    row(`SimHashIndex.queryMany, same queries in one call, 1M, d=${d} (${layoutName})`, (index) => digest(index.queryMany(qs).ids)),
  );
}
{
  // Real English, normalised beforehand (NFKC, lower case), so both sides hash the same bytes.
  const texts = realEnglish(8 << 20).map((t) => t.normalize('NFKC').toLowerCase());
  const encoded = texts.map((t) => Buffer.from(t, 'utf8'));
  const offsets = new Uint32Array(texts.length + 1);
  encoded.forEach((b, i) => (offsets[i + 1] = offsets[i] + b.length));
  const bytes = Buffer.concat(encoded);
  workloads.push({
    name: `text → fingerprints, real English (${(bytes.length / 1e6).toFixed(1)} MB, pre-normalised)`,
    unit: 'MB/s',
    items: bytes.length / 1e6,
    native: ['text', file('texts.bin', bytes), file('offsets.bin', offsets)],
    wasm: () => digest(wasm.fingerprintMany(texts)),
  });
  // The core alone: the same bytes, written once into WebAssembly memory and handed to
  // `sh_text_fingerprint_many` (the export `fingerprintMany` calls), as the native driver hands
  // them to the same Rust function. The gap between this row and the one above is the strings'
  // way in (UTF-8 encoding, the search for runs Unicode normalisation must handle, the copy,
  // lowering ASCII capitals).
  let regions;
  workloads.push({
    name: `text → fingerprints, the same bytes handed to the core (${(bytes.length / 1e6).toFixed(1)} MB)`,
    unit: 'MB/s',
    items: bytes.length / 1e6,
    native: ['text', file('texts.bin', bytes), file('offsets.bin', offsets)],
    setup: () => {
      const live = wasmInternals.wasm();
      regions = { bytes: live.sh_alloc(bytes.length) >>> 0, offsets: live.sh_alloc(offsets.byteLength) >>> 0, out: live.sh_alloc(texts.length * 8) >>> 0 };
      if (Object.values(regions).includes(0)) throw new Error('sh_alloc: out of WebAssembly memory');
      const { u8, u32 } = wasmInternals.memoryViews(live);
      u8.set(bytes, regions.bytes);
      u32.set(offsets, regions.offsets / 4);
    },
    wasm: () => {
      const live = wasmInternals.wasm();
      // Word 3-shingles, binary weights, seed 0: the defaults, as the native driver uses them.
      const status = live.sh_text_fingerprint_many(regions.bytes, bytes.length, regions.offsets, offsets.length, 0, 3, 1, 0n, regions.out);
      if (status !== 0) throw new Error(`sh_text_fingerprint_many failed: status ${status}`);
      return digest(new BigUint64Array(live.memory.buffer, regions.out, texts.length));
    },
    teardown: () => {
      const live = wasmInternals.wasm();
      live.sh_free(regions.bytes, bytes.length);
      live.sh_free(regions.offsets, offsets.byteLength);
      live.sh_free(regions.out, texts.length * 8);
    },
  });
}

console.log(`node ${process.version}; native built with -C target-cpu=${values.cpu}; ${rounds} rounds, native and WebAssembly alternating; load before ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const rows = [];
for (const w of workloads.filter((w) => values.only === undefined || w.name.includes(values.only))) {
  w.setup?.();
  const samples = { native: [], wasm: [] };
  let digests = { native: undefined, wasm: undefined };
  const runs = 5;
  const runNative = () => {
    const out = spawnSync(binary, [w.native[0], String(runs), ...w.native.slice(1).map(String)], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (out.status !== 0) throw new Error(`${w.name}: native run failed: ${out.stderr}`);
    const { samplesMs, digest: d } = JSON.parse(out.stdout);
    samples.native.push(...samplesMs);
    digests.native = d;
  };
  const runWasm = () => {
    for (let r = 0; r < runs; r++) {
      const started = performance.now();
      digests.wasm = w.wasm();
      samples.wasm.push(performance.now() - started);
    }
  };
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      runNative();
      runWasm();
    } else {
      runWasm();
      runNative();
    }
  }
  w.teardown?.();
  if (digests.native !== digests.wasm) throw new Error(`${w.name}: native and WebAssembly results differ (${digests.native} vs ${digests.wasm})`);
  // The first sample of each side warms up (JIT tiers, page faults of fresh memory).
  const n = median(samples.native.slice(1));
  const m = median(samples.wasm.slice(1));
  const rate = (ms) => (w.unit === 'ms' ? `${ms.toFixed(1)} ms` : `${((w.items / ms) * 1000).toLocaleString('en-US', { maximumFractionDigits: w.unit === 'MB/s' ? 0 : 0 })} ${w.unit}`);
  rows.push([w.name, rate(n), rate(m), (n / m).toFixed(2)]);
  console.log(`${w.name}: native ${rate(n)}, WebAssembly ${rate(m)}, WASM/native speed ${(n / m).toFixed(2)}`);
}
console.log(`\n| operation | native | WebAssembly | WASM / native speed |\n|---|---:|---:|---:|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
