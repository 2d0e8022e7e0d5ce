/**
 * `simhash-wasm/pure`: the library's API in plain TypeScript, with the same signatures, the
 * same errors and bit-identical results as the WebAssembly entry. It needs no initialisation and
 * no WebAssembly, and serves as the fallback, the oracle in tests and the benchmark baseline.
 */

// `init` and `initSync` take exactly the WebAssembly entry's parameter types, so either entry
// can stand in for the other.
import { checkSourceKind, type InitSource, type InitSyncSource } from '../shared/init-source.js';
import { simhashPyFingerprintUsing } from '../shared/compat.js';
import { compute } from './compute.js';

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
} from '../shared/types.js';
export type { InitSource, InitSyncSource } from '../shared/init-source.js';
export { permutationLayout, permute } from '../shared/layout.js';
export { compute, computeMany, computeManyWeighted, computeWeighted } from './compute.js';
export { findAll } from './find-all.js';
export { findClusters } from './clusters.js';
export { decide, decideTexts } from './decide.js';
export { TEXT_DECISION_VERSION } from '../shared/adaptive.js';
export type { DecideTextsOptions } from '../shared/adaptive.js';
export { TextSketches } from './text-sketches.js';
export { TextIndex } from './text-index.js';
export type { TextIndexConstructor, TextIndexOptions, TextQueryResult } from '../shared/text-index.js';
export { decideMinHash, decisionGroups } from '../shared/decide.js';
export type { DecideMinHashOptions, DecideOptions, DecisionGroup, MinHashDecisions, PriorityOption, SimHashDecisions } from '../shared/decide.js';
export type { OnlineDecisions } from '../shared/types.js';
export { SimHashIndex } from './simhash-index.js';
export { planTables } from '../shared/plan.js';
export { IndexFormatError, type IndexFormatProblem } from '../shared/index-format.js';
export { hammingDistances, numDifferingBits } from './hamming.js';
export { allocHashArray } from './hash-array.js';
export { TEXT_FINGERPRINT_VERSION } from '../shared/text-options.js';
export { features, fingerprint, fingerprintMany } from './text.js';
export { shingle, simhashPyFeatures, unsignedHash } from '../shared/compat.js';
export { minhash, minhashMany, datasketchMinhash, datasketchMinhashMany } from './minhash.js';
export { estimateJaccard, MINHASH_VERSION } from '../shared/minhash-options.js';
export { MinHashLSH, planMinHashLsh, findAllMinHash, findClustersMinHash } from '../shared/minhash-lsh.js';
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
} from '../shared/minhash-types.js';

/**
 * Does nothing and resolves: the pure entry has nothing to load. It exists so that code written
 * for the WebAssembly entry (`await init()`, then synchronous calls) runs unchanged on this one.
 *
 * @param source Ignored but for its kind; the WebAssembly entry loads its module from here.
 * @throws {TypeError} (as a rejection) for a value that could never be a source.
 */
export async function init(source?: InitSource): Promise<void> {
  checkSourceKind(source, 'init');
}

/**
 * Does nothing: the synchronous counterpart of {@link init}.
 *
 * @param source Ignored but for its kind; the WebAssembly entry compiles its module from here.
 * @throws {TypeError} for a value that could never be a source.
 */
export function initSync(source?: InitSyncSource): void {
  checkSourceKind(source, 'initSync');
}

/**
 * The fingerprint simhash-py computes for `text` in its own tests: `compute` of
 * {@link simhashPyFeatures}, for comparing with fingerprints stored by simhash-py.
 */
export const simhashPyFingerprint = simhashPyFingerprintUsing(compute);
