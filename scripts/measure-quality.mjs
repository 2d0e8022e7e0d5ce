// Measures how well text fingerprints separate near-duplicate documents from unrelated ones.
//
//   node scripts/build.mjs && node scripts/measure-quality.mjs [--json FILE] [ROOT ...]
//
// Ground truth is the exact Jaccard similarity of each pair's word 3-shingle sets (the distinct
// shingle hashes `features(text, { weighting: 'binary' })` returns, so tokens are exactly the
// specification's). Over every pair of distinct documents it reports, per fingerprint setting:
// the distance distributions of near-duplicate pairs (Jaccard >= 0.9), related pairs (0.5 to 0.9)
// and unrelated pairs (< 0.5), and for each threshold 0..16 the recall of near-duplicate pairs
// and the share of reported pairs that are unrelated. The goal is recall >= 0.9 with fewer than
// 1 % of reported pairs unrelated.
//
// ROOTs default to licence texts, Debian copyright files, READMEs and manual pages found on the
// machine (those missing are skipped); the output names what was read.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { features, findAll, findAllMinHash, fingerprintMany, hammingDistances, init, minhashMany, MinHashLSH, numDifferingBits } from 'simhash-wasm';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/**
 * @typedef {object} Root
 * @property {string} path
 * @property {(name: string, path: string) => boolean} take which files of the tree are documents
 */

/** Licence, copyright, notice and readme files: the same text recurs with small edits. */
const DOCUMENT_NAME = /^(copyright|licen[cs]e|copying|notice|readme|metadata)([._-].*)?$/i;
/** Manual pages in roff source, uncompressed (pyenv and rustup install several versions). */
const MANUAL_PAGE = /\.[1-8]$/;
const documentLike = (/** @type {string} */ name) => DOCUMENT_NAME.test(name) && !name.endsWith('.gz');
const everything = () => true;

/** @type {Root[]} */
const DEFAULT_ROOTS = [
  { path: join(root, 'examples', 'corpus'), take: everything },
  { path: '/usr/share/common-licenses', take: everything },
  { path: '/usr/share/doc', take: documentLike },
  { path: join(root, 'node_modules'), take: documentLike },
  { path: '/usr/lib/node_modules', take: documentLike },
  { path: join(homedir(), '.pyenv', 'versions'), take: (name, path) => documentLike(name) || (MANUAL_PAGE.test(name) && path.includes('/man/')) },
  { path: join(homedir(), '.rustup', 'toolchains'), take: (name, path) => documentLike(name) || (MANUAL_PAGE.test(name) && path.includes('/man/')) },
];

/** Documents larger than this are left out: a few huge copyright files would dominate the run. */
const MAX_BYTES = 256 * 1024;
const NEAR = 0.9;
const UNRELATED = 0.5;
const MAX_THRESHOLD = 16;

/**
 * The settings compared, weighting always explicit. The first two are the library's default
 * shingles with either weighting; the second is the default (see the README's "Quality").
 * @type {{ label: string, options: import('simhash-wasm').TextOptions }[]}
 */
const SETTINGS = [
  { label: 'word 3, tf', options: { weighting: 'tf' } },
  { label: 'word 3, binary (the default)', options: { weighting: 'binary' } },
  { label: 'word 2, tf', options: { size: 2, weighting: 'tf' } },
  { label: 'word 5, tf', options: { size: 5, weighting: 'tf' } },
  { label: 'char 4, tf', options: { unit: 'char', weighting: 'tf' } },
  { label: 'word 2, binary', options: { size: 2, weighting: 'binary' } },
  { label: 'word 4, binary', options: { size: 4, weighting: 'binary' } },
  { label: 'word 5, binary', options: { size: 5, weighting: 'binary' } },
  { label: 'char 4, binary', options: { unit: 'char', weighting: 'binary' } },
  { label: 'char 6, binary', options: { unit: 'char', size: 6, weighting: 'binary' } },
];

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt === -1 ? undefined : args.splice(jsonAt, 2)[1];
/** @type {Root[]} */
const roots = args.length > 0 ? args.map((path) => ({ path, take: everything })) : DEFAULT_ROOTS;

await init();
const started = performance.now();

// ---- Corpus -------------------------------------------------------------------------------

