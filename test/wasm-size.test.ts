// The size budget of the shipped module (DESIGN: under 100 KB), on the file `npm pack` ships.

import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('keeps dist/simhash.wasm under 100 KB', () => {
  const bytes = statSync(fileURLToPath(new URL('../dist/simhash.wasm', import.meta.url))).size;
  expect(bytes).toBeGreaterThan(1000);
  expect(bytes).toBeLessThan(100 * 1024);
});
