/** The result of a dedup run, as a readable table or as JSON, produced a piece at a time. */

import { LIGHT_CHANGES, LONG_THRESHOLD, SHORT_WORDS, LINE_WORDS, TEXT_DECISION_VERSION, THRESHOLD } from '../shared/adaptive.js';
import type { Grouping, Keep, Method, Unit, Weighting } from './args.js';
import type { Fingerprinted } from './fingerprints.js';
import type { Group } from './group.js';
import type { Problem } from './problems.js';
import type { Alias } from './sources.js';

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
  readonly grouping: Grouping;
  readonly keep: Keep;
  /** Documents read, with and without words. */
  readonly documents: number;
  readonly fingerprinted: Fingerprinted;
  /** With decisions, each group's first member is kept and the others are to be removed. */
  readonly groups: readonly Group[];
  /** With decisions: for each fingerprinted document, the position of the kept one it duplicates, or its own. */
  readonly representative: Uint32Array | undefined;
  /** Paths of files read under another path: never kept or removed on their own, listed by `--removed` after their file. */
  readonly aliases: readonly Alias[];
  /** The ids (as printed) that JSON Lines records hold as numbers: `--json` prints them as numbers. */
  readonly numericIds: ReadonlySet<string>;
  /** The first skipped inputs (see `skippedCount` for all of them). */
  readonly skipped: readonly Problem[];
  readonly skippedCount: number;
}

/** The human-readable report, in pieces so that a million groups never form one string. */
export function* tableChunks(report: DedupReport): Generator<string> {
  const { fingerprinted, groups } = report;
  const decisions = report.grouping === 'decisions';
  for (const [g, group] of groups.entries()) {
    let text = `${g === 0 ? '' : '\n'}Group ${g + 1} (${plural(group.members.length, 'document')})\n`;
    const first = (k: number): boolean => decisions && k === 0;
    if (group.similarity !== undefined) {
      const similarity = group.similarity;
      text += '  similarity  document\n';
      group.members.forEach((position, k) => {
        const shown = first(k) ? 'kept' : (similarity[k] ?? 0).toFixed(3);
        text += `  ${shown.padStart(10)}  ${fingerprinted.ids[position]}\n`;
      });
    } else {
      text += '  distance  fingerprint       document\n';
      group.members.forEach((position, k) => {
        const bits = (first(k) ? 'kept' : String(group.bits[k])).padStart(8);
        text += `  ${bits}  ${hex(fingerprinted.fingerprints[position] ?? 0n)}  ${fingerprinted.ids[position]}\n`;
      });
    }
    yield text;
  }
  let before = groups.length > 0;
  const featureless = fingerprinted.featureless;
  if (featureless.length > 0) {
    yield `${before ? '\n' : ''}Without words, so never compared (kept): ${plural(featureless.length, 'document')}\n`;
    for (const id of featureless) yield `  ${id}\n`;
    before = true;
  }
  if (report.aliases.length > 0) {
    yield `${before ? '\n' : ''}Other paths of files read above (links; removed with their file, never on their own): ${count(report.aliases.length)}\n`;
    for (const alias of report.aliases) yield `  ${alias.path} -> ${alias.of}\n`;
    before = true;
  }
  yield `${before ? '\n' : ''}${summary(report)}\n`;
}

function summary(report: DedupReport): string {
  if (report.documents === 0) return 'No documents to compare.';
  const grouped = report.groups.reduce((sum, group) => sum + group.members.length, 0);
  let parts: string[];
  const representative = report.representative;
  if (representative !== undefined) {
    // With --redis a group may be led by a document another process kept: counted apart.
    const own = representative.length;
    const removed = representative.filter((kept, i) => kept !== i).length;
    const leadersHere = report.groups.filter((group) => (group.members[0] as number) < own).length;
    const unique = own - removed - leadersHere;
    parts = [removed === 0 ? 'no near-duplicates' : `${count(removed)} to remove as near-duplicates of ${count(report.groups.length)} kept`, `${count(unique)} unique`];
  } else {
    const unique = report.fingerprinted.ids.length - grouped;
    parts = [grouped === 0 ? 'no near-duplicates' : `${count(grouped)} in ${plural(report.groups.length, 'group')} of near-duplicates (connected components)`, `${count(unique)} unique`];
  }
  if (report.fingerprinted.featureless.length > 0) parts.push(`${count(report.fingerprinted.featureless.length)} without words`);
  const settings =
    report.method === 'adaptive'
      ? `adaptive: lines below ${LINE_WORDS} words by their heavy words (one typo, ${LIGHT_CHANGES} light words apart), up to ${SHORT_WORDS} words by weighted word sets (≥ ${THRESHOLD[0] / THRESHOLD[1]}), longer by word pairs (≥ ${LONG_THRESHOLD}); specification v${TEXT_DECISION_VERSION}`
      : report.method === 'minhash'
        ? `MinHash similarity ≥ ${report.threshold}, ${report.unit} ${report.size}-shingles`
        : `distance ≤ ${report.distance} bits, ${report.unit} ${report.size}-shingles, ${report.weighting} weighting`;
  const keep = report.grouping === 'decisions' && report.keep !== 'first' ? `, keeping the ${report.keep}` : '';
  return `${plural(report.documents, 'document')}: ${parts.join(', ')} (${settings}${keep}).`;
}

