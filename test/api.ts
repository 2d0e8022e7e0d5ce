/**
 * The public API every entry point exports. The pure TypeScript entry and the WebAssembly entry
 * have exactly this shape, so one conformance suite runs against both.
 */
export type Api = typeof import('../ts/pure/index.js');

/** Loads (and initialises) one entry point. */
export type LoadApi = () => Promise<Api>;

/**
 * The same API with every function accepting anything: used only to make deliberately wrong
 * calls in the error-path tests without `any`.
 */
export type LooseApi = {
  [K in keyof Api]: Api[K] extends (...args: never[]) => unknown ? (...args: unknown[]) => unknown : Api[K];
};

/** `api`, seen through {@link LooseApi}. */
export function loose(api: Api): LooseApi {
  return api as unknown as LooseApi;
}
