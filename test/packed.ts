/** An empty project with the packed package installed, as a user installs it. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * A fresh directory under the system's temporary one, named from `prefix`, holding a project
 * whose only dependency is the tarball of test/global-setup.ts; ES modules when `esm`.
 */
export function projectWithPackage(prefix: string, esm: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, ...(esm ? { type: 'module' } : {}) }));
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--silent', '--no-audit', '--no-fund', '--offline', inject('tarball')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}
