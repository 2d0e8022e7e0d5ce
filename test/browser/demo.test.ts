// The demo page, built by Vite and served under a strict Content-Security-Policy, in Debian's
// Chromium: documents are dropped, chosen, pasted or taken from the sample, and it must show the
// groups Node finds, by SimHash or by MinHash, compute the fingerprints Node computes (on a pool
// of workers for a large drop), list what it did not compare, and stay on its own origin. The
// build itself must ship the module once, as a file.

import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_DISTANCE,
  DEFAULT_THRESHOLD,
  LSH_OPTIONS,
  MINHASH_OPTIONS,
  MINHASH_PERMUTATIONS,
  POOL_THRESHOLD,
  TEXT_OPTIONS,
  type Method,
} from '../../examples/browser/src/settings.js';
import type { PasteSplit } from '../../examples/browser/src/input.js';
import * as wasm from '../../ts/index.js';
import { artifact, expectQuiet, launchChromium, watchPage, type PageWatch } from './chromium.js';
import { serveStatic, STRICT_CSP, type StaticServer } from './server.js';
import { makeSample, type Sample } from './synthetic-sample.js';

const demo = fileURLToPath(new URL('../../examples/browser/', import.meta.url));
const corpus = fileURLToPath(new URL('../../examples/corpus/', import.meta.url));
const assets = `${demo}dist/assets/`;

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  await build({ configFile: `${demo}vite.config.ts`, logLevel: 'warn' });
  [server, browser] = await Promise.all([serveStatic({ '/': `${demo}dist` }, STRICT_CSP), launchChromium()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A named document; `base64` gives its bytes instead of `text` (binary files). */
interface DroppedFile {
  readonly name: string;
  readonly text?: string;
  readonly base64?: string;
}

interface Named {
  readonly name: string;
  readonly text: string;
}

/** Opens the page with `method` chosen (SimHash, which most tests compare with Node; the page's default is adaptive). */
async function openDemo(method: Method = 'simhash'): Promise<{ page: Page; watch: PageWatch }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${server.origin}/`);
  await page.locator('body[data-ready="true"]').waitFor();
  expect(await page.locator('#method-adaptive').isChecked(), 'adaptive is the default, as on the command line').toBe(true);
  if (method !== 'adaptive') await choose(page, method);
  return { page, watch };
}

/** Waits until the page says it holds `total` documents, all fingerprinted. */
async function waitForTotal(page: Page, total: number): Promise<void> {
  const noun = total === 1 ? 'document' : 'documents';
  await page.locator('#status-text', { hasText: `; ${total.toLocaleString('en')} ${noun} in all.` }).waitFor({ timeout: 30_000 });
}

async function shownStat(page: Page, label: string): Promise<number> {
  const value = await page.locator('#stats dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd').textContent();
  return Number(value?.replace(/,/g, ''));
}

const shownTotal = (page: Page): Promise<number> => shownStat(page, 'documents');

/**
 * Drops `files` on the page the way a script can (a DataTransfer of File objects, whose items
 * have no file-system entries), and waits for `documents` more documents.
 */
async function drop(page: Page, files: readonly DroppedFile[], documents = files.length): Promise<void> {
  const before = await shownTotal(page);
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const { name, text, base64 } of list) {
      const body = base64 === undefined ? (text ?? '') : Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      data.items.add(new File([body], name));
    }
    return data;
  }, files);
  await page.locator('#drop').dispatchEvent('drop', { dataTransfer: transfer });
  await waitForTotal(page, before + documents);
}

/** Pastes `text`, split as `split` says, and waits for `documents` more documents. */
async function paste(page: Page, text: string, split: PasteSplit, documents: number): Promise<void> {
  const before = await shownTotal(page);
  await page.locator('#paste-split').selectOption(split);
  await page.locator('#paste').fill(text);
  await page.locator('#add-paste').click();
  await waitForTotal(page, before + documents);
}

/** The groups on the page, as sorted lists of document names, in a canonical order. */
async function shownGroups(page: Page): Promise<string[][]> {
  const groups = await page
    .locator('#groups .group')
    .evaluateAll((cards) => cards.map((card) => Array.from(card.querySelectorAll('.name'), (name) => name.textContent ?? '')));
  return canonical(groups);
}

const listed = (page: Page, id: string): Promise<string[]> => page.locator(`#${id} li`).allTextContents();

const canonical = (groups: readonly (readonly string[])[]): string[][] =>
  groups.map((names) => [...names].sort()).sort((a, b) => a.join('\0').localeCompare(b.join('\0')));

const plantedNames = (sample: Sample): string[][] =>
  canonical(sample.plantedGroups.map((group) => group.map((position) => sample.documents[position]!.name)));

/**
 * The groups Node finds: fingerprints, then the decisions (`decide`) among those with words:
 * each kept document with those removed for it.
 */
function nodeGroups(documents: readonly Named[], distance: number): string[][] {
  const fingerprints = wasm.fingerprintMany(documents.map((doc) => doc.text), TEXT_OPTIONS);
  const withWords = [...fingerprints.keys()].filter((i) => fingerprints[i] !== 0n);
  const { representative } = wasm.decide(BigUint64Array.from(withWords, (i) => fingerprints[i]!), { distance });
  return canonical(wasm.decisionGroups(representative).map((group) => Array.from(group.members, (i) => documents[withWords[i]!]!.name)));
}

/** What Node's `decideTexts` decides for the documents with words, as groups and as the export writes it. */
function nodeAdaptive(documents: readonly Named[]): { groups: string[][]; rows: Map<string, string[]> } {
  const fingerprints = wasm.fingerprintMany(documents.map((doc) => doc.text), TEXT_OPTIONS);
  const { representative, similarity } = wasm.decideTexts(documents.map((doc) => doc.text));
  const rows = new Map(documents.map((doc, i) => [doc.name, representative[i] === i ? ['yes', '', ''] : ['no', documents[representative[i]!]!.name, similarity[i]!.toFixed(4)]]));
  const groups = wasm
    .decisionGroups(representative)
    .filter((group) => fingerprints[group.members[0]!] !== 0n)
    .map((group) => Array.from(group.members, (i) => documents[i]!.name));
  return { groups: canonical(groups), rows };
}

/**
 * The groups Node finds by MinHash: the documents with words (a fingerprint other than 0, as
 * the page counts them) signed by `minhashMany`, decided by `decideMinHash`.
 */
function nodeMinHashGroups(documents: readonly Named[], threshold: number): string[][] {
  const fingerprints = wasm.fingerprintMany(documents.map((doc) => doc.text), TEXT_OPTIONS);
  const withWords = [...fingerprints.keys()].filter((i) => fingerprints[i] !== 0n);
  const signatures = wasm.minhashMany(withWords.map((i) => documents[i]!.text), MINHASH_OPTIONS);
  const { representative } = wasm.decideMinHash(signatures, { ...LSH_OPTIONS, threshold });
  return canonical(wasm.decisionGroups(representative).map((group) => Array.from(group.members, (i) => documents[withWords[i]!]!.name)));
}

/** The chart's label for the pairs of documents with words whose estimated Jaccard similarity reaches `threshold`. */
function nodeAgreementLabel(documents: readonly Named[], threshold: number): string {
  const fingerprints = wasm.fingerprintMany(documents.map((doc) => doc.text), TEXT_OPTIONS);
  const withWords = [...fingerprints.keys()].filter((i) => fingerprints[i] !== 0n);
  const k = MINHASH_PERMUTATIONS;
  const signatures = wasm.minhashMany(withWords.map((i) => documents[i]!.text), MINHASH_OPTIONS);
  let pairs = 0;
  for (let a = 0; a < withWords.length; a++) {
    for (let b = a + 1; b < withWords.length; b++) {
      if (wasm.estimateJaccard(signatures.subarray(a * k, (a + 1) * k), signatures.subarray(b * k, (b + 1) * k)) >= threshold) pairs++;
    }
  }
  return `≥ ${threshold.toFixed(2)}: ${pairs.toLocaleString('en')} ${pairs === 1 ? 'pair' : 'pairs'}`;
}

/** Chooses SimHash or MinHash, as a click on the switch does. */
async function choose(page: Page, method: Method): Promise<void> {
  await page.locator(`label:has(#method-${method})`).click();
  await expect.poll(() => page.locator(`#method-${method}`).isChecked()).toBe(true);
}

/** Waits until the page says it signed the documents it held for MinHash. */
async function waitForSigned(page: Page, total: number): Promise<void> {
  await page.locator('#status-text', { hasText: `signed for MinHash in` }).and(page.locator('#status-text', { hasText: `; ${total.toLocaleString('en')} documents in all.` })).waitFor({ timeout: 30_000 });
}

/** The fingerprints the page exports, by document name. */
async function exportedFingerprints(page: Page): Promise<Map<string, string>> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export').click()]);
  const path = await download.path();
  const lines = (await readFile(path, 'utf8')).trim().split('\n').slice(1);
  // The names here need no CSV quoting.
  return new Map(lines.map((line) => line.split(',').slice(0, 2) as [string, string]));
}

/** The rows of the page's export, split at commas (the names here need no quoting). */
async function exportedRows(page: Page): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export').click()]);
  return (await readFile(await download.path(), 'utf8')).trim().split('\n').map((line) => line.split(','));
}

