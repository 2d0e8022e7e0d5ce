/**
 * What `init` and `initSync` of either entry accept, typed without the DOM library: a Node-only
 * project (`"lib": ["es2022"]`, `skipLibCheck: false`) compiles against these declarations.
 * Real `WebAssembly.Module`, `Response` and `URL` objects satisfy them.
 */

/**
 * A compiled `WebAssembly.Module`. Typed as any object, because `WebAssembly` is declared only
 * by the DOM library; the loader tells a module from the other sources at run time.
 */
export type CompiledModule = object;

/** The parts of a fetch `Response` the loader reads. */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A `URL`: the loader reads its `href` (and, for `file:` URLs in Node, its path). */
export interface UrlLike {
  readonly href: string;
  readonly protocol: string;
}

/**
 * Where the module comes from: its bytes, an already compiled module, a `Response` (or a
 * promise of one) or a URL to fetch. Omitted, the copy inlined in this package is used.
 */
export type InitSource = ArrayBuffer | ArrayBufferView | CompiledModule | ResponseLike | PromiseLike<ResponseLike> | UrlLike | string;

/** What `initSync` accepts: no fetching can happen synchronously. */
export type InitSyncSource = ArrayBuffer | ArrayBufferView | CompiledModule;

/**
 * The check both entries make of a source's kind, before anything else: the pure entry ignores
 * its source, but code written against either entry must fail the same way on a value that could
 * never be one. (The WebAssembly entry then checks the source more closely.)
 *
 * @throws {TypeError} for `null` and values that are neither objects nor, for `init`, strings.
 */
export function checkSourceKind(source: unknown, operation: 'init' | 'initSync'): void {
  if (source === undefined) return;
  if ((typeof source === 'object' && source !== null) || (operation === 'init' && typeof source === 'string')) return;
  const rule =
    operation === 'init'
      ? 'a URL (string or URL object), a Response or a promise of one, the bytes of simhash.wasm (ArrayBuffer or typed array) or a WebAssembly.Module'
      : 'the bytes of simhash.wasm (ArrayBuffer or typed array) or a WebAssembly.Module';
  throw new TypeError(`${operation}: source must be ${rule}, got ${source === null ? 'null' : typeof source}`);
}
