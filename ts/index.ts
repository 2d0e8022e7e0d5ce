/**
 * simhash-wasm: SimHash fingerprints, Hamming distances and the exact search for every pair of
 * near-duplicates, computed in WebAssembly.
 *
 * The same API, computed in plain TypeScript, is `simhash-wasm/pure`.
 *
 * @packageDocumentation
 */

import { simhashPyFingerprintUsing } from './compat.js';
import { compute } from './compute.js';

export { init, initSync, type InitSource, type InitSyncSource } from './loader.js';
export { allocHashArray } from './hash-array.js';
export { compute, computeWeighted, computeMany, computeManyWeighted } from './compute.js';
export { numDifferingBits, hammingDistances } from './distance.js';
export { findAll } from './find-all.js';
export { findClusters } from './clusters.js';
export { SimHashIndex } from './simhash-index.js';
export { planTables } from './plan.js';
export { IndexFormatError, type IndexFormatProblem } from './index-format.js';
export { permutationLayout, permute } from './layout.js';
export { fingerprint, fingerprintMany, features } from './text.js';
export { TEXT_FINGERPRINT_VERSION } from './text-options.js';
export { shingle, simhashPyFeatures, unsignedHash } from './compat.js';
export type {
  BitRange,
  FindAllOptions,
  FindClustersOptions,
  HashArray,
  PairResult,
  PermutationLayout,
  PermutedTableLayout,
  PlanTablesOptions,
  QueryManyResult,
  QueryOptions,
  QueryResult,
  SimHashIndexConstructor,
  SimHashIndexOptions,
  TablePlan,
  TextOptions,
  U64Input,
  WeightInput,
} from './types.js';

/**
 * The fingerprint simhash-py computes for `text` in its own tests: `compute` of
 * {@link simhashPyFeatures}, for comparing with fingerprints stored by simhash-py.
 */
export const simhashPyFingerprint = simhashPyFingerprintUsing(compute);
