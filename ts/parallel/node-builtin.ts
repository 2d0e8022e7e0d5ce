/**
 * Node's built-in modules for the pool's Node-only paths, looked up at run time rather than
 * imported: a browser bundler follows every `import('node:…')` it sees, and fails on it (webpack
 * 5) or warns that it stubbed it out (Vite), though a page never takes those paths.
 */

interface Builtins {
  os: typeof import('node:os');
  worker_threads: typeof import('node:worker_threads');
}

/**
 * The built-in module `id`: `process.getBuiltinModule` where there is one (Node 20.16 and later,
 * Bun, Deno), else an import that bundlers are told to leave alone.
 *
 * @throws (as a rejection) where there is no such module (a browser).
 */
export async function nodeBuiltin<K extends keyof Builtins>(id: K): Promise<Builtins[K]> {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const found = host?.getBuiltinModule?.(id);
  if (found !== undefined) return found as Builtins[K];
  return (await import(/* webpackIgnore: true */ /* @vite-ignore */ `node:${id}`)) as Builtins[K];
}