/**
 * The documents to remove (`--removed`), in input order, each followed by `end` (a newline, or
 * NUL for `xargs -0`): every one is within the threshold of a kept document. A file's other paths
 * (its symbolic and hard links among the inputs) follow it, so that deleting the list leaves no
 * link dangling and no copy of the file behind.
 */
export function* removedChunks(report: DedupReport, end: string): Generator<string> {
  const representative = report.representative;
  if (representative === undefined) return;
  const ids = report.fingerprinted.ids;
  const aliases = new Map<string, string[]>();
  for (const { path, of } of report.aliases) {
    const paths = aliases.get(of);
    if (paths === undefined) aliases.set(of, [path]);
    else paths.push(path);
  }
  let text = '';
  for (let i = 0; i < representative.length; i++) {
    if (representative[i] === i) continue;
    text += `${ids[i]}${end}`;
    for (const alias of aliases.get(ids[i]!) ?? []) text += `${alias}${end}`;
    if (text.length >= 65536) {
      yield text;
      text = '';
    }
  }
  if (text !== '') yield text;
}

/** The report as one JSON object (docs/cli.md lists its fields), one group or decision per line. */
export function* jsonChunks(report: DedupReport): Generator<string> {
  const { fingerprinted } = report;
  // A JSON Lines id keeps the type its record gave it.
  const idOf = (name: string): string | number => (report.numericIds.has(name) ? Number(name) : name);
  const settings =
    report.method === 'adaptive'
      ? { method: report.method, specification: TEXT_DECISION_VERSION }
      : report.method === 'minhash'
        ? { method: report.method, threshold: report.threshold, unit: report.unit, size: report.size }
        : { method: report.method, distance: report.distance, unit: report.unit, size: report.size, weighting: report.weighting };
  const header = {
    ...settings,
    grouping: report.grouping,
    ...(report.grouping === 'decisions' ? { keep: report.keep } : {}),
    documents: report.documents,
  };
  yield `${JSON.stringify(header).slice(0, -1)},\n"groups":[`;
  for (const [g, group] of report.groups.entries()) {
    const similarity = group.similarity;
    const members = Array.from(group.members, (position, k) =>
      similarity !== undefined
        ? { id: idOf(fingerprinted.ids[position]!), similarity: similarity[k] }
        : { id: idOf(fingerprinted.ids[position]!), distance: group.bits[k], fingerprint: hex(fingerprinted.fingerprints[position] ?? 0n) },
    );
    yield `${g === 0 ? '\n' : ',\n'}${JSON.stringify({ members })}`;
  }
  yield '\n],\n';
  const representative = report.representative;
  if (representative !== undefined) {
    yield '"decisions":[';
    const measure = measureOf(report);
    for (let i = 0; i < representative.length; i++) {
      const kept = representative[i]!;
      const decision =
        kept === i
          ? { id: idOf(fingerprinted.ids[i]!), kept: true }
          : { id: idOf(fingerprinted.ids[i]!), kept: false, representative: idOf(fingerprinted.ids[kept]!), ...measure(i) };
      yield `${i === 0 ? '\n' : ',\n'}${JSON.stringify(decision)}`;
    }
    // The documents without a word are kept and compared with none: listed so that the kept
    // documents can be read from the decisions alone.
    for (const [k, id] of fingerprinted.featureless.entries()) {
      yield `${representative.length + k === 0 ? '\n' : ',\n'}${JSON.stringify({ id: idOf(id), kept: true, words: false })}`;
    }
    yield '\n],\n';
  }
  yield `"featureless":${JSON.stringify(fingerprinted.featureless.map(idOf))},\n"aliases":${JSON.stringify(report.aliases)},\n`;
  yield `"skipped":${JSON.stringify(report.skipped)},\n"skippedCount":${report.skippedCount}}\n`;
}

/** The distance (SimHash) or similarity (MinHash) of each removed document to its representative. */
function measureOf(report: DedupReport): (i: number) => { distance: number } | { similarity: number } {
  const byPosition = new Map<number, { distance: number } | { similarity: number }>();
  for (const group of report.groups) {
    group.members.forEach((position, k) => {
      byPosition.set(position, group.similarity !== undefined ? { similarity: group.similarity[k]! } : { distance: group.bits[k]! });
    });
  }
  return (i) => byPosition.get(i)!;
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
