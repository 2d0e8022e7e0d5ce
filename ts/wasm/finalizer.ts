/**
 * Frees WebAssembly allocations that were garbage-collected without `free()`, where the runtime
 * has `FinalizationRegistry`. Cloudflare Workers before compatibility date 2025-05-05 do not:
 * there the registry is absent and `free()` (or `using`) is the only release, instead of the
 * module failing to load.
 */

/** Registration of owners whose held value is released when they are collected. */
export interface Finalizer<T> {
  register(owner: object, held: T): void;
  unregister(owner: object): void;
}

/** A finalizer calling `release`, created on first use; a no-op where the runtime has none. */
export function finalizer<T>(release: (held: T) => void): Finalizer<T> {
  let registry: FinalizationRegistry<T> | null | undefined;
  const live = (): FinalizationRegistry<T> | null => {
    registry ??= typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<T>(release) : null;
    return registry;
  };
  return {
    register(owner, held) {
      live()?.register(owner, held, owner);
    },
    unregister(owner) {
      live()?.unregister(owner);
    },
  };
}
