// Builds the short-line recall and false-positive sets from real lines no one here wrote: the
// Debian package descriptions and manual-page NAME lines of quality/build-short-corpora.mjs and
// the changelog entries of quality/sets/short-lines.jsonl. Each record is a line of 6–30 words
// and a copy with a realistic edit of one kind (typo, function word, case or punctuation, two
// words swapped, a version number, a prefix or suffix, two of those, or a content word
// substituted as a template's sibling differs); short-unrelated.json pairs different lines of the
// same source with word counts within a quarter. Seeded: the same inputs give the same sets.
//
//   node quality/build-short-edits.mjs [--per-kind 150] [--unrelated 2000]

import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { xorshift32 } from '../bench/xorshift.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const sets = join(root, 'quality', 'sets');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const PER_KIND = option('--per-kind', 150);
const UNRELATED = option('--unrelated', 2000);

/** A seeded generator: the same sets on every machine. */
function rng(seed) {
  const { next, below } = xorshift32(seed);
  return { below, pick: (list) => list[below(list.length)], chance: (p) => next() / 2 ** 32 < p };
}
const random = rng(0x5407_ed17);

function shuffled(list) {
  const copy = list.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const words = (text) => text.split(' ');
const readJsonl = (path) => {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
};

// Lines of 6–30 words, each once (ignoring case), single-spaced (so that an edit changes only
// what it says it changes), in the order of their set.
const SOURCES = {
  debian: readJsonl(join(sets, 'debian-descriptions.jsonl.gz')).map((r) => r.text),
  man: readJsonl(join(sets, 'man-names.jsonl.gz')).map((r) => r.text),
  changelog: readJsonl(join(sets, 'short-lines.jsonl')).map((r) => r.text),
};
const BUCKETS = { short: [6, 12], long: [13, 30] };
const bucketOf = (text) => {
  const n = words(text).length;
  return Object.keys(BUCKETS).find((b) => n >= BUCKETS[b][0] && n <= BUCKETS[b][1]);
};
const lines = {};
for (const [source, texts] of Object.entries(SOURCES)) {
  const seen = new Set();
  lines[source] = texts.filter((t) => {
    const key = t.toLowerCase();
    if (seen.has(key) || /\s\s|[\t\n\r]/.test(t) || t !== t.trim() || bucketOf(t) === undefined) return false;
    seen.add(key);
    return true;
  });
}

const FUNCTION_WORDS = new Set(
  'a an the of for to in on at by and or nor but with without from into onto over under about as is are was were be been it its this that these those not no via per than then so if'.split(' '),
);
/** The function words edits put in: the commonest ones. */
const INSERTED_FUNCTION_WORDS = 'a an the of for to in on and or with from by is are this that'.split(' ');
const isFunctionWord = (token) => FUNCTION_WORDS.has(token.toLowerCase());

const QWERTY = {
  q: 'wa', w: 'qesa', e: 'wrsd', r: 'etdf', t: 'ryfg', y: 'tugh', u: 'yihj', i: 'uojk', o: 'ipkl', p: 'ol',
  a: 'qwsz', s: 'awedxz', d: 'serfcx', f: 'drtgvc', g: 'ftyhbv', h: 'gyujnb', j: 'huikmn', k: 'jiolm', l: 'kop',
  z: 'asx', x: 'zsdc', c: 'xdfv', v: 'cfgb', b: 'vghn', n: 'bhjm', m: 'njk',
};
const sameCase = (model, c) => (model === model.toUpperCase() ? c.toUpperCase() : c);
const neighbour = (c) => sameCase(c, random.pick(QWERTY[c.toLowerCase()]));

/** Each edit returns the edited tokens and what it did, or undefined where it cannot apply. */
const EDITS = {
  typo(tokens) {
    // A word of at least 4 ASCII letters, with any punctuation around it left alone.
    const at = tokens.map((t, i) => (/^[^A-Za-z]*[A-Za-z]{4,}[^A-Za-z]*$/.test(t) ? i : -1)).filter((i) => i >= 0);
    if (at.length === 0) return undefined;
    const i = random.pick(at);
    const [, lead, core, tail] = /^([^A-Za-z]*)([A-Za-z]+)([^A-Za-z]*)$/.exec(tokens[i]);
    const op = random.pick(['insert', 'delete', 'substitute', 'swap']);
    const chars = [...core];
    let p = random.below(chars.length);
    if (op === 'insert') {
      // A key next to the letter before or after the place, in the word's case.
      const q = random.below(chars.length + 1);
      const c = random.pick(QWERTY[chars[q === chars.length ? q - 1 : q].toLowerCase()]);
      chars.splice(q, 0, core === core.toUpperCase() ? c.toUpperCase() : c);
    } else if (op === 'delete') chars.splice(p, 1);
    else if (op === 'substitute') chars[p] = neighbour(chars[p]);
    else {
      const swappable = chars.slice(0, -1).map((c, j) => (c.toLowerCase() !== chars[j + 1].toLowerCase() ? j : -1)).filter((j) => j >= 0);
      if (swappable.length === 0) return undefined;
      p = random.pick(swappable);
      [chars[p], chars[p + 1]] = [chars[p + 1], chars[p]];
    }
    const copy = tokens.slice();
    copy[i] = lead + chars.join('') + tail;
    return { tokens: copy, detail: `${op} in "${core}"` };
  },
  'function-word'(tokens) {
    const present = tokens.map((t, i) => (isFunctionWord(t) ? i : -1)).filter((i) => i >= 0);
    const copy = tokens.slice();
    if (present.length > 0 && random.chance(0.5)) {
      const i = random.pick(present);
      copy.splice(i, 1);
      return { tokens: copy, detail: `dropped "${tokens[i]}"` };
    }
    // Anywhere but before the first word, whose capital would then be out of place.
    const word = random.pick(INSERTED_FUNCTION_WORDS);
    copy.splice(1 + random.below(tokens.length), 0, word);
    return { tokens: copy, detail: `added "${word}"` };
  },
  'case-punctuation'(tokens) {
    const copy = tokens.slice();
    const done = [];
    const changes = random.pick([['first'], ['word'], ['end'], ['first', 'end'], ['word', 'end']]);
    for (let change of changes) {
      if (change === 'first' && !/^\p{L}/u.test(copy[0])) change = 'word';
      if (change === 'first') {
        const c = copy[0][0];
        copy[0] = (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + copy[0].slice(1);
        done.push('first letter');
      } else if (change === 'word') {
        const at = copy.map((t, i) => ((t.match(/\p{L}/gu)?.length ?? 0) >= 2 ? i : -1)).filter((i) => i >= 0);
        if (at.length === 0) return undefined;
        const i = random.pick(at);
        const t = copy[i];
        copy[i] = t === t.toUpperCase() ? t.toLowerCase() : t === t.toLowerCase() || random.chance(0.5) ? t.toUpperCase() : t.toLowerCase();
        done.push(`"${t}" → "${copy[i]}"`);
      } else {
        const last = copy.length - 1;
        if (/[.,:;]$/.test(copy[last])) {
          done.push(`trailing "${copy[last].slice(-1)}" removed`);
          copy[last] = copy[last].slice(0, -1);
          if (copy[last] === '') copy.pop();
        } else {
          const mark = random.pick(['.', '.', '.', ':', ',']);
          copy[last] += mark;
          done.push(`trailing "${mark}" added`);
        }
      }
    }
    return { tokens: copy, detail: done.join(', ') };
  },
  swap(tokens) {
    const at = tokens.slice(0, -1).map((t, i) => (t !== tokens[i + 1] ? i : -1)).filter((i) => i >= 0);
    if (at.length === 0) return undefined;
    const i = random.pick(at);
    const copy = tokens.slice();
    [copy[i], copy[i + 1]] = [copy[i + 1], copy[i]];
    return { tokens: copy, detail: `"${tokens[i]} ${tokens[i + 1]}" swapped` };
  },
  version(tokens) {
    const numbers = [];
    tokens.forEach((t, i) => {
      for (const m of t.matchAll(/\d+(?:\.\d+)*/g)) numbers.push({ i, index: m.index, number: m[0] });
    });
    const copy = tokens.slice();
    if (numbers.length > 0) {
      const { i, index, number } = random.pick(numbers);
      const parts = number.split('.');
      const last = Number(parts[parts.length - 1]);
      const next = last > 0 && random.chance(0.25) ? last - 1 : last + 1;
      parts[parts.length - 1] = String(next).padStart(parts[parts.length - 1].length, '0');
      const changed = parts.join('.');
      copy[i] = copy[i].slice(0, index) + changed + copy[i].slice(index + number.length);
      return { tokens: copy, detail: `${number} → ${changed}` };
    }
    const version = random.pick(['2', 'v2', '1.0', '2.0', 'v1.1', '3']);
    if (random.chance(0.5)) {
      copy.splice(1, 0, version);
      return { tokens: copy, detail: `"${version}" after the first word` };
    }
    // Appended, before a closing full stop if there is one.
    const last = copy.length - 1;
    if (/\.$/.test(copy[last]) && copy[last].length > 1) copy.splice(last, 1, copy[last].slice(0, -1), `${version}.`);
    else copy.push(version);
    return { tokens: copy, detail: `"${version}" appended` };
  },
  affix(tokens) {
    const prefix = random.chance(0.5);
    const affix = random.pick(
      prefix
        ? ['Re:', 'Fwd:', '[WIP]', 'WIP:', 'Draft:', 'Update:', 'Updated:', 'New:', '[PATCH]', '[PATCH v2]', 'RFC:', '[RFC]', 'FYI:', '[DRAFT]', 'Copy of', '[Backport]']
        : ['(updated)', '- draft', '(deprecated)', '- copy', 'v2', '(2nd edition)', '(copy)', '(final)', '(revised)', '- updated', '(old)', '(new)', '[duplicate]', '(backport)', '- v2', '(draft)'],
    );
    return { tokens: prefix ? [...affix.split(' '), ...tokens] : [...tokens, ...affix.split(' ')], detail: `${prefix ? 'prefix' : 'suffix'} "${affix}"` };
  },
};
const SIMPLE = Object.keys(EDITS);

/** Letter-only content words of each source, as often as they occur: what a template's siblings put in. */
const vocabulary = {};
for (const [source, texts] of Object.entries(lines))
  vocabulary[source] = texts.flatMap(words).filter((w) => /^\p{L}{3,}$/u.test(w) && !isFunctionWord(w));

function substitute(tokens, source) {
  const at = tokens.map((t, i) => (/^\p{L}{3,}$/u.test(t) && !isFunctionWord(t) ? i : -1)).filter((i) => i >= 0);
  if (at.length === 0) return undefined;
  const i = random.pick(at);
  const inLine = new Set(tokens.map((t) => t.toLowerCase()));
  let word;
  for (let tries = 0; tries < 100 && (word === undefined || inLine.has(word.toLowerCase())); tries++) word = random.pick(vocabulary[source]);
  if (inLine.has(word.toLowerCase())) return undefined;
  // In the case of the word it replaces where that is a plain capital or plain lower case.
  const old = tokens[i];
  const capitalised = (w) => w[0] === w[0].toUpperCase() && w.slice(1) === w.slice(1).toLowerCase();
  if (capitalised(old) && old !== old.toUpperCase() && word === word.toLowerCase()) word = word[0].toUpperCase() + word.slice(1);
  else if (old === old.toLowerCase() && capitalised(word) && word.length > 1) word = word.toLowerCase();
  const copy = tokens.slice();
  copy[i] = word;
  return { tokens: copy, detail: `"${old}" → "${word}"` };
}

/** `text` edited by `kind`, or undefined if that edit cannot apply to it. */
function edit(text, kind, source) {
  const tokens = words(text);
  let result;
  if (kind === 'substitute') result = substitute(tokens, source);
  else if (kind === 'two') {
    const first = random.pick(SIMPLE);
    const second = random.pick(SIMPLE);
    const a = EDITS[first](tokens);
    const b = a && EDITS[second](a.tokens);
    result = b && { tokens: b.tokens, detail: `${first}: ${a.detail}; ${second}: ${b.detail}` };
  } else result = EDITS[kind](tokens);
  if (result === undefined) return undefined;
  const copy = result.tokens.join(' ');
  return copy === text ? undefined : { copy, detail: result.detail };
}

// The records: PER_KIND of each kind (twice that of `two`), half of each from 6–12-word lines,
// half from 13–30; the slots in seeded order, each taking the next source in turn (the next one
// that still has lines of that length), each line used once.
const KINDS = [...SIMPLE, 'two', 'substitute'];
const slots = [];
for (const kind of KINDS) {
  const count = kind === 'two' ? 2 * PER_KIND : PER_KIND;
  for (let i = 0; i < count; i++) slots.push({ kind, bucket: i < count / 2 ? 'short' : 'long' });
}
const order = shuffled(slots);
const pools = {};
for (const source of Object.keys(lines))
  for (const bucket of Object.keys(BUCKETS)) pools[`${source}/${bucket}`] = shuffled(lines[source].filter((t) => bucketOf(t) === bucket));
const turn = { short: 0, long: 0 };
const records = [];
for (const { kind, bucket } of order) {
  const sources = Object.keys(lines);
  let made;
  for (let s = 0; s < sources.length && made === undefined; s++) {
    const source = sources[(turn[bucket] + s) % sources.length];
    const pool = pools[`${source}/${bucket}`];
    for (let p = 0; p < pool.length && made === undefined; p++) {
      const edited = edit(pool[p], kind, source);
      if (edited === undefined) continue;
      made = { source, text: pool[p], edit: kind, copy: edited.copy, detail: edited.detail, bucket };
      pool.splice(p, 1);
    }
  }
  turn[bucket]++;
  if (made === undefined) throw new Error(`No line left for a ${kind} edit of a ${bucket} line.`);
  records.push(made);
}

// Dev or test: consecutive records of each kind and length, in pairs, one each way by a coin.
const groups = new Map();
for (const r of records) groups.set(`${r.edit}/${r.bucket}`, [...(groups.get(`${r.edit}/${r.bucket}`) ?? []), r]);
for (const group of groups.values())
  for (let i = 0; i < group.length; i += 2) {
    const first = random.chance(0.5) ? 'dev' : 'test';
    group[i].split = first;
    if (i + 1 < group.length) group[i + 1].split = first === 'dev' ? 'test' : 'dev';
  }
const ordered = KINDS.flatMap((kind) => ['short', 'long'].flatMap((bucket) => groups.get(`${kind}/${bucket}`)));
const edits = ordered.map(({ source, text, edit: kind, copy, split, detail }) => ({ source, text, edit: kind, copy, split, detail }));

// Unrelated pairs: two different lines of the same source, word counts within a quarter of each
// other, sources in turn, half of them from 6–12-word lines.
const byCount = {};
for (const [source, texts] of Object.entries(lines)) {
  byCount[source] = new Map();
  for (const t of texts) byCount[source].set(words(t).length, [...(byCount[source].get(words(t).length) ?? []), t]);
}
const pairs = [];
const sourceNames = Object.keys(lines);
const ofBucket = {};
for (const source of sourceNames) for (const bucket of Object.keys(BUCKETS)) ofBucket[`${source}/${bucket}`] = lines[source].filter((t) => bucketOf(t) === bucket);
const near = new Map();
for (let i = 0; pairs.length < UNRELATED; i++) {
  const source = sourceNames[i % sourceNames.length];
  const bucket = pairs.length % 2 === 0 ? 'short' : 'long';
  const a = random.pick(ofBucket[`${source}/${bucket}`]);
  const na = words(a).length;
  const key = `${source}/${na}`;
  if (!near.has(key)) near.set(key, [...byCount[source]].filter(([n]) => Math.abs(n - na) <= Math.max(n, na) / 4).flatMap(([, texts]) => texts));
  const b = random.pick(near.get(key));
  if (b.toLowerCase() === a.toLowerCase()) continue;
  pairs.push({ source, split: random.chance(0.5) ? 'dev' : 'test', a, b });
}

writeFileSync(join(sets, 'short-edits.jsonl'), edits.map((r) => JSON.stringify(r)).join('\n') + '\n');
writeFileSync(join(sets, 'short-unrelated.json'), `{"pairs":[\n${pairs.map((p) => JSON.stringify(p)).join(',\n')}\n]}\n`);
const tally = (list, key) => {
  const counts = new Map();
  for (const item of list) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
};
console.log(`short-edits.jsonl: ${edits.length} records (${tally(edits, (r) => r.edit)}; ${tally(edits, (r) => r.source)}; ${tally(edits, (r) => r.split)})`);
console.log(`short-unrelated.json: ${pairs.length} pairs (${tally(pairs, (p) => p.source)})`);
console.log(`lines of 6–30 words: ${Object.entries(lines).map(([s, t]) => `${s} ${t.length}`).join(', ')}`);
