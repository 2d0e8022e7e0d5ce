// The tree under ts/ is the architecture: each folder may import only the folders below it, no
// module imports an entry file, and no chain of imports comes back to where it started.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'ts');

/** The folders each folder's modules may import from (its own included). */
const ALLOWED: Record<string, readonly string[]> = {
  shared: ['shared'],
  wasm: ['wasm', 'shared'],
  pure: ['pure', 'shared'],
  cli: ['cli', 'wasm', 'shared', 'parallel'],
  parallel: ['parallel', 'wasm', 'shared'],
};
/** Folders that must run anywhere: no WebAssembly, no Node built-ins. */
const PLATFORM_FREE = ['shared', 'pure'];
/** Entry files: what the package exports; nothing inside the package imports them. */
const ENTRIES = ['index.ts', 'pure/index.ts', 'cli/main.ts', 'parallel/index.ts'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

interface Module {
  readonly file: string;
  readonly folder: string;
  readonly text: string;
  /** Files under ts/ it imports (relative to ts/), and the bare specifiers it imports. */
  readonly local: string[];
  readonly external: string[];
}

function parse(file: string): Module {
  const text = readFileSync(join(root, file), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const local: string[] = [];
  const external: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (fileName.startsWith('.')) {
      local.push(relative(root, resolve(root, dirname(file), fileName)).replace(/\.js$/, '.ts'));
    } else {
      external.push(fileName);
    }
  }
  const folder = file.includes('/') ? file.split('/')[0]! : '.';
  return { file, folder, text, local, external };
}

const modules = new Map(sources(root).map((file) => [file, parse(file)]));
/** Where a file that is generated at build time lives; it exists only after a build. */
const GENERATED = 'wasm/generated/wasm-bytes.ts';

describe('ts/ layout', () => {
  it('parses real imports (the checks below are not vacuous)', () => {
    expect(modules.size).toBeGreaterThan(40);
    expect(modules.get('wasm/compute.ts')!.local).toContain('wasm/loader.ts');
    expect(modules.get('pure/find-all.ts')!.local).toContain('shared/plan.ts');
  });

  it('every relative import names a module that exists', () => {
    for (const m of modules.values()) {
      for (const target of m.local) {
        if (target === GENERATED) continue;
        expect(modules.has(target), `${m.file} imports ${target}, which does not exist`).toBe(true);
      }
    }
  });

  it('each folder imports only the folders below it', () => {
    for (const m of modules.values()) {
      const allowed = ALLOWED[m.folder];
      if (m.folder === '.') continue;
      expect(allowed, `ts/${m.folder}/ is not in the layering table of test/layout.test.ts`).toBeDefined();
      for (const target of m.local) {
        const folder = target.includes('/') ? target.split('/')[0]! : '.';
        expect(allowed, `${m.file} imports ${target}`).toContain(folder);
      }
    }
  });

  it('no module imports an entry file', () => {
    for (const m of modules.values()) {
      for (const entry of ENTRIES) expect(m.local, `${m.file} imports the entry ${entry}`).not.toContain(entry);
    }
  });

  it('shared/ and pure/ use no WebAssembly and no Node built-in', () => {
    for (const m of modules.values()) {
      if (!PLATFORM_FREE.includes(m.folder)) continue;
      expect(m.external.filter((s) => s.startsWith('node:')), m.file).toEqual([]);
      // Comments and messages may mention WebAssembly; code may not.
      const code = m.text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
        .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
      expect(/\bWebAssembly\b/.test(code), `${m.file} uses WebAssembly`).toBe(false);
    }
  });

  it('has no import cycle', () => {
    const done = new Set<string>();
    const path: string[] = [];
    const visit = (file: string): void => {
      if (done.has(file)) return;
      const at = path.indexOf(file);
      if (at !== -1) throw new Error(`import cycle: ${[...path.slice(at), file].join(' -> ')}`);
      path.push(file);
      for (const target of modules.get(file)?.local ?? []) visit(target);
      path.pop();
      done.add(file);
    };
    for (const file of modules.keys()) visit(file);
  });
});