/**
 * @param {string} directory
 * @param {Root} from
 * @param {string[]} out
 */
function walk(directory, from, out) {
  let names;
  try {
    names = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.')) walk(path, from, out);
    else if (entry.isFile() && from.take(entry.name, path)) out.push(path);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false });
/** @type {{ path: string, text: string }[]} */
const documents = [];
const seenTexts = new Set();
const usage = [];
let identical = 0;
let skipped = 0;
for (const from of roots) {
  /** @type {string[]} */
  const files = [];
  walk(from.path, from, files);
  let taken = 0;
  for (const path of files) {
    let bytes;
    try {
      if (statSync(path).size > MAX_BYTES) throw new Error('too large');
      bytes = readFileSync(path);
    } catch {
      skipped++;
      continue;
    }
    if (bytes.subarray(0, 1024).includes(0)) {
      skipped++;
      continue;
    }
    const text = decoder.decode(bytes);
    // Byte-identical copies (the same licence in many packages) are trivially found at distance
    // 0 and would inflate recall; each text counts once.
    if (seenTexts.has(text)) {
      identical++;
      continue;
    }
    seenTexts.add(text);
    documents.push({ path, text });
    taken++;
  }
  usage.push({ root: from.path, files: files.length, documents: taken });
}

// ---- Exact word 3-shingle Jaccard for every pair --------------------------------------------

/** Dense ids for shingle hashes, so sets are sorted Uint32Arrays and intersect fast. */
const ids = new Map();
const sets = [];
const kept = [];
for (const doc of documents) {
  const hashes = features(doc.text, { weighting: 'binary' });
  if (hashes.length === 0) continue; // featureless: fingerprint 0n, never compared
  const set = new Uint32Array(hashes.length);
  for (let i = 0; i < hashes.length; i++) {
    let id = ids.get(hashes[i]);
    if (id === undefined) ids.set(hashes[i], (id = ids.size));
    set[i] = id;
  }
  sets.push(set.sort());
  kept.push(doc);
}
const n = kept.length;

/**
 * @param {Uint32Array} a
 * @param {Uint32Array} b
 */
function jaccard(a, b) {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return common / (a.length + b.length - common);
}

/** Pair classes: 2 near-duplicate, 1 related, 0 unrelated; pair (i, j), i < j, row-major. */
const pairCount = (n * (n - 1)) / 2;
const pairClass = new Uint8Array(pairCount);
/** @type {{ a: number, b: number, j: number }[]} */
const nearPairs = [];
/** Every pair at Jaccard ≥ 0.5, by key `a * n + b`, for comparing MinHash and SimHash. */
const similarPairs = new Map();
{
  let p = 0;
  for (let a = 0; a < n; a++) {
    const sa = sets[a];
    for (let b = a + 1; b < n; b++, p++) {
      const sb = sets[b];
      // Jaccard <= |smaller| / |larger|: most pairs are settled without intersecting.
      const ratio = sa.length < sb.length ? sa.length / sb.length : sb.length / sa.length;
      if (ratio < UNRELATED) continue;
      const j = jaccard(sa, sb);
      if (j >= UNRELATED) similarPairs.set(a * n + b, j);
      if (j >= NEAR) {
        pairClass[p] = 2;
        nearPairs.push({ a, b, j });
      } else if (j >= UNRELATED) pairClass[p] = 1;
    }
  }
}
const classTotals = [0, 0, 0];
for (let p = 0; p < pairCount; p++) classTotals[pairClass[p]]++;

// ---- Fingerprints and distances ---------------------------------------------------------------

/**
 * @param {import('simhash-wasm').TextOptions} options
 */
