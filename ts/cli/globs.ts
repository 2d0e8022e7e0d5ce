/** `--include` and `--exclude`: which files found inside directories are read. */

/**
 * A glob as a regular expression over `/`-separated paths below a directory given on the
 * command line: `*` and `?` stay within one name, `**` crosses directories, `[...]` is a class
 * of characters other than `/`, `{a,b}` an alternative and `\\` escapes the next character. As
 * in `.gitignore`, a glob without `/` matches any file or directory name on the path (so
 * `node_modules` leaves out everything below such a directory), a leading `/` anchors the glob
 * at the directory given, and a trailing `/` matches directories only.
 *
 * @throws {RangeError} naming the glob when it cannot be read.
 */
export function globToRegExp(glob: string): RegExp {
  const directoryOnly = glob.endsWith('/') && glob.length > 1;
  const body = directoryOnly ? glob.slice(0, -1) : glob;
  const anchored = body.startsWith('/');
  const pattern = anchored ? body.slice(1) : body;
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      out += pattern[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === '*') {
      if (pattern[i + 1] === '*') {
        // `**/` also matches no directory at all.
        const slash = pattern[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        const inside = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += `(?!/)[${inside.startsWith('!') ? `^${inside.slice(1)}` : inside}]`;
        i = end;
      }
    } else if (c === '{') {
      out += '(?:';
      depth++;
    } else if (c === '}' && depth > 0) {
      out += ')';
      depth--;
    } else if (c === ',' && depth > 0) {
      out += '|';
    } else {
      out += c.replace(/[.+^$()|\]{}]/g, '\\$&');
    }
  }
  if (depth > 0) throw new RangeError(`the glob '${glob}' has an unclosed '{'`);
  // A name anywhere on the path, or the path from the top; a directory is followed by more.
  const start = pattern.includes('/') || anchored ? '^' : '(?:^|/)';
  const end = directoryOnly ? '/' : '(?:/|$)';
  try {
    return new RegExp(`${start}${out}${end}`, 'u');
  } catch (error) {
    throw new RangeError(`the glob '${glob}' cannot be read (${(error as Error).message})`);
  }
}

/** Whether a file found inside a directory is read: it matches an include (if any) and no exclude. */
export function pathFilter(include: readonly string[], exclude: readonly string[]): (path: string) => boolean {
  const includes = include.map(globToRegExp);
  const excludes = exclude.map(globToRegExp);
  return (path) => (includes.length === 0 || includes.some((glob) => glob.test(path))) && !excludes.some((glob) => glob.test(path));
}
