// `node bench/adaptive-growth.mjs [--max N] [--uniform-max N] [--sentences-max N] [--v2-max N] [--rounds R] [--only K]`: how the default decision over short
// texts (`decideTexts`, text decision specification v3) grows as n doubles from 25,000, against
// the SimHash default (`fingerprintMany`, then `decide` at 10 bits) timed alternately in the
// same process on the same texts, and specification v2 (`version: 2`) beside them:
// - real short lines (package descriptions and their translations, changelog entries, manual-page
//   NAME lines, commit subjects: bench/short-lines.mjs's local cache), shuffled;
// - lines of 12 words drawn uniformly from the 2,000 commonest words of real English prose (no
//   word rare, as in machine-made text and logs), the input that made v2 quadratic;
// - lines of 30 such words: sentences to the rule, the input that made v3 quadratic before
//   full lists (`SENTENCES_PER_WORD`) bounded a sentence's work;
// - lines whose words share one typo key by the thousand (`qaa…rst` with every letter of the
//   Basic Multilingual Plane outside CJK, then `qab…rst`, …): words linked pairwise as typos
//   before a key listed at most `TYPO_KEY_WORDS`, quadratic in time and memory.
// `--only K` times the K-th input alone (1 to 4). Prints, per n, the medians, v3 / SimHash, and v3's growth over the previous n, with the load.

import { loadavg } from 'node:os';
import { decide, decideTexts, fingerprintMany, init } from '../dist/esm/index.js';
import { measure } from './measure.mjs';
import { xorshift32 } from './xorshift.mjs';
import { shortLines } from './short-lines.mjs';
import { realEnglish } from './texts.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const MAX = option('--max', 1_600_000);
const ROUNDS = option('--rounds', 3);
const V2_MAX = option('--v2-max', 200_000);
const UNIFORM_MAX = option('--uniform-max', MAX);
const SENTENCES_MAX = option('--sentences-max', MAX);
const ONLY = option('--only', 0);
await init();

/** Lines of `words` words drawn with a seeded generator from the 2,000 commonest words of real prose. */
function uniformLines(n, words = 12) {
  const counts = new Map();
  for (const text of realEnglish(8_000_000)) for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  const vocabulary = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 2000).map(([w]) => w);
  const { below } = xorshift32(0x2000);
  return Array.from({ length: n }, () => Array.from({ length: words }, () => vocabulary[below(vocabulary.length)]).join(' '));
}

/** `report q??<letter>rst about maple syrup`: each family of lines shares the typo key `q??rst`. */
function sharedKeyLines(n) {
  const letters = [];
  for (let c = 0xc0; c < 0xffff; c++) {
    if (c >= 0x3040 && c < 0xa000) continue;
    const ch = String.fromCharCode(c);
    if (/^\p{L}$/u.test(ch) && ch.normalize('NFKC').toLowerCase() === ch) letters.push(ch);
  }
  const letter = (k) => String.fromCharCode(0x61 + (k % 26));
  return Array.from({ length: n }, (_, i) => {
    const family = Math.floor(i / letters.length);
    return `report q${letter(Math.floor(family / 26))}${letter(family)}${letters[i % letters.length]}rst about maple syrup`;
  });
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load ${load()}; node ${process.version}; medians of ${ROUNDS} alternated runs\n`);
const inputs = [
  ['real short lines', (n) => shortLines(n)],
  ['12 words of a 2,000-word vocabulary', (n) => uniformLines(Math.min(n, UNIFORM_MAX))],
  ['30 words of a 2,000-word vocabulary', (n) => uniformLines(Math.min(n, SENTENCES_MAX), 30)],
  ['lines whose words share one typo key by the thousand', (n) => sharedKeyLines(n)],
];
for (const [name, make] of inputs.filter((_, i) => ONLY === 0 || ONLY === i + 1)) {
  const all = make(MAX);
  console.log(`${name} (${all.length.toLocaleString('en')} available)`);
  console.log('n | SimHash default | v3 (default) | v3 / SimHash | v3 growth | v2 | v3 removed');
  console.log('---: | ---: | ---: | ---: | ---: | ---: | ---:');
  let previous;
  for (let n = 25_000; n <= Math.min(MAX, all.length); n *= 2) {
    const texts = all.slice(0, n);
    let removed = 0;
    const calls = [
      () => decide(fingerprintMany(texts), { distance: 10 }).representative.length,
      () => {
        const { representative } = decideTexts(texts);
        removed = representative.reduce((sum, r, i) => sum + (r === i ? 0 : 1), 0);
      },
    ];
    if (n <= V2_MAX) calls.push(() => decideTexts(texts, { version: 2 }).representative.length);
    let timings;
    try {
      timings = measure(calls, { runs: ROUNDS, minMs: 0, budgetMs: Infinity, throws: false });
    } catch (error) {
      // Past what WebAssembly memory holds (4 GiB), say so and go on with the next input.
      if (!(error instanceof RangeError)) throw error;
      console.log(`${n.toLocaleString('en')} | ${error.message}`);
      break;
    }
    const [simhash, v3, v2] = timings;
    const s = (m) => (m === undefined ? '—' : `${(m.medianMs / 1000).toFixed(2)} s`);
    const growth = previous === undefined ? '—' : `×${(v3.medianMs / previous).toFixed(2)}`;
    console.log([n.toLocaleString('en'), s(simhash), s(v3), (v3.medianMs / simhash.medianMs).toFixed(2), growth, s(v2), removed.toLocaleString('en')].join(' | '));
    previous = v3.medianMs;
  }
  console.log('');
}
console.log(`load ${load()}`);
