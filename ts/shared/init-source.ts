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
