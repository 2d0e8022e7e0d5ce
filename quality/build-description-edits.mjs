// Builds the description recall set from real text no one here wrote: the translated package
// descriptions of Debian (every Translation-* list apt holds; quality/build-short-corpora.mjs
// puts them in the short-lines cache as debian-translations.txt) of 25 to 40 words, each with a
// copy edited by one word, by two words, and by 5 % of its words (rounded up): a word
// substituted, inserted or deleted, the words put in being single words of other descriptions.
// Unrelated pairs are two different descriptions of the same length band. Seeded: the same
// cache gives the same set.
//
//   node quality/build-description-edits.mjs [--cache DIR] [--originals 300]

import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { xorshift32 } from '../bench/xorshift.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const cache = option('--cache', process.env.SHORT_LINES_DIR ?? '/work/cache/short-lines');
const ORIGINALS = Number(option('--originals', 300));
const { below } = xorshift32(0xde5c_0001);
const pick = (list) => list[below(list.length)];

const lines = [...new Set(readFileSync(join(cache, 'debian-translations.txt'), 'utf8').split('\n'))].filter((line) => {
  const n = line.split(' ').length;
  return n >= 25 && n <= 40;
});
lines.sort();
/** Single words (letters only) to put in: one token each to the tokeniser. */
const vocabulary = [...new Set(lines.flatMap((line) => line.split(' ')).filter((w) => /^\p{L}{2,}$/u.test(w)))].sort();

function edited(text, count) {
  const words = text.split(' ');
  for (let e = 0; e < count; e++) {
    const at = below(words.length);
    const kind = below(3);
    if (kind === 0) words[at] = pick(vocabulary);
    else if (kind === 1 && words.length > 1) words.splice(at, 1);
    else words.splice(at, 0, pick(vocabulary));
  }
  return words.join(' ');
}

const records = [];
const chosen = new Set();
while (chosen.size < Math.min(ORIGINALS, lines.length)) chosen.add(pick(lines));
for (const [k, text] of [...chosen].entries()) {
  const split = k % 2 === 0 ? 'dev' : 'test';
  const n = text.split(' ').length;
  records.push({ edit: '1 word', text, copy: edited(text, 1), split });
  records.push({ edit: '2 words', text, copy: edited(text, 2), split });
  records.push({ edit: '5 %', text, copy: edited(text, Math.ceil(0.05 * n)), split });
  let other = pick(lines);
  while (other === text) other = pick(lines);
  records.push({ edit: 'unrelated', text, copy: other, split });
}
const out = join(root, 'quality', 'sets', 'description-edits.jsonl.gz');
writeFileSync(out, gzipSync(records.map((r) => JSON.stringify(r)).join('\n') + '\n'));
console.log(`${records.length} records from ${chosen.size} descriptions of 25–40 words (of ${lines.length}) written to ${out}`);
