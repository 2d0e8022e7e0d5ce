// Builds corpora of real short texts that no one here wrote, from Debian's own archive data on a
// Debian machine: the short descriptions of every binary package in the apt lists
// (quality/sets/debian-descriptions.jsonl.gz) and the one-line NAME descriptions of the manual
// pages installed from Debian packages (quality/sets/man-names.jsonl.gz). Both are sorted, so the
// same lists and pages give the same files; nothing is drawn at random. With --change-log it
// writes one change entry in 15 of the changelogs under /usr/share/doc instead
// (quality/sets/change-log-lines.jsonl.gz: versions, bug numbers and counts, as in commit
// subjects and log messages).
//
// With --cache DIR it instead writes DIR/*.txt, one short line (3–40 words) a line, each file
// without exact duplicates, for bench/short-lines.mjs: the short descriptions and every line of
// the long descriptions (Translation-en), the same of every other Translation-* list apt holds,
// the AppStream summaries in all their languages, the change entries of the changelogs under
// /usr/share/doc, and the NAME lines of the manual pages in every installed language.
//
//   node quality/build-short-corpora.mjs               # the two sets
//   node quality/build-short-corpora.mjs --cache DIR   # the benchmark's cache
//   node quality/build-short-corpora.mjs --change-log  # quality/sets/change-log-lines.jsonl.gz
//
// Wants: the apt lists (`apt-get update`; for the translations, e.g.
// `apt-get update -o Acquire::Languages=en,de,fr,es,it,ja,…`), man-db, and for many pages e.g.
// manpages manpages-dev libssl-doc libx11-doc tcl8.6-doc perl-doc freebsd-manpages ….

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const out = join(root, 'quality', 'sets');
const LISTS = '/var/lib/apt/lists';
const MAN = '/usr/share/man';
const args = process.argv.slice(2);
const cacheDir = args.includes('--cache') ? args[args.indexOf('--cache') + 1] : undefined;

