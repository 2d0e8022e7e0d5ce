// `npm run demo` keeps working: it fingerprints its seeded sample with both implementations and
// exits non-zero if they disagree.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('runs the demo, whose two implementations agree', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const out = execFileSync(process.execPath, ['examples/demo.mjs'], { cwd: root, encoding: 'utf8' });
  expect(out).toMatch(/WebAssembly and pure TypeScript agree: yes/);
  expect(out).toMatch(/pairs within 3 bits: [1-9]/);
}, 60_000);
