/**
 * The demo page: documents in (drop, choose, paste or a sample), fingerprints, the adaptive
 * decisions (and, for MinHash, signatures) from the worker, then on the page itself `decide` at
 * the chosen distance or `decideMinHash` at the chosen threshold (the library's rule of what to
 * keep), the groups and the chart. The adaptive method (the default, as on the command line)
 * has no setting: the worker decides by `decideTexts`'s rule as documents arrive.
 */

import { decide, decideMinHash, decisionGroups, init } from 'simhash-wasm/slim';
// The module ships once, as a file, which both the page and the worker fetch.
import wasmUrl from 'simhash-wasm/simhash.wasm?url';
// The batch search's own rule for when a pair reaches the threshold, so that the chart's line
// falls where decideMinHash draws it.
import { minEqual } from '../../../ts/shared/minhash-bands.js';
import { agreementAxis, bitsAxis, renderChart } from './chart.js';
import { count, unit } from './count.js';
import { type Decided, fingerprintsCsv } from './csv.js';
import { Fingerprinter, type Added } from './fingerprinter.js';
import { acceptDrops, chosenFiles, pastedInputs, type Gathered, type PasteSplit } from './input.js';
import { bitsFromKept, jaccardWithKept, similarityText, similarityToKept } from './measures.js';
import type { Adaptive, DocumentInfo, Histogram, Signed, Skipped } from './protocol.js';
import { loadSample } from './sample.js';
import { DEFAULT_DISTANCE, DEFAULT_THRESHOLD, LSH_OPTIONS, MINHASH_PERMUTATIONS as K, POOL_THRESHOLD, type Method } from './settings.js';
import { renderAside, renderGroups, type GroupMeasure } from './view.js';

function byId<T extends Element>(id: string, type: abstract new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no #${id} of the expected kind`);
  return found;
}

const ui = {
  drop: byId('drop', HTMLElement),
  files: byId('files', HTMLInputElement),
  folder: byId('folder', HTMLInputElement),
  sample: byId('sample', HTMLButtonElement),
  paste: byId('paste', HTMLTextAreaElement),
  pasteSplit: byId('paste-split', HTMLSelectElement),
  addPaste: byId('add-paste', HTMLButtonElement),
  progress: byId('progress', HTMLProgressElement),
  status: byId('status-text', HTMLElement),
  error: byId('error', HTMLElement),
  methodAdaptive: byId('method-adaptive', HTMLInputElement),
  methodSimHash: byId('method-simhash', HTMLInputElement),
  methodMinHash: byId('method-minhash', HTMLInputElement),
  distanceBlock: byId('distance-block', HTMLElement),
  thresholdBlock: byId('threshold-block', HTMLElement),
  threshold: byId('threshold', HTMLInputElement),
  thresholdValue: byId('threshold-value', HTMLOutputElement),
  poolBlock: byId('pool-block', HTMLElement),
  usePool: byId('use-pool', HTMLInputElement),
  poolThreshold: byId('pool-threshold', HTMLElement),
  poolThreads: byId('pool-threads', HTMLElement),
  distance: byId('distance', HTMLInputElement),
  distanceValue: byId('distance-value', HTMLOutputElement),
  distanceUnit: byId('distance-unit', HTMLElement),
  chart: byId('chart', SVGSVGElement),
  chartFigure: byId('chart-figure', HTMLElement),
  chartNote: byId('chart-note', HTMLElement),
  stats: byId('stats', HTMLElement),
  groups: byId('groups', HTMLOListElement),
  wordlessBlock: byId('wordless-block', HTMLElement),
  wordless: byId('wordless', HTMLUListElement),
  skippedBlock: byId('skipped-block', HTMLElement),
  skipped: byId('skipped', HTMLUListElement),
  exportCsv: byId('export', HTMLButtonElement),
  clear: byId('clear', HTMLButtonElement),
};