/** What Node decides for each document, as the export writes it: kept, representative, distance. */
function nodeDecisions(documents: readonly Named[], distance: number): Map<string, string[]> {
  const fingerprints = wasm.fingerprintMany(documents.map((doc) => doc.text), TEXT_OPTIONS);
  const withWords = [...fingerprints.keys()].filter((i) => fingerprints[i] !== 0n);
  const decided = wasm.decide(BigUint64Array.from(withWords, (i) => fingerprints[i]!), { distance });
  const out = new Map(documents.map((doc) => [doc.name, ['yes', '', '']]));
  withWords.forEach((position, i) => {
    const kept = decided.representative[i]!;
    if (kept !== i) out.set(documents[position]!.name, ['no', documents[withWords[kept]!]!.name, String(decided.distance[i])]);
  });
  return out;
}

function nodeFingerprints(documents: readonly Named[]): Map<string, string> {
  const fingerprints = wasm.fingerprintMany(documents.map((doc) => doc.text), TEXT_OPTIONS);
  return new Map(documents.map((doc, i) => [doc.name, fingerprints[i]!.toString(16).padStart(16, '0')]));
}

/** examples/corpus as the sample names it: paths relative to the folder, `/`-separated. */
async function corpusDocuments(): Promise<Named[]> {
  const paths = (await readdir(corpus, { recursive: true })).filter((path) => /\.(txt|md)$/.test(path)).sort();
  return Promise.all(paths.map(async (path) => ({ name: path.split(/[\\/]/).join('/'), text: await readFile(join(corpus, path), 'utf8') })));
}

