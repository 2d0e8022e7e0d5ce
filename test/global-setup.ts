// The package as users get it, packed once for every test that installs it (pack, docs,
// bundlers): `npm pack` runs the same lifecycle scripts as `npm publish`, so the tarball carries
// the published manifest. One pack also keeps two packs from setting package.json aside at once.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed package, `simhash-wasm-<version>.tgz`. */
    tarball: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'simhash-wasm-pack-'));
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack wrote no tarball');
  project.provide('tarball', join(dir, tarball));
  return () => rmSync(dir, { recursive: true, force: true });
}
