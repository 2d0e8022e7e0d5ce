// This package against seomoz/simhash-cpp compiled natively, in one run on one machine: the
// driver in bench/reference/ (built against a simhash-cpp checkout beside the project, which is
// never part of it) times simhash-cpp on the bench's own seeded inputs, written to a temporary
// directory, and this script times the WebAssembly build on the same inputs.
//
//   node bench/reference.mjs --driver PATH [--quick]

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as wasm from '../dist/esm/index.js';
import { measure } from './measure.mjs';
import { machine } from './report.mjs';
import { workloadById } from './workloads.mjs';

const args = process.argv.slice(2);
const driver = args[args.indexOf('--driver') + 1];
if (!args.includes('--driver') || driver === undefined) {
  console.error('usage: node bench/reference.mjs --driver PATH [--quick]');
  process.exit(2);
}
const quick = args.includes('--quick');
const runs = quick ? 3 : 5;
const n = quick ? '100k' : '1M';
const docs = quick ? '10k' : '100k';

/** @param {string[]} argv @returns {{ medianMs: number, result: number }} */
function reference(argv) {
  const child = spawnSync(driver, [...argv, String(runs)], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`${driver} ${argv.join(' ')} failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

/** @param {() => unknown} call */
function ours(call) {
  return measure([call], { runs, minMs: 0, budgetMs: 60_000, throws: false })[0];
}

await wasm.init();
const dir = mkdtempSync(join(tmpdir(), 'simhash-reference-'));
/** @type {Array<{ operation: string, cpp: number, wasm: number, note: string }>} */
const rows = [];
try {
  const fingerprints = /** @type {BigUint64Array} */ (workloadById(`find-all-random-${n}-auto`).prepare());
  const file = join(dir, 'fingerprints.bin');
  writeFileSync(file, fingerprints);
  const owned = wasm.allocHashArray(fingerprints.length);
  owned.view.set(fingerprints);
  for (const blocks of [4, 5, 6]) {
    const cpp = reference(['find-all', file, String(blocks), '3']);
    const mine = ours(() => wasm.findAll(owned, { distance: 3, blocks }));
    const pairs = /** @type {{ left: Uint32Array }} */ (mine.result).left.length;
    rows.push({ operation: `findAll d=3, blocks ${blocks}, ${n} random`, cpp: cpp.medianMs, wasm: mine.medianMs, note: `${cpp.result} / ${pairs} pairs` });
  }
  const auto = ours(() => wasm.findAll(owned, { distance: 3 }));
  rows.push({ operation: `findAll d=3, blocks auto, ${n} random`, cpp: Math.min(...rows.map((r) => r.cpp)), wasm: auto.medianMs, note: 'against simhash-cpp at its best blocks' });
  owned.free();

  const { values, offsets } = /** @type {{ values: BigUint64Array, offsets: Uint32Array }} */ (workloadById(`compute-many-${docs}`).prepare());
  const docsFile = join(dir, 'docs.bin');
  writeFileSync(docsFile, values);
  const documents = offsets.length - 1;
  const perDoc = values.length / documents;
  const cppMany = reference(['compute', docsFile, String(documents), String(perDoc)]);
  const docsOwned = wasm.allocHashArray(values.length);
  docsOwned.view.set(values);
  const many = ours(() => wasm.computeMany(docsOwned, offsets));
  rows.push({ operation: `computeMany, ${docs} docs × ${perDoc} (HashArray)`, cpp: cppMany.medianMs, wasm: many.medianMs, note: '' });
  docsOwned.free();

  const cppOne = reference(['compute', docsFile, '1', String(values.length)]);
  const one = wasm.allocHashArray(values.length);
  one.view.set(values);
  const single = ours(() => wasm.compute(one));
  rows.push({ operation: `compute, 1 doc × ${values.length} (HashArray)`, cpp: cppOne.medianMs, wasm: single.medianMs, note: '' });
  one.free();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const m = machine();
console.log(`simhash-cpp (native, ${driver}) against simhash-wasm (WebAssembly), one thread, medians of ${runs}`);
console.log(`machine: ${m.cpu}, ${m.cores} cores; node ${process.version}\n`);
console.log(`${'operation'.padEnd(46)}  ${'simhash-cpp'.padStart(11)}  ${'WASM'.padStart(9)}  ${'cpp / WASM'.padStart(10)}  notes`);
for (const r of rows) {
  console.log(`${r.operation.padEnd(46)}  ${`${r.cpp.toFixed(1)} ms`.padStart(11)}  ${`${r.wasm.toFixed(1)} ms`.padStart(9)}  ${`${(r.cpp / r.wasm).toFixed(1)}×`.padStart(10)}  ${r.note}`);
}