let documents: DocumentInfo[] = [];
let skipped: Skipped[] = [];
let fingerprints = new BigUint64Array(0);
let histogram: Histogram | null = null;
/** How many pairs agree in each number of signature positions, when every document is signed. */
let agreement: Histogram | null = null;
/** MinHash signatures of documents `0 .. signedCount - 1`, back to back. */
let signatures = new Uint32Array(0);
let signedCount = 0;
/** The adaptive decisions over every document so far, from the worker. */
let adaptive: Adaptive = { representative: new Uint32Array(0), similarity: new Float64Array(0) };
/** Whether the worker is signing the documents that have no signature yet. */
let signing = false;
/** Bumped by Clear: answers to requests made before it are dropped. */
let generation = 0;
let pasted = 0;
const fingerprinter = new Fingerprinter();
/** Workers a pool for a large drop gets: one per core. */
const cores = navigator.hardwareConcurrency || 1;

const method = (): Method => (ui.methodMinHash.checked ? 'minhash' : ui.methodSimHash.checked ? 'simhash' : 'adaptive');

function showError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  // Browsers name 'unsafe-eval' in this error, but 'wasm-unsafe-eval' is the narrower fix.
  ui.error.textContent = /content.security.policy|\bCSP\b/i.test(message)
    ? `WebAssembly is blocked by this page's Content-Security-Policy: allow it with 'wasm-unsafe-eval' in script-src. (${message})`
    : message;
  ui.error.hidden = false;
}

function stat(label: string, value: string): HTMLElement[] {
  const term = document.createElement('dt');
  term.textContent = label;
  const definition = document.createElement('dd');
  definition.textContent = value;
  return [term, definition];
}

/**
 * Groups of positions (a kept document, then those removed for it), largest first, and how
 * each group's members compare with its kept document.
 */
interface Grouping {
  readonly groups: readonly (readonly number[])[];
  readonly measure: (group: readonly number[]) => GroupMeasure;
}

const NO_GROUPS: Grouping = { groups: [], measure: () => ({ badges: [], summary: '', codes: null }) };

/** The last decisions, for the export. */
let decisions: Decided = { representative: new Map(), measure: new Map(), group: new Map() };

/** Groups of positions from the library's decisions over `withWords`, largest first. */
function grouping(withWords: readonly number[], representative: Uint32Array, measureOf: (i: number) => number): readonly (readonly number[])[] {
  const groups = decisionGroups(representative)
    .map(({ members }) => Array.from(members, (i) => withWords[i]!))
    .sort((x, y) => y.length - x.length || x[0]! - y[0]!);
  const byPosition = { representative: new Map<number, number>(), measure: new Map<number, number>(), group: new Map<number, number>() };
  withWords.forEach((position, i) => {
    byPosition.representative.set(position, withWords[representative[i]!]!);
    byPosition.measure.set(position, measureOf(i));
  });
  groups.forEach((members, g) => members.forEach((position) => byPosition.group.set(position, g + 1)));
  decisions = byPosition;
  return groups;
}

/** The decisions over `withWords` (positions) at the distance the slider sets. */
function simhashGroups(withWords: readonly number[], distance: number): Grouping {
  const { representative, distance: bits } = decide(BigUint64Array.from(withWords, (i) => fingerprints[i]!), { distance });
  return {
    groups: grouping(withWords, representative, (i) => bits[i]!),
    measure: (group: readonly number[]) => bitsFromKept(group, fingerprints),
  };
}

/** The decisions over `withWords` (positions, all signed) at the threshold the slider sets. */
function minhashGroups(withWords: readonly number[], threshold: number): Grouping {
  const chosen = new Uint32Array(withWords.length * K);
  withWords.forEach((position, i) => chosen.set(signatures.subarray(position * K, (position + 1) * K), i * K));
  const { representative, similarity } = decideMinHash(chosen, { ...LSH_OPTIONS, threshold });
  return {
    groups: grouping(withWords, representative, (i) => similarity[i]!),
    measure: (group: readonly number[]) => jaccardWithKept(group, signatures),
  };
}