function measure(options) {
  const fingerprints = fingerprintMany(kept.map((doc) => doc.text), options);
  /** histogram[class][distance] */
  const histogram = [0, 1, 2].map(() => new Float64Array(65));
  let p = 0;
  for (let a = 0; a < n; a++) {
    const distances = hammingDistances(fingerprints[a], fingerprints.subarray(a + 1));
    for (let k = 0; k < distances.length; k++, p++) histogram[pairClass[p]][distances[k]]++;
  }
  const rows = [];
  const cumulative = [0, 0, 0];
  for (let t = 0; t <= MAX_THRESHOLD; t++) {
    for (let c = 0; c < 3; c++) cumulative[c] += histogram[c][t];
    const reported = cumulative[0] + cumulative[1] + cumulative[2];
    rows.push({
      threshold: t,
      recall: classTotals[2] === 0 ? 0 : cumulative[2] / classTotals[2],
      reported,
      unrelated: cumulative[0],
      unrelatedShare: reported === 0 ? 0 : cumulative[0] / reported,
    });
  }
  return { fingerprints, histogram, rows };
}

const results = SETTINGS.map((setting) => ({ ...setting, ...measure(setting.options) }));

// ---- Report ---------------------------------------------------------------------------------

const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)} %`;
const count = (/** @type {number} */ x) => x.toLocaleString('en');

console.log('## Corpus\n');
console.log('| root | files matched | documents kept |');
console.log('|---|---:|---:|');
for (const u of usage) console.log(`| ${u.root.replace(homedir(), '~').replace(root, '.')} | ${count(u.files)} | ${count(u.documents)} |`);
console.log(`\n${count(n)} documents with words (${count(identical)} byte-identical copies, ${count(skipped)} binary, unreadable or over ${MAX_BYTES / 1024} KB left out), ${count(pairCount)} pairs:`);
console.log(`${count(classTotals[2])} near-duplicate (Jaccard ≥ ${NEAR}), ${count(classTotals[1])} related (${UNRELATED} ≤ J < ${NEAR}), ${count(classTotals[0])} unrelated (J < ${UNRELATED}).\n`);

const [tf, binary] = results;
const COLUMNS = `tf: ${tf.label}; binary: ${binary.label}.\n`;

console.log('## Distance distributions\n');
console.log('Pairs by the number of bits their fingerprints differ in, as a share of their class.\n');
console.log(COLUMNS);
console.log('| bits | near-dup. (tf) | unrelated (tf) | near-dup. (binary) | related (binary) | unrelated (binary) |');
console.log('|---:|---:|---:|---:|---:|---:|');
const bins = [...Array.from({ length: 13 }, (_, t) => [t, t]), [13, 16], [17, 20], [21, 24], [25, 32], [33, 64]];
for (const [lo, hi] of bins) {
  const share = (/** @type {typeof results[number]} */ r, /** @type {number} */ c) => {
    const sum = r.histogram[c].slice(lo, hi + 1).reduce((s, x) => s + x, 0);
    return classTotals[c] === 0 ? '–' : `${count(sum)} (${pct(sum / classTotals[c])})`;
  };
  const cells = [share(tf, 2), share(tf, 0), share(binary, 2), share(binary, 1), share(binary, 0)];
  console.log(`| ${lo === hi ? lo : `${lo}–${hi}`} | ${cells.join(' | ')} |`);
}

console.log('\n## Recall and unrelated share by threshold\n');
console.log(COLUMNS);
console.log('| distance ≤ | recall (tf) | unrelated (tf) | recall (binary) | pairs reported (binary) | unrelated (binary) |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (let t = 0; t <= MAX_THRESHOLD; t++) {
  const d = tf.rows[t];
  const c = binary.rows[t];
  console.log(`| ${t} | ${pct(d.recall)} | ${pct(d.unrelatedShare)} | ${pct(c.recall)} | ${count(c.reported)} | ${count(c.unrelated)} (${pct(c.unrelatedShare)}) |`);
}

console.log('\n## Every setting: recall at each threshold (unrelated share in brackets)\n');
const shown = [3, 6, 7, 8, 9, 10, 11, 12];
console.log(`| setting | ${shown.map((t) => `≤ ${t}`).join(' | ')} |`);
console.log(`|---|${shown.map(() => '---:').join('|')}|`);
for (const r of results) {
  console.log(`| ${r.label} | ${shown.map((t) => `${pct(r.rows[t].recall)} (${pct(r.rows[t].unrelatedShare)})`).join(' | ')} |`);
}

console.log('\n## Best threshold per setting: the highest recall with under 1 % of reported pairs unrelated\n');
console.log('| setting | distance ≤ | recall | unrelated share | unrelated share at the first threshold with recall ≥ 90 % |');
console.log('|---|---:|---:|---:|---:|');
for (const r of results) {
  const clean = r.rows.filter((row) => row.unrelatedShare < 0.01);
  const best = clean.reduce((a, b) => (b.recall > a.recall ? b : a), clean[0] ?? r.rows[0]);
  const enough = r.rows.find((row) => row.recall >= 0.9);
  const atEnough = enough === undefined ? '–' : `${pct(enough.unrelatedShare)} (≤ ${enough.threshold})`;
  console.log(`| ${r.label} | ${best.threshold} | ${pct(best.recall)} | ${pct(best.unrelatedShare)} | ${atEnough} |`);
}

/** @param {number} i */
const shortName = (i) => kept[i].path.replace(homedir(), '~').replace(root, '.');

const tfRecallThreshold = tf.rows.find((row) => row.recall >= 0.9)?.threshold ?? MAX_THRESHOLD;
console.log(`\n## Unrelated pairs within ${tfRecallThreshold} bits, ${tf.label}: why tf weighting fails\n`);
console.log('The closest pair of each document, each document once; "all" counts repeated shingles.\n');
console.log('| bits | Jaccard | shingles (distinct / all) | documents |');
console.log('|---:|---:|---:|---|');
const close = [];
for (let a = 0, p = 0; a < n; a++) {
  const distances = hammingDistances(tf.fingerprints[a], tf.fingerprints.subarray(a + 1));
  for (let k = 0; k < distances.length; k++, p++) {
    if (pairClass[p] === 0 && distances[k] <= tfRecallThreshold) close.push({ a, b: a + 1 + k, bits: distances[k] });
  }
}
close.sort((x, y) => x.bits - y.bits);
const listed = new Set();
for (const { a, b, bits } of close) {
  if (listed.has(a) || listed.has(b)) continue;
  listed.add(a).add(b);
  const shingles = (/** @type {number} */ i) => `${sets[i].length} / ${features(kept[i].text, { weighting: 'tf' }).length}`;
  console.log(`| ${bits} | ${jaccard(sets[a], sets[b]).toFixed(2)} | ${shingles(a)}, ${shingles(b)} | ${shortName(a)}, ${shortName(b)} |`);
  if (listed.size >= 16) break;
}

