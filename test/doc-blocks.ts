/** The fenced blocks of the README and docs/ pages, for the tests that run them. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface DocBlock {
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  /** The fence's info string, e.g. `js` or `js vite`. */
  readonly info: string;
  /** Its first word: `js`, `cjs`, `sh`, `console`, … */
  readonly kind: string;
  readonly code: string;
  /** What the block prints: the `console` block right after it, if any. */
  readonly output: string | undefined;
}

/** README.md and every page of docs/, relative to the repository's root. */
export function docPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

/** The fenced blocks of a Markdown text, each with the `console` block that follows it. */
export function docBlocks(markdown: string): DocBlock[] {
  const fence = /^```([^\n]*)\n([^]*?)^```[ \t]*$/gm;
  const found: { info: string; body: string; start: number; end: number }[] = [];
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) {
    found.push({ info: m[1]!.trim(), body: m[2]!, start: m.index, end: m.index + m[0].length });
  }
  return found.map((block, k) => {
    const next = found[k + 1];
    const adjacent = next !== undefined && next.info === 'console' && markdown.slice(block.end, next.start).trim() === '';
    return {
      line: markdown.slice(0, block.start).split('\n').length,
      info: block.info,
      kind: block.info.split(/\s+/)[0] ?? '',
      code: block.body,
      output: block.info !== 'console' && adjacent ? next.body : undefined,
    };
  });
}
