// `node bench/growth.mjs [--n 1e6,2e6,4e6,8e6] [--d 3,6,10] [--ops findAll,findClusters,decide,pool.decide]
//                        [--near 0.1] [--samples 200] [--baseline <dist>] [--baseline-max 4e6]`:
// how the batch searches grow with n. For each (d, n), in a fresh process (a WebAssembly
// memory never shrinks, so its size after the calls is their peak): n fingerprints from a fixed
// seed (random, a share `--near` of them 1 or 2 bits from an earlier one), the planner's layout,
// the seconds of each operation (`pool.<op>`: on a pool of two workers, `pool.decide` checked
// equal to `decide` when both are timed), the WebAssembly bytes per fingerprint of this
// thread's instance, and an exactness check:
// for `--samples` fingerprints, every fingerprint within d bits by brute force
// (`hammingDistances`) must be a pair `findAll` reported, and no other. With `--baseline`, the
// same operations in that build (an earlier release's dist/) for n up to `--baseline-max`, run
// right after, and the ratio. Prints one JSON line per process, a Markdown table and the load.

import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRng, nearCopies } from './workloads.mjs';

const here = fileURLToPath(import.meta.url);

if (process.argv[2] === '--child') {
  const [, , , dist, n, d, ops, near, samples] = process.argv;
  console.log(JSON.stringify(await measure(dist, Number(n), Number(d), ops.split(','), Number(near), Number(samples))));
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1e6,2e6,4e6,8e6' },
    d: { type: 'string', default: '3,6,10' },
    ops: { type: 'string', default: 'findAll,findClusters,decide' },
    near: { type: 'string', default: '0.1' },
    samples: { type: 'string', default: '200' },
    baseline: { type: 'string' },
    'baseline-max': { type: 'string', default: '4e6' },
  },
});
const list = (text) => text.split(',').filter(Boolean).map(Number);
const ops = values.ops.split(',');
const current = fileURLToPath(new URL('../dist', import.meta.url));

function child(dist, n, d, samples) {
  const run = spawnSync(process.execPath, [here, '--child', dist, String(n), String(d), values.ops, values.near, String(samples)], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`n=${n} d=${d} (${dist}): ${run.stderr.split('\n').slice(-4).join(' ')}`);
  return JSON.parse(run.stdout);
}

const rows = [];
for (const d of list(values.d)) {
  for (const n of list(values.n)) {
    const load = loadavg()[0];
    const row = { d, n, load, current: child(current, n, d, Number(values.samples)) };
    if (values.baseline !== undefined && n <= Number(values['baseline-max'])) row.baseline = child(resolve(values.baseline), n, d, 0);
    console.log(JSON.stringify(row));
    rows.push(row);
  }
}

console.log(`\nload ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
const head = ops.map((op) => `${op} | growth`).join(' | ');
const baselineHead = values.baseline === undefined ? '' : ops.map((op) => ` baseline ${op} |`).join('');
console.log(`| d | n | layout | ${head} | bytes/fp | exact |${baselineHead}`);
console.log(`|---:|---:|---|${ops.map(() => '---:|---:').join('|')}|---:|---|${values.baseline === undefined ? '' : ops.map(() => '---:|').join('')}`);
for (const row of rows) {
  const previous = rows.find((r) => r.d === row.d && r.n === row.n / 2);
  const cells = ops.map((op) => {
    const seconds = row.current.seconds[op];
    const growth = previous ? `×${(seconds / previous.current.seconds[op]).toFixed(2)}` : '';
    return `${seconds.toFixed(2)} s | ${growth}`;
  });
  const baseline = values.baseline === undefined ? '' : ops.map((op) => (row.baseline ? ` ${row.baseline.seconds[op].toFixed(2)} s (${(row.baseline.seconds[op] / row.current.seconds[op]).toFixed(2)}×) |` : ' – |')).join('');
  const exact = row.current.checked === 0 ? '–' : `${row.current.checked} samples, ${row.current.mismatches} wrong`;
  console.log(`| ${row.d} | ${row.n / 1e6}M | ${row.current.layout} | ${cells.join(' | ')} | ${row.current.bytesPerFingerprint.toFixed(0)} | ${exact} |${baseline}`);
}

/** One (n, d) measurement of the build in `dist`. */
async function measure(dist, n, d, ops, near, samples) {
  const api = await import(join(dist, 'esm', 'index.js'));
  await api.init();
  const fingerprints = nearCopies(n, near);
  const plan = api.planTables({ n, distance: d, use: 'batch' });
  const layout = plan.family === 'parts' ? `${plan.parts} parts` : plan.family === 'tables' ? `${plan.blocks} blocks` : 'direct';
  const seconds = {};
  let pairs;
  let decided;
  // `pool.<op>`: the same call on a pool of two workers (its result checked equal to this
  // thread's when that was timed too).
  const pool = ops.some((op) => op.startsWith('pool.')) ? await (await import(join(dist, 'esm', 'parallel', 'index.js'))).createPool({ threads: 2 }) : undefined;
  for (const op of ops) {
    const name = op.replace(/^pool\./, '');
    const options = { distance: d, ...(name === 'findAll' ? { maxPairs: 2 ** 31 } : {}) };
    const started = performance.now();
    const result = op.startsWith('pool.') ? await pool[name](fingerprints, options) : api[name](fingerprints, options);
    seconds[op] = (performance.now() - started) / 1000;
    if (op === 'findAll') pairs = result;
    if (op === 'decide') decided = result.representative;
    if (op === 'pool.decide' && decided && !decided.every((r, i) => r === result.representative[i])) throw new Error('pool.decide differs from decide');
  }
  await pool?.close();
  const bytesPerFingerprint = api.allocHashArray(0).view.buffer.byteLength / n;
  const { checked, mismatches } = pairs && samples > 0 ? checkSamples(api, fingerprints, d, pairs, samples) : { checked: 0, mismatches: 0 };
  return { layout, seconds, bytesPerFingerprint, pairs: pairs?.left.length, checked, mismatches };
}

/** For `samples` positions, the pairs `findAll` reported with each against brute force. */
function checkSamples(api, fingerprints, d, pairs, samples) {
  const rng = createRng(777);
  const sampled = new Map();
  while (sampled.size < Math.min(samples, fingerprints.length)) sampled.set(rng.below(fingerprints.length), new Set());
  for (let k = 0; k < pairs.left.length; k++) {
    sampled.get(pairs.left[k])?.add(pairs.right[k]);
    sampled.get(pairs.right[k])?.add(pairs.left[k]);
  }
  let mismatches = 0;
  for (const [i, reported] of sampled) {
    const distances = api.hammingDistances(fingerprints[i], fingerprints);
    let near = 0;
    let found = 0;
    for (let j = 0; j < distances.length; j++) {
      if (j !== i && distances[j] <= d) {
        near++;
        if (reported.has(j)) found++;
      }
    }
    // Missed pairs, and reported ones that are not within d.
    mismatches += near - found + (reported.size - found);
  }
  return { checked: sampled.size, mismatches };
}
