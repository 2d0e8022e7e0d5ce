/** Turns the command line's inputs into the list of things to read, walking directories. */

import type { Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { type Problem, describeError } from './problems.js';

/** One thing to read: a file (or a pipe named on the command line) or standard input. */
export type Source =
  | {
      readonly kind: 'file';
      readonly path: string;
      /** Size in bytes for the progress bar; `undefined` for pipes and devices. */
      readonly size: number | undefined;
      /** Last modification, in milliseconds since 1970 (`--keep newest`); `undefined` for pipes. */
      readonly modified: number | undefined;
    }
  | { readonly kind: 'stdin' };

/** The display name of a source: its path, or `<stdin>`. */
export function sourceName(source: Source): string {
  return source.kind === 'stdin' ? '<stdin>' : source.path;
}

/** A path that names a file already listed: read once, under the other path. */
export interface Alias {
  readonly path: string;
  /** The path the file is read under. */
  readonly of: string;
}

/** What the inputs name: the sources to read, and the other paths of files among them. */
export interface SourceList {
  readonly sources: Source[];
  readonly aliases: Alias[];
}

/**
 * Every file to read, in command-line order, directories expanded recursively in name order.
 *
 * Inside directories, names starting with `.` are skipped (so a `.git` directory is not read as
 * documents), files whose path below the directory `accept` refuses are left out, directories
 * reached twice through symbolic links are walked once, and anything other than a regular file
 * is reported. Paths named on the command line are read whatever they are, so `<(command)`
 * works. A file reached by several paths (symbolic or hard links) is one document: it is read
 * under the first path that is not a symbolic link (else the first path), and the other paths
 * are listed as its aliases, so a link is never kept in place of the file it points to.
 */
export async function listSources(
  inputs: readonly string[],
  report: (problem: Problem) => void,
  accept: (path: string) => boolean = () => true,
): Promise<SourceList> {
  const found: { source: Source; key: string | undefined; link: boolean }[] = [];
  const walked = new Set<string>();

  async function add(path: string, root: string | undefined): Promise<void> {
    let info: Stats;
    try {
      info = await stat(path);
    } catch (error) {
      // A link whose target is missing is dangling; a path that is gone altogether was
      // removed after readdir listed it.
      const link = await lstat(path).catch(() => null);
      report({ input: path, reason: link?.isSymbolicLink() === true ? 'broken symbolic link' : describeError(error) });
      return;
    }
    if (info.isDirectory()) {
      const key = `${info.dev}:${info.ino}`;
      if (walked.has(key)) return;
      walked.add(key);
      await walk(path, root ?? path);
    } else if (info.isFile()) {
      if (root !== undefined && !accept(relative(root, path).split(sep).join('/'))) return;
      const link = (await lstat(path).catch(() => null))?.isSymbolicLink() === true;
      found.push({ source: { kind: 'file', path, size: info.size, modified: info.mtimeMs }, key: `${info.dev}:${info.ino}`, link });
    } else if (root === undefined) {
      found.push({ source: { kind: 'file', path, size: undefined, modified: undefined }, key: undefined, link: false });
    } else {
      report({ input: path, reason: 'not a regular file' });
    }
  }

  async function walk(directory: string, root: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch (error) {
      report({ input: directory, reason: describeError(error) });
      return;
    }
    // Code-unit order, not locale order: the same tree gives the same output everywhere.
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      if (!name.startsWith('.')) await add(join(directory, name), root);
    }
  }

  for (const input of inputs) {
    if (input === '-') found.push({ source: { kind: 'stdin' }, key: undefined, link: false });
    else await add(input, undefined);
  }
  return withoutAliases(found);
}

/** Keeps one path per file: the first that is not a symbolic link, else the first. */
function withoutAliases(found: readonly { source: Source; key: string | undefined; link: boolean }[]): SourceList {
  const readAs = new Map<string, number>();
  found.forEach(({ key, link }, k) => {
    if (key === undefined) return;
    const chosen = readAs.get(key);
    if (chosen === undefined || (found[chosen]!.link && !link)) readAs.set(key, k);
  });
  const sources: Source[] = [];
  const aliases: Alias[] = [];
  found.forEach(({ source, key }, k) => {
    const chosen = key === undefined ? k : readAs.get(key)!;
    const of = sourceName(found[chosen]!.source);
    if (chosen === k) sources.push(source);
    // The same path named twice is simply read once.
    else if (sourceName(source) !== of) aliases.push({ path: sourceName(source), of });
  });
  return { sources, aliases };
}

/** Total bytes to read, when every source's size is known. */
export function totalSize(sources: readonly Source[]): number | undefined {
  let total = 0;
  for (const source of sources) {
    if (source.kind === 'stdin' || source.size === undefined) return undefined;
    total += source.size;
  }
  return total;
}
