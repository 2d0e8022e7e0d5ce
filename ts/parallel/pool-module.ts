/**
 * The WebAssembly module a pool gives its workers. It is compiled on this thread, once, and
 * posted to each worker (modules are cloned, not copied, between the threads of a process), so
 * that workers neither load the module again nor, once bundled, carry a copy of it.
 */

import { compile } from '../wasm/compile.js';
import { sharedModule } from '../wasm/realm-module.js';

let fromFile: Promise<WebAssembly.Module> | null = null;

/**
 * The module `init` or `initSync` loaded on this thread, from whichever entry (the default, the
 * slim or the CommonJS one); failing that, the package's `simhash.wasm`, compiled once. Not the
 * copy inlined in the default entry: reaching it from here would put a second copy into the
 * bundles of apps that load the module as a file.
 *
 * @throws {Error} (as a rejection) when `simhash.wasm` cannot be loaded, saying what to do.
 */
export function poolModule(): Promise<WebAssembly.Module> {
  const loaded = sharedModule();
  if (loaded !== undefined) return Promise.resolve(loaded);
  // Written out so that bundlers emit the file and rewrite the URL to where they put it.
  const url = new URL('../../simhash.wasm', import.meta.url);
  fromFile ??= compile(url).catch((cause: unknown) => {
    fromFile = null;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new Error(
      `simhash-wasm/parallel: could not load ${url.href} for the workers (${reason}): call init() of simhash-wasm, or init(source) of simhash-wasm/slim, before createPool`,
      { cause },
    );
  });
  return fromFile;
}
