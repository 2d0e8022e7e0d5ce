/** Turns the command line's inputs into the list of things to read, walking directories. */

import type { Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Problem, describeError } from './problems.js';

/** One thing to read: a file (or a pipe named on the command line) or standard input. */
export type Source =
  | {
      readonly kind: 'file';
      readonly path: string;
      /** Size in bytes for the progress bar; `undefined` for pipes and devices. */
      readonly size: number | undefined;
    }
  | { readonly kind: 'stdin' };

/** The display name of a source: its path, or `<stdin>`. */
export function sourceName(source: Source): string {
  return source.kind === 'stdin' ? '<stdin>' : source.path;
}

/**
 * Every file to read, in command-line order, directories expanded recursively in name order.
 *
 * Inside directories, names starting with `.` are skipped (so a `.git` directory is not read as
 * documents), directories reached twice through symbolic links are walked once, and anything
 * other than a regular file is reported. Paths named on the command line are read whatever they
 * are, so `<(command)` works.
 */
export async function listSources(inputs: readonly string[], report: (problem: Problem) => void): Promise<Source[]> {
  const sources: Source[] = [];
  const walked = new Set<string>();

  async function add(path: string, named: boolean): Promise<void> {
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
      await walk(path);
    } else if (info.isFile()) {
      sources.push({ kind: 'file', path, size: info.size });
    } else if (named) {
      sources.push({ kind: 'file', path, size: undefined });
    } else {
      report({ input: path, reason: 'not a regular file' });
    }
  }

  async function walk(directory: string): Promise<void> {
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
      if (!name.startsWith('.')) await add(join(directory, name), false);
    }
  }

  for (const input of inputs) {
    if (input === '-') sources.push({ kind: 'stdin' });
    else await add(input, true);
  }
  return sources;
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
