// Real short lines (3–40 words: package descriptions and their translations, changelog entries,
// manual-page NAME lines, commit subjects) for growth benchmarks over millions of short texts.
// They are not in the repository: they are read from a local cache of text files, one line a
// line, in /work/cache/short-lines or $SHORT_LINES_DIR, which
// `node quality/build-short-corpora.mjs --cache DIR` builds from a Debian machine's apt lists,
// manual pages and changelogs (commit subjects, `commits-*.txt`, are added by hand with
// `git log --format=%s`). The lines are shuffled with a fixed seed, so the same cache gives the
// same lines in the same order on every run.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { xorshift32 } from './xorshift.mjs';

export const SHORT_LINES_DIR = process.env.SHORT_LINES_DIR ?? '/work/cache/short-lines';

/** The cache's files (sorted), or an error saying how to build it. @param {string} dir */
export function shortLineFiles(dir = SHORT_LINES_DIR) {
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.txt')).sort() : [];
  if (files.length === 0)
    throw new Error(
      `No short-line cache in ${dir} (no *.txt there). Build it on a Debian machine with\n` +
        `  apt-get update -o Acquire::Languages=en,de,fr,es,it,pt,ru,ja,zh_CN,da,sk,pl,uk,ko\n` +
        `  apt-get install man-db manpages manpages-dev   # and more manual pages, see quality/README.md\n` +
        `  node quality/build-short-corpora.mjs --cache ${dir}\n` +
        `or point SHORT_LINES_DIR at a directory of such files (one line a line).`,
    );
  return files;
}

/**
 * Up to `limit` lines of the cache, shuffled with a fixed seed (all of them if `limit` is
 * missing). `sources` keeps only the files whose name (without `.txt`) starts with one of them,
 * e.g. `['debian-', 'man-']` or `['commits-']`.
 *
 * @param {number} [limit] @param {{ sources?: string[], dir?: string, seed?: number }} [options]
 * @returns {string[]}
 */
export function shortLines(limit = Infinity, { sources, dir = SHORT_LINES_DIR, seed = 0x5107_1e55 } = {}) {
  const files = shortLineFiles(dir).filter((name) => sources === undefined || sources.some((s) => name.startsWith(s)));
  if (files.length === 0) throw new Error(`No file of ${dir} starts with ${sources.join(' or ')}.`);
  /** @type {string[]} */
  const lines = [];
  for (const name of files)
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) if (line.trim() !== '') lines.push(line);
  // Seeded: Fisher–Yates over all the lines, then the first `limit`.
  const { below } = xorshift32(seed);
  for (let i = lines.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  return Number.isFinite(limit) ? lines.slice(0, limit) : lines;
}

// `node bench/short-lines.mjs [N]`: how many lines each file holds, and N of them shuffled.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    for (const name of shortLineFiles())
      console.log(`${name}: ${readFileSync(join(SHORT_LINES_DIR, name), 'utf8').split('\n').filter((l) => l.trim() !== '').length}`);
    for (const line of shortLines(Number(process.argv[2] ?? 5))) console.log(`  ${line}`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
