// Text → fingerprint against a published JavaScript SimHash, simhash-js 1.0.0, on the same seeded
// prose, timed alternately with this package in the same run. simhash-js makes 32-bit
// fingerprints from character 4-shingles (Jenkins hashes, at most 128 features), so it is set
// beside this package's character 4-shingles as the nearest comparable work; its fingerprints
// are of course different.

import { createRequire } from 'node:module';
import { measure } from './measure.mjs';
import { englishLike, utf8Bytes } from './texts.mjs';

const require = createRequire(import.meta.url);
const { SimHash } = /** @type {{ SimHash: new () => { hash(text: string): number } }} */ (require('simhash-js'));

/**
 * @typedef {object} PeerRow
 * @property {string} operation
 * @property {number} bytes
 * @property {number} medianMs
 * @property {number} ratio the peer's median over this row's (1 for the peer itself)
 */

/**
 * @param {typeof import('../dist/esm/index.js')} wasm
 * @param {typeof import('../dist/esm/index.js')} pure
 * @param {{ runs: number, minMs: number, budgetMs: number }} repetitions
 * @param {number} count documents of about 2 KB
 * @returns {PeerRow[]}
 */
export function comparePeers(wasm, pure, repetitions, count) {
  const texts = englishLike(13, count, 2_000);
  const bytes = utf8Bytes(texts);
  const simhashJs = new SimHash();
  const [peer, ours, ourPure, ourWords] = measure(
    [
      () => texts.map((t) => simhashJs.hash(t)),
      () => wasm.fingerprintMany(texts, { unit: 'char' }),
      () => pure.fingerprintMany(texts, { unit: 'char' }),
      () => wasm.fingerprintMany(texts),
    ],
    { ...repetitions, throws: false },
  );
  /** @param {string} operation @param {import('./measure.mjs').Timing} t @returns {PeerRow} */
  const row = (operation, t) => ({ operation, bytes, medianMs: t.medianMs, ratio: peer.medianMs / t.medianMs });
  return [
    row('simhash-js 1.0.0, char 4-shingles, 32-bit', peer),
    row('simhash-wasm (WASM), char 4-shingles, 64-bit', ours),
    row('simhash-wasm (pure), char 4-shingles, 64-bit', ourPure),
    row('simhash-wasm (WASM), word 3-shingles (defaults)', ourWords),
  ];
}

/** @param {PeerRow[]} rows */
export function formatPeers(rows) {
  const lines = [`text → fingerprint over ${(rows[0].bytes / 1e6).toFixed(1)} MB of seeded English-like prose, same run:`, ''];
  lines.push(`${'implementation'.padEnd(50)}  ${'median'.padStart(9)}  ${'MB/s'.padStart(7)}  ${'vs simhash-js'.padStart(13)}`);
  for (const r of rows) {
    const mbs = r.bytes / 1e6 / (r.medianMs / 1000);
    lines.push(`${r.operation.padEnd(50)}  ${`${r.medianMs.toFixed(1)} ms`.padStart(9)}  ${mbs.toFixed(1).padStart(7)}  ${`${r.ratio.toFixed(1)}×`.padStart(13)}`);
  }
  return lines.join('\n');
}
