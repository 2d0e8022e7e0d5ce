// MinHash beside datasketch, the Python reference library, on the same seeded prose in the same
// run; and MinHashLSH query throughput on many signatures. datasketch runs from the virtual
// environment scripts/setup-datasketch.mjs installs from PyPI; where python3 or PyPI is missing
// this part is skipped with a message.

import { spawnSync } from 'node:child_process';
import { datasketchPython } from '../scripts/setup-datasketch.mjs';
import { measure } from './measure.mjs';
import { englishLike, utf8Bytes } from './texts.mjs';
import { wordShingles } from './workloads.mjs';


/** datasketch's python (installed on first use), or the reason it is missing. */
function findDatasketch() {
  try {
    return datasketchPython();
  } catch (error) {
    return { missing: /** @type {Error} */ (error).message };
  }
}

// Two timings: from the shingles our bench made (datasketch's own work only), and from the
// texts, tokenised the way datasketch users commonly do (lower case, \w+ words, 3-shingles
// joined by spaces), which is the same job minhashMany does.
const program = String.raw`
import json, re, sys, time
from datasketch import MinHash
job = json.load(sys.stdin)
docs = [[t.encode("utf8") for t in tokens] for tokens in job["docs"]]
texts = job["texts"]
word = re.compile(r"\w+")
def sign_shingles():
    signatures = []
    for tokens in docs:
        m = MinHash(num_perm=128, seed=1)
        m.update_batch(tokens)
        signatures.append(m.hashvalues)
    return signatures
def sign_texts():
    signatures = []
    for text in texts:
        words = word.findall(text.lower())
        shingles = [" ".join(words[i:i + 3]).encode("utf8") for i in range(max(1, len(words) - 2))]
        m = MinHash(num_perm=128, seed=1)
        m.update_batch(shingles)
        signatures.append(m.hashvalues)
    return signatures
def timed(f):
    times = []
    for _ in range(job["runs"]):
        start = time.perf_counter()
        result = f()
        times.append((time.perf_counter() - start) * 1000)
    return times, result
times, signatures = timed(sign_shingles)
text_times, _ = timed(sign_texts)
json.dump({"times": times, "textTimes": text_times, "first": [[int(v) for v in s] for s in signatures[:3]]}, sys.stdout)
`;

/**
 * @typedef {object} MinHashPeerRow
 * @property {string} operation
 * @property {number} bytes
 * @property {number} medianMs
 * @property {number} ratio datasketch's median over this row's
 */

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * @param {typeof import('../dist/esm/index.js')} wasm
 * @param {typeof import('../dist/esm/index.js')} pure
 * @param {{ runs: number, minMs: number, budgetMs: number }} repetitions
 * @param {number} count documents of about 2 KB
 * @returns {{ rows: MinHashPeerRow[], note: string }}
 */
export function compareDatasketch(wasm, pure, repetitions, count) {
  const texts = englishLike(21, count, 2_000);
  const docs = wordShingles(texts);
  const bytes = utf8Bytes(texts);
  const found = findDatasketch();
  if ('missing' in found) return { rows: [], note: `datasketch: skipped (${found.missing})` };
  const ours = measure(
    [
      () => wasm.minhashMany(texts),
      () => pure.minhashMany(texts),
      () => wasm.datasketchMinhashMany(docs),
      () => pure.datasketchMinhashMany(docs),
      () => wasm.fingerprintMany(texts),
    ],
    { ...repetitions, throws: false },
  );
  const child = spawnSync(found.python, ['-c', program], { input: JSON.stringify({ docs, texts, runs: 3 }), encoding: 'utf8', maxBuffer: 1 << 28 });
  if (child.status !== 0) throw new Error(`datasketch run failed:\n${child.stderr}`);
  const peer = JSON.parse(child.stdout);
  const compatible = /** @type {Uint32Array} */ (ours[2].result);
  /** @type {number[][]} */ (peer.first).forEach((signature, d) => {
    if (signature.some((v, i) => v !== compatible[d * 128 + i])) throw new Error(`datasketchMinhashMany differs from datasketch on document ${d}`);
  });
  const peerMs = median(peer.times);
  const peerTextMs = median(peer.textTimes);
  /** @param {string} operation @param {number} ms @param {number} [baseline] @returns {MinHashPeerRow} */
  const row = (operation, ms, baseline = peerMs) => ({ operation, bytes, medianMs: ms, ratio: baseline / ms });
  return {
    rows: [
      row(`datasketch ${found.version} MinHash.update_batch (word 3-shingles given)`, peerMs),
      row(`datasketch ${found.version}, text → \\w+ words → 3-shingles → MinHash`, peerTextMs),
      row('minhashMany (WASM) against datasketch from text (same job)', ours[0].medianMs, peerTextMs),
      row('minhashMany (WASM), text → signature', ours[0].medianMs),
      row('minhashMany (pure), text → signature', ours[1].medianMs),
      row('datasketchMinhashMany (WASM), equal signatures', ours[2].medianMs),
      row('datasketchMinhashMany (pure), equal signatures', ours[3].medianMs),
      row('fingerprintMany (WASM), SimHash, for comparison', ours[4].medianMs),
    ],
    note: `${count} docs, 128 permutations; datasketch timed in its own process (median of 3); ratios against datasketch given the shingles unless the row says otherwise`,
  };
}

