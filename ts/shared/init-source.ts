/** What `init` and `initSync` of either entry accept. */

/**
 * Where the module comes from: its bytes, an already compiled module, a `Response` (or a
 * promise of one) or a URL to fetch. Omitted, the copy inlined in this package is used.
 */
export type InitSource =
  | BufferSource
  | WebAssembly.Module
  | Response
  | PromiseLike<Response>
  | URL
  | string;

/** What `initSync` accepts: no fetching can happen synchronously. */
export type InitSyncSource = BufferSource | WebAssembly.Module;