console.log(`\n## Near-duplicate pairs farthest apart, ${binary.label}\n`);
console.log('| bits | Jaccard | shingles | documents |');
console.log('|---:|---:|---:|---|');
const farthest = nearPairs
  .map((pair) => ({ ...pair, bits: hammingDistances(binary.fingerprints[pair.a], [binary.fingerprints[pair.b]])[0] }))
  .sort((x, y) => y.bits - x.bits)
  .slice(0, 8);
for (const f of farthest) {
  console.log(`| ${f.bits} | ${f.j.toFixed(3)} | ${sets[f.a].length} / ${sets[f.b].length} | ${shortName(f.a)}, ${shortName(f.b)} |`);
}

// ---- MinHash beside SimHash ------------------------------------------------------------------

const SIMHASH_DISTANCE = 10;
const MINHASH_THRESHOLD = 0.6;

/** A seeded generator (splitmix32) for the edits, so every run edits the same words. */
function seeded(seed) {
  let x = seed >>> 0;
  return () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

/** Precision, recall and F1 of reported pair keys against the pairs at Jaccard ≥ `truth`. */
function score(reported, truth) {
  let positives = 0;
  for (const j of similarPairs.values()) if (j >= truth) positives++;
  let hits = 0;
  let unrelated = 0;
  for (const key of reported) {
    const j = similarPairs.get(key) ?? 0;
    if (j >= truth) hits++;
    if (j < UNRELATED) unrelated++;
  }
  const precision = reported.length === 0 ? 1 : hits / reported.length;
  const recall = positives === 0 ? 1 : hits / positives;
  return { reported: reported.length, positives, precision, recall, f1: (2 * precision * recall) / (precision + recall || 1), unrelated };
}

const texts = kept.map((doc) => doc.text);
const signatures = minhashMany(texts);
const simhashFps = binary.fingerprints;
const simhashPairs = findAll(simhashFps, { distance: SIMHASH_DISTANCE });
const methods = [
  { label: `SimHash, distance ≤ ${SIMHASH_DISTANCE} (default)`, keys: Array.from(simhashPairs.left, (a, i) => a * n + simhashPairs.right[i]) },
  ...[MINHASH_THRESHOLD, 0.7, 0.8, 0.9].map((threshold) => {
    const found = findAllMinHash(signatures, { threshold });
    return { label: `MinHash 128, threshold ${threshold}${threshold === MINHASH_THRESHOLD ? ' (default)' : ''}`, keys: Array.from(found.left, (a, i) => a * n + found.right[i]) };
  }),
  ...[0.8, 0.9].map((threshold) => {
    // Estimated Jaccard only, with bands planned to miss less: LSH false positives cost only
    // time here, since every candidate pair is checked against the threshold.
    const found = findAllMinHash(signatures, { threshold, falsePositiveWeight: 0.1, falseNegativeWeight: 0.9 });
    return { label: `MinHash 128, threshold ${threshold}, FN weight 0.9`, keys: Array.from(found.left, (a, i) => a * n + found.right[i]) };
  }),
  ...[0.8, 0.9].flatMap((threshold) => {
    const exact = texts.map((t) => features(t, { weighting: 'binary' }));
    const plain = findAllMinHash(signatures, { threshold, exact });
    // Weighting false negatives 9:1 plans more, shorter bands: more candidates, fewer missed.
    const wide = findAllMinHash(signatures, { threshold, exact, falsePositiveWeight: 0.1, falseNegativeWeight: 0.9 });
    const keys = (found) => Array.from(found.left, (a, i) => a * n + found.right[i]);
    return [
      { label: `MinHash 128, threshold ${threshold}, exact verification`, keys: keys(plain) },
      { label: `MinHash 128, threshold ${threshold}, exact verification, FN weight 0.9`, keys: keys(wide) },
    ];
  }),
];
console.log('\n## MinHash beside SimHash on the corpus\n');
console.log('Reported pairs against the exact word 3-shingle Jaccard of every pair: precision, recall and F1 for two definitions of a near-duplicate.\n');
console.log('| method | pairs | unrelated (J < 0.5) | P / R / F1 vs J ≥ 0.8 | P / R / F1 vs J ≥ 0.9 |');
console.log('|---|---:|---:|---:|---:|');
const prf = (x) => `${x.precision.toFixed(3)} / ${x.recall.toFixed(3)} / ${x.f1.toFixed(3)}`;
const corpusScores = methods.map((m) => {
  const at08 = score(m.keys, 0.8);
  const at09 = score(m.keys, 0.9);
  console.log(`| ${m.label} | ${count(at08.reported)} | ${count(at08.unrelated)} | ${prf(at08)} | ${prf(at09)} |`);
  return { label: m.label, at08, at09 };
});

/** Passages of `min`..`max` words from the corpus, each text used once, at most `limit`. */
function passages(min, max, limit, split) {
  const out = [];
  const seen = new Set();
  for (const text of texts) {
    for (const piece of split(text)) {
      const words = piece.split(/\s+/).filter((w) => /\p{L}/u.test(w));
      const key = words.join(' ').toLowerCase();
      if (words.length >= min && words.length <= max && !seen.has(key)) {
        seen.add(key);
        out.push(words);
        break;
      }
    }
    if (out.length >= limit) break;
  }
  return out;
}

/** `words` with `count` distinct positions replaced by words drawn from `vocabulary`. */
function edit(words, count, vocabulary, random) {
  const out = [...words];
  const positions = new Set();
  while (positions.size < Math.min(count, words.length)) positions.add(Math.floor(random() * words.length));
  for (const p of positions) {
    let replacement = out[p];
    while (replacement === out[p]) replacement = vocabulary[Math.floor(random() * vocabulary.length)];
    out[p] = replacement;
  }
  return out;
}

/** Exact Jaccard of two texts' word 3-shingle sets. */
function textJaccard(a, b) {
  const x = features(a, { weighting: 'binary' });
  const y = features(b, { weighting: 'binary' });
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      common++;
      i++;
      j++;
    } else if (x[i] < y[j]) i++;
    else j++;
  }
  return common / (x.length + y.length - common || 1);
}

