// The demo page, built by Vite and served under a strict Content-Security-Policy, in Debian's
// Chromium: documents with planted near-duplicates are dropped on it, and it must show exactly
// the planted groups, compute the fingerprints Node computes, and stay on its own origin.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSample, type Sample, type SampleDocument } from '../../examples/browser/src/sample.js';
import { DEFAULT_DISTANCE, TEXT_OPTIONS } from '../../examples/browser/src/settings.js';
import * as wasm from '../../ts/index.js';
import { artifact, expectQuiet, launchChromium, watchPage, type PageWatch } from './chromium.js';
import { components } from './components.js';
import { serveStatic, STRICT_CSP, type StaticServer } from './server.js';

const demo = fileURLToPath(new URL('../../examples/browser/', import.meta.url));

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

async function openDemo(): Promise<{ page: Page; watch: PageWatch }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${server.origin}/`);
  await page.locator('body[data-ready="true"]').waitFor();
  return { page, watch };
}

/** Waits until the page says it holds `total` documents, all fingerprinted. */
async function waitForTotal(page: Page, total: number): Promise<void> {
  await page.locator('#status-text', { hasText: `; ${total.toLocaleString('en')} documents in all.` }).waitFor({ timeout: 30_000 });
}

const shownTotal = async (page: Page): Promise<number> => Number((await page.locator('#stats dd').first().textContent())?.replace(/,/g, ''));

/** Drops `documents` on the page as text files, the way a file manager does, and waits for them. */
async function drop(page: Page, documents: readonly SampleDocument[]): Promise<void> {
  const before = await shownTotal(page);
  const transfer = await page.evaluateHandle((docs) => {
    const data = new DataTransfer();
    for (const { name, text } of docs) data.items.add(new File([text], name, { type: 'text/plain' }));
    return data;
  }, documents);
  await page.locator('#drop').dispatchEvent('drop', { dataTransfer: transfer });
  await waitForTotal(page, before + documents.length);
}

/** The groups on the page, as sorted lists of document names, in a canonical order. */
async function shownGroups(page: Page): Promise<string[][]> {
  const groups = await page
    .locator('#groups .group')
    .evaluateAll((cards) => cards.map((card) => Array.from(card.querySelectorAll('.name'), (name) => name.textContent ?? '')));
  return canonical(groups);
}

const canonical = (groups: readonly (readonly string[])[]): string[][] =>
  groups.map((names) => [...names].sort()).sort((a, b) => a.join('\0').localeCompare(b.join('\0')));

const plantedNames = (sample: Sample): string[][] =>
  canonical(sample.plantedGroups.map((group) => group.map((position) => sample.documents[position]!.name)));

/** The groups Node finds: fingerprints, then the components of `findAll`'s pairs among those with words. */
function nodeGroups(sample: Sample, distance: number): string[][] {
  const fingerprints = wasm.fingerprintMany(sample.documents.map((doc) => doc.text), TEXT_OPTIONS);
  const withWords = [...fingerprints.keys()].filter((i) => fingerprints[i] !== 0n);
  const pairs = wasm.findAll(BigUint64Array.from(withWords, (i) => fingerprints[i]!), { distance });
  return canonical(components(withWords.length, pairs).map((group) => group.map((i) => sample.documents[withWords[i]!]!.name)));
}

/** The fingerprints the page exports, by document name. */
async function exportedFingerprints(page: Page): Promise<Map<string, string>> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export').click()]);
  const path = await download.path();
  const lines = (await readFile(path, 'utf8')).trim().split('\n').slice(1);
  // The sample's names need no CSV quoting.
  return new Map(lines.map((line) => line.split(',') as [string, string]));
}

function nodeFingerprints(documents: readonly SampleDocument[]): Map<string, string> {
  const fingerprints = wasm.fingerprintMany(documents.map((doc) => doc.text), TEXT_OPTIONS);
  return new Map(documents.map((doc, i) => [doc.name, fingerprints[i]!.toString(16).padStart(16, '0')]));
}

describe('the demo page, under a strict Content-Security-Policy', () => {
  it('shows exactly the planted groups of a dropped set, with the fingerprints Node computes', async () => {
    const sample = makeSample({ originals: 40, groups: 8, seed: 3 });
    const { page, watch } = await openDemo();
    await drop(page, sample.documents);

    const shown = await shownGroups(page);
    expect(shown).toEqual(plantedNames(sample));
    expect(shown).toEqual(nodeGroups(sample, DEFAULT_DISTANCE));
    expect(await shownTotal(page)).toBe(sample.documents.length);
    // Every planted pair sits left of the threshold in the chart, the unrelated bell right of it.
    expect(await page.locator('#chart .bar.near').count()).toBeGreaterThan(0);
    expect(await page.locator('#chart .bar:not(.near)').count()).toBeGreaterThan(0);
    await page.screenshot({ path: artifact('demo-groups.png') });

    const exported = await exportedFingerprints(page);
    expect(exported).toEqual(nodeFingerprints(sample.documents));
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

    for (const distance of [24, 2, 0]) {
      await page.locator('#distance').fill(String(distance));
      await expect.poll(() => page.locator('#distance-value').textContent()).toBe(String(distance));
      expect(await shownGroups(page)).toEqual(nodeGroups(sample, distance));
    }
    await page.screenshot({ path: artifact('demo-distance-0.png') });

    const exported = await exportedFingerprints(page);
    expect(exported).toEqual(nodeFingerprints(sample.documents));
    expectQuiet(watch, server.origin);
  });

  it('groups pasted text, and accumulates it with dropped files', async () => {
    const { page, watch } = await openDemo();
    const base = 'The committee met on Tuesday to review the budget for the coming year and agreed to fund the new library wing.';
    await page.locator('#paste').fill(`${base}\n\n${base.replace('Tuesday', 'Wednesday')}\n\nAn unrelated note about the weather in the mountains this spring.`);
    await page.locator('#add-paste').click();
    await waitForTotal(page, 3);
    expect(await shownGroups(page)).toEqual([['pasted text 1', 'pasted text 2']]);
    // Shouted and re-wrapped, it is the same text once normalised.
    await drop(page, [{ name: 'minutes.txt', text: base.toUpperCase().replace(/ /g, '\n') }]);
    expect(await shownGroups(page)).toEqual([['minutes.txt', 'pasted text 1', 'pasted text 2']]);
    expect(await shownTotal(page)).toBe(4);
    expectQuiet(watch, server.origin);
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