const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** An apt list, decompressed whatever apt compressed it with (apt-helper knows them all). */
function readList(path) {
  if (existsSync('/usr/lib/apt/apt-helper')) return execFileSync('/usr/lib/apt/apt-helper', ['cat-file', path], { maxBuffer: 2 ** 31 }).toString('utf8');
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** The stanzas of a control file: field name → value (continuation lines kept, with their leading space). */
function* stanzas(text) {
  for (const block of text.split(/\n\n+/)) {
    const fields = {};
    let last;
    for (const line of block.split('\n')) {
      if (line.startsWith(' ') || line.startsWith('\t')) {
        if (last !== undefined) fields[last] += `\n${line}`;
      } else {
        const colon = line.indexOf(':');
        if (colon > 0) fields[(last = line.slice(0, colon))] = line.slice(colon + 1).trim();
      }
    }
    if (fields.Package !== undefined) yield fields;
  }
}

/**
 * The apt lists of `kind` (`Packages`, `Translation-*`, `Components-*`) from archives whose
 * Release file says `Origin: Debian`, sorted by file name.
 */
function debianLists(pattern) {
  if (!existsSync(LISTS)) return [];
  const names = readdirSync(LISTS).sort(byCodePoint);
  const origin = new Map();
  return names
    .filter((name) => pattern.test(name))
    .filter((name) => {
      const at = name.indexOf('_dists_');
      if (at < 0) return false;
      const suite = name.slice(0, name.indexOf('_', at + 7));
      if (!origin.has(suite)) {
        const release = [`${suite}_InRelease`, `${suite}_Release`].find((r) => names.includes(r));
        origin.set(suite, release === undefined ? undefined : /^Origin: (.*)$/m.exec(readFileSync(join(LISTS, release), 'utf8'))?.[1]);
      }
      return origin.get(suite) === 'Debian';
    })
    .map((name) => join(LISTS, name));
}

/** Every binary package of the Debian Packages lists: name, maintainer, short description. */
function debianPackages() {
  const lists = debianLists(/_Packages(\.\w+)?$/);
  if (lists.length === 0) {
    console.error(`No Debian Packages lists under ${LISTS}: run \`apt-get update\` first.`);
    process.exit(1);
  }
  const packages = [];
  for (const list of lists)
    for (const s of stanzas(readList(list)))
      packages.push({ name: s.Package, maintainer: s.Maintainer, text: (s.Description ?? '').split('\n')[0].trim() });
  return { lists, packages };
}

/** Set 1a: one record per package and distinct short description, sorted by package name. */
function descriptionSet(packages) {
  const seen = new Set();
  const records = [];
  for (const { name, text } of packages) {
    const key = `${name}\n${text}`;
    if (text === '' || seen.has(key)) continue;
    seen.add(key);
    records.push({ id: name, text });
  }
  return records.sort((a, b) => byCodePoint(a.id, b.id) || byCodePoint(a.text, b.text));
}

/**
 * Installed packages that are not Debian's: no package of that name in the Debian lists, or one
 * whose maintainer none of them has (a vendor's build of a Debian package, such as NodeSource's
 * nodejs).
 */
function foreignPackages(packages) {
  const maintainers = new Map();
  for (const p of packages) (maintainers.get(p.name) ?? maintainers.set(p.name, new Set()).get(p.name)).add(p.maintainer);
  const foreign = [];
  for (const s of stanzas(readFileSync('/var/lib/dpkg/status', 'utf8'))) {
    if (!/ installed$/.test(s.Status ?? '')) continue;
    if (!maintainers.get(s.Package)?.has(s.Maintainer)) foreign.push(`${s.Package}${s['Multi-Arch'] === 'same' ? `:${s.Architecture}` : ''}`);
  }
  return foreign;
}

/** `name(section)` of the manual pages under /usr/share/man/<lang?>/man*\/ that `packages` install. */
function pagesOf(packages) {
  const pages = new Set();
  for (const pkg of packages) {
    const list = [`/var/lib/dpkg/info/${pkg}.list`, `/var/lib/dpkg/info/${pkg}:amd64.list`].find(existsSync);
    if (list === undefined) continue;
    for (const path of readFileSync(list, 'utf8').split('\n')) {
      const page = /^\/usr\/share\/man\/(?:[^/]+\/)?man[^/]+\/(.+)\.([^./]+)(?:\.(?:gz|bz2|xz|lzma|zst))?$/.exec(path);
      if (page !== null) pages.add(`${page[1]}(${page[2]})`);
    }
  }
  return pages;
}

/**
 * A NAME line without what man-db takes into it that is no part of the description: the quotes
 * round a whole FreeBSD description (`.Nd "…"`), and the index entries (`.iX "XmString" "data
 * types"`) that follow Motif's descriptions.
 */
function nameLine(name, text) {
  const quoted = /^"([^"]*)"$/.exec(text);
  if (quoted !== null) return quoted[1].trim();
  const index = /(?:\s+"[^"]*")+\s*$/.exec(text);
  if (index !== null && index.index > 0) {
    const terms = [...index[0].matchAll(/"([^"]*)"/g)].map((m) => m[1].replace(/\\%/g, ''));
    if (terms.length >= 2 || terms[0] === name) return text.slice(0, index.index).trim();
  }
  return text;
}

/** The NAME lines man-db's index holds for /usr/share/man (English) or /usr/share/man/`language`, as apropos prints them. */
function manNames(language, excluded) {
  let text;
  try {
    const path = language === 'C' ? MAN : join(MAN, language);
    text = execFileSync('apropos', ['-l', '-M', path, '.'], { env: { ...process.env, LC_ALL: 'C.UTF-8', MANOPT: '' }, maxBuffer: 2 ** 30 }).toString('utf8');
  } catch {
    if (language !== 'C') return [];
    console.error('apropos failed: install man-db and manual pages, e.g. `apt-get install man-db manpages manpages-dev`, then `mandb`.');
    process.exit(1);
  }
  const records = [];
  for (const line of text.split('\n')) {
    const m = /^(\S.*?) \(([^)]+)\)\s+- (.*)$/.exec(line);
    if (m === null) continue;
    const id = `${m[1]}(${m[2]})`;
    const description = nameLine(m[1], m[3].trim());
    if (excluded.has(id) || description === '' || description === '(unknown subject)') continue;
    records.push({ id, text: description });
  }
  return records.sort((a, b) => byCodePoint(a.id, b.id) || byCodePoint(a.text, b.text));
}

