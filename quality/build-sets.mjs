// Builds the evaluation sets under quality/sets/ from real text found on a Debian machine that
// the library's defaults were never tuned on: the change entries of Debian package changelogs
// (short lines, as commit messages and titles are) and the prose of the READMEs of the npm
// packages this project installs (passages). The edits are made here, seeded, so the sets are
// the same on every run; the sets are committed, so measuring needs none of the sources.
//
//   node quality/build-sets.mjs [--lines N] [--passages N]

import { readdirSync, readFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { changelogLines } from '../bench/texts.mjs';
// xorshift32, seeded: the same sets on every machine.
import { xorshift32 as rng } from '../bench/xorshift.mjs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const out = join(root, 'quality', 'sets');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const LINES = option('--lines', 800);
const PASSAGES = option('--passages', 300);
/** Word-edit rates of the passages, in percent. */
export const RATES = [1, 2, 5, 10, 20, 30, 50];

const words = (text) => text.split(/\s+/).filter((w) => w !== '');


/** Prose of a Markdown README: paragraphs of running text, without code, tables, links' targets or markup. */
function prose(markdown) {
  const text = markdown
    .replace(/```[^]*?```/g, '\n\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1');
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/^#+\s.*$/gm, '').replace(/^\s*[|>].*$/gm, '').replace(/[*_]{1,2}/g, '').replace(/\s+/g, ' ').trim())
    .filter((p) => words(p).length >= 20 && /[a-z]{3,} [a-z]{3,} [a-z]{3,}/.test(p));
}

/** Reads a text file, gunzipping a `.gz` one. */
function readText(path) {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * Passages of 120 to 600 words, at most 3 per document, from the READMEs under node_modules and
 * the READMEs, NEWS and FAQs Debian packages install under /usr/share/doc.
 */
function readmePassages(random) {
  const modules = join(root, 'node_modules');
  const found = [];
  const visit = (dir, depth, wanted) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory() && depth < 3 && name.name !== '.bin') visit(path, depth + 1, wanted);
      else if (name.isFile() && wanted.test(name.name)) found.push(path);
    }
  };
  visit(modules, 0, /^readme\.md$/i);
  visit('/usr/share/doc', 1, /^(readme|news|faq)([.\w-]*)?$/i);
  const passages = [];
  const seen = new Set();
  for (const path of found.sort()) {
    let paragraphs;
    try {
      paragraphs = prose(readText(path));
    } catch {
      continue;
    }
    const key = paragraphs.slice(0, 3).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    const all = paragraphs.join(' ').split(' ');
    for (let start = 0, taken = 0; taken < 3 && all.length - start >= 120; taken++) {
      const length = Math.min(all.length - start, 120 + random.below(481));
      const source = path.startsWith(modules) ? path.slice(modules.length + 1).split('/').slice(0, -1).join('/') : path.split('/')[4];
      passages.push({ source, text: all.slice(start, start + length).join(' ') });
      start += length;
    }
  }
  return passages;
}

/** `text` with `count` word edits (substitute, insert or delete, `kinds` in turn), at distinct places. */
function edit(text, count, vocabulary, random, kinds = ['substitute', 'insert', 'delete']) {
  const tokens = words(text);
  const touched = new Set();
  for (let e = 0; e < count && tokens.length > 1; e++) {
    const kind = kinds[e % kinds.length];
    let at = random.below(tokens.length);
    for (let tries = 0; touched.has(at) && tries < 20; tries++) at = random.below(tokens.length);
    const word = () => {
      let w = vocabulary[random.below(vocabulary.length)];
      while (w === tokens[at]) w = vocabulary[random.below(vocabulary.length)];
      return w;
    };
    if (kind === 'substitute') {
      tokens[at] = word();
      touched.add(at);
    } else if (kind === 'insert') {
      tokens.splice(at, 0, word());
      touched.add(at);
    } else {
      tokens.splice(at, 1);
    }
  }
  return tokens.join(' ');
}

/**
 * The words edits insert and substitute: the distinct letter-only words of `items`. A chunk such
 * as `debian/patches/fix.diff,` or `2.4.1-3` is several words to the tokeniser, so putting one
 * in would be an edit of several words.
 */
function vocabularyOf(items) {
  return [...new Set(items.flatMap((item) => words(item.text)).filter((w) => /^\p{L}+$/u.test(w)))];
}

function shuffled(list, random) {
  const copy = list.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** Pairs of items from different sources whose word counts differ by at most a quarter. */
function unrelatedPairs(items, count, random) {
  const pairs = [];
  for (let tries = 0; pairs.length < count && tries < count * 100; tries++) {
    const a = random.below(items.length);
    const b = random.below(items.length);
    const [na, nb] = [words(items[a].text).length, words(items[b].text).length];
    if (a !== b && items[a].source !== items[b].source && Math.abs(na - nb) <= Math.max(na, nb) / 4) pairs.push([a, b]);
  }
  return pairs;
}

const random = rng(0x5eed_2025);
const uniqueLines = [...new Map(changelogLines().map((line) => [line.text.toLowerCase(), line])).values()];
const perSource = new Map();
const lines = shuffled(uniqueLines, random)
  .filter((line) => {
    const taken = perSource.get(line.source) ?? 0;
    perSource.set(line.source, taken + 1);
    return taken < 3;
  })
  .slice(0, LINES);
const lineVocabulary = vocabularyOf(uniqueLines);
const shortSet = lines.map((line, i) => {
  const kind = ['substitute', 'insert', 'delete'][i % 3];
  return {
    id: `line-${i}`,
    source: line.source,
    text: line.text,
    edit1: edit(line.text, 1, lineVocabulary, random, [kind]),
    edit1Kind: kind,
    edit2: edit(line.text, 2, lineVocabulary, random, [kind, ['insert', 'delete', 'substitute'][i % 3]]),
  };
});

const allPassages = readmePassages(random);
const passages = shuffled(allPassages, random).slice(0, PASSAGES);
const passageVocabulary = vocabularyOf(allPassages);
const passageSet = passages.map((passage, i) => ({
  id: `passage-${i}`,
  source: passage.source,
  text: passage.text,
  edits: Object.fromEntries(RATES.map((rate) => [rate, edit(passage.text, Math.round((rate / 100) * words(passage.text).length), passageVocabulary, random)])),
}));

mkdirSync(out, { recursive: true });
const jsonl = (records) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
writeFileSync(join(out, 'short-lines.jsonl'), jsonl(shortSet));
// Each passage comes seven times edited: compressed, the set is a fifth of its size.
writeFileSync(join(out, 'passages.jsonl.gz'), gzipSync(jsonl(passageSet), { level: 9 }));
writeFileSync(
  join(out, 'unrelated.json'),
  `${JSON.stringify({ lines: unrelatedPairs(shortSet, 2000, random), passages: unrelatedPairs(passageSet, 2000, random) })}\n`,
);
console.log(
  `quality/sets: ${shortSet.length} lines from ${new Set(shortSet.map((l) => l.source)).size} changelogs (of ${uniqueLines.length}), ` +
    `${passageSet.length} passages from ${new Set(passageSet.map((p) => p.source)).size} READMEs (of ${allPassages.length})`,
);
