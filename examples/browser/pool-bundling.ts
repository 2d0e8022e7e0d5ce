/**
 * What it takes for Vite to bundle `simhash-wasm/parallel`'s browser worker, and to ship the
 * module once, as the rest of the demo does. As the package ships it, the pool starts its
 * workers through a constructor it reads from `globalThis`, which Vite does not recognise as a
 * worker: it copies the worker's script unbundled, and its relative imports fail to load. And
 * the worker loads the module inlined in the main entry (`init()`), which would put a second,
 * base64 copy of it in the bundle. So the demo's build rewrites four lines of the package's ESM
 * build, and fails if one of them is no longer there.
 */

import type { Plugin } from 'vite';

interface Rewrite {
  /** The file of the package's build, by the end of its path. */
  readonly file: RegExp;
  readonly from: string | RegExp;
  readonly to: string;
}

const REWRITES: readonly Rewrite[] = [
  {
    // A literal `new Worker(new URL(…), { type: 'module' })`: Vite bundles it as a worker.
    file: /\/dist\/esm\/parallel\/endpoint\.js$/,
    from: "new WebWorkerClass(new URL('./worker.js', import.meta.url), { type: 'module', name })",
    to: "new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name })",
  },
  {
    // Node's path names the same file for worker_threads; in a page it is never taken, and left
    // as it is Vite would copy the unbundled script as an asset.
    file: /\/dist\/esm\/parallel\/endpoint\.js$/,
    from: "return new URL('./worker.js', import.meta.url);",
    to: "throw new Error('simhash-wasm/parallel: this bundle has no worker_threads worker');",
  },
  {
    // The module file the page and the demo's own worker fetch (Vite emits it once, by hash).
    file: /\/dist\/esm\/parallel\/worker\.js$/,
    from: 'await init();',
    to: "await init(new URL('../../simhash.wasm', import.meta.url));",
  },
  {
    // No inlined copy: every `init` of the bundle is given the file.
    file: /\/dist\/esm\/wasm\/generated\/wasm-bytes\.js$/,
    from: /^export const wasmBase64 = .*$/m,
    to: 'export const wasmBase64 = null;',
  },
];

/** The Vite plugin making those rewrites; give it to the page's and the workers' builds. */
export function poolBundling(): Plugin {
  return {
    name: 'simhash-wasm-pool-bundling',
    enforce: 'pre',
    transform(code, id) {
      const path = id.split('?')[0]!.replace(/\\/g, '/');
      const rewrites = REWRITES.filter((rewrite) => rewrite.file.test(path));
      if (rewrites.length === 0) return null;
      let out = code;
      for (const { from, to } of rewrites) {
        const next = out.replace(from, to);
        if (next === out) throw new Error(`${path} no longer holds ${String(from)}: see examples/browser/pool-bundling.ts`);
        out = next;
      }
      return { code: out, map: null };
    },
  };
}
