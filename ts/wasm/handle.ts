/**
 * What the WebAssembly-backed objects (`SimHashIndex`, `TextIndex`) share: a handle into the
 * instance's memory that remembers the instance it belongs to, made through a temporary, and
 * bytes the core hands over through a handle's fixed answer.
 */

import type { IndexFormatError, IndexFormatProblem } from '../shared/index-format.js';
import { problemOfStatus } from '../shared/index-format.js';
import { instanceGeneration, memoryViews, type WasmExports } from './loader.js';
import { CallScope } from './marshal.js';
import { throwIfFailed } from './status.js';

/** An object in the instance's memory: its pointer and the instance it belongs to. */
export interface Handle {
  readonly pointer: number;
  readonly generation: number;
}

/**
 * Makes an object in the live instance, writing its handle through a 4-byte temporary. With
 * `loaded`, a status that means "not saved bytes" throws the error `loaded.error` makes of them.
 */
export function newHandle(
  exports: WasmExports,
  make: (scope: CallScope, out: number) => number,
  operation: string,
  loaded?: { readonly bytes: Uint8Array; readonly error: (problem: IndexFormatProblem, bytes: Uint8Array) => IndexFormatError },
): Handle {
  const scope = new CallScope(exports);
  try {
    const out = scope.alloc(4);
    const status = make(scope, out);
    const problem = loaded === undefined ? undefined : problemOfStatus(status);
    if (problem !== undefined && loaded !== undefined) throw loaded.error(problem, loaded.bytes);
    throwIfFailed(status, operation);
    return { pointer: memoryViews(exports).u32[out / 4]!, generation: instanceGeneration() };
  } finally {
    scope.release();
  }
}

/**
 * Copies out the bytes a save left at `[ptr, len]` of the answer at byte offset `answer`, then
 * lets the core free them.
 */
export function takeSavedBytes(exports: WasmExports, answer: number, release: () => void): Uint8Array {
  try {
    const { u8, u32 } = memoryViews(exports);
    const [bytes, length] = [u32[answer / 4]!, u32[answer / 4 + 1]!];
    return u8.slice(bytes, bytes + length);
  } finally {
    release();
  }
}
