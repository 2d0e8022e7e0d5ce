/**
 * Builds the demo page into examples/browser/dist: `npx vite build examples/browser`, or
 * `npx vite examples/browser` to work on it. The page imports `simhash-wasm/slim` and the
 * module's file as any app would; inside this repository the names resolve, through the
 * package's own `exports`, to dist/ (run `npm run build` first). The sample is examples/corpus.
 * Large drops are fingerprinted by `simhash-wasm/parallel`'s pool, whose worker Vite finds and
 * bundles as it is.
 */

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset paths: the built page works from any folder of any server.
  base: './',
  // Module workers: the demo's worker loads the pool's code only with the first large drop, a
  // chunk of its own, which a classic worker script could not load apart.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every asset a file, never a data: URL: the sample's texts are fetched, which a strict
    // connect-src allows only from the page's origin.
    assetsInlineLimit: 0,
  },
});