const jsonl = (records) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Word count; a run of Han or kana counts one word per two characters (those scripts use no spaces). */
function wordCount(text) {
  let n = 0;
  for (const token of text.split(/\s+/)) {
    if (token === '') continue;
    const cjk = token.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
    n += cjk > 1 ? Math.ceil(cjk / 2) : 1;
  }
  return n;
}

/** A line for the cache: trimmed, a leading bullet dropped, 3–40 words, mostly words with letters. */
function cacheLine(raw) {
  const text = raw.replace(/\s+/g, ' ').trim().replace(/^(?:[*+•·o-]|\d+[.)])\s+/u, '');
  const n = wordCount(text);
  if (n < 3 || n > 40) return undefined;
  const tokens = text.split(' ');
  return tokens.filter((t) => /\p{L}/u.test(t)).length * 2 >= tokens.length ? text : undefined;
}

/** Collects cache lines, each once, in the order first met. */
class LineFile {
  constructor(name) {
    this.name = name;
    this.lines = new Set();
    this.met = 0;
  }
  add(raw) {
    const line = cacheLine(raw);
    if (line === undefined) return;
    this.met++;
    this.lines.add(line);
  }
  write(dir) {
    writeFileSync(join(dir, `${this.name}.txt`), [...this.lines].join('\n') + '\n');
    console.log(`${this.name}.txt: ${this.lines.size} lines (${this.met - this.lines.size} exact repeats dropped)`);
  }
}

/** Short and long descriptions of a Translation-* list: the first line, then each line of the long one. */
function translationLines(list, file) {
  for (const s of stanzas(readList(list))) {
    const field = Object.keys(s).find((k) => k.startsWith('Description-') && k !== 'Description-md5');
    if (field === undefined) continue;
    const [short, ...long] = s[field].split('\n');
    file.short?.add(short);
    for (const line of long) if (line.trim() !== '.') file.long.add(line);
  }
}

/** The `Summary:` values of the AppStream (DEP-11) component lists, every language. */
function appstreamSummaries(file) {
  for (const list of debianLists(/_Components-[^_]+\.yml(\.\w+)?$/)) {
    let inSummary = false;
    for (const line of readList(list).split('\n')) {
      if (/^\S/.test(line)) inSummary = line === 'Summary:';
      else if (inSummary) {
        const m = /^ {2}[\w@-]+: (.*)$/.exec(line);
        if (m === null) continue;
        let value = m[1];
        if (/^'.*'$/.test(value)) value = value.slice(1, -1).replace(/''/g, "'");
        else if (/^".*"$/.test(value)) value = value.slice(1, -1).replace(/\\"/g, '"');
        file.add(value);
      }
    }
  }
}

/**
 * Change entries of the changelogs under /usr/share/doc, each distinct file once: in Debian's
 * format, one entry per bullet with its continuation lines and without bug closures; in any other
 * format (upstream ChangeLogs, NEWS-like lists), each line but those naming an author.
 */
function changelogEntries(file) {
  const docs = '/usr/share/doc';
  const seen = new Set();
  let files = 0;
  for (const pkg of readdirSync(docs).sort(byCodePoint)) {
    let names;
    try {
      names = readdirSync(join(docs, pkg)).filter((n) => /^changelog(\.Debian)?([.\w-]*)?\.gz$/i.test(n) && !/html/i.test(n)).sort(byCodePoint);
    } catch {
      continue;
    }
    for (const name of names) {
      let text;
      try {
        text = gunzipSync(readFileSync(join(docs, pkg, name))).toString('utf8');
      } catch {
        continue;
      }
      const hash = createHash('sha1').update(text).digest('hex');
      if (seen.has(hash)) continue;
      seen.add(hash);
      files++;
      if (/^\S+ \([^)]+\) [^;]+; urgency=/m.test(text.slice(0, 2000))) debianChangelog(text, file);
      else for (const line of text.split('\n')) if (!/<[^<>\s]+@[^<>\s]+>/.test(line)) file.add(line);
    }
  }
  return files;
}

