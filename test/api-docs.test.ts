// docs/api.md is generated from the entries' JSDoc: it must be what the generator writes today,
// and every export (and every public member) must carry a doc comment.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('docs/api.md is current and every export is documented', () => {
  const result = spawnSync(process.execPath, ['scripts/gen-api-docs.mjs', '--check'], { cwd: root, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
}, 60_000);