/** The worker's adaptive decisions over `withWords` (positions): documents without words are kept alone. */
function adaptiveGroups(withWords: readonly number[]): Grouping {
  const compact = new Map(withWords.map((position, i) => [position, i]));
  const representative = Uint32Array.from(withWords, (position) => compact.get(adaptive.representative[position]!)!);
  return {
    groups: grouping(withWords, representative, (i) => adaptive.similarity[withWords[i]!]!),
    measure: (group: readonly number[]) => similarityToKept(group, adaptive.similarity),
  };
}

/** The groups at the chosen method's distance or threshold; the chart and the figures beside it. */
function regroup(): void {
  const minhash = method() === 'minhash';
  const adaptiveChosen = method() === 'adaptive';
  // The adaptive rule has no setting, and no single distribution to chart.
  ui.chartFigure.hidden = adaptiveChosen;
  // Only SimHash fingerprints on a pool.
  ui.poolBlock.hidden = cores < 2 || method() !== 'simhash';
  const distance = Number(ui.distance.value);
  const threshold = Number(ui.threshold.value);
  ui.distanceBlock.hidden = minhash || adaptiveChosen;
  ui.thresholdBlock.hidden = !minhash;
  ui.distanceValue.value = String(distance);
  ui.distanceUnit.textContent = unit(distance, 'bit');
  ui.thresholdValue.value = similarityText(threshold);
  const shown = minhash ? agreement : histogram;
  if (minhash) renderChart(ui.chart, agreement, agreementAxis(K, minEqual(threshold, K), similarityText(threshold)));
  else renderChart(ui.chart, histogram, bitsAxis(distance));
  ui.chart.setAttribute(
    'aria-label',
    minhash ? 'How many pairs of documents have each estimated Jaccard similarity' : 'How many pairs of documents differ in each number of bits',
  );
  const pairs =
    shown === null || shown.pairs === 0
      ? ''
      : `${shown.sampled ? 'Estimated from a sample of the' : shown.pairs === 1 ? 'The' : 'All'} ${count(shown.pairs, 'pair')} of documents with words. `;
  ui.chartNote.textContent = minhash
    ? pairs === ''
      ? 'The distribution of the estimated similarity of every two documents with words appears here.'
      : `${pairs}Near-duplicates sit at the right, unrelated documents near 0; the groups join the pairs at or above the threshold that share one of the LSH bands, planned to miss few.`
    : pairs === ''
      ? 'The distribution of distances between every two documents with words appears here.'
      : `${pairs}Near-duplicates sit at the left, unrelated documents in the bell around 32 bits.`;
  const withWords = [...fingerprints.keys()].filter((i) => fingerprints[i] !== 0n);
  // MinHash groups only once every document is signed: the worker catches up, then regroups.
  const unsigned = minhash && signedCount < documents.length;
  if (unsigned) signRest();
  // Before any document, nothing needs WebAssembly: the page renders even where it is blocked.
  decisions = { representative: new Map(), measure: new Map(), group: new Map() };
  const { groups, measure } =
    withWords.length < 2 || unsigned
      ? NO_GROUPS
      : adaptiveChosen
        ? adaptiveGroups(withWords)
        : minhash
          ? minhashGroups(withWords, threshold)
          : simhashGroups(withWords, distance);
  const grouped = groups.reduce((sum, members) => sum + members.length, 0);
  ui.stats.replaceChildren(
    ...stat('documents', documents.length.toLocaleString('en')),
    ...stat('groups', groups.length.toLocaleString('en')),
    ...stat('to remove', (grouped - groups.length).toLocaleString('en')),
    ...stat('without words', (documents.length - withWords.length).toLocaleString('en')),
    ...stat('skipped', skipped.length.toLocaleString('en')),
  );
  const whenNone =
    withWords.length < 2
      ? 'Groups of near-duplicates appear here once there are documents to compare.'
      : unsigned
        ? 'Computing the MinHash signatures…'
        : adaptiveChosen
          ? 'No two documents are near-duplicates by their words (short texts) or word pairs (long ones).'
          : minhash
            ? `No two documents have an estimated Jaccard similarity of ${similarityText(threshold)} or more.`
            : `No two documents differ in at most ${count(distance, 'bit')}.`;
  renderGroups(ui.groups, groups, documents, measure, whenNone);
  renderAside(
    ui.wordlessBlock,
    ui.wordless,
    documents.filter((_, i) => fingerprints[i] === 0n),
  );
  renderAside(ui.skippedBlock, ui.skipped, skipped);
}