/** "1 pairs", "1 bits" and the like anywhere in the page, the chart's text included. */
const miscounted = (page: Page): Promise<string[]> =>
  page.evaluate(() => document.body.textContent?.match(/(?<![\d,.])1 (pairs|bits|documents|groups|files)\b/g) ?? []);

describe('the demo page build', () => {
  it('ships the WebAssembly module once, as a file, and no inlined copy of it', async () => {
    const files = await readdir(assets);
    const modules = files.filter((name) => name.endsWith('.wasm'));
    expect(modules).toHaveLength(1);
    expect(await readFile(`${assets}${modules[0]}`)).toEqual(await readFile(fileURLToPath(new URL('../../dist/simhash.wasm', import.meta.url))));
    const scripts = files.filter((name) => name.endsWith('.js'));
    expect(scripts.length, 'the page and its worker').toBeGreaterThanOrEqual(2);
    for (const name of scripts) {
      const script = await readFile(`${assets}${name}`, 'latin1');
      // '\0asm' in base64, which begins every inlined copy of a module.
      expect(script, name).not.toContain('AGFzbQ');
      expect(script.length, `${name} is small without the module`).toBeLessThan(60_000);
    }
  });
});

describe('the demo page, under a strict Content-Security-Policy', () => {
  it('groups the real texts of its sample as Node does, names them by path, and fetches the module as a file', async () => {
    const documents = await corpusDocuments();
    const { page, watch } = await openDemo();
    // The groups are part of the page, not of a box that scrolls on its own.
    expect(await page.locator('#groups').evaluate((list) => getComputedStyle(list).overflowY)).toBe('visible');
    await page.locator('#sample').click();
    await waitForTotal(page, documents.length);

    const shown = await shownGroups(page);
    expect(shown).toEqual(nodeGroups(documents, DEFAULT_DISTANCE));
    // Versions of the same manual page and of the same licence are among them.
    expect(shown).toContainEqual(['manuals/rustdoc-1.63.txt', 'manuals/rustdoc-1.95.txt']);
    expect(shown.some((group) => group.includes('licences/mit-chalk.txt') && group.includes('licences/mit-nanoid.txt'))).toBe(true);
    expect(await page.locator('#chart .bar.near').count()).toBeGreaterThan(0);
    expect(await page.locator('#chart .bar:not(.near)').count()).toBeGreaterThan(0);
    expect(await miscounted(page)).toEqual([]);
    await page.screenshot({ path: artifact('demo-sample.png') });

    expect(await exportedFingerprints(page)).toEqual(nodeFingerprints(documents));
    // The export says what was decided, as Node decides it: kept, or the kept document and the distance to it.
    const rows = await exportedRows(page);
    expect(rows[0]).toEqual(['name', 'fingerprint', 'characters', 'group', 'kept', 'representative', 'distance']);
    expect(new Map(rows.slice(1).map((row) => [row[0]!, row.slice(4)]))).toEqual(nodeDecisions(documents, DEFAULT_DISTANCE));
    expect(await page.locator('#groups .group').first().locator('.badge').first().textContent()).toBe('kept');
    const modules = watch.requests.filter((url) => url.endsWith('.wasm'));
    expect(new Set(modules).size, 'one module file, fetched by the page and its worker').toBe(1);
    expectQuiet(watch, server.origin);
  });

  it('decides its sample by the adaptive rule by default, as decideTexts does in Node, with no setting and no chart', async () => {
    const documents = await corpusDocuments();
    const { page, watch } = await openDemo('adaptive');
    await page.locator('#sample').click();
    await waitForTotal(page, documents.length);
    const expected = nodeAdaptive(documents);
    expect(expected.groups.length).toBeGreaterThan(2);
    expect(await shownGroups(page)).toEqual(expected.groups);
    expect(await page.locator('#distance-block').isHidden()).toBe(true);
    expect(await page.locator('#threshold-block').isHidden()).toBe(true);
    expect(await page.locator('#chart-figure').isHidden()).toBe(true);
    expect(await page.locator('#pool-block').isHidden(), 'the pool fingerprints for SimHash only').toBe(true);
    const rows = await exportedRows(page);
    expect(rows[0]).toEqual(['name', 'fingerprint', 'characters', 'group', 'kept', 'representative', 'similarity']);
    expect(new Map(rows.slice(1).map((row) => [row[0]!, row.slice(4)]))).toEqual(expected.rows);
    // An edited short line (a word changed, a typo), pasted later, joins the line it edits; SimHash at its default does not.
    await paste(page, 'Fix a crash when the configuration file is missing\nFix the crash when the configuraton file is missing.\n', 'lines', 2);
    const lines = ['pasted text 1', 'pasted text 2'];
    expect(await shownGroups(page)).toContainEqual(lines);
    await choose(page, 'simhash');
    expect(await shownGroups(page)).not.toContainEqual(lines);
    await choose(page, 'adaptive');
    expect(await shownGroups(page)).toContainEqual(lines);
    expect(await miscounted(page)).toEqual([]);
    expectQuiet(watch, server.origin);
  });

  it('fingerprints a large drop in the worker with progress, and regroups as the distance changes', async () => {
    const sample = makeSample({ originals: 1000, groups: 60, seed: 7 });
    const { page, watch } = await openDemo();
    const progress = await page.evaluateHandle(() => {
      const values: number[] = [];
      const bar = document.querySelector('progress')!;
      new MutationObserver(() => values.push(bar.value)).observe(bar, { attributes: true, attributeFilter: ['value'] });
      return values;
    });
    await drop(page, sample.documents);

    const steps = new Set((await progress.jsonValue()).filter((value) => value > 0 && value < 1));
    expect(steps.size, 'progress reported between batches').toBeGreaterThanOrEqual(3);
    expect(await shownGroups(page)).toEqual(plantedNames(sample));
    await page.screenshot({ path: artifact('demo-large-drop.png') });

    for (const distance of [24, 1, 0]) {
      await page.locator('#distance').fill(String(distance));
      await expect.poll(() => page.locator('#distance-value').textContent()).toBe(String(distance));
      expect(await shownGroups(page)).toEqual(nodeGroups(sample.documents, distance));
      expect(await miscounted(page)).toEqual([]);
    }
    await page.screenshot({ path: artifact('demo-distance-0.png') });

    expect(await exportedFingerprints(page)).toEqual(nodeFingerprints(sample.documents));
    expectQuiet(watch, server.origin);
  });

  it('groups its sample by MinHash as findClustersMinHash does in Node, at the threshold the slider sets', async () => {
    const documents = await corpusDocuments();
    const { page, watch } = await openDemo();
    await choose(page, 'minhash');
    expect(await page.locator('#pool-block').isHidden(), 'the pool fingerprints for SimHash only').toBe(true);
    expect(await page.locator('#threshold-value').textContent()).toBe(DEFAULT_THRESHOLD.toFixed(2));
    expect(await page.locator('#distance-block').isHidden()).toBe(true);
    // Chosen before the documents come: they are signed as they are fingerprinted.
    await page.locator('#sample').click();
    await waitForTotal(page, documents.length);

    const expected = nodeMinHashGroups(documents, DEFAULT_THRESHOLD);
    expect(expected.length).toBeGreaterThan(2);
    expect(await shownGroups(page)).toEqual(expected);
    const badges = await page.locator('#groups .badge:not(.first)').allTextContents();
    expect(badges).toHaveLength(expected.reduce((sum, group) => sum + group.length - 1, 0));
    for (const badge of badges) expect(badge).toMatch(/^J ≈ (0\.\d\d|1\.00)$/);
    // The chart: every pair by its estimated similarity, those at or above the threshold apart.
    expect(await page.locator('#chart .threshold-label').textContent()).toBe(nodeAgreementLabel(documents, DEFAULT_THRESHOLD));
    expect(await page.locator('#chart .bar.near').count()).toBeGreaterThan(0);
    expect(await page.locator('#chart .bar:not(.near)').count()).toBeGreaterThan(0);
    expect(await miscounted(page)).toEqual([]);
    await page.screenshot({ path: artifact('demo-minhash.png') });

    for (const threshold of ['0.8', '0.45']) {
      await page.locator('#threshold').fill(threshold);
      await expect.poll(() => page.locator('#threshold-value').textContent()).toBe(Number(threshold).toFixed(2));
      const chosen = Number(await page.locator('#threshold').inputValue());
      expect(await shownGroups(page)).toEqual(nodeMinHashGroups(documents, chosen));
      expect(await page.locator('#chart .threshold-label').textContent()).toBe(nodeAgreementLabel(documents, chosen));
    }
    // Back to SimHash, the distance slider's groups.
    await choose(page, 'simhash');
    expect(await shownGroups(page)).toEqual(nodeGroups(documents, DEFAULT_DISTANCE));
    expectQuiet(watch, server.origin);
  });

  it('signs for MinHash the files dropped before it was chosen, reading them again, and signs later ones as they come', async () => {
    const sample = makeSample({ originals: 300, groups: 30, seed: 5 });
    const { page, watch } = await openDemo();
    await drop(page, sample.documents);
    expect(await shownGroups(page)).toEqual(plantedNames(sample));

    await choose(page, 'minhash');
    await waitForSigned(page, sample.documents.length);
    expect(await shownGroups(page)).toEqual(nodeMinHashGroups(sample.documents, DEFAULT_THRESHOLD));

    const original = sample.documents[sample.plantedGroups[0]![0]!]!;
    const pasted = [`${original.text}\nWith a line added at the end.`, 'A note of its own, unlike any other document here, about rain.'];
    await paste(page, pasted.join('\n---\n'), 'dashes', 2);
    const all = [...sample.documents, ...pasted.map((text, i) => ({ name: `pasted text ${i + 1}`, text }))];
    const expected = nodeMinHashGroups(all, DEFAULT_THRESHOLD);
    expect(expected.some((group) => group.includes('pasted text 1') && group.includes(original.name))).toBe(true);
    expect(await shownGroups(page)).toEqual(expected);
    expect(await miscounted(page)).toEqual([]);
    expectQuiet(watch, server.origin);
  });

  it(`fingerprints a drop over ${POOL_THRESHOLD.toLocaleString('en')} bytes on a pool of workers, one per core, as one worker does`, async () => {
    const sample = makeSample({ originals: 3400, groups: 120, seed: 13 });
    expect(sample.documents.reduce((sum, doc) => sum + doc.text.length, 0)).toBeGreaterThan(POOL_THRESHOLD);
    const pooled = await openDemo();
    const cores = await pooled.page.evaluate(() => navigator.hardwareConcurrency);
    expect(cores, 'a pool needs two cores or more').toBeGreaterThan(1);
    expect(await pooled.page.locator('#pool-block').isVisible()).toBe(true);
    await drop(pooled.page, sample.documents);
    expect(await pooled.page.locator('#status-text').textContent()).toContain(`in ${cores} Web Workers (a pool`);
    await pooled.page.screenshot({ path: artifact('demo-pool.png') });

    const single = await openDemo();
    await single.page.locator('#use-pool').uncheck();
    await drop(single.page, sample.documents);
    expect(await single.page.locator('#status-text').textContent()).toContain('in a Web Worker;');

    const groups = await shownGroups(pooled.page);
    expect(groups).toEqual(await shownGroups(single.page));
    expect(groups).toEqual(nodeGroups(sample.documents, DEFAULT_DISTANCE));
    const fingerprints = await exportedFingerprints(pooled.page);
    expect(fingerprints).toEqual(await exportedFingerprints(single.page));
    expect(fingerprints).toEqual(nodeFingerprints(sample.documents));
    // The pool's workers were started from their own script, beside the page's worker.
    const scripts = (watch: PageWatch): Set<string> => new Set(watch.requests.filter((url) => /\/worker-[\w-]+\.js$/.test(url)));
    expect(scripts(pooled.watch).size).toBe(2);
    expect(scripts(single.watch).size).toBe(1);
    expectQuiet(pooled.watch, server.origin);
    expectQuiet(single.watch, server.origin);
  });

  it('splits a paste by default, takes it whole or split as chosen, and accumulates it with dropped files', async () => {
    const { page, watch } = await openDemo();
    const base =
      'The committee met on Tuesday to review the budget for the coming year.\n\n' +
      'It agreed to fund the new library wing, and to hear the architects in the spring.\n\n' +
      'The minutes were approved without amendment.';
    const note = 'An unrelated note about the weather in the mountains this spring.\n\nSnow came late, and left early.';
    const three = [base, `${base}\n\nSigned, the clerk.`, note].join('\n---\n');

    // Pasted as it comes, several texts are several documents: here split at the lines of ---.
    await paste(page, three, 'auto', 3);
    expect(await shownGroups(page)).toEqual([['pasted text 1', 'pasted text 2']]);
    await page.locator('#clear').click();
    // Two texts between blank lines, pasted as they come, are two documents, and one group.
    await paste(page, `${base.replace(/\n\n/g, ' ')}\n\n${base.replace(/\n\n/g, ' ')} Signed, the clerk.\n`, 'auto', 2);
    expect(await shownGroups(page)).toEqual([['pasted text 1', 'pasted text 2']]);
    await page.locator('#clear').click();

    // Taken whole, blank lines and separators are part of the text: all of it is one document.
    await paste(page, three, 'whole', 1);
    expect(await shownTotal(page)).toBe(1);
    await page.locator('#clear').click();

    await paste(page, three, 'dashes', 3);
    expect(await shownGroups(page)).toEqual([['pasted text 1', 'pasted text 2']]);
    // One pair within the distance, and the words agree with the number.
    expect(await page.locator('#chart .threshold-label').textContent()).toBe(`≤ ${DEFAULT_DISTANCE} bits: 1 pair`);
    await page.locator('#distance').fill('1');
    await expect.poll(() => page.locator('.distance label').textContent()).toMatch(/at most 1 bit$/);
    await page.locator('#distance').fill(String(DEFAULT_DISTANCE));

    await paste(page, 'first line of its own\r\n\r\nsecond line of its own\n', 'lines', 2);
    expect(await shownTotal(page)).toBe(5);
    // Shouted and re-wrapped, it is the same text once normalised.
    await drop(page, [{ name: 'minutes.txt', text: base.toUpperCase().replace(/ /g, '\n') }]);
    expect(await shownGroups(page)).toEqual([['minutes.txt', 'pasted text 1', 'pasted text 2']]);
    expect(await miscounted(page)).toEqual([]);
    expectQuiet(watch, server.origin);
  });

  it('skips binary files and lists them, and lists the documents without words', async () => {
    const png = (await readFile(`${demo}screenshot.png`)).subarray(0, 4096).toString('base64');
    // Over a megabyte, files are probed before they are read whole: both ways must agree.
    const largeBinary = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), Buffer.alloc(1_500_000, 0x41)]).toString('base64');
    const large = { name: 'large.txt', text: makeSample({ originals: 600, groups: 0, seed: 3 }).documents.map((doc) => doc.text).join('\n') };
    expect(large.text.length).toBeGreaterThan(1 << 20);
    const unicode = 'Crème brûlée, naïve café — 日本語の文章を少し書きます 😀 and a few plain English words to end with.';
    const { page, watch } = await openDemo();
    const text = 'A short note that has words in it, enough of them to make a few shingles.';
    await drop(
      page,
      [
        { name: 'photo.png', base64: png },
        { name: 'note.txt', text },
        { name: 'empty.txt', text: '' },
        { name: 'large.png', base64: largeBinary },
        { name: 'dots.txt', text: '... !!! ???' },
        large,
        // A byte-order mark, dropped as Blob.text() drops it, and characters of two to four bytes.
        { name: 'utf8.txt', text: `\uFEFF${unicode}` },
      ],
      5,
    );
    expect(await shownStat(page, 'skipped')).toBe(2);
    expect(await shownStat(page, 'without words')).toBe(2);
    expect(await listed(page, 'skipped')).toEqual(['photo.png · binary file', 'large.png · binary file']);
    expect(await listed(page, 'wordless')).toEqual(['empty.txt', 'dots.txt']);
    await page.screenshot({ path: artifact('demo-set-aside.png') });
    const exported = await exportedFingerprints(page);
    expect([...exported.keys()]).toEqual(['note.txt', 'empty.txt', 'dots.txt', 'large.txt', 'utf8.txt']);
    expect(exported.get('large.txt')).toEqual(nodeFingerprints([large]).get('large.txt'));
    expect(exported.get('utf8.txt')).toEqual(nodeFingerprints([{ name: 'utf8.txt', text: unicode }]).get('utf8.txt'));
    expect(await miscounted(page)).toEqual([]);
    expectQuiet(watch, server.origin);
  });

  it('walks dropped folders, reading every batch of entries, and names the files by their path', async () => {
    const copyright = (await readFile(`${corpus}licences/mit-chalk.txt`, 'utf8')).replace(/\n/g, ' ');
    const { page, watch } = await openDemo();
    // A script cannot make a real folder drop: the drop's items get the entries of a small tree
    // that behaves as Chromium's do (fullPath from the drop's root, readers giving batches).
    await page.evaluate(
      ({ copyright }) => {
        type Tree = { readonly [name: string]: string | Tree };
        const entry = (name: string, path: string, node: string | Tree): object => {
          if (typeof node === 'string') {
            return { name, fullPath: path, isFile: true, isDirectory: false, file: (ok: (file: File) => void) => ok(new File([node], name)) };
          }
          const children = Object.entries(node).reverse().map(([child, value]) => entry(child, `${path}/${child}`, value));
          return {
            name,
            fullPath: path,
            isFile: false,
            isDirectory: true,
            createReader: () => {
              let next = 0;
              return { readEntries: (ok: (batch: object[]) => void) => ok(children.slice(next, (next += 2))) };
            },
          };
        };
        const tree: Tree = {
          'pkg-a': { copyright: copyright },
          'pkg-b': { copyright: copyright.replace('Sindre Sorhus', 'Someone Else'), 'logo.png': '\u0089PNG\r\n\u001a\n\u0000\u0000' },
          'pkg-c': { doc: { copyright: 'Public domain.' }, 'README': '' },
          'pkg-d': {},
          'pkg-e': { copyright: copyright.toUpperCase() },
        };
        const root = entry('packages', '/packages', tree);
        DataTransferItem.prototype.webkitGetAsEntry = () => root as FileSystemEntry;
      },
      { copyright },
    );
    await drop(page, [{ name: 'packages', text: '' }], 5);
    expect(await shownGroups(page)).toEqual([['packages/pkg-a/copyright', 'packages/pkg-b/copyright', 'packages/pkg-e/copyright']]);
    expect(await listed(page, 'skipped')).toEqual(['packages/pkg-b/logo.png · binary file']);
    expect(await listed(page, 'wordless')).toEqual(['packages/pkg-c/README']);
    expect([...(await exportedFingerprints(page)).keys()].sort()).toEqual([
      'packages/pkg-a/copyright',
      'packages/pkg-b/copyright',
      'packages/pkg-c/README',
      'packages/pkg-c/doc/copyright',
      'packages/pkg-e/copyright',
    ]);
    expectQuiet(watch, server.origin);
  });

  it('reads a chosen folder, naming each file by its path in the folder', async () => {
    const copyright = await readFile(`${corpus}licences/isc-semver.txt`, 'utf8');
    const root = await mkdtemp(join(tmpdir(), 'demo-folder-'));
    try {
      const folder = join(root, 'debian-docs');
      const files: readonly (readonly [string, string])[] = [
        ['libfoo/copyright', copyright],
        ['libbar/copyright', copyright.replace(/Copyright \(c\)[^\n]*/, 'Copyright (c) The Bar Authors')],
        ['libbaz/copyright', 'Public domain: no rights reserved, as the author wrote in nineteen ninety.'],
      ];
      for (const [path, text] of files) {
        await mkdir(join(folder, path, '..'), { recursive: true });
        await writeFile(join(folder, path), text);
      }
      const { page, watch } = await openDemo();
      await page.locator('#folder').setInputFiles(folder);
      await waitForTotal(page, 3);
      expect(await shownGroups(page)).toEqual([['debian-docs/libbar/copyright', 'debian-docs/libfoo/copyright']]);
      expect([...(await exportedFingerprints(page)).keys()].sort()).toEqual([
        'debian-docs/libbar/copyright',
        'debian-docs/libbaz/copyright',
        'debian-docs/libfoo/copyright',
      ]);
      expectQuiet(watch, server.origin);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('the demo page, where the policy forbids WebAssembly', () => {
  it("says that 'wasm-unsafe-eval' is missing", async () => {
    const blocked = await serveStatic({ '/': `${demo}dist` }, STRICT_CSP.replace(" 'wasm-unsafe-eval'", ''));
    try {
      const page = await browser.newPage();
      await page.goto(`${blocked.origin}/`);
      const error = page.locator('#error');
      await error.waitFor();
      expect(await error.textContent()).toContain("'wasm-unsafe-eval'");
      await page.screenshot({ path: artifact('demo-csp-blocked.png') });
      await page.close();
    } finally {
      await blocked.close();
    }
  });
});
