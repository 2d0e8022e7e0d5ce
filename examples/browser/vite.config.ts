/**
 * Builds the demo page into examples/browser/dist: `npx vite build examples/browser`, or
 * `npx vite examples/browser` to work on it. The page imports `simhash-wasm` as any app would;
 * inside this repository the name resolves, through the package's own `exports`, to dist/ (run
 * `npm run build` first).
 */

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset paths: the built page works from any folder of any server.
  base: './',
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
