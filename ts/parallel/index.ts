/**
 * simhash-wasm/parallel: the batch operations over every core, in worker threads (Node) or
 * module Web Workers (browsers, Deno, Bun), each worker with its own WebAssembly instance, and
 * an index sharded over them that can outgrow one instance's 4 GiB.
 *
 * ESM only: the workers are found next to this module through `import.meta.url`.
 */

export { createPool, type JsonLinesBatch, type JsonLinesOptions, Pool, type PoolOptions } from './pool.js';
export { ShardedIndex, type ShardedIndexOptions } from './sharded-index.js';
export type { DecideOptions, SimHashDecisions } from '../shared/decide.js';
export type {
  FindAllOptions,
  FindClustersOptions,
  PairResult,
  QueryManyResult,
  QueryOptions,
  QueryResult,
  SimHashIndexOptions,
  TextOptions,
  U64Input,
  WeightInput,
} from '../shared/types.js';
