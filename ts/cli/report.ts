/** The result of a dedup run, as a readable table or as JSON, produced a piece at a time. */

import type { Method, Unit, Weighting } from './args.js';
import type { Fingerprinted } from './fingerprints.js';
import type { Group } from './groups.js';
import type { Problem } from './problems.js';

/** Everything the output shows. */
export interface DedupReport {
  readonly method: Method;
  /** MinHash's threshold (with `method: 'minhash'`). */
  readonly threshold: number;
  /** SimHash's distance (with `method: 'simhash'`). */
  readonly distance: number;
  readonly unit: Unit;
  readonly size: number;
  readonly weighting: Weighting;
  /** Documents read, with and without words. */
  readonly documents: number;
  readonly fingerprinted: Fingerprinted;
  readonly groups: readonly Group[];
  /** The first skipped inputs (see `skippedCount` for all of them). */
  readonly skipped: readonly Problem[];
  readonly skippedCount: number;
}

/** The human-readable report, in pieces so that a million groups never form one string. */
export function* tableChunks(report: DedupReport): Generator<string> {
  const { fingerprinted, groups } = report;
  for (const [g, group] of groups.entries()) {
    let text = `${g === 0 ? '' : '\n'}Group ${g + 1} (${plural(group.members.length, 'document')})\n`;
    if (group.similarity !== undefined) {
      const similarity = group.similarity;
      text += '  similarity  document\n';
      group.members.forEach((position, k) => {
        text += `  ${(similarity[k] ?? 0).toFixed(3).padStart(10)}  ${fingerprinted.ids[position]}\n`;
      });
    } else {
      text += '  distance  fingerprint       document\n';
      group.members.forEach((position, k) => {
        const bits = String(group.bits[k]).padStart(8);
        text += `  ${bits}  ${hex(fingerprinted.fingerprints[position] ?? 0n)}  ${fingerprinted.ids[position]}\n`;
      });
    }
    yield text;
  }
  const featureless = fingerprinted.featureless;
  if (featureless.length > 0) {
    yield `${groups.length > 0 ? '\n' : ''}Without words, so never grouped: ${plural(featureless.length, 'document')}\n`;
    for (const id of featureless) yield `  ${id}\n`;
  }
  yield `${groups.length > 0 || featureless.length > 0 ? '\n' : ''}${summary(report)}\n`;
}

function summary(report: DedupReport): string {
  if (report.documents === 0) return 'No documents to compare.';
  const grouped = report.groups.reduce((sum, group) => sum + group.members.length, 0);
  const unique = report.fingerprinted.ids.length - grouped;
  const parts = [
    grouped === 0 ? 'no near-duplicates' : `${count(grouped)} in ${plural(report.groups.length, 'group')} of near-duplicates`,
    `${count(unique)} unique`,
  ];
  if (report.fingerprinted.featureless.length > 0) parts.push(`${count(report.fingerprinted.featureless.length)} without words`);
  const settings =
    report.method === 'minhash'
      ? `MinHash similarity ≥ ${report.threshold}, ${report.unit} ${report.size}-shingles`
      : `distance ≤ ${report.distance} bits, ${report.unit} ${report.size}-shingles, ${report.weighting} weighting`;
  return `${plural(report.documents, 'document')}: ${parts.join(', ')} (${settings}).`;
}

/** The report as one JSON object (see the README for its fields), one group per line. */
export function* jsonChunks(report: DedupReport): Generator<string> {
  const { fingerprinted } = report;
  const header =
    report.method === 'minhash'
      ? { method: report.method, threshold: report.threshold, unit: report.unit, size: report.size, documents: report.documents }
      : { distance: report.distance, unit: report.unit, size: report.size, weighting: report.weighting, documents: report.documents };
  yield `${JSON.stringify(header).slice(0, -1)},\n"groups":[`;
  for (const [g, group] of report.groups.entries()) {
    const similarity = group.similarity;
    const members = Array.from(group.members, (position, k) =>
      similarity !== undefined
        ? { id: fingerprinted.ids[position], similarity: similarity[k] }
        : { id: fingerprinted.ids[position], distance: group.bits[k], fingerprint: hex(fingerprinted.fingerprints[position] ?? 0n) },
    );
    yield `${g === 0 ? '\n' : ',\n'}${JSON.stringify({ members })}`;
  }
  yield `\n],\n"featureless":${JSON.stringify(fingerprinted.featureless)},\n`;
  yield `"skipped":${JSON.stringify(report.skipped)},\n"skippedCount":${report.skippedCount}}\n`;
}

function hex(fingerprint: bigint): string {
  return fingerprint.toString(16).padStart(16, '0');
}

function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

function count(n: number): string {
  return n.toLocaleString('en');
}
