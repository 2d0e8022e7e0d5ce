/**
 * The batch searches over MinHash signatures: every pair of positions that shares an LSH band
 * and whose estimated (or, given the feature sets, exact) Jaccard similarity reaches the
 * threshold, each pair once; and the connected components of those pairs in linear memory.
 * Plain TypeScript over typed arrays, shared by both entries, so they agree by construction.
 */

import { bandEqual, bandKey, equalPositions, exactJaccard, minEqual } from './minhash-bands.js';
import { checkSignatures } from './minhash-options.js';
import { planMinHashLsh } from './minhash-plan.js';
import { MINHASH_LSH_OPTIONS, type FindAllMinHashOptions, type MinHashLshOptions, type MinHashPairs } from './minhash-types.js';
import { checkMaxPairs, checkOptions, DEFAULT_MAX_PAIRS, describe } from './validate.js';

/** Options of the batch searches that also take the documents' feature sets. */
interface ExactOption {
  /**
   * The feature set of each document (sorted, distinct: `features(text, { weighting:
   * 'binary' })`). When given, candidates are confirmed by their exact Jaccard similarity
   * instead of the estimate, and that is what `similarity` reports.
   */
  readonly exact?: readonly BigUint64Array[];
}

/** Sorts `order` (positions) by `keys[position]`: two stable 16-bit LSD passes. */
function sortByKey(keys: Uint32Array, order: Uint32Array, scratch: Uint32Array): void {
  const counts = new Uint32Array(65537);
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let i = 0; i < order.length; i++) counts[((keys[order[i]!]! >>> shift) & 0xffff) + 1]!++;
    for (let i = 1; i <= 65536; i++) counts[i]! += counts[i - 1]!;
    for (let i = 0; i < order.length; i++) {
      const p = order[i]!;
      scratch[counts[(keys[p]! >>> shift) & 0xffff]!++] = p;
    }
    order.set(scratch);
  }
}

function checkExact(exact: unknown, n: number): readonly BigUint64Array[] | undefined {
  if (exact === undefined) return undefined;
  if (!Array.isArray(exact)) throw new TypeError(`options.exact must be an array of BigUint64Array, got ${describe(exact)}`);
  if (exact.length !== n) throw new RangeError(`options.exact must hold one feature set per signature (${n}), got ${exact.length}`);
  exact.forEach((set: unknown, i) => {
    if (!(set instanceof BigUint64Array)) throw new TypeError(`options.exact[${i}] must be a BigUint64Array, got ${describe(set)}`);
    for (let j = 1; j < set.length; j++) {
      if (set[j]! <= set[j - 1]!) throw new RangeError(`options.exact[${i}] must be sorted ascending and distinct (at ${j})`);
    }
  });
  return exact as readonly BigUint64Array[];
}

/**
 * Calls `visit(x, y)` (x < y) for every pair sharing a band, once, in the first band (in
 * order) they share; `skip(x, y)` may spare a pair the band comparisons.
 */
function forEachCandidate(
  signatures: Uint32Array,
  k: number,
  bands: number,
  rows: number,
  visit: (x: number, y: number) => void,
  skip: (x: number, y: number) => boolean,
): void {
  const n = signatures.length / k;
  const keys = new Uint32Array(n);
  const order = new Uint32Array(n);
  const scratch = new Uint32Array(n);
  for (let band = 0; band < bands; band++) {
    for (let d = 0; d < n; d++) keys[d] = bandKey(signatures, d * k, band, rows);
    for (let d = 0; d < n; d++) order[d] = d;
    sortByKey(keys, order, scratch);
    for (let start = 0; start < n; ) {
      let end = start + 1;
      while (end < n && keys[order[end]!] === keys[order[start]!]) end++;
      // Positions within a run are ascending: the sort is stable over an ascending order.
      for (let i = start; i < end; i++) {
        const x = order[i]!;
        for (let j = i + 1; j < end; j++) {
          const y = order[j]!;
          if (skip(x, y) || !bandEqual(signatures, x * k, signatures, y * k, band, rows)) continue;
          let earlier = false;
          for (let b = 0; b < band && !earlier; b++) earlier = bandEqual(signatures, x * k, signatures, y * k, b, rows);
          if (!earlier) visit(x, y);
        }
      }
      start = end;
    }
  }
}

/** The names of the options of `findClustersMinHash` and of `findAllMinHash`. */
const FIND_CLUSTERS_OPTIONS = [...MINHASH_LSH_OPTIONS, 'exact'];
const FIND_ALL_OPTIONS = [...FIND_CLUSTERS_OPTIONS, 'maxPairs'];

function resolve(signatures: unknown, options: (FindAllMinHashOptions & ExactOption) | undefined, where: 'findAllMinHash' | 'findClustersMinHash') {
  const known = where === 'findAllMinHash' ? FIND_ALL_OPTIONS : FIND_CLUSTERS_OPTIONS;
  const o = (options === undefined ? {} : checkOptions(options, known, where)) as FindAllMinHashOptions & ExactOption;
  const { exact: _exact, maxPairs: _maxPairs, ...lsh } = o;
  const plan = planMinHashLsh(lsh);
  const n = checkSignatures(signatures, plan.numPerm);
  return { plan, n, exact: checkExact(o.exact, n), o };
}

