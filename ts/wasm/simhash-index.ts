/// <reference lib="esnext.disposable" preserve="true" />
/** `SimHashIndex` kept in WebAssembly memory, behind an opaque handle. */

import { finalizer } from './finalizer.js';
import { checkId, checkIds, checkIndexOptions, checkQueryOptions, checkSameLength, freedIndex } from '../shared/index-args.js';
import { checkIndexBytes, indexFormatError } from '../shared/index-format.js';
import { dropIfTrapped, instanceGeneration, memoryViews, wasm, withInstance, type WasmExports } from './loader.js';
import { CallScope } from './marshal.js';
import { newHandle, takeSavedBytes, type Handle } from './handle.js';
import { blocksOf, partsOf } from '../shared/filter.js';
import { LayoutPolicy } from '../shared/plan.js';
import { throwIfFailed } from './status.js';
import type {
  OnlineDecisions,
  QueryManyResult,
  QueryOptions,
  QueryResult,
  SimHashIndexConstructor,
  SimHashIndexOptions,
  SimHashIndex as SimHashIndexType,
  U64Input,
} from '../shared/types.js';
import { checkU64 } from '../shared/validate.js';
import { decideManyIn } from '../shared/decide.js';

function release(handle: Handle): void {
  // An index of an instance dropped after a trap went with it.
  if (handle.generation === instanceGeneration()) wasm().sh_index_free(handle.pointer);
}

const releaseUnfreed = finalizer<Handle>(release);

/** A handle `deserialize` made, for the constructor to adopt; nothing else can make one. */
class Loaded {
  readonly handle: Handle;
  constructor(handle: Handle) {
    this.handle = handle;
  }
}

/**
 * One query's answer, copied out of WebAssembly memory. Most answers hold a few ids or none, and
 * there a copy by hand beats `slice` (about 25 ns less per array in Node 20), and an empty
 * array made from `[]` costs half one made from a length of 0: together a third of what a
 * single query spends outside the core.
 */
function copyAnswer(u32: Uint32Array, u8: Uint8Array, ids: number, distances: number, count: number): QueryResult {
  if (count === 0) return { ids: new Uint32Array([]), distances: new Uint8Array([]) };
  if (count > 16) return { ids: u32.slice(ids, ids + count), distances: u8.slice(distances, distances + count) };
  const outIds = new Uint32Array(count);
  const outDistances = new Uint8Array(count);
  for (let k = 0; k < count; k++) {
    outIds[k] = u32[ids + k]!;
    outDistances[k] = u8[distances + k]!;
  }
  return { ids: outIds, distances: outDistances };
}

class WasmSimHashIndex implements SimHashIndexType {
  readonly distance: number;
  #handle: Handle | null;
  /** Byte offset of the handle's answer (see `IndexHandle` in the shim crate); it never moves. */
  readonly #answer: number;
  /** Re-plans the filter as the index grows; `null` when the caller fixed `blocks` or `parts`. */
  readonly #policy: LayoutPolicy | null;

