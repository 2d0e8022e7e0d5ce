// Documents for the text workloads. Seeded ones: English-like prose from a Zipf-distributed
// synthetic vocabulary, and Chinese-like prose from the commonest block of ideographs (same
// seed, same texts, on every machine). Real ones: the bundled sample corpus and the documents
// a Debian machine has installed.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A generator of floats in [0, 1) from a 32-bit seed (mulberry32: enough for picking words).
 *
 * @param {number} seed
 * @returns {() => number}
 */
function uniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Index in 0..n-1, small indices far likelier (about Zipf with exponent 1). @param {() => number} next @param {number} n */
const zipf = (next, n) => Math.min(n - 1, Math.floor(Math.exp(next() * Math.log(n + 1)) - 1));

/**
 * `count` documents of about `bytes` UTF-8 bytes each: words of 2..10 letters from a vocabulary
 * of 20,000, with commas and full stops.
 *
 * @param {number} seed @param {number} count @param {number} bytes
 * @returns {string[]}
 */
export function englishLike(seed, count, bytes) {
  const next = uniform(seed);
  const vocabulary = Array.from({ length: 20_000 }, () => {
    const length = 2 + Math.floor(next() * 9);
    let word = '';
    for (let i = 0; i < length; i++) word += String.fromCharCode(97 + Math.floor(next() * 26));
    return word;
  });
  return Array.from({ length: count }, () => {
    let text = '';
    while (text.length < bytes) {
      text += vocabulary[zipf(next, vocabulary.length)];
      const r = next();
      text += r < 0.05 ? '. ' : r < 0.12 ? ', ' : ' ';
    }
    return text;
  });
}

/**
 * `count` documents of about `bytes` UTF-8 bytes each (3 per ideograph): ideographs from
 * U+4E00..U+5DFF with Chinese punctuation.
 *
 * @param {number} seed @param {number} count @param {number} bytes
 * @returns {string[]}
 */
export function chineseLike(seed, count, bytes) {
  const next = uniform(seed);
  return Array.from({ length: count }, () => {
    let text = '';
    while (text.length * 3 < bytes) {
      text += String.fromCharCode(0x4e00 + zipf(next, 0x1000));
      const r = next();
      if (r < 0.04) text += '。';
      else if (r < 0.1) text += '，';
    }
    return text;
  });
}

/** Total UTF-8 bytes of `texts`. @param {string[]} texts */
export const utf8Bytes = (texts) => texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);

/** Licence, copyright, notice and readme files: real prose, mostly English, on any Debian. */
const DOCUMENT_NAME = /^(copyright|licen[cs]e|copying|notice|readme)([._-].*)?$/i;
/** Larger files are left out, as in scripts/measure-quality.mjs. */
const MAX_DOCUMENT_BYTES = 256 * 1024;

/**
 * Files under `directory` (sorted, recursively) whose name `take` accepts; none if it is missing.
 *
 * @param {string} directory @param {(name: string) => boolean} take @param {string[]} out
 */
function walk(directory, take, out) {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.')) walk(path, take, out);
    else if (entry.isFile() && take(entry.name)) out.push(path);
  }
  return out;
}

/**
 * Distinct UTF-8 text files of `paths`, up to `maxBytes` in all, in order.
 *
 * @param {string[]} paths @param {number} maxBytes
 * @returns {string[]}
 */
function readTexts(paths, maxBytes) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const seen = new Set();
  let total = 0;
  /** @type {string[]} */
  const out = [];
  for (const path of paths) {
    if (total >= maxBytes) break;
    let text;
    try {
      const bytes = readFileSync(path);
      if (bytes.length > MAX_DOCUMENT_BYTES || bytes.subarray(0, 1024).includes(0)) continue;
      text = decoder.decode(bytes);
    } catch {
      continue;
    }
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(text);
    total += Buffer.byteLength(text);
  }
  return out;
}

/**
 * Real English documents: the package's own sample corpus (examples/corpus, 440 KB of
 * licences, manual pages and READMEs, the same on every machine), then, up to `maxBytes`,
 * the licences and the copyright and README files of /usr/share/common-licenses and
 * /usr/share/doc (Debian), as `scripts/measure-quality.mjs` finds them.
 *
 * @param {number} maxBytes
 * @returns {string[]}
 */
export function realEnglish(maxBytes) {
  const corpus = fileURLToPath(new URL('../examples/corpus', import.meta.url));
  const paths = walk(corpus, () => true, []);
  walk('/usr/share/common-licenses', () => true, paths);
  walk('/usr/share/doc', (name) => DOCUMENT_NAME.test(name) && !name.endsWith('.gz'), paths);
  return readTexts(paths, maxBytes);
}

/**
 * Real Chinese documents found on the machine: Vim's tutor in simplified and traditional
 * Chinese (about 100 KB, commands and examples in ASCII among the prose). Empty if Vim's
 * runtime files are not installed.
 *
 * @returns {string[]}
 */
export function realChinese() {
  const paths = [];
  for (const vim of walk('/usr/share/vim', (name) => /^tutor\.zh(_cn|_tw)?\.utf-8$/.test(name), [])) paths.push(vim);
  return readTexts(paths, Infinity);
}

/**
 * The change entries of every Debian changelog on the machine (changelog.Debian.gz under /usr/share/doc)
 * of 5–30 words: one bullet each, continuation lines joined, bug closures left out. Real short
 * lines, as commit messages and titles are; quality/build-sets.mjs draws its short lines from
 * them. Empty where Debian's documentation is not installed.
 *
 * @returns {{ source: string, text: string }[]}
 */
export function changelogLines() {
  const docs = '/usr/share/doc';
  const lines = [];
  for (const name of readdirSync(docs).sort()) {
    const path = join(docs, name, 'changelog.Debian.gz');
    if (!existsSync(path)) continue;
    let text;
    try {
      text = gunzipSync(readFileSync(path)).toString('utf8');
    } catch {
      continue;
    }
    let current;
    const flush = () => {
      if (current === undefined) return;
      const clean = current
        .replace(/\(?\bCloses:\s*#?\d+(,\s*#?\d+)*\)?\.?/gi, '')
        .replace(/\(?\bCloses:?\s*$/i, '')
        .replace(/\s+/g, ' ')
        .trim();
      const n = clean.split(' ').filter((w) => w !== '').length;
      if (n >= 5 && n <= 30) lines.push({ source: name, text: clean });
      current = undefined;
    };
    for (const line of text.split('\n')) {
      const bullet = /^ {2}[*-] (.*)$/.exec(line);
      if (bullet !== null) {
        flush();
        current = bullet[1];
      } else if (current !== undefined && /^ {4}\S/.test(line) && !/^ {4}[*-] /.test(line)) {
        current += ` ${line.trim()}`;
      } else {
        flush();
      }
    }
    flush();
  }
  return lines;
}
