// `node bench/batch-plan-check.mjs [--n 3e5,1e6,2e6,4e6] [--d 3,6,10] [--parts 3,4,5]
//                                  [--blocks 1,2] [--near 0.1] [--max-ratio 6] [--dist dist]`:
// does the planner pick the fastest layout for `findAll`? For each (n, d): `findAll` over the
// same n fingerprints (random, a share `--near` of them 1 or 2 bits from an earlier one) with the
// planner's layout, with each of `--parts`, and with the table layouts of d + `--blocks` blocks
// (up to 4096 tables, and planned to cost at most `--max-ratio` times the pick), each in a fresh process (a WebAssembly memory never shrinks, and where
// the arrays land moves the times), taken in turn. Prints one JSON line per run and a Markdown
// table of each layout's time against the planner's pick (above 1: slower than the pick), with
// the load.

import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nearCopies } from './workloads.mjs';

const here = fileURLToPath(import.meta.url);

if (process.argv[2] === '--child') {
  const [, , , dist, n, d, layout, near] = process.argv;
  const api = await import(`${dist}/esm/index.js`);
  const fingerprints = nearCopies(Number(n), Number(near));
  const options = { distance: Number(d), ...JSON.parse(layout) };
  const start = performance.now();
  const pairs = api.findAll(fingerprints, options);
  const seconds = (performance.now() - start) / 1000;
  console.log(JSON.stringify({ seconds, pairs: pairs.left.length }));
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '3e5,1e6,2e6,4e6' },
    d: { type: 'string', default: '3,6,10' },
    parts: { type: 'string', default: '3,4,5' },
    blocks: { type: 'string', default: '1,2' },
    near: { type: 'string', default: '0.1' },
    'max-ratio': { type: 'string', default: '6' },
    dist: { type: 'string', default: fileURLToPath(new URL('../dist', import.meta.url)) },
  },
});
const list = (text) => text.split(',').filter(Boolean).map(Number);
const api = await import(`${values.dist}/esm/index.js`);

function run(n, d, layout) {
  const child = spawnSync(process.execPath, [here, '--child', values.dist, String(n), String(d), JSON.stringify(layout), values.near], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`n=${n} d=${d} ${JSON.stringify(layout)}: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

const name = (layout) => ('parts' in layout ? `${layout.parts} parts` : `${layout.blocks} blocks`);
const rows = [];
for (const d of list(values.d)) {
  for (const n of list(values.n)) {
    const plan = api.planTables({ n, distance: d, use: 'batch' });
    const pick = plan.family === 'parts' ? { parts: plan.parts } : plan.family === 'tables' ? { blocks: plan.blocks } : null;
    const layouts = [...list(values.parts).map((parts) => ({ parts })), ...list(values.blocks).map((extra) => ({ blocks: d + extra }))].filter((layout) => {
      const planned = api.planTables({ n, distance: d, use: 'batch', ...layout });
      return planned.tables <= 4096 && planned.cost <= Number(values['max-ratio']) * plan.cost;
    });
    if (pick !== null && !layouts.some((layout) => name(layout) === name(pick))) layouts.unshift(pick);
    const times = new Map();
    let pairs;
    for (const layout of layouts) {
      const load = loadavg()[0];
      const result = run(n, d, layout);
      if (pairs !== undefined && result.pairs !== pairs) throw new Error(`n=${n} d=${d}: ${name(layout)} found ${result.pairs} pairs, not ${pairs}`);
      pairs = result.pairs;
      times.set(name(layout), result.seconds);
      console.log(JSON.stringify({ n, d, layout: name(layout), seconds: +result.seconds.toFixed(3), pairs, load: +load.toFixed(2) }));
    }
    const picked = pick === null ? undefined : times.get(name(pick));
    for (const [layout, seconds] of times) {
      rows.push({ n, d, layout, seconds, ratio: picked === undefined ? NaN : seconds / picked, pick: pick !== null && layout === name(pick) });
    }
  }
}

console.log(`\nload ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
console.log('| n | d | layout | findAll | against the pick |');
console.log('|---:|---:|---|---:|---:|');
for (const row of rows) {
  console.log(`| ${row.n.toLocaleString('en-US')} | ${row.d} | ${row.layout}${row.pick ? ' (pick)' : ''} | ${row.seconds.toFixed(2)} s | ${row.ratio.toFixed(2)}× |`);
}
