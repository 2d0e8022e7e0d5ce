/** `--include` and `--exclude` globs: which paths below a directory each one matches. */
import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../ts/cli/globs.js';

describe('globToRegExp', () => {
  it.each([
    ['*.txt', 'a.txt', true],
    ['*.txt', 'sub/c.txt', true],
    ['*.txt', 'a.txt.gz', false],
    ['sub', 'sub/c.txt', true],
    ['node_modules', 'x/node_modules/y/z.js', true],
    ['sub/*', 'sub/deep/d.txt', true],
    ['sub/*.txt', 'sub/deep/d.txt', false],
    ['/a.txt', 'a.txt', true],
    ['/a.txt', 'x/a.txt', false],
    ['sub/', 'sub/c.txt', true],
    ['sub/', 'sub', false],
    ['[ab].txt', 'a.txt', true],
    ['[!a].txt', 'b.txt', true],
    ['[!a].txt', 'a.txt', false],
    ['a[/]b', 'a/b', false],
    ['\\*.txt', '*.txt', true],
    ['\\*.txt', 'x.txt', false],
    ['*.{md,log}', 'sub/e.log', true],
    ['sub/**', 'sub/c.txt', true],
    ['**/d.txt', 'sub/deep/d.txt', true],
    ['**/d.txt', 'd.txt', true],
    ['a.txt', 'axtxt', false],
  ])('%s on %s: %s', (glob, path, matches) => {
    expect(globToRegExp(glob).test(path)).toBe(matches);
  });

  it('says which glob it cannot read', () => {
    expect(() => globToRegExp('{a,b')).toThrow(/the glob '\{a,b' has an unclosed '\{'/);
    expect(() => globToRegExp('[z-a]')).toThrow(/the glob '\[z-a\]' cannot be read/);
  });
});
