// `node bench/text-index.mjs [--kept N] [--batch B] [--queries Q]`: the default rule online
// (`TextIndex` of the WebAssembly entry) over real short lines (bench/short-lines.mjs's cache),
// each figure beside its baseline in the same process:
// - filling: `decideMany` over N lines in batches of B, against `decideTexts` over the same N
//   lines at once (the same decisions: checked);
// - deciding more: 100k further lines in batches of 1,000 against the filled index, per text;
// - single queries: Q lines (half of them decided before, half new) one `query` each, against
//   `SimHashIndex.query` of their fingerprints over the same texts' fingerprints at 3 bits;
// - save and load: bytes, time, and what load rebuilds, against the time to fill; and load
//   in a fresh process from a file, as a restarted service loads (the same bytes);
// - memory: WebAssembly memory the index grows, per text decided (measured in a fresh process:
//   memory never shrinks).
// Prints the load beside each figure; take figures on a quiet machine.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SimHashIndex, TextIndex, allocHashArray, decideTexts, fingerprintMany, init } from '../dist/esm/index.js';
import { shortLines } from './short-lines.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const KEPT = option('--kept', 1_000_000);
const BATCH = option('--batch', 10_000);
const QUERIES = option('--queries', 20_000);
const MORE = 100_000;
await init();

const load = () => loadavg()[0].toFixed(2);
const seconds = (start) => (performance.now() - start) / 1000;
const memory = () => allocHashArray(0).view.buffer.byteLength;

/** Fills an index with `texts` in batches; its decisions and the seconds taken. */
function fill(texts) {
  const index = new TextIndex();
  const representative = new Uint32Array(texts.length);
  const start = performance.now();
  for (let at = 0; at < texts.length; at += BATCH) {
    const end = Math.min(texts.length, at + BATCH);
    representative.set(index.decideMany(Uint32Array.from({ length: end - at }, (_, q) => at + q), texts.slice(at, end)).representative, at);
  }
  return { index, representative, seconds: seconds(start) };
}

if (args.includes('--restart')) {
  // A fresh process: a saved index loaded from its file, then saved again.
  const bytes = readFileSync(args[args.indexOf('--restart') + 1]);
  let start = performance.now();
  const index = TextIndex.load(bytes);
  const loadSeconds = seconds(start);
  start = performance.now();
  const saved = index.save();
  const saveSeconds = seconds(start);
  console.log(JSON.stringify({ loadSeconds, saveSeconds, same: Buffer.from(saved).equals(bytes), load: load() }));
  process.exit(0);
}

if (args.includes('--memory')) {
  // A fresh process: what filling grows, per text.
  const texts = shortLines(KEPT);
  const before = memory();
  const { index } = fill(texts);
  console.log(JSON.stringify({ bytes: memory() - before, texts: texts.length, kept: index.size }));
  process.exit(0);
}

const all = shortLines(KEPT + MORE + QUERIES);
const texts = all.slice(0, KEPT);
console.log(`TextIndex over ${KEPT.toLocaleString('en')} real short lines (load ${load()} at start)`);

let start = performance.now();
const batch = decideTexts(texts);
const batchSeconds = seconds(start);
const { index, representative, seconds: fillSeconds } = fill(texts);
const same = batch.representative.every((r, i) => r === representative[i]);
console.log(
  `fill: decideMany in batches of ${BATCH}: ${fillSeconds.toFixed(1)} s (${Math.round(KEPT / fillSeconds).toLocaleString('en')} texts/s); ` +
    `decideTexts at once: ${batchSeconds.toFixed(1)} s; ratio ${(fillSeconds / batchSeconds).toFixed(2)}; same decisions: ${same}; kept ${index.size.toLocaleString('en')} (load ${load()})`,
);

const more = all.slice(KEPT, KEPT + MORE);
start = performance.now();
for (let at = 0; at < more.length; at += 1000) {
  index.decideMany(Uint32Array.from({ length: 1000 }, (_, q) => KEPT + at + q), more.slice(at, at + 1000));
}
const moreSeconds = seconds(start);
console.log(`decideMany against ${index.size.toLocaleString('en')} kept, batches of 1,000: ${Math.round(MORE / moreSeconds).toLocaleString('en')} texts/s (load ${load()})`);

// Queries: half texts decided before, half new; SimHashIndex over the same texts as the baseline.
const queries = [...all.slice(KEPT + MORE, KEPT + MORE + QUERIES / 2), ...texts.slice(0, QUERIES / 2)];
const fingerprints = fingerprintMany(texts);
const simhash = new SimHashIndex({ distance: 3 });
simhash.addMany(Uint32Array.from(texts.keys()), fingerprints);
const queryPrints = fingerprintMany(queries);
const rounds = 3;
const timesText = [];
const timesSimHash = [];
let found = 0;
for (let r = 0; r < rounds; r++) {
  start = performance.now();
  for (const q of queries) found += index.query(q).ids.length > 0 ? 1 : 0;
  timesText.push(seconds(start));
  start = performance.now();
  for (const f of queryPrints) simhash.query(f);
  timesSimHash.push(seconds(start));
}
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(
  `query: ${Math.round(queries.length / median(timesText)).toLocaleString('en')} queries/s (${((found / rounds / queries.length) * 100).toFixed(0)} % found a near-duplicate); ` +
    `SimHashIndex.query at 3 bits: ${Math.round(queries.length / median(timesSimHash)).toLocaleString('en')}/s; ratio ${(median(timesText) / median(timesSimHash)).toFixed(2)} (load ${load()})`,
);
simhash.free();

start = performance.now();
const bytes = index.save();
const saveSeconds = seconds(start);
start = performance.now();
const loaded = TextIndex.load(bytes);
const loadSeconds = seconds(start);
const check = more.slice(0, 2000);
const a = index.decideMany(Uint32Array.from(check.keys(), (q) => 1e9 + q), check);
const b = loaded.decideMany(Uint32Array.from(check.keys(), (q) => 1e9 + q), check);
console.log(
  `save: ${(bytes.length / 1e6).toFixed(1)} MB (${(bytes.length / index.decided).toFixed(0)} bytes per text decided) in ${saveSeconds.toFixed(2)} s; load ${loadSeconds.toFixed(2)} s; ` +
    `together ${((saveSeconds + loadSeconds) / fillSeconds).toFixed(3)} of filling; loaded decides alike: ${a.representative.every((r, i) => r === b.representative[i])} (load ${load()})`,
);
index.free();
loaded.free();

// A restart: the saved bytes loaded by a fresh process, whose memory is all new.
const dir = mkdtempSync(join(tmpdir(), 'text-index-'));
writeFileSync(join(dir, 'index.bin'), bytes);
const restart = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--restart', join(dir, 'index.bin')], { encoding: 'utf8' }));
rmSync(dir, { recursive: true, force: true });
console.log(
  `restart: load in a fresh process ${restart.loadSeconds.toFixed(2)} s, save there ${restart.saveSeconds.toFixed(2)} s (the same bytes: ${restart.same}); ` +
    `together ${(restart.loadSeconds + restart.saveSeconds).toFixed(2)} s (load ${restart.load})`,
);

const grown = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--memory', '--kept', String(KEPT), '--batch', String(BATCH)], { encoding: 'utf8' }));
console.log(`memory: ${(grown.bytes / 1e6).toFixed(0)} MB of WebAssembly memory for ${grown.texts.toLocaleString('en')} texts (${grown.kept.toLocaleString('en')} kept): ${(grown.bytes / grown.texts).toFixed(0)} bytes per text decided`);