  /**
   * An empty index for queries up to `options.distance` bits.
   *
   * @throws {TypeError | RangeError} for invalid options.
   */
  constructor(options: SimHashIndexOptions, loaded?: Loaded) {
    let filter: number;
    if (loaded instanceof Loaded) {
      this.#handle = loaded.handle;
      const parameters = wasm().sh_index_parameters(loaded.handle.pointer);
      this.distance = parameters >>> 8;
      filter = parameters & 0xff;
    } else {
      const checked = checkIndexOptions(options);
      this.distance = checked.distance;
      filter = checked.filter;
      this.#handle = withInstance((exports) =>
        newHandle(exports, (_, out) => exports.sh_index_new(checked.distance, checked.filter, out), 'new SimHashIndex'),
      );
    }
    // A pointer: the i32 it comes back as is negative above 2 GiB.
    this.#answer = wasm().sh_index_answer(this.#handle.pointer) >>> 0;
    releaseUnfreed.register(this, this.#handle);
    this.#policy = filter === 0 ? new LayoutPolicy(this.distance) : null;
    withInstance((exports) => this.#replan(exports));
  }

  /**
   * The index saved in `bytes` by `serialize()` of either entry.
   *
   * @throws {TypeError} unless `bytes` is a `Uint8Array`.
   * @throws {IndexFormatError} for bytes that are not a saved index.
   */
  static deserialize(bytes: Uint8Array): SimHashIndexType {
    const checked = checkIndexBytes(bytes);
    const handle = withInstance((exports) =>
      newHandle(
        exports,
        (scope, out) => {
          const ptr = scope.alloc(checked.length);
          memoryViews(exports).u8.set(checked, ptr);
          return exports.sh_index_deserialize(ptr, checked.length, out);
        },
        'SimHashIndex.deserialize',
        { bytes: checked, error: indexFormatError },
      ),
    );
    return new WasmSimHashIndex({ distance: 0 }, new Loaded(handle));
  }

  get freed(): boolean {
    return this.#handle === null;
  }

  get size(): number {
    return wasm().sh_index_len(this.#pointer());
  }

  get blocks(): number {
    return blocksOf(wasm().sh_index_filter(this.#pointer()));
  }

  get parts(): number {
    return partsOf(wasm().sh_index_filter(this.#pointer()));
  }

  add(id: number, fingerprint: bigint): void {
    const pointer = this.#pointer();
    const checkedId = checkId(id);
    const value = BigInt.asIntN(64, checkU64(fingerprint, 'fingerprint'));
    withInstance((exports) => {
      throwIfFailed(exports.sh_index_insert(pointer, checkedId, value), 'SimHashIndex.add');
      this.#replan(exports);
    });
  }

  addMany(ids: Uint32Array, fingerprints: U64Input): void {
    const pointer = this.#pointer();
    const checkedIds = checkIds(ids);
    withInstance((exports) => {
      const scope = new CallScope(exports);
      try {
        const values = scope.u64(fingerprints, 'fingerprints');
        checkSameLength(checkedIds, values.length);
        const idRegion = scope.u32(checkedIds, 'ids');
        throwIfFailed(exports.sh_index_insert_many(pointer, idRegion.ptr, values.ptr, values.length), 'SimHashIndex.addMany');
      } finally {
        scope.release();
      }
      this.#replan(exports);
    });
  }

  remove(id: number): boolean {
    const pointer = this.#pointer();
    const checkedId = checkId(id);
    return withInstance((exports) => {
      const removed = exports.sh_index_remove(pointer, checkedId) !== 0;
      if (removed) this.#replan(exports);
      return removed;
    });
  }

  has(id: number): boolean {
    const pointer = this.#pointer();
    return wasm().sh_index_contains(pointer, checkId(id)) !== 0;
  }

  query(fingerprint: bigint, options?: QueryOptions): QueryResult {
    const pointer = this.#pointer();
    // An i64 parameter takes a bigint modulo 2^64: no BigInt.asIntN (an allocation per query).
    const value = checkU64(fingerprint, 'fingerprint');
    const { distance, limit } = checkQueryOptions(options, this.distance);
    // withInstance, inlined: a single query is short enough for a closure per call to show.
    const exports = wasm();
    let status: number;
    try {
      status = exports.sh_index_query(pointer, value, distance, limit);
    } catch (error) {
      dropIfTrapped(error, exports);
      throw error;
    }
    throwIfFailed(status, 'SimHashIndex.query');
    const { u8, u32 } = memoryViews(exports);
    const at = this.#answer >>> 2;
    return copyAnswer(u32, u8, u32[at]! >>> 2, u32[at + 1]!, u32[at + 3]!);
  }

  decideMany(ids: Uint32Array, fingerprints: U64Input): OnlineDecisions {
    this.#pointer();
    return decideManyIn(this, WasmSimHashIndex, ids, fingerprints);
  }

  queryMany(fingerprints: U64Input, options?: QueryOptions): QueryManyResult {
    const pointer = this.#pointer();
    return withInstance((exports) => {
      const scope = new CallScope(exports);
      let distance: number;
      let limit: number;
      try {
        const values = scope.u64(fingerprints, 'fingerprints');
        ({ distance, limit } = checkQueryOptions(options, this.distance));
        throwIfFailed(exports.sh_index_query_many(pointer, values.ptr, values.length, distance, limit), 'SimHashIndex.queryMany');
      } finally {
        scope.release();
      }
      const { u8, u32 } = memoryViews(exports);
      const at = this.#answer / 4;
      const [ids, distances, offsets, count, queries] = [u32[at]!, u32[at + 1]!, u32[at + 2]!, u32[at + 3]!, u32[at + 4]!];
      return {
        offsets: u32.slice(offsets / 4, offsets / 4 + queries + 1),
        ids: u32.slice(ids / 4, ids / 4 + count),
        distances: u8.slice(distances, distances + count),
      };
    });
  }

  serialize(): Uint8Array {
    const pointer = this.#pointer();
    return withInstance((exports) => {
      throwIfFailed(exports.sh_index_serialize(pointer), 'SimHashIndex.serialize');
      return takeSavedBytes(exports, this.#answer, () => exports.sh_index_release_bytes(pointer));
    });
  }

  free(): void {
    const handle = this.#handle;
    if (handle === null) return;
    this.#handle = null;
    releaseUnfreed.unregister(this);
    release(handle);
  }

  [Symbol.dispose](): void {
    this.free();
  }

  /**
   * The live handle's pointer.
   *
   * @throws {TypeError} once freed, or when the instance it belonged to was reset after a trap.
   */
  #pointer(): number {
    const handle = this.#handle;
    if (handle === null) throw freedIndex();
    if (handle.generation !== instanceGeneration()) {
      throw new TypeError('this SimHashIndex belonged to a WebAssembly instance that was reset after a trap');
    }
    return handle.pointer;
  }

  /**
   * Switches layout when the policy says the size calls for another one. A switch that runs out
   * of memory leaves the index without tables, exact but slower, until the next planned switch;
   * the change that prompted it has succeeded, so it is not reported as failed.
   */
  #replan(exports: WasmExports): void {
    const pointer = this.#pointer();
    const planned = this.#policy?.due(exports.sh_index_len(pointer));
    if (planned !== undefined && planned !== exports.sh_index_filter(pointer)) {
      exports.sh_index_set_filter(pointer, planned);
    }
  }
}

/**
 * An index of `(id, fingerprint)` entries answering "which ids lie within k bits of this
 * fingerprint?", exactly, in WebAssembly memory.
 *
 * @example
 * using index = new SimHashIndex({ distance: 3 });
 * index.addMany(ids, fingerprints);
 * const { ids: near, distances } = index.query(fingerprint); // sorted by (distance, id)
 * const bytes = index.serialize(); // load with SimHashIndex.deserialize(bytes)
 */
export const SimHashIndex: SimHashIndexConstructor = WasmSimHashIndex;
/** The instance type of {@link SimHashIndex}. */
export type SimHashIndex = SimHashIndexType;