/** Keeps the signatures of documents `from` onwards. */
function keepSignatures({ from, signatures: added, agreement: distribution }: Signed): void {
  const end = from + added.length / K;
  if (end * K > signatures.length) {
    const grown = new Uint32Array(end * K);
    grown.set(signatures.subarray(0, from * K));
    signatures = grown;
  }
  signatures.set(added, from * K);
  signedCount = end;
  agreement = distribution;
}

function append(added: Added): void {
  documents = documents.concat(added.documents);
  skipped = skipped.concat(added.skipped);
  const grown = new BigUint64Array(fingerprints.length + added.fingerprints.length);
  grown.set(fingerprints);
  grown.set(added.fingerprints, fingerprints.length);
  fingerprints = grown;
  histogram = added.histogram;
  adaptive = added.adaptive;
  if (added.signed !== null) keepSignatures(added.signed);
  // The documents just added are not in it: a request to sign them brings a new one.
  else agreement = null;
}

/** Shows `doing` and how far along it is, or `then` once it is done. */
function showProgress(done: number, total: number, doing: string, then: string): void {
  ui.progress.value = total === 0 ? 1 : done / total;
  ui.status.textContent = done < total ? `${doing}… ${Math.floor((100 * done) / total)} %` : then;
}

/** Has the worker sign, for MinHash, every document it holds that has no signature yet. */
function signRest(): void {
  if (signing) return;
  signing = true;
  const started = performance.now();
  const asked = generation;
  ui.progress.hidden = false;
  ui.progress.value = 0;
  const todo = documents.length - signedCount;
  const doing = `Computing the MinHash signatures of ${count(todo, 'document')}`;
  ui.status.textContent = `${doing}…`;
  const onProgress = (done: number, total: number): void => {
    if (asked === generation) showProgress(done, total, doing, 'Grouping…');
  };
  fingerprinter.sign(onProgress).then(
    (signed) => {
      signing = false;
      ui.progress.hidden = true;
      if (asked !== generation) return;
      keepSignatures(signed);
      regroup();
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      ui.status.textContent = `${count(signed.signatures.length / K, 'document')} signed for MinHash in ${seconds} s in a Web Worker; ${count(documents.length, 'document')} in all.`;
    },
    (error: unknown) => {
      signing = false;
      ui.progress.hidden = true;
      // Back to SimHash, or each regroup would ask again for what cannot be had.
      ui.methodSimHash.checked = true;
      regroup();
      ui.status.textContent = 'Computing the MinHash signatures failed.';
      showError(error);
    },
  );
}

