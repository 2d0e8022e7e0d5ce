// The run's context (machine, commit) and its two renderings: a text table and a JSON file.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/**
 * @typedef {object} SideResult
 * @property {number} medianMs
 * @property {number[]} samplesMs
 * @property {boolean} capped
 */

/**
 * @typedef {object} MemoryResult
 * @property {number} bytesBefore
 * @property {number} bytesAfter
 * @property {number} bytesPerFingerprint growth during the call per input fingerprint
 * @property {number} freshCallMs duration of that call, on an instance no earlier call warmed
 */

/**
 * @typedef {object} Row
 * @property {string} id
 * @property {string} operation
 * @property {string} size
 * @property {number} items
 * @property {string} unit
 * @property {boolean} throws
 * @property {boolean} [shared] both entries run the same TypeScript: the ratio is noise, no gate
 * @property {SideResult} wasm
 * @property {SideResult} pure
 * @property {number} wasmItemsPerSecond
 * @property {number} ratio pure median / WASM median
 * @property {SideResult} [baseline] the WebAssembly entry of the --baseline build
 * @property {number} [baselineRatio] baseline median / WASM median
 * @property {number} [pairs]
 * @property {MemoryResult} [wasmMemory]
 */

/**
 * @typedef {object} Report
 * @property {'full' | 'quick'} mode
 * @property {string} [baseline] the --baseline build's directory
 * @property {string} date
 * @property {string} commit
 * @property {{ cpu: string, cores: number, memoryBytes: number }} machine
 * @property {string} os
 * @property {string} node
 * @property {{ runs: number, minMs: number, budgetMs: number }} repetitions
 * @property {Row[]} rows
 * @property {import('./peers.mjs').PeerRow[]} peers text → fingerprint against simhash-js
 * @property {{ datasketch: { rows: import('./minhash-peers.mjs').MinHashPeerRow[], note: string }, lsh: ReturnType<typeof import('./minhash-peers.mjs').lshQueries> } | undefined} minhashPeers MinHash against datasketch, and LSH queries
 * @property {number} totalSeconds
 */

/** @param {string} root @param {string[]} args */
function git(root, args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

/**
 * Short hash, `-dirty` when the working tree differs from it. Untracked files count: they may
 * be sources the build picked up, so the numbers would not belong to the commit alone.
 *
 * @param {string} root
 */
export function gitCommit(root) {
  try {
    const hash = git(root, ['rev-parse', '--short', 'HEAD']);
    return git(root, ['status', '--porcelain']) === '' ? hash : `${hash}-dirty`;
  } catch {
    return 'unknown';
  }
}

export function machine() {
  const cpus = os.cpus();
  return { cpu: cpus[0]?.model.trim() ?? 'unknown', cores: cpus.length, memoryBytes: os.totalmem() };
}

export function osName() {
  return `${os.type()} ${os.release()} (${os.arch()})`;
}

/** @param {number} ms */
function duration(ms) {
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

/** @param {number} perSecond @param {string} unit */
function rate(perSecond, unit) {
  if (perSecond >= 1e9) return `${(perSecond / 1e9).toPrecision(3)} G ${unit}/s`;
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toPrecision(3)} M ${unit}/s`;
  return `${(perSecond / 1e3).toPrecision(3)} k ${unit}/s`;
}

/** @param {SideResult} side @param {number} runs */
function sampleNote(side, runs) {
  return side.capped ? `${side.samplesMs.length} of ${runs} runs (time cap)` : '';
}

/** @param {Row} row @param {number} runs */
function notes(row, runs) {
  const parts = [];
  if (row.throws) parts.push('throws RangeError (maxPairs)');
  if (row.shared) parts.push('same TypeScript in both entries');
  else if (row.pairs !== undefined) parts.push(`${row.pairs.toLocaleString('en-US')} pairs`);
  if (row.wasmMemory) parts.push(`fresh-instance call ${duration(row.wasmMemory.freshCallMs)}`);
  const wasmCap = sampleNote(row.wasm, runs);
  if (wasmCap) parts.push(`WASM ${wasmCap}`);
  const pureCap = sampleNote(row.pure, runs);
  if (pureCap) parts.push(`pure ${pureCap}`);
  return parts.join('; ');
}

/** @param {string[][]} cells @param {boolean[]} rightAligned */
function layout(cells, rightAligned) {
  const widths = cells[0].map((_, c) => Math.max(...cells.map((row) => row[c].length)));
  const line = (/** @type {string[]} */ row) =>
    row.map((cell, c) => (rightAligned[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

/** @param {Report} report */
export function formatReport(report) {
  const { machine: m, repetitions: r } = report;
  const header = [
    `simhash-wasm benchmark (${report.mode})`,
    `machine: ${m.cpu}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB`,
    `os: ${report.os}; node ${report.node}; commit ${report.commit}; ${report.date}`,
    `median of ≥ ${r.runs} runs and ≥ ${r.minMs / 1000} s per side after one warm-up, WASM and pure alternating; a side stops once its runs took ${r.budgetMs / 1000} s`,
    'findAll: distance 3, input passed as a HashArray; peak = WebAssembly memory growth during the call on a fresh instance, per fingerprint',
  ];
  const withBaseline = report.baseline !== undefined;
  if (withBaseline) header.push(`baseline: the WebAssembly entry of ${report.baseline}, timed alternating with the others`);
  const cells = [
    ['operation', 'size', 'WASM median', 'pure median', 'WASM items/s', 'pure items/s', 'pure/WASM', ...(withBaseline ? ['baseline/WASM'] : []), 'WASM peak B/fp', 'notes'],
    ...report.rows.map((row) => [
      row.operation,
      row.size,
      duration(row.wasm.medianMs),
      duration(row.pure.medianMs),
      row.throws ? '—' : rate(row.wasmItemsPerSecond, row.unit),
      row.throws ? '—' : rate(row.items / (row.pure.medianMs / 1000), row.unit),
      `${row.ratio.toFixed(2)}×`,
      ...(withBaseline ? [row.baselineRatio === undefined ? '' : `${row.baselineRatio.toFixed(2)}×`] : []),
      row.wasmMemory ? row.wasmMemory.bytesPerFingerprint.toFixed(1) : '',
      notes(row, r.runs),
    ]),
  ];
  const table = layout(cells, [false, false, true, true, true, true, true, ...(withBaseline ? [true] : []), true, false]);
  return `${header.join('\n')}\n\n${table}\n\ntotal ${report.totalSeconds.toFixed(1)} s\n`;
}

/**
 * Writes `<dir>/<ISO 8601 basic date-time>-<commit>.json`: the basic format has no colons,
 * which some file systems refuse, and sorts chronologically.
 *
 * @param {Report} report @param {string} dir
 * @returns {string} the file's path
 */
export function writeJson(report, dir) {
  const stamp = report.date.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const file = join(dir, `${stamp}-${report.commit}.json`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
