/**
 * The messages between a pool and its workers. Every request carries a call number that its
 * one response repeats; errors cross as their class name and message, since `Error` objects lose
 * their class on the way.
 */

import type { DecideTextsOptions } from '../shared/adaptive.js';
import type { CompiledModule } from '../shared/init-source.js';
import type { FindAllOptions, FindClustersOptions, QueryManyResult, QueryOptions, SimHashIndexOptions, TextOptions } from '../shared/types.js';
import type { JsonLinesFields } from '../shared/json-lines.js';
import type { MinHashOptions } from '../shared/minhash-types.js';
import type { PackedTexts } from '../shared/packed-texts.js';
import type { WorkSlice } from '../shared/work-slice.js';

/** What a worker is asked to do. */
export type Operation =
  | { readonly op: 'fingerprintMany'; readonly texts: PackedTexts; readonly options: TextOptions | undefined }
  | { readonly op: 'minhashMany'; readonly texts: PackedTexts; readonly options: MinHashOptions | undefined }
  /**
   * Whole JSON Lines (a final line may lack its `\n`), decoded as UTF-8 in the worker; `first`
   * when they start the input, whose byte order mark is then dropped.
   */
  | {
      readonly op: 'fingerprintJsonLines';
      readonly bytes: Uint8Array;
      readonly first: boolean;
      readonly fields: JsonLinesFields;
      readonly options: TextOptions | undefined;
    }
  | {
      readonly op: 'computeMany';
      readonly hashes: BigUint64Array;
      readonly weights: Float64Array | undefined;
      readonly offsets: Uint32Array;
    }
  | {
      readonly op: 'findAllSlice';
      readonly fingerprints: BigUint64Array;
      readonly options: FindAllOptions;
      readonly slice: WorkSlice;
    }
  | {
      readonly op: 'findClustersSlice';
      readonly fingerprints: BigUint64Array;
      readonly options: FindClustersOptions;
      readonly slice: WorkSlice;
    }
  /** The rule of `decide` applied within the components `labels` gives, in taking `order`. */
  | {
      readonly op: 'decideWithLabels';
      readonly fingerprints: BigUint64Array;
      readonly distance: number;
      readonly labels: Uint32Array;
      readonly order: Uint32Array;
    }
  /** The online rule for a batch, given what the index of kept documents found for it. */
  | {
      readonly op: 'decideAgainst';
      readonly distance: number;
      readonly fingerprints: BigUint64Array;
      readonly ids: Uint32Array;
      readonly found: QueryManyResult;
    }
  /** The texts' sketches for the length-adaptive rule, as bytes to append in order. */
  | { readonly op: 'sketchTexts'; readonly texts: readonly string[] }
  /** Sketches `sketchTexts` made, appended in order and decided by the rule of `decideTexts`. */
  | { readonly op: 'decideSketches'; readonly chunks: readonly Uint8Array[]; readonly options: DecideTextsOptions | undefined }
  | { readonly op: 'indexNew'; readonly index: number; readonly options: SimHashIndexOptions }
  | { readonly op: 'indexLoad'; readonly index: number; readonly bytes: Uint8Array }
  | { readonly op: 'indexAddMany'; readonly index: number; readonly ids: Uint32Array; readonly fingerprints: BigUint64Array }
  | { readonly op: 'indexRemove'; readonly index: number; readonly id: number }
  | { readonly op: 'indexHas'; readonly index: number; readonly id: number }
  | {
      readonly op: 'indexQueryMany';
      readonly index: number;
      readonly fingerprints: BigUint64Array;
      readonly options: QueryOptions | undefined;
    }
  | { readonly op: 'indexSerialize'; readonly index: number }
  | { readonly op: 'indexFree'; readonly index: number }
  /** Returns `payload` as it arrived: what a crossing costs, measured by the bench. */
  | { readonly op: 'echo'; readonly payload: unknown; readonly transferBack: boolean }
  /** Fails the worker itself (tests of the pool's recovery): an uncaught error, or an exit. */
  | { readonly op: 'crash'; readonly how: 'throw' | 'exit' };

/** What `fingerprintJsonLines` returns: the records of the block, lines numbered from 1 in it. */
export interface JsonLinesBlock {
  readonly lineCount: number;
  readonly lines: Uint32Array;
  readonly fingerprints: BigUint64Array;
  readonly ids: (string | number | undefined)[] | undefined;
  /** Positions in `fingerprints` of texts without a single shingle. */
  readonly featureless: Uint32Array;
  readonly skipped: { readonly line: number; readonly reason: string }[];
}

/** A request as sent: an operation and its call number. */
export type Request = Operation & { readonly call: number };

/** An error as it crosses: enough to rebuild one of the same class and message. */
export interface ErrorData {
  readonly name: string;
  readonly message: string;
  /** `IndexFormatError.problem`, when it is one. */
  readonly problem?: string;
}

/** The answer to call `call`. */
export type Response =
  | { readonly call: number; readonly ok: true; readonly value: unknown }
  | { readonly call: number; readonly ok: false; readonly error: ErrorData };

/**
 * The first message to every worker: the module to instantiate, compiled once by the pool, so
 * that no worker loads (or, bundled, carries) a copy of its own. A `WebAssembly.Module`, typed
 * as any object because `WebAssembly` is declared only by the DOM library.
 */
export interface Setup {
  readonly module: CompiledModule;
}

/** The first message of every worker: its module is loaded and its instance ready. */
export interface Ready {
  readonly ready: true;
}