/**
 * Every pair of positions `i < j` of `signatures` (n signatures of `numPerm` positions back to
 * back, as `minhashMany` returns them) that shares an LSH band and whose estimated Jaccard
 * similarity reaches `threshold` — or, with `exact`, whose exact similarity does. Each pair
 * once, sorted by (left, right). Bands and rows come from {@link planMinHashLsh} unless given.
 *
 * @example
 * const sigs = minhashMany(texts);
 * const { left, right, similarity } = findAllMinHash(sigs, { threshold: 0.8 });
 * @throws {TypeError | RangeError} for bad signatures or options, or more than `maxPairs` pairs.
 */
export function findAllMinHash(signatures: Uint32Array, options?: FindAllMinHashOptions & ExactOption): MinHashPairs {
  const { plan, exact, o } = resolve(signatures, options, 'findAllMinHash');
  const maxPairs = o.maxPairs === undefined ? DEFAULT_MAX_PAIRS : checkMaxPairs(o.maxPairs, 'options.maxPairs');
  const k = plan.numPerm;
  const needed = minEqual(plan.threshold, k);
  const found: bigint[] = [];
  forEachCandidate(
    signatures,
    k,
    plan.bands,
    plan.rows,
    (x, y) => {
      const pass = exact === undefined ? equalPositions(signatures, x * k, signatures, y * k, k) >= needed : exactJaccard(exact[x]!, exact[y]!) >= plan.threshold;
      if (!pass) return;
      if (found.length >= maxPairs) {
        throw new RangeError(
          `findAllMinHash would return more than maxPairs (${maxPairs}) pairs; for groups of near-duplicates use findClustersMinHash (memory linear in n), or raise options.maxPairs or options.threshold`,
        );
      }
      found.push((BigInt(x) << 32n) | BigInt(y));
    },
    () => false,
  );
  const sorted = BigUint64Array.from(found).sort();
  const left = new Uint32Array(sorted.length);
  const right = new Uint32Array(sorted.length);
  const similarity = new Float64Array(sorted.length);
  for (let p = 0; p < sorted.length; p++) {
    const x = Number(sorted[p]! >> 32n);
    const y = Number(sorted[p]! & 0xffff_ffffn);
    left[p] = x;
    right[p] = y;
    similarity[p] = exact === undefined ? equalPositions(signatures, x * k, signatures, y * k, k) / k : exactJaccard(exact[x]!, exact[y]!);
  }
  return { left, right, similarity };
}

/**
 * The connected components of {@link findAllMinHash}'s pairs, in memory linear in n however
 * large a family of near-duplicates is: for each position, the smallest position of its
 * component. A pair already in one component is not compared again.
 *
 * @example
 * const labels = findClustersMinHash(minhashMany(texts), { threshold: 0.8 });
 * // keep one document per group: positions i with labels[i] === i
 * @throws {TypeError | RangeError} for bad signatures or options.
 */
export function findClustersMinHash(signatures: Uint32Array, options?: MinHashLshOptions & ExactOption): Uint32Array {
  const { plan, n, exact } = resolve(signatures, options, 'findClustersMinHash');
  const k = plan.numPerm;
  const needed = minEqual(plan.threshold, k);
  const parent = new Uint32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const union = (x: number, y: number): void => {
    const rx = find(x);
    const ry = find(y);
    // The smaller root wins, so each component is labelled by its smallest position.
    if (rx < ry) parent[ry] = rx;
    else if (ry < rx) parent[rx] = ry;
  };
  // Equal signatures share every band and reach any threshold by estimate: joined here, they
  // are searched once, so a family of identical documents costs linear time. (With `exact`,
  // equal signatures may still differ in their sets: every document is searched.)
  const distinct = exact === undefined ? firstOfEqual(signatures, k, n) : Uint32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < n; i++) if (distinct[i] !== i) union(distinct[i]!, i);
  const searched = Uint32Array.from(distinct.filter((first, i) => first === i));
  const compact = searched.length === n ? signatures : new Uint32Array(searched.length * k);
  if (compact !== signatures) searched.forEach((position, j) => compact.set(signatures.subarray(position * k, (position + 1) * k), j * k));
  forEachCandidate(
    compact,
    k,
    plan.bands,
    plan.rows,
    (a, b) => {
      const [x, y] = [searched[a]!, searched[b]!];
      const pass = exact === undefined ? equalPositions(signatures, x * k, signatures, y * k, k) >= needed : exactJaccard(exact[x]!, exact[y]!) >= plan.threshold;
      if (pass) union(x, y);
    },
    (a, b) => find(searched[a]!) === find(searched[b]!),
  );
  const labels = new Uint32Array(n);
  for (let i = 0; i < n; i++) labels[i] = find(i);
  return labels;
}

/** For each of `n` signatures of `k` positions, the first position whose signature equals it. */
function firstOfEqual(signatures: Uint32Array, k: number, n: number): Uint32Array {
  const first = new Uint32Array(n);
  const byHash = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    let h = 0x811c_9dc5;
    for (let p = i * k; p < (i + 1) * k; p++) h = Math.imul(h ^ signatures[p]!, 0x0100_0193);
    const seen = byHash.get(h);
    const same = seen?.find((j) => equalPositions(signatures, i * k, signatures, j * k, k) === k);
    first[i] = same ?? i;
    if (same === undefined) {
      if (seen === undefined) byHash.set(h, [i]);
      else seen.push(i);
    }
  }
  return first;
}