/** Fingerprints `gathered.inputs`; what could not be gathered is listed as skipped with them. */
async function analyse(gathering: Gathered | Promise<Gathered>): Promise<void> {
  const started = performance.now();
  ui.error.hidden = true;
  ui.progress.hidden = false;
  ui.progress.value = 0;
  try {
    ui.status.textContent = 'Reading…';
    const { inputs, skipped: unread } = await gathering;
    if (inputs.length === 0 && unread.length === 0) {
      ui.status.textContent = 'There were no files in what was given.';
      return;
    }
    const asked = generation;
    const sign = method() === 'minhash';
    const doing = `${sign ? 'Fingerprinting and signing' : 'Fingerprinting'} ${count(inputs.length, 'document')}`;
    ui.status.textContent = `${doing}…`;
    const threads = ui.usePool.checked ? cores : 1;
    const added = await fingerprinter.add(inputs, { sign, threads }, (done, total) => {
      if (asked === generation) showProgress(done, total, doing, 'Measuring the distances between documents…');
    });
    if (asked !== generation) return;
    append({ ...added, skipped: unread.concat(added.skipped) });
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const set = unread.length + added.skipped.length;
    const where = added.workers === 1 ? 'a Web Worker' : `${added.workers} Web Workers (a pool, for a drop over ${megabytes(POOL_THRESHOLD)})`;
    ui.status.textContent =
      `${count(added.documents.length, 'document')} ${added.signed === null ? 'fingerprinted' : 'fingerprinted and signed'} in ${seconds} s in ${where}` +
      (set === 0 ? '' : ` (${count(set, 'file')} skipped)`) +
      (added.poolFailure === null ? '' : ` (the pool of workers could not start: ${added.poolFailure})`) +
      `; ${count(documents.length, 'document')} in all.`;
    regroup();
  } catch (error) {
    ui.status.textContent = 'Fingerprinting failed.';
    showError(error);
  } finally {
    ui.progress.hidden = true;
  }
}

const megabytes = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;

function download(name: string, text: string, type: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

function wire(): void {
  acceptDrops(ui.drop, (gathering) => void analyse(gathering));
  for (const input of [ui.files, ui.folder]) {
    input.addEventListener('change', () => {
      void analyse({ inputs: chosenFiles(input.files ?? []), skipped: [] });
      input.value = '';
    });
  }
  ui.addPaste.addEventListener('click', () => {
    const inputs = pastedInputs(ui.paste.value, ui.pasteSplit.value as PasteSplit, pasted + 1);
    pasted += inputs.length;
    ui.paste.value = '';
    if (inputs.length > 0) void analyse({ inputs, skipped: [] });
  });
  ui.sample.addEventListener('click', () => void analyse(loadSample().then((inputs) => ({ inputs, skipped: [] }))));
  ui.distance.addEventListener('input', regroup);
  ui.threshold.addEventListener('input', regroup);
  for (const choice of [ui.methodAdaptive, ui.methodSimHash, ui.methodMinHash]) choice.addEventListener('change', regroup);
  ui.exportCsv.addEventListener('click', () => download('fingerprints.csv', fingerprintsCsv(documents, fingerprints, decisions, method()), 'text/csv'));
  ui.clear.addEventListener('click', () => {
    fingerprinter.clear();
    generation++;
    signatures = new Uint32Array(0);
    signedCount = 0;
    documents = [];
    skipped = [];
    pasted = 0;
    fingerprints = new BigUint64Array(0);
    histogram = null;
    agreement = null;
    adaptive = { representative: new Uint32Array(0), similarity: new Float64Array(0) };
    regroup();
    ui.status.textContent = 'No documents yet.';
  });
}

async function start(): Promise<void> {
  ui.distance.value = String(DEFAULT_DISTANCE);
  ui.threshold.value = String(DEFAULT_THRESHOLD);
  ui.poolThreshold.textContent = megabytes(POOL_THRESHOLD);
  ui.poolThreads.textContent = `${count(cores, 'worker')}, one per core`;
  // With one core a pool would only add its costs.
  regroup();
  try {
    // The page itself needs WebAssembly only for findClusters; the worker loads its own instance.
    await init(wasmUrl);
  } catch (error) {
    ui.status.textContent = 'This page cannot run WebAssembly.';
    showError(error);
    return;
  }
  wire();
  document.body.dataset['ready'] = 'true';
}

void start();
