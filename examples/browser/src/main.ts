/**
 * The demo page: documents in (drop, choose, paste or a sample), fingerprints from the worker,
 * then on the page itself `findClusters` at the chosen distance, the groups and the chart.
 */

import { findClusters, init } from 'simhash-wasm/slim';
// The module ships once, as a file, which both the page and the worker fetch.
import wasmUrl from 'simhash-wasm/simhash.wasm?url';
import { renderChart } from './chart.js';
import { count, unit } from './count.js';
import { fingerprintsCsv } from './csv.js';
import { Fingerprinter, type Added } from './fingerprinter.js';
import { groupLabels } from './groups.js';
import { acceptDrops, chosenFiles, pastedInputs, type Gathered, type PasteSplit } from './input.js';
import type { DocumentInfo, Histogram, Skipped } from './protocol.js';
import { loadSample } from './sample.js';
import { DEFAULT_DISTANCE } from './settings.js';
import { renderAside, renderGroups } from './view.js';

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
  distance: byId('distance', HTMLInputElement),
  distanceValue: byId('distance-value', HTMLOutputElement),
  distanceUnit: byId('distance-unit', HTMLElement),
  chart: byId('chart', SVGSVGElement),
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
let pasted = 0;
const fingerprinter = new Fingerprinter();

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

/** The groups at the slider's distance; the chart and the figures beside it. */
function regroup(): void {
  const distance = Number(ui.distance.value);
  ui.distanceValue.value = String(distance);
  ui.distanceUnit.textContent = unit(distance, 'bit');
  renderChart(ui.chart, histogram, distance);
  ui.chartNote.textContent =
    histogram === null || histogram.pairs === 0
      ? 'The distribution of distances between every two documents with words appears here.'
      : `${histogram.sampled ? 'Estimated from a sample of the' : histogram.pairs === 1 ? 'The' : 'All'} ${count(histogram.pairs, 'pair')} of documents with words. ` +
        'Near-duplicates sit at the left, unrelated documents in the bell around 32 bits.';
  const withWords = [...fingerprints.keys()].filter((i) => fingerprints[i] !== 0n);
  // Before any document, nothing needs WebAssembly: the page renders even where it is blocked.
  const groups =
    withWords.length < 2
      ? []
      : groupLabels(findClusters(BigUint64Array.from(withWords, (i) => fingerprints[i]!), { distance })).map((members) =>
          members.map((i) => withWords[i]!),
        );
  const grouped = groups.reduce((sum, members) => sum + members.length, 0);
  ui.stats.replaceChildren(
    ...stat('documents', documents.length.toLocaleString('en')),
    ...stat('groups', groups.length.toLocaleString('en')),
    ...stat('in groups', grouped.toLocaleString('en')),
    ...stat('without words', (documents.length - withWords.length).toLocaleString('en')),
    ...stat('skipped', skipped.length.toLocaleString('en')),
  );
  const whenNone =
    withWords.length < 2
      ? 'Groups of near-duplicates appear here once there are documents to compare.'
      : `No two documents differ in at most ${count(distance, 'bit')}.`;
  renderGroups(ui.groups, groups, documents, fingerprints, whenNone);
  renderAside(
    ui.wordlessBlock,
    ui.wordless,
    documents.filter((_, i) => fingerprints[i] === 0n),
  );
  renderAside(ui.skippedBlock, ui.skipped, skipped);
}

function append(added: Added): void {
  documents = documents.concat(added.documents);
  skipped = skipped.concat(added.skipped);
  const grown = new BigUint64Array(fingerprints.length + added.fingerprints.length);
  grown.set(fingerprints);
  grown.set(added.fingerprints, fingerprints.length);
  fingerprints = grown;
  histogram = added.histogram;
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
    ui.status.textContent = `Fingerprinting ${count(inputs.length, 'document')}…`;
    const added = await fingerprinter.add(inputs, (done, total) => {
      ui.progress.value = total === 0 ? 1 : done / total;
      ui.status.textContent =
        done < total
          ? `Fingerprinting ${count(inputs.length, 'document')}… ${Math.floor((100 * done) / total)} %`
          : 'Measuring the distances between documents…';
    });
    append({ ...added, skipped: unread.concat(added.skipped) });
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const set = unread.length + added.skipped.length;
    ui.status.textContent =
      `${count(added.documents.length, 'document')} fingerprinted in ${seconds} s in a Web Worker` +
      (set === 0 ? '' : ` (${count(set, 'file')} skipped)`) +
      `; ${count(documents.length, 'document')} in all.`;
    regroup();
  } catch (error) {
    ui.status.textContent = 'Fingerprinting failed.';
    showError(error);
  } finally {
    ui.progress.hidden = true;
  }
}

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
  ui.exportCsv.addEventListener('click', () => download('fingerprints.csv', fingerprintsCsv(documents, fingerprints), 'text/csv'));
  ui.clear.addEventListener('click', () => {
    fingerprinter.clear();
    documents = [];
    skipped = [];
    pasted = 0;
    fingerprints = new BigUint64Array(0);
    histogram = null;
    regroup();
    ui.status.textContent = 'No documents yet.';
  });
}

async function start(): Promise<void> {
  ui.distance.value = String(DEFAULT_DISTANCE);
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
