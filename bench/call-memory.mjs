// WebAssembly memory one call of a workload grows: `node bench/call-memory.mjs <workload id>`
// prints JSON on stdout, in the shape of find-all-memory.mjs. Memory never shrinks, so its size
// after the call is the peak during it, on an instance no earlier call has grown: hence one
// process per workload. Inputs are bound (and copied in) before the first reading.

import * as wasm from '../dist/esm/index.js';
import { workloadById } from './workloads.mjs';

const id = process.argv[2];
if (id === undefined || process.argv.length > 3) {
  console.error('usage: node bench/call-memory.mjs <workload id>');
  process.exit(2);
}
const workload = workloadById(id);
await wasm.init();
const bound = workload.bind(wasm, workload.prepare());
const memory = () => wasm.allocHashArray(0).view.buffer.byteLength;
const bytesBefore = memory();
const started = performance.now();
bound.call();
const freshCallMs = performance.now() - started;
const bytesAfter = memory();
bound.free();
console.log(JSON.stringify({ workload: id, bytesBefore, bytesAfter, bytesPerFingerprint: (bytesAfter - bytesBefore) / workload.items, freshCallMs }));
