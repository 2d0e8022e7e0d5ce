// `node bench/cli-jsonl.mjs [--documents N] [--runs R] [--threads 1,2]`: the command line on a
// large JSON Lines file, once per thread count, in interleaved rounds. The file (by default
// 1,000,000 documents, about 1.2 GB: seeded English-like prose of ~1,200 bytes per document, a
// tenth of them near-copies of an earlier one) is written once under target/ and reused. Each
// run's JSON report must equal the first thread count's, byte for byte, before any time counts.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishLike } from './texts.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const documents = Number(option('--documents', '1000000'));
const runs = Number(option('--runs', '3'));
const threadCounts = option('--threads', '1,2').split(',').map(Number);

const dir = join(root, 'target', 'bench');
const file = join(dir, `documents-${documents}.jsonl`);

/** Writes the file in batches of seeded documents; near-copies change a few words of an earlier one. */
async function generate() {
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  const batch = 10_000;
  let previous = [];
  for (let first = 0; first < documents; first += batch) {
    const texts = englishLike(first + 1, Math.min(batch, documents - first), 1_200);
    const lines = texts.map((text, k) => {
      let body = text;
      if (k % 10 === 9 && previous.length > 0) {
        const words = previous[(k * 7919) % previous.length].split(' ');
        for (let w = k % 13; w < words.length; w += 40) words[w] = 'edited';
        body = words.join(' ');
      }
      return `${JSON.stringify({ id: `doc-${first + k}`, text: body })}\n`;
    });
    previous = texts;
    if (!out.write(lines.join(''))) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  renameSync(partial, file);
}

if (!existsSync(file)) {
  console.error(`writing ${file}…`);
  await generate();
}
const bytes = statSync(file).size;
console.error(`${file}: ${documents.toLocaleString('en')} documents, ${(bytes / 1e9).toFixed(2)} GB`);

const cli = join(root, 'dist', 'esm', 'cli', 'main.js');
/** One run: wall time, and a digest of the report. */
function dedup(threads) {
  const start = performance.now();
  const child = spawnSync(process.execPath, [cli, 'dedup', file, '--jsonl', '--json', '--threads', String(threads)], { maxBuffer: 1 << 30 });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`dedup --threads ${threads} failed (${child.status}):\n${child.stderr}`);
  return { ms, digest: createHash('sha256').update(child.stdout).digest('hex') };
}

const samples = new Map(threadCounts.map((t) => [t, []]));
let expected;
for (let round = 0; round < runs; round++) {
  for (const threads of threadCounts) {
    const { ms, digest } = dedup(threads);
    expected ??= digest;
    if (digest !== expected) throw new Error(`--threads ${threads} printed a different report`);
    samples.get(threads).push(ms);
    console.error(`  round ${round + 1}: --threads ${threads} ${(ms / 1000).toFixed(1)} s`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const base = median(samples.get(threadCounts[0]));
console.log(`| threads | median of ${runs} | MB/s | speedup |`);
console.log('|---:|---:|---:|---:|');
for (const [threads, list] of samples) {
  const ms = median(list);
  console.log(`| ${threads} | ${(ms / 1000).toFixed(1)} s | ${(bytes / 1e6 / (ms / 1000)).toFixed(0)} | ${(base / ms).toFixed(2)}× |`);
}
