/**
 * Launching the Chromium the browser tests drive: Debian's, never one Playwright downloads (CI
 * reaches no download site). `scripts/ensure-chromium.mjs`, run by `npm test`, installs it.
 */

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** `$CHROMIUM_PATH`, else Debian's package. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

/** Screenshots and other evidence of a run; ignored by git. */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/browser/', import.meta.url));

/**
 * Starts headless Chromium. Playwright gives it a fresh, empty profile directory; the flags keep
 * it from reaching for Google's services, which this machine's closed network refuses.
 *
 * @throws {Error} saying how to get Chromium when it is missing: a missing browser fails the
 * browser tests rather than skipping them.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM}: run \`node scripts/ensure-chromium.mjs\` (npm test does) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where a screenshot called `name` goes. */
export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

/** What a page did: uncaught errors and console errors, and every URL it requested. */
export interface PageWatch {
  readonly errors: string[];
  readonly requests: string[];
}

/** Records what `page` does from now on. */
export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { errors: [], requests: [] };
  page.on('pageerror', (error) => watch.errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('request', (request) => watch.requests.push(request.url()));
  return watch;
}

/** Checks that the page reported no error and requested nothing outside `origin`. */
export function expectQuiet(watch: PageWatch, origin: string): void {
  expect(watch.errors).toEqual([]);
  const foreign = watch.requests.filter((url) => !url.startsWith(`${origin}/`) && !/^(blob|data):/.test(url));
  expect(foreign, 'requests that left the page\'s origin').toEqual([]);
}
