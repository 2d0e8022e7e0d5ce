// `npm run quality` (short texts): how each rule for short texts does on real short lines that
// the library's defaults were never tuned on (quality/README.md):
// - recall on realistic edits of real lines of 6–30 words (quality/sets/short-edits.jsonl: typo,
//   function word, case and punctuation, swapped words, version number, short affix, two of
//   these) and on a substituted content word (what a template sibling is: reported, no goal);
// - the share of unrelated pairs of real lines it joins (quality/sets/short-unrelated.json);
// - what it removes from real corpora of short lines (Debian's package descriptions, manual-page
//   NAME lines, change-log entries): how many, how many not the same text, and the judged shares of a
//   seeded sample of those (near-duplicate / template sibling / unrelated, by the rubric in
//   quality/judged/RUBRIC.md; labels in quality/judged/labels.jsonl).
//
//   node scripts/build.mjs && node quality/short.mjs [--split dev|test|all] [--sample N] [--write-unjudged FILE] [--json FILE]

import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decide, decideTexts, fingerprintMany, init } from 'simhash-wasm';
import { xorshift32 } from '../bench/xorshift.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const sets = join(root, 'quality', 'sets');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SPLIT = option('--split', 'test');
const SAMPLE = Number(option('--sample', 100));
const unjudgedFile = option('--write-unjudged', undefined);
const jsonFile = option('--json', undefined);
await init();
const started = performance.now();

/** The rules compared: the default and its option, the earlier default, and SimHash's default. */
export const RULES = [
  { label: 'v3 (default)', options: {} },
  { label: "v3, templates: 'remove'", options: { templates: 'remove' } },
  { label: 'v2 (version: 2)', options: { version: 2 } },
  { label: 'SimHash default (word 3, ≤ 10 bits)', simhash: true },
];

const readJsonLines = (name) => {
  const bytes = readFileSync(join(sets, name));
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8').trim().split('\n').map((line) => JSON.parse(line));
};
const edits = readJsonLines('short-edits.jsonl').filter((e) => SPLIT === 'all' || e.split === SPLIT);
const unrelated = JSON.parse(readFileSync(join(sets, 'short-unrelated.json'), 'utf8')).pairs.filter((p) => SPLIT === 'all' || p.split === SPLIT);
const corpora = [
  { name: 'Debian package descriptions', texts: readJsonLines('debian-descriptions.jsonl.gz').map((r) => r.text) },
  { name: 'manual-page NAME lines', texts: readJsonLines('man-names.jsonl.gz').map((r) => r.text) },
  { name: 'change-log entries', texts: readJsonLines('change-log-lines.jsonl.gz').map((r) => r.text) },
];
const KINDS = [...new Set(edits.map((e) => e.edit))];
// Translated package descriptions of 25–40 words with one word, two words or 5 % edited, and
// unrelated pairs of them (quality/build-description-edits.mjs).
const descriptions = readJsonLines('description-edits.jsonl.gz').filter((e) => SPLIT === 'all' || e.split === SPLIT);
const DESCRIPTION_KINDS = [...new Set(descriptions.map((e) => e.edit))];

/** The rule's decisions over `texts`: the representative of each. */
function representatives(rule, texts) {
  if (rule.simhash) return decide(fingerprintMany(texts), { distance: 10 }).representative;
  return decideTexts(texts, rule.options).representative;
}

/** Whether the rule removes `b` for `a` when `a` comes first. */
const joins = (rule, a, b) => representatives(rule, [a, b])[1] === 0;

const labelsFile = join(root, 'quality', 'judged', 'labels.jsonl');
const labels = new Map(
  existsSync(labelsFile)
    ? readFileSync(labelsFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => {
        const r = JSON.parse(line);
        return [`${r.removed}\u0000${r.kept}`, r.label];
      })
    : [],
);

