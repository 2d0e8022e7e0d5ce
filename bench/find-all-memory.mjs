// Peak WebAssembly memory of one findAll call: `node bench/find-all-memory.mjs <workload id>`
// prints JSON on stdout. WebAssembly memory never shrinks, so its size after the call is the
// peak during it; that only holds on an instance no earlier call has grown, hence one process
// per workload.

import { allocHashArray, findAll, init } from '../dist/esm/index.js';
import { findAllWorkloadById } from './workloads.mjs';

const id = process.argv[2];
if (id === undefined || process.argv.length > 3) {
  console.error('usage: node bench/find-all-memory.mjs <findAll workload id>');
  process.exit(2);
}
const workload = findAllWorkloadById(id);
const { fingerprints, options } = /** @type {import('./workloads.mjs').FindAllCase} */ (workload.findAll);
const values = fingerprints();

await init();
// Allocated before the first reading, so the input does not count as growth.
const array = allocHashArray(values.length);
array.view.set(values);
const bytesBefore = array.view.buffer.byteLength;

const started = performance.now();
let threw = false;
let pairs = 0;
try {
  pairs = findAll(array, options).left.length;
} catch (error) {
  if (!(error instanceof RangeError)) throw error;
  threw = true;
}
const elapsedMs = performance.now() - started;
// `view` re-reads the memory's buffer, which growth has replaced.
const bytesAfter = array.view.buffer.byteLength;

console.log(JSON.stringify({
  workload: id,
  fingerprints: values.length,
  bytesBefore,
  bytesAfter,
  bytesPerFingerprint: (bytesAfter - bytesBefore) / values.length,
  threw,
  pairs,
  freshCallMs: elapsedMs,
}));
