// `npm run demo`: fingerprints a seeded sample of documents (each a set of 64-bit feature hashes),
// plants edited copies, and finds every pair within 3 bits, with WebAssembly and with the pure
// TypeScript twin, checking that both agree.

import { performance } from 'node:perf_hooks';
import * as wasm from 'simhash-wasm';
import * as pure from 'simhash-wasm/pure';

const DOCUMENTS = 50_000;
const FEATURES = 60;
const EDITED_COPIES = 5_000;
const DISTANCE = 3;

/** SplitMix64 over two 32-bit halves would be faster; BigInt keeps the sample obvious. */
function* random(seed) {
  let state = BigInt(seed);
  for (;;) {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    yield z ^ (z >> 31n);
  }
}

const rng = random(2026);
const next = () => rng.next().value;

// Originals, then copies of random originals with one to three features replaced.
const total = DOCUMENTS + EDITED_COPIES;
const hashes = new BigUint64Array(total * FEATURES);
const offsets = new Uint32Array(total + 1);
const copyOf = new Map();
for (let d = 0; d < total; d++) {
  offsets[d + 1] = (d + 1) * FEATURES;
  const row = hashes.subarray(d * FEATURES, (d + 1) * FEATURES);
  if (d < DOCUMENTS) {
    for (let f = 0; f < FEATURES; f++) row[f] = next();
  } else {
    const original = Number(next() % BigInt(DOCUMENTS));
    copyOf.set(d, original);
    row.set(hashes.subarray(original * FEATURES, (original + 1) * FEATURES));
    const edits = 1 + Number(next() % 3n);
    for (let e = 0; e < edits; e++) row[Number(next() % BigInt(FEATURES))] = next();
  }
}

function run(api) {
  const t0 = performance.now();
  const fingerprints = api.computeMany(hashes, offsets);
  const t1 = performance.now();
  const pairs = api.findAll(fingerprints, { distance: DISTANCE });
  const t2 = performance.now();
  return { fingerprints, pairs, computeMs: t1 - t0, findMs: t2 - t1 };
}

await wasm.init();
run(wasm); // warm-up
const fast = run(wasm);
const slow = run(pure);

const same =
  fast.fingerprints.every((f, i) => f === slow.fingerprints[i]) &&
  fast.pairs.left.length === slow.pairs.left.length &&
  fast.pairs.left.every((l, k) => l === slow.pairs.left[k] && fast.pairs.right[k] === slow.pairs.right[k]);

const found = new Set();
for (let k = 0; k < fast.pairs.left.length; k++) found.add(`${fast.pairs.left[k]},${fast.pairs.right[k]}`);
let recovered = 0;
for (const [copy, original] of copyOf) if (found.has(`${original},${copy}`)) recovered++;

const ms = (x) => `${x.toFixed(1)} ms`;
console.log(`${total.toLocaleString('en')} documents × ${FEATURES} feature hashes (${EDITED_COPIES.toLocaleString('en')} are copies with 1–3 features replaced)`);
console.log('');
console.log('                      WebAssembly      pure TypeScript');
console.log(`computeMany           ${ms(fast.computeMs).padEnd(16)} ${ms(slow.computeMs)}`);
console.log(`findAll (≤ ${DISTANCE} bits)    ${ms(fast.findMs).padEnd(16)} ${ms(slow.findMs)}`);
console.log('');
console.log(`pairs within ${DISTANCE} bits: ${fast.pairs.left.length.toLocaleString('en')}`);
console.log(`edited copies found next to their original: ${recovered} of ${copyOf.size} (${((100 * recovered) / copyOf.size).toFixed(1)} %)`);
console.log(`WebAssembly and pure TypeScript agree: ${same ? 'yes' : 'NO'}`);
console.log('');
// Why not all of them: replacing features moves the bits whose counts were close to a tie.
const copyDistances = [...copyOf].map(([copy, original]) =>
  wasm.numDifferingBits(fast.fingerprints[copy], fast.fingerprints[original]),
);
const unrelated = wasm.hammingDistances(fast.fingerprints[0], fast.fingerprints.subarray(1, DOCUMENTS));
const share = (list, limit) => ((100 * list.filter((d) => d <= limit).length) / list.length).toFixed(1).padStart(5);
console.log('bits differing        copy vs original   unrelated documents');
for (const limit of [3, 6, 10, 16]) {
  console.log(`  ≤ ${String(limit).padEnd(18)} ${share(copyDistances, limit)} %            ${share(Array.from(unrelated), limit)} %`);
}
console.log('');
console.log('first pairs (left, right, bits differing):');
for (let k = 0; k < Math.min(5, fast.pairs.left.length); k++) {
  console.log(`  ${fast.pairs.left[k]}  ${fast.pairs.right[k]}  ${fast.pairs.distance[k]}`);
}
if (!same) process.exitCode = 1;