const rows = [];
const unjudged = new Map();
for (const rule of RULES) {
  const row = { label: rule.label, recall: {}, corpora: [] };
  for (const kind of KINDS) {
    const of = edits.filter((e) => e.edit === kind);
    row.recall[kind] = of.filter((e) => joins(rule, e.text, e.copy)).length / of.length;
  }
  const realistic = edits.filter((e) => e.edit !== 'substitute');
  row.recallRealistic = realistic.filter((e) => joins(rule, e.text, e.copy)).length / realistic.length;
  row.unrelated = unrelated.filter((p) => joins(rule, p.a, p.b)).length / unrelated.length;
  row.descriptions = {};
  for (const kind of DESCRIPTION_KINDS) {
    const of = descriptions.filter((e) => e.edit === kind);
    row.descriptions[kind] = of.filter((e) => joins(rule, e.text, e.copy)).length / of.length;
  }
  for (const corpus of corpora) {
    const t0 = performance.now();
    const rep = representatives(rule, corpus.texts);
    const seconds = (performance.now() - t0) / 1000;
    const removed = [];
    rep.forEach((kept, i) => kept !== i && removed.push(i));
    const different = removed.filter((i) => corpus.texts[i] !== corpus.texts[rep[i]]);
    // Seeded: the same sample of a rule's removals on every run.
    const { next } = xorshift32(0x5eed + corpus.texts.length);
    const pool = [...different];
    const sample = [];
    while (sample.length < SAMPLE && pool.length > 0) sample.push(pool.splice(next() % pool.length, 1)[0]);
    const counts = { 'near-duplicate': 0, 'template sibling': 0, unrelated: 0, unjudged: 0 };
    for (const i of sample) {
      const key = `${corpus.texts[i]}\u0000${corpus.texts[rep[i]]}`;
      const label = labels.get(key);
      if (label === undefined) {
        counts.unjudged++;
        unjudged.set(key, { removed: corpus.texts[i], kept: corpus.texts[rep[i]], corpus: corpus.name });
      } else counts[label]++;
    }
    // Every removal a batch of labels judged, sampled or not: more pairs than the sample, though
    // not a random choice (the batches hold the samples of earlier rules too).
    const labelled = { 'near-duplicate': 0, 'template sibling': 0, unrelated: 0 };
    for (const i of different) {
      const label = labels.get(`${corpus.texts[i]}\u0000${corpus.texts[rep[i]]}`);
      if (label !== undefined) labelled[label]++;
    }
    row.corpora.push({ name: corpus.name, texts: corpus.texts.length, removed: removed.length, different: different.length, sampled: sample.length, counts, labelled, seconds });
  }
  rows.push(row);
}

const pct = (x) => `${(100 * x).toFixed(1)}`;
console.log(`short texts, ${SPLIT} split: ${edits.length} edited pairs, ${unrelated.length} unrelated pairs; load ${loadavg()[0].toFixed(2)}, node ${process.version}\n`);
console.log(['rule', ...KINDS, 'realistic (all but substitute)', 'unrelated'].join(' | '));
console.log(['---', ...KINDS.map(() => '---:'), '---:', '---:'].join(' | '));
for (const row of rows) console.log([row.label, ...KINDS.map((k) => pct(row.recall[k])), pct(row.recallRealistic), pct(row.unrelated)].join(' | '));
console.log(`\ntranslated package descriptions of 25–40 words (${descriptions.length / DESCRIPTION_KINDS.length} of each): share of edited copies joined to their original, and of unrelated pairs joined`);
console.log(['rule', ...DESCRIPTION_KINDS].join(' | '));
console.log(['---', ...DESCRIPTION_KINDS.map(() => '---:')].join(' | '));
for (const row of rows) console.log([row.label, ...DESCRIPTION_KINDS.map((k) => pct(row.descriptions[k]))].join(' | '));
for (const [c, corpus] of corpora.entries()) {
  console.log(`\n${corpus.name} (${corpus.texts.length} lines, input order): removals and judged shares of a sample of the removals that are not the same text`);
  console.log('rule | removed | not the same text | judged | near-duplicate | template sibling | unrelated | every labelled removal: n | near-duplicate | template sibling | unrelated | seconds');
  console.log('--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---:');
  for (const row of rows) {
    const r = row.corpora[c];
    const judged = r.sampled - r.counts.unjudged;
    const share = (n) => (judged === 0 ? '—' : `${pct(n / judged)} %`);
    const all = r.labelled['near-duplicate'] + r.labelled['template sibling'] + r.labelled.unrelated;
    const ofAll = (n) => (all === 0 ? '—' : `${pct(n / all)} %`);
    console.log([row.label, r.removed, r.different, `${judged}${r.counts.unjudged ? ` (+${r.counts.unjudged} unjudged)` : ''}`, share(r.counts['near-duplicate']), share(r.counts['template sibling']), share(r.counts.unrelated), all, ofAll(r.labelled['near-duplicate']), ofAll(r.labelled['template sibling']), ofAll(r.labelled.unrelated), r.seconds.toFixed(2)].join(' | '));
  }
}
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
if (unjudgedFile !== undefined) {
  writeFileSync(unjudgedFile, [...unjudged.values()].map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`${unjudged.size} unjudged pairs written to ${unjudgedFile}`);
}
if (jsonFile !== undefined) writeFileSync(jsonFile, `${JSON.stringify({ split: SPLIT, rows }, null, 1)}\n`);
