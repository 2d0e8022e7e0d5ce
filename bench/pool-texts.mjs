// `node bench/pool-texts.mjs [--n N] [--rounds R]`: the default rule on every core.
// `pool.decideTexts` with 1 and 2 workers against `decideTexts` in this thread, alternated in one
// process over N real short lines (bench/short-lines.mjs's cache), with the same decisions
// checked; and the control that bounds what workers can give: the share of one thread's time
// spent sketching (what the workers take) against deciding (what stays on one thread), with the
// speedup Amdahl's law allows for 2 workers. Prints the load beside each figure.

import { availableParallelism, loadavg } from 'node:os';
import { TextSketches, decideTexts, init } from '../dist/esm/index.js';
import { createPool } from '../dist/esm/parallel/index.js';
import { shortLines } from './short-lines.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const N = option('--n', 400_000);
const ROUNDS = option('--rounds', 3);
await init();
const load = () => loadavg()[0].toFixed(2);
const texts = shortLines(N);
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(`${N.toLocaleString('en')} real short lines, ${availableParallelism()} vCPUs (load ${load()} at start)`);

const pools = [await createPool({ threads: 1 }), await createPool({ threads: 2 })];
const times = { thread: [], one: [], two: [], sketch: [], decide: [] };
let same = true;
for (let round = 0; round < ROUNDS; round++) {
  let start = performance.now();
  const want = decideTexts(texts);
  times.thread.push(performance.now() - start);
  for (const [k, pool] of pools.entries()) {
    start = performance.now();
    const got = await pool.decideTexts(texts);
    times[k === 0 ? 'one' : 'two'].push(performance.now() - start);
    same &&= got.representative.every((r, i) => r === want.representative[i]);
  }
  const sketches = new TextSketches();
  start = performance.now();
  sketches.add(texts);
  times.sketch.push(performance.now() - start);
  start = performance.now();
  sketches.decide();
  times.decide.push(performance.now() - start);
  sketches.free();
  console.log(`round ${round + 1}: this thread ${(times.thread.at(-1) / 1000).toFixed(2)} s, pool of 1 ${(times.one.at(-1) / 1000).toFixed(2)} s, pool of 2 ${(times.two.at(-1) / 1000).toFixed(2)} s (load ${load()})`);
}
for (const pool of pools) await pool.close();
const [thread, one, two, sketch, decide] = [times.thread, times.one, times.two, times.sketch, times.decide].map(median);
const share = sketch / (sketch + decide);
console.log(`medians: this thread ${(thread / 1000).toFixed(2)} s; pool of 1 ${(thread / one).toFixed(2)}×, pool of 2 ${(thread / two).toFixed(2)}× its speed; same decisions: ${same}`);
console.log(`control: sketching ${(sketch / 1000).toFixed(2)} s, deciding ${(decide / 1000).toFixed(2)} s in one thread: ${(share * 100).toFixed(0)} % can go to workers, so 2 workers can give at most ${(1 / (1 - share + share / 2)).toFixed(2)}× (load ${load()})`);
