// `node bench/plan-check.mjs [--n 1000000] [--distances 0-16] [--queries 2000] [--rounds 3]`:
// does the planner pick the fastest index layout? For each distance, builds a SimHashIndex over
// the same n random fingerprints with the planner's layout and with its neighbours (permuted
// tables of d+1 to d+5 blocks, up to 64 tables; 2 to 6 parts), times single queries (half
// within d bits of an entry, half random) in alternating rounds, and prints each layout's
// speed against the fastest, with the planner's pick marked. Load is printed with the figures.

import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import * as wasm from '../dist/esm/index.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    distances: { type: 'string', default: '0-16' },
    queries: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
  },
});
const n = Number(values.n);
const [lo, hi] = values.distances.split('-').map(Number);
const queryCount = Number(values.queries);
const rounds = Number(values.rounds);
await wasm.init();

let state = 0x9e3779b97f4a7c15n;
const next = () => {
  state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffff_ffff_ffff_ffffn;
  let x = state;
  x ^= x >> 33n;
  x = (x * 0xff51afd7ed558ccdn) & 0xffff_ffff_ffff_ffffn;
  return x ^ (x >> 33n);
};
const fingerprints = new BigUint64Array(n);
for (let i = 0; i < n; i++) fingerprints[i] = next();
const ids = Uint32Array.from({ length: n }, (_, i) => i);

function queriesFor(d) {
  const out = new BigUint64Array(queryCount);
  for (let q = 0; q < queryCount; q++) {
    if (q % 2 === 1) {
      out[q] = next();
      continue;
    }
    let value = fingerprints[Number(next() % BigInt(n))];
    const flips = d === 0 ? 0 : Number(next() % BigInt(d + 1));
    for (let f = 0; f < flips; f++) value ^= 1n << (next() % 64n);
    out[q] = value;
  }
  return out;
}

const name = (layout) => (layout.parts ? `${layout.parts} parts` : `${layout.blocks} blocks`);

console.log(`n ${n}, ${queryCount} single queries per round, ${rounds} rounds; node ${process.version}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const verdicts = [];
for (let d = lo; d <= hi; d++) {
  const planned = wasm.planTables({ n, distance: d });
  const layouts = [];
  const add = (layout) => {
    if (!layouts.some((l) => name(l) === name(layout))) layouts.push(layout);
  };
  if (planned.family === 'parts') add({ parts: planned.parts });
  else if (planned.blocks > 0) add({ blocks: planned.blocks });
  for (let b = d + 1; b <= Math.min(64, d + 5); b++) {
    let tables = 1;
    for (let k = 0; k < d; k++) tables = (tables * (b - k)) / (k + 1);
    if (tables <= 64) add({ blocks: b });
  }
  for (let p = 2; p <= 6; p++) add({ parts: p });
  const queries = queriesFor(d);
  const indexes = layouts.map((layout) => {
    const index = new wasm.SimHashIndex({ distance: d, ...layout });
    index.addMany(ids, fingerprints);
    return index;
  });
  // Every layout answers the same: check before timing.
  const reference = indexes[0].queryMany(queries);
  for (const index of indexes.slice(1)) {
    const got = index.queryMany(queries);
    if (got.ids.length !== reference.ids.length || got.ids.some((id, k) => id !== reference.ids[k])) throw new Error(`d=${d}: layouts disagree`);
  }
  const times = layouts.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[(i + r) % indexes.length];
      const started = performance.now();
      for (let q = 0; q < queries.length; q++) index.query(queries[q]);
      times[(i + r) % indexes.length].push(performance.now() - started);
    }
  }
  for (const index of indexes) index.free();
  const medians = times.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
  const best = Math.min(...medians);
  const pickedName = planned.family === 'parts' ? `${planned.parts} parts` : planned.blocks > 0 ? `${planned.blocks} blocks` : 'direct';
  const picked = layouts.findIndex((l) => name(l) === pickedName);
  const row = layouts
    .map((l, i) => `${name(l)}${i === picked ? '*' : ''} ${((queryCount / medians[i]) * 1000 / 1000).toFixed(0)}k/s (${(medians[i] / best).toFixed(2)})`)
    .join(', ');
  console.log(`d=${d}: ${row}`);
  verdicts.push({ d, picked: pickedName, pickedRatio: picked >= 0 ? medians[picked] / best : NaN, fastest: name(layouts[medians.indexOf(best)]) });
}
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const v of verdicts) console.log(`d=${v.d}: planner ${v.picked} at ${v.pickedRatio.toFixed(2)}× the fastest's time (fastest: ${v.fastest})`);