function debianChangelog(text, file) {
  let current;
  const flush = () => {
    if (current !== undefined)
      file.add(current.replace(/\(?\bCloses:\s*#?\d+(,\s*#?\d+)*\)?\.?/gi, '').replace(/\(?\bCloses:?\s*$/i, ''));
    current = undefined;
  };
  for (const line of text.split('\n')) {
    const bullet = /^ {2,}[*+-] (.*)$/.exec(line);
    if (bullet !== null) {
      flush();
      current = bullet[1];
    } else if (current !== undefined && /^ {4,}\S/.test(line)) current += ` ${line.trim()}`;
    else flush();
  }
  flush();
}

/** The change-log set keeps one entry in this many. */
const CHANGE_LOG_STRIDE = 15;

const { lists, packages } = debianPackages();
const excluded = pagesOf(foreignPackages(packages));

if (args.includes('--change-log')) {
  // One change entry in 15 of the changelogs, in the order the cache holds them: lines of the
  // kind commit subjects and log messages are (versions, bug numbers, counts).
  const entries = new LineFile('change-log-lines');
  const files = changelogEntries(entries);
  const records = [...entries.lines].filter((_, i) => i % CHANGE_LOG_STRIDE === 0).map((text, i) => ({ id: String(i), text }));
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'change-log-lines.jsonl.gz'), gzipSync(jsonl(records), { level: 9 }));
  console.log(`change-log-lines.jsonl.gz: ${records.length} lines (one in ${CHANGE_LOG_STRIDE} of ${entries.lines.size}, from ${files} changelog files)`);
} else if (cacheDir === undefined) {
  const descriptions = descriptionSet(packages);
  const pages = manNames('C', excluded);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'debian-descriptions.jsonl.gz'), gzipSync(jsonl(descriptions), { level: 9 }));
  writeFileSync(join(out, 'man-names.jsonl.gz'), gzipSync(jsonl(pages), { level: 9 }));
  const distinct = (records) => new Set(records.map((r) => r.text)).size;
  console.log(`debian-descriptions.jsonl.gz: ${descriptions.length} packages, ${distinct(descriptions)} distinct descriptions (from ${lists.length} Packages lists)`);
  console.log(`man-names.jsonl.gz: ${pages.length} pages, ${distinct(pages)} distinct descriptions (${excluded.size} pages of non-Debian packages left out)`);
} else {
  mkdirSync(cacheDir, { recursive: true });
  const short = new LineFile('debian-short-descriptions');
  for (const p of packages) short.add(p.text);
  const long = new LineFile('debian-long-descriptions');
  const translated = new LineFile('debian-translations');
  const translations = debianLists(/_i18n_Translation-[^_]+$|_i18n_Translation-[^_]+\.\w+$/);
  if (translations.length < 2) console.warn('Few Translation lists: `apt-get update -o Acquire::Languages=en,de,fr,es,it,ja,…` fetches more.');
  for (const list of translations) {
    const english = /Translation-en(\.\w+)?$/.test(list);
    translationLines(list, english ? { short, long } : { short: translated, long: translated });
  }
  const appstream = new LineFile('debian-appstream-summaries');
  appstreamSummaries(appstream);
  const changelogs = new LineFile('debian-changelogs');
  const changelogFiles = changelogEntries(changelogs);
  const man = new LineFile('man-names');
  const languages = ['C', ...readdirSync(MAN).filter((d) => !d.startsWith('man') && existsSync(join(MAN, d))).sort(byCodePoint)];
  for (const language of languages) for (const page of manNames(language, excluded)) man.add(page.text);
  for (const file of [short, long, translated, appstream, changelogs, man]) file.write(cacheDir);
  console.log(`(${changelogFiles} distinct changelog files; manual pages in ${languages.length} languages)`);
}