/**
 * Query throughput of a MinHashLSH (the same TypeScript class in both entries) over `n`
 * signatures of 40 random features each; half the queries are near-duplicates of indexed ones.
 *
 * @param {typeof import('../dist/esm/index.js')} wasm
 * @param {number} n
 * @returns {{ n: number, bands: number, rows: number, buildMs: number, queries: number, queryMs: number, found: number }}
 */
export function lshQueries(wasm, n) {
  const perDoc = 40;
  const words = new Uint32Array(n * perDoc * 2);
  let x = 12345;
  for (let i = 0; i < words.length; i++) {
    x = (x + 0x9e3779b9) >>> 0;
    let z = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    words[i] = (z ^ (z >>> 16)) >>> 0;
  }
  const features = new BigUint64Array(words.buffer);
  const offsets = Uint32Array.from({ length: n + 1 }, (_, i) => i * perDoc);
  const signatures = wasm.minhashMany(features, offsets);
  const index = new wasm.MinHashLSH();
  let start = performance.now();
  index.addMany(Uint32Array.from({ length: n }, (_, i) => i), signatures);
  const buildMs = performance.now() - start;
  const queries = 100_000;
  const batch = new Uint32Array(queries * 128);
  for (let q = 0; q < queries; q++) {
    if (q % 2 === 0) {
      // A near-duplicate: an indexed signature with 16 of its 128 positions changed.
      const d = (q * 7919) % n;
      batch.set(signatures.subarray(d * 128, (d + 1) * 128), q * 128);
      for (let i = 0; i < 16; i++) batch[q * 128 + ((q + i * 8) % 128)] ^= 1;
    } else {
      for (let i = 0; i < 128; i++) batch[q * 128 + i] = Math.imul(q, 2654435761) ^ Math.imul(i, 40503);
    }
  }
  const times = [];
  let found = 0;
  for (let run = 0; run < 3; run++) {
    start = performance.now();
    found = index.queryMany(batch).ids.length;
    times.push(performance.now() - start);
  }
  return { n, bands: index.bands, rows: index.rows, buildMs, queries, queryMs: median(times), found };
}

/** @param {{ rows: MinHashPeerRow[], note: string }} d @param {ReturnType<typeof lshQueries>} lsh */
export function formatMinHash(d, lsh) {
  const lines = [];
  if (d.rows.length === 0) lines.push(d.note);
  else {
    lines.push(`MinHash over ${(d.rows[0].bytes / 1e6).toFixed(1)} MB of seeded English-like prose (${d.note}):`, '');
    lines.push(`${'implementation'.padEnd(64)}  ${'median'.padStart(10)}  ${'MB/s'.padStart(7)}  ${'vs datasketch'.padStart(13)}`);
    for (const r of d.rows) {
      const mbs = r.bytes / 1e6 / (r.medianMs / 1000);
      lines.push(`${r.operation.padEnd(64)}  ${`${r.medianMs.toFixed(1)} ms`.padStart(10)}  ${mbs.toFixed(1).padStart(7)}  ${`${r.ratio.toFixed(1)}×`.padStart(13)}`);
    }
  }
  lines.push(
    '',
    `MinHashLSH, ${lsh.n} signatures (threshold 0.6: ${lsh.bands} bands × ${lsh.rows} rows): built in ${(lsh.buildMs / 1000).toFixed(1)} s; ` +
      `queryMany of ${lsh.queries} (half near-duplicates) ${lsh.queryMs.toFixed(0)} ms = ${Math.round(lsh.queries / (lsh.queryMs / 1000)).toLocaleString('en')} queries/s, ${lsh.found} found`,
  );
  return lines.join('\n');
}