/**
 * For passages and their edited copies: the share of copies each method finds (MinHash: the
 * original among an LSH query's answers; SimHash: within the distance), and how many other
 * passages either reports that are unrelated to the copy (exact Jaccard < 0.5; passages of
 * licences share paragraphs, so not every other passage reported is unrelated).
 */
function editedFinds(originals, edits, label) {
  const random = seeded(edits.length * 7 + originals.length);
  const vocabulary = originals.flat();
  const index = new MinHashLSH({ threshold: MINHASH_THRESHOLD });
  const originalSigs = minhashMany(originals.map((w) => w.join(' ')));
  index.addMany(Uint32Array.from(originals, (_, i) => i), originalSigs);
  const originalFps = fingerprintMany(originals.map((w) => w.join(' ')));
  const rows = [];
  for (const rate of edits) {
    let minhashFound = 0;
    let simhashFound = 0;
    let minhashUnrelated = 0;
    const copies = originals.map((words) => edit(words, rate < 1 ? Math.max(1, Math.round(rate * words.length)) : rate, vocabulary, random).join(' '));
    const answers = index.queryMany(minhashMany(copies));
    const copyFps = fingerprintMany(copies);
    const joined = originals.map((w) => w.join(' '));
    for (let i = 0; i < originals.length; i++) {
      const ids = answers.ids.subarray(answers.offsets[i], answers.offsets[i + 1]);
      if (ids.includes(i)) minhashFound++;
      for (const other of ids) if (other !== i && textJaccard(copies[i], joined[other]) < UNRELATED) minhashUnrelated++;
      if (numDifferingBits(originalFps[i], copyFps[i]) <= SIMHASH_DISTANCE) simhashFound++;
    }
    let simhashUnrelated = 0;
    for (let i = 0; i < originals.length; i++) {
      const d = hammingDistances(copyFps[i], originalFps);
      for (let j = 0; j < d.length; j++) if (j !== i && d[j] <= SIMHASH_DISTANCE && textJaccard(copies[i], joined[j]) < UNRELATED) simhashUnrelated++;
    }
    rows.push({ label: label(rate), minhash: minhashFound / originals.length, simhash: simhashFound / originals.length, minhashUnrelated, simhashUnrelated });
  }
  return rows;
}

