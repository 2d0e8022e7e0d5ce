/**
 * The compiled module of this realm. Every copy of the loader (the default build, the slim one,
 * the CommonJS one: each has its own state) records here the module it instantiated, so that a
 * pool started beside any of them gives its workers that module instead of loading another.
 */

/** The ABI this package's loader speaks; a module reporting another version is refused. */
export const ABI_VERSION = 9;

// Keyed by ABI, the one thing the loader checks of a module: another version of the package in
// the same realm speaking another ABI keeps its own.
const KEY = Symbol.for(`simhash-wasm.module.abi-${ABI_VERSION}`);

type Realm = Record<symbol, unknown>;

/** Records `module` as the one `init` or `initSync` loaded in this realm. */
export function shareModule(module: WebAssembly.Module): void {
  (globalThis as unknown as Realm)[KEY] = module;
}

/** The module some copy of the loader loaded in this realm, if one did. */
export function sharedModule(): WebAssembly.Module | undefined {
  const module = (globalThis as unknown as Realm)[KEY];
  return module instanceof WebAssembly.Module ? module : undefined;
}
