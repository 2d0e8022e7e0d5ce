/** `--include` and `--exclude`: which files found inside directories are read. */

/**
 * A glob as a regular expression over `/`-separated paths: `*` and `?` stay within one path
 * segment, `**` crosses segments, `[...]` is a class and `{a,b}` an alternative. A glob without
 * `/` matches a file's name in any directory, as in `.gitignore`.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` also matches no directory at all.
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
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
      out += c.replace(/[.+^$()|\\\]{}]/g, '\\$&');
    }
  }
  if (depth > 0) throw new RangeError(`the glob '${glob}' has an unclosed '{'`);
  return new RegExp(glob.includes('/') ? `^${out}$` : `(?:^|/)${out}$`, 'u');
}

/** Whether a file found inside a directory is read: it matches an include (if any) and no exclude. */
export function pathFilter(include: readonly string[], exclude: readonly string[]): (path: string) => boolean {
  const includes = include.map(globToRegExp);
  const excludes = exclude.map(globToRegExp);
  return (path) => (includes.length === 0 || includes.some((glob) => glob.test(path))) && !excludes.some((glob) => glob.test(path));
}