const passageWords = passages(120, 600, 400, (text) => text.split(/\n\s*\n/));
const sentenceWords = passages(8, 30, 400, (text) => text.split(/(?<=[.?!])\s+|\n\s*\n/));
const editedRows = [
  ...editedFinds(passageWords, [0.01, 0.02, 0.05, 0.1], (rate) => `passages of 120–600 words, ${rate * 100} % of words replaced`),
  ...editedFinds(sentenceWords, [1], () => 'sentences of 8–30 words, one word replaced'),
];
console.log(`\n## Edited copies: ${passageWords.length} passages, ${sentenceWords.length} sentences\n`);
console.log(`Share of edited copies found, and unrelated texts (exact Jaccard < 0.5) reported with them, with the defaults: SimHash ≤ ${SIMHASH_DISTANCE} bits, MinHash threshold ${MINHASH_THRESHOLD} (LSH bands as planned).\n`);
console.log('| copies | SimHash found | MinHash found | SimHash unrelated reported | MinHash unrelated reported |');
console.log('|---|---:|---:|---:|---:|');
for (const r of editedRows) console.log(`| ${r.label} | ${pct(r.simhash)} | ${pct(r.minhash)} | ${r.simhashUnrelated} | ${r.minhashUnrelated} |`);

console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s, Node ${process.version})`);

if (jsonFile !== undefined) {
  const json = {
    corpus: usage,
    documents: n,
    pairs: { total: pairCount, near: classTotals[2], related: classTotals[1], unrelated: classTotals[0] },
    settings: results.map((r) => ({
      label: r.label,
      options: r.options,
      histogram: { near: Array.from(r.histogram[2]), related: Array.from(r.histogram[1]), unrelated: Array.from(r.histogram[0]) },
      thresholds: r.rows,
    })),
    minhash: { corpus: corpusScores, edited: editedRows },
  };
  writeFileSync(jsonFile, `${JSON.stringify(json, null, 2)}\n`);
}
