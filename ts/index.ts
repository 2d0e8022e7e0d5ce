/**
 * simhash-wasm: SimHash fingerprints, Hamming distances and the exact search for every pair of
 * near-duplicates, computed in WebAssembly.
 *
 * The same API, computed in plain TypeScript, is `simhash-wasm/pure`.
 *
 * @packageDocumentation
 */

import { simhashPyFingerprintUsing } from './shared/compat.js';
import { compute } from './wasm/compute.js';

export { init, initSync } from './wasm/loader.js';
export type { InitSource, InitSyncSource } from './shared/init-source.js';
export { allocHashArray } from './wasm/hash-array.js';
export { compute, computeWeighted, computeMany, computeManyWeighted } from './wasm/compute.js';
export { numDifferingBits, hammingDistances } from './wasm/distance.js';
export { findAll } from './wasm/find-all.js';
export { findClusters } from './wasm/clusters.js';
export { decide, decideTexts } from './wasm/decide.js';
export { TEXT_DECISION_VERSION } from './shared/adaptive.js';
export type { DecideTextsOptions } from './shared/adaptive.js';
export { TextSketches } from './wasm/text-sketches.js';
export { TextIndex } from './wasm/text-index.js';
export type { TextIndexConstructor, TextIndexOptions, TextQueryResult } from './shared/text-index.js';
export { decideMinHash, decisionGroups } from './shared/decide.js';
export type { DecideMinHashOptions, DecideOptions, DecisionGroup, MinHashDecisions, PriorityOption, SimHashDecisions } from './shared/decide.js';
export type { OnlineDecisions } from './shared/types.js';
export { SimHashIndex } from './wasm/simhash-index.js';
export { planTables } from './shared/plan.js';
export { IndexFormatError, type IndexFormatProblem } from './shared/index-format.js';
export { permutationLayout, permute } from './shared/layout.js';
export { fingerprint, fingerprintMany, features } from './wasm/text.js';
export { TEXT_FINGERPRINT_VERSION } from './shared/text-options.js';
export { shingle, simhashPyFeatures, unsignedHash } from './shared/compat.js';
export { minhash, minhashMany, datasketchMinhash, datasketchMinhashMany } from './wasm/minhash.js';
export { estimateJaccard, MINHASH_VERSION } from './shared/minhash-options.js';
export { MinHashLSH, planMinHashLsh, findAllMinHash, findClustersMinHash } from './shared/minhash-lsh.js';
export type {
  DatasketchOptions,
  DatasketchToken,
  FindAllMinHashOptions,
  MinHashLshOptions,
  MinHashLshPlan,
  MinHashOptions,
  MinHashPairs,
  MinHashQueryManyResult,
  MinHashQueryOptions,
  MinHashQueryResult,
} from './shared/minhash-types.js';
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
} from './shared/types.js';

/**
 * The fingerprint simhash-py computes for `text` in its own tests: `compute` of
 * {@link simhashPyFeatures}, for comparing with fingerprints stored by simhash-py.
 */
export const simhashPyFingerprint = simhashPyFingerprintUsing(compute);
