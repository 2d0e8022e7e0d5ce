// `node bench/plan-check.mjs [--n 1000000] [--distances 0-16] [--queries 20000] [--rounds 5]`:
// does the planner pick the fastest index layout? For each distance, times the planner's layout
// against each of its neighbours (permuted tables of d+1 to d+5 blocks, up to 64 tables; 2 to 6
// parts), two at a time: both indexes built over the same n random fingerprints, single queries
// (half within d bits of an entry, half random) timed alternately, then both built again in the
// other order. Where an index lies in memory moves its speed by up to 1.2×, and holding every
// layout at once (as this script once did) moved the verdicts by more than the gaps between
// layouts; the two orders cancel that out. Prints each neighbour's speed against the planner's
// (above 1: faster than the planner's pick) and the load.

import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import * as wasm from '../dist/esm/index.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    distances: { type: 'string', default: '0-16' },
    queries: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
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

const name = (layout) => (layout.parts ? `${layout.parts} parts` : layout.blocks ? `${layout.blocks} blocks` : 'direct');

function build(d, layout) {
  const index = new wasm.SimHashIndex({ distance: d, ...layout });
  index.addMany(ids, fingerprints);
  return index;
}

/** Milliseconds per query of each of two indexes (built in the order given), timed alternately. */
function timePair(d, queries, layouts) {
  const indexes = layouts.map((layout) => build(d, layout));
  // Both layouts answer the same: checked before timing.
  const [a, b] = indexes.map((index) => index.queryMany(queries));
  if (a.ids.length !== b.ids.length || a.ids.some((id, k) => id !== b.ids[k])) throw new Error(`d=${d}: ${layouts.map(name).join(' and ')} disagree`);
  const times = [[], []];
  for (let r = 0; r < rounds; r++) {
    for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const started = performance.now();
      for (let q = 0; q < queries.length; q++) indexes[k].query(queries[q]);
      times[k].push((performance.now() - started) / queries.length);
    }
  }
  for (const index of indexes) index.free();
  return times.map((t) => t.sort((x, y) => x - y)[t.length >> 1]);
}

console.log(`n ${n}, up to ${queryCount} single queries per round, ${rounds} rounds, each pair in both build orders; node ${process.version}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const verdicts = [];
for (let d = lo; d <= hi; d++) {
  const plan = wasm.planTables({ n, distance: d });
  const planned = plan.family === 'parts' ? { parts: plan.parts } : plan.blocks > 0 ? { blocks: plan.blocks } : {};
  const others = [];
  const add = (layout) => {
    if (name(layout) !== name(planned) && !others.some((l) => name(l) === name(layout))) others.push(layout);
  };
  for (let b = d + 1; b <= Math.min(64, d + 5); b++) {
    let tables = 1;
    for (let k = 0; k < d; k++) tables = (tables * (b - k)) / (k + 1);
    if (tables <= 64) add({ blocks: b });
  }
  for (let p = 2; p <= 6; p++) add({ parts: p });
  // As many queries as take the planner's index about 40 ms, at most --queries.
  const probe = build(d, planned);
  const sample = queriesFor(d).subarray(0, Math.min(queryCount, 500));
  const started = performance.now();
  for (let q = 0; q < sample.length; q++) probe.query(sample[q]);
  const perQuery = (performance.now() - started) / sample.length;
  probe.free();
  const queries = queriesFor(d).subarray(0, Math.max(200, Math.min(queryCount, Math.round(40 / perQuery))));
  const rows = [];
  let plannedRate = 0;
  for (const other of others) {
    const [p1, o1] = timePair(d, queries, [planned, other]);
    const [o2, p2] = timePair(d, queries, [other, planned]);
    // The planner's time over the other's, each order weighing alike.
    const speedup = Math.sqrt((p1 / o1) * (p2 / o2));
    plannedRate = Math.max(plannedRate, 1000 / Math.sqrt(p1 * p2));
    rows.push({ layout: other, speedup });
  }
  const best = rows.reduce((top, row) => (row.speedup > top.speedup ? row : top), { layout: planned, speedup: 1 });
  console.log(`d=${d}: planner ${name(planned)} ${(plannedRate / 1000).toFixed(0)}k/s; ` + rows.map((r) => `${name(r.layout)} ${r.speedup.toFixed(2)}`).join(', '));
  verdicts.push({ d, picked: name(planned), pickedRatio: best.speedup, fastest: name(best.layout) });
}
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const v of verdicts) console.log(`d=${v.d}: planner ${v.picked} at ${v.pickedRatio.toFixed(2)}× the fastest's time (fastest: ${v.fastest})`);
