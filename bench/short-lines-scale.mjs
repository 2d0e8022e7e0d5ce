// `node --max-old-space-size=16000 bench/short-lines-scale.mjs [--n N] [--dist DIR]`: the
// default decision (`TextSketches`: `add` in batches of 100,000, then `decide`, what
// `decideTexts` does) over N short lines (10,000,000 by default), beside `fingerprintMany` over
// the same lines in the same process (the SimHash default's first step: a scale for the reader,
// as the SimHash search at 10 bits is the matter of its own issue past a million). The lines are
// the real lines of bench/short-lines.mjs's cache, then, past them, each real line again with one
// word replaced by a word of another line and, one in four, two letters of a word swapped (what
// template siblings and typos are): a real line's words, ever more of its siblings. Prints the
// time of each step, WebAssembly memory after `add` and after `decide` (it never shrinks, so
// each is that step's peak), the process's resident memory and the load.

import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { shortLines } from './short-lines.mjs';
import { createRng } from './workloads.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const n = Number(option('--n', '10000000'));
const dist = resolve(option('--dist', new URL('../dist', import.meta.url).pathname));
const lib = await import(pathToFileURL(`${dist}/esm/index.js`).href);
const { wasm } = await import(pathToFileURL(`${dist}/esm/wasm/loader.js`).href);
await lib.init();

/** `n` lines: the cache's, then each of them with a word substituted and, one in four, a typo. */
function lines(n) {
  const real = shortLines();
  const rng = createRng(0x10);
  const below = (k) => rng.u32() % k;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const line = real[i % real.length];
    if (i < real.length) {
      out[i] = line;
      continue;
    }
    const words = line.split(' ');
    const other = real[below(real.length)].split(' ');
    words[below(words.length)] = other[below(other.length)];
    const j = below(words.length);
    const w = words[j];
    if (below(4) === 0 && w.length > 4) {
      const k = 1 + below(w.length - 2);
      words[j] = w.slice(0, k - 1) + w[k] + w[k - 1] + w.slice(k + 1);
    }
    out[i] = words.join(' ');
  }
  return out;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB (${(bytes / n).toFixed(0)} bytes a line)`;
const texts = lines(n);
console.log(`${n.toLocaleString('en')} short lines; load ${load()}; node ${process.version}`);
let t = performance.now();
lib.fingerprintMany(texts);
const fingerprints = performance.now() - t;
console.log(`fingerprintMany: ${(fingerprints / 1000).toFixed(1)} s (load ${load()})`);
t = performance.now();
const sketches = new lib.TextSketches();
for (let i = 0; i < n; i += 100_000) sketches.add(texts.slice(i, i + 100_000));
const added = performance.now() - t;
const afterAdd = wasm().memory.buffer.byteLength;
t = performance.now();
const { representative } = sketches.decide();
sketches.free();
const decided = performance.now() - t;
let removed = 0;
for (let i = 0; i < n; i++) if (representative[i] !== i) removed++;
const total = added + decided;
console.log(`add: ${(added / 1000).toFixed(1)} s; WebAssembly memory ${mb(afterAdd)}`);
console.log(`decide: ${(decided / 1000).toFixed(1)} s; WebAssembly memory ${mb(wasm().memory.buffer.byteLength)}; removed ${removed.toLocaleString('en')}`);
console.log(`together: ${(total / 1000).toFixed(1)} s, ${(total / fingerprints).toFixed(2)}× fingerprintMany; resident ${(process.memoryUsage().rss / 1e9).toFixed(2)} GB (load ${load()})`);
