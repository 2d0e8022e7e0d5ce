// `node bench/cli-output.mjs [--records N] [--runs R]`: what `dedup --jsonl --output FILE` costs
// over the report alone, on a JSON Lines file of real short lines (bench/short-lines.mjs's local
// cache; by default 1,000,000 records, about 120 MB, each with an id and a field besides its
// text), the two runs alternated in each round. Before any time counts, the output must hold
// every input line but the removed records. Prints each round, the medians, their ratio and the
// load.

import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shortLines } from './short-lines.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const records = Number(option('--records', '1000000'));
const runs = Number(option('--runs', '3'));

const dir = join(root, 'target', 'bench');
const file = join(dir, `short-records-${records}.jsonl`);
const out = join(dir, 'kept.jsonl');

async function generate() {
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.partial`;
  const stream = createWriteStream(partial);
  const lines = shortLines(records);
  for (const [i, text] of lines.entries()) {
    if (!stream.write(`${JSON.stringify({ id: `r${i}`, text, source: 'short-lines', n: i })}\n`)) await new Promise((resolve) => stream.once('drain', resolve));
  }
  await new Promise((resolve) => stream.end(resolve));
  renameSync(partial, file);
}

if (!existsSync(file)) await generate();
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${records.toLocaleString('en')} records, ${(statSync(file).size / 1e6).toFixed(1)} MB; load ${load()}; node ${process.version}`);

const cli = join(root, 'dist', 'esm', 'cli', 'main.js');
/** Seconds one run takes, and what it printed. */
function timed(extra) {
  const start = performance.now();
  const result = spawnSync(process.execPath, [cli, 'dedup', file, '--jsonl', '--id', 'id', '--removed', ...extra], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = (performance.now() - start) / 1000;
  if (result.status !== 0) throw new Error(`dedup failed (${result.status}): ${result.stderr}`);
  return { seconds, removed: result.stdout.split('\n').filter(Boolean) };
}

// The output holds every input line but the removed records.
const check = timed(['--output', out]);
const removed = new Set(check.removed);
const expected = readFileSync(file, 'utf8').split('\n').filter((line, i, all) => i < all.length - 1 && !removed.has(JSON.parse(line).id)).join('\n') + '\n';
if (readFileSync(out, 'utf8') !== expected) throw new Error('--output is not the input without the removed records');
console.log(`checked: ${removed.size.toLocaleString('en')} removed, the output the input without them\n`);

const report = [];
const withOutput = [];
for (let round = 0; round < runs; round++) {
  report.push(timed([]).seconds);
  withOutput.push(timed(['--output', out]).seconds);
  console.log(`round ${round + 1}: report alone ${report.at(-1).toFixed(2)} s, with --output ${withOutput.at(-1).toFixed(2)} s`);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`\nmedian: report alone ${median(report).toFixed(2)} s, with --output ${median(withOutput).toFixed(2)} s: ${(median(withOutput) / median(report)).toFixed(3)}×; load ${load()}`);
rmSync(out, { force: true });
