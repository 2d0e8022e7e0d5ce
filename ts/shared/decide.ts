/**
 * Decisions: which documents to keep and which to remove, by one rule that every caller (both
 * entries, the pool, the command line, the demo) applies through this module.
 *
 * The rule: documents are taken in priority order (input order unless a priority is given); a
 * document is removed when a document already kept lies within the threshold, and then points
 * to the closest such one (ties to the one taken first); otherwise it is kept. So every removed
 * document is within the threshold of its representative, no two kept documents are within it
 * of each other, and the answer depends only on the inputs and the priority.
 */

import { KeptBands, equalPositions, minEqual } from './minhash-bands.js';
import { popcount64 } from './popcount.js';
import { checkSignatures } from './minhash-options.js';
import { planMinHashLsh } from './minhash-plan.js';
import { MINHASH_LSH_OPTIONS, type MinHashLshOptions } from './minhash-types.js';
import { FIND_CLUSTERS_OPTIONS, type FindClustersOptions, type OnlineDecisions, type QueryManyResult, type SimHashIndex, type SimHashIndexConstructor, type U64Input } from './types.js';
import { toU64Array } from './u64-input.js';
import { checkOptions, describe, optionKeys } from './validate.js';

/** The priority option both decisions take. */
export interface PriorityOption {
  /**
   * A score per document: higher scores are taken first, equal scores in input order. Give
   * lengths to keep the longest of each family, negated times to keep the oldest, and so on.
   * Default: input order (the first of each family is kept).
   */
  readonly priority?: Float64Array | readonly number[];
}

/** Options of `decide`: the `findClusters` options (the threshold is `distance`) and a priority. */
export interface DecideOptions extends FindClustersOptions, PriorityOption {}

/** Options of `decideMinHash`: the LSH options (the threshold is `threshold`) and a priority. */
export interface DecideMinHashOptions extends MinHashLshOptions, PriorityOption {}

/** The names of {@link PriorityOption}. */
export const PRIORITY_OPTION = optionKeys<PriorityOption>({ priority: true });
/** The names of {@link DecideOptions}. */
export const DECIDE_OPTIONS = [...FIND_CLUSTERS_OPTIONS, ...PRIORITY_OPTION];
/** The names of {@link DecideMinHashOptions}. */
export const DECIDE_MINHASH_OPTIONS = [...MINHASH_LSH_OPTIONS, ...PRIORITY_OPTION];

/**
 * What `decide` found: document i is kept when `representative[i] === i`; otherwise it is to be
 * removed as a near-duplicate of the kept document `representative[i]`, `distance[i]` bits away.
 */
export interface SimHashDecisions {
  readonly representative: Uint32Array;
  /** Bits between each document and its representative; 0 for kept documents. */
  readonly distance: Uint8Array;
}

/**
 * What `decideMinHash` found: document i is kept when `representative[i] === i`; otherwise it is
 * to be removed as a near-duplicate of the kept document `representative[i]`.
 */
export interface MinHashDecisions {
  readonly representative: Uint32Array;
  /** Estimated Jaccard similarity of each document and its representative; 1 for kept ones. */
  readonly similarity: Float64Array;
}

/**
 * The positions `0..n` in the order they are taken: by descending `priority`, equal scores (and
 * every document, without a priority) in input order.
 *
 * @throws {TypeError | RangeError} unless `priority` is `undefined` or n finite numbers.
 */
export function takingOrder(priority: unknown, n: number, name = 'options.priority'): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (priority === undefined) return order;
  if (!(priority instanceof Float64Array) && !Array.isArray(priority)) {
    throw new TypeError(`${name} must be a Float64Array or an array of numbers, got ${describe(priority)}`);
  }
  const scores = priority as ArrayLike<unknown>;
  if (scores.length !== n) throw new RangeError(`${name} must hold one score per document (${n}), got ${scores.length}`);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const score = scores[i];
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new TypeError(`${name}[${i}] must be a finite number, got ${describe(score)}`);
    }
    keys[i] = score;
  }
  // Sorting by (score descending, position) makes the order total, hence stable.
  return order.sort((a, b) => keys[b]! - keys[a]! || a - b);
}

/** What a SimHash decision needs of an entry: its `findClusters` and its `SimHashIndex`. */
export interface SimHashEngine {
  readonly findClusters: (fingerprints: U64Input, options: FindClustersOptions) => Uint32Array;
  readonly SimHashIndex: SimHashIndexConstructor;
}

/**
 * {@link decideWithLabels} over the components the entry's `findClusters` finds.
 *
 * @throws {TypeError | RangeError} for bad fingerprints or options.
 */
export function decideSimHash(engine: SimHashEngine, fingerprints: U64Input, options: DecideOptions): SimHashDecisions {
  // Always a copy: a view of WebAssembly memory (a HashArray's) detaches when the search or the
  // index grows that memory.
  const values = new BigUint64Array(toU64Array(fingerprints, 'fingerprints'));
  const o = checkOptions(options, DECIDE_OPTIONS, 'decide') as unknown as DecideOptions;
  const { priority, ...clusterOptions } = o;
  // Checked before the search, so a bad priority costs nothing.
  const order = takingOrder(priority, values.length);
  const labels = engine.findClusters(fingerprints, clusterOptions);
  return decideWithLabels(engine.SimHashIndex, values, o.distance, labels, order);
}

/**
 * Kept documents of one component compared one by one before the rest of the component is
 * decided against an index: most components of real and random inputs hold one or two kept
 * documents, which a few bit counts settle where an index query at 10 bits probes many keys;
 * a component that keeps more (a chain of documents each a few bits from the next) still costs
 * one query a document past this many.
 */
const COMPARED_KEPT = 16;

/**
 * The decisions over `fingerprints` at `distance` bits, given `labels` (`findClusters` of the
 * same fingerprints and distance, from any entry or a pool) and the taking `order`.
 *
 * A document is within `distance` bits only of documents of its own component, so a document
 * alone in its component is kept without a look, and each other component is decided on its
 * own, its documents in taking order: each is compared with the component's kept documents
 * (the closest wins, ties to the one taken first), then, once the component has kept
 * {@link COMPARED_KEPT}, queried against an index of them, ids being their ranks in the taking
 * order (its answer, sorted by (distance, id), puts the same one first). Because kept documents
 * are more than `distance` bits apart, a family of identical documents costs one comparison a
 * document: time and memory stay linear in n.
 */
export function decideWithLabels(
  Index: SimHashIndexConstructor,
  fingerprints: BigUint64Array,
  distance: number,
  labels: Uint32Array,
  order: Uint32Array,
): SimHashDecisions {
  const n = fingerprints.length;
  const representative = new Uint32Array(n);
  for (let i = 0; i < n; i++) representative[i] = i;
  const bits = new Uint8Array(n);
  const { starts, ranks } = componentsInTakingOrder(labels, order);
  // Little-endian halves of each fingerprint; the input is a copy, so never a detached view.
  const words = new Uint32Array(fingerprints.buffer, fingerprints.byteOffset, 2 * n);
  const kept = new Uint32Array(COMPARED_KEPT);
  let index: SimHashIndex | undefined;
  try {
    for (let c = 0; c + 1 < starts.length; c++) {
      let keptCount = 0;
      let indexed = false;
      for (let m = starts[c]!; m < starts[c + 1]!; m++) {
        const rank = ranks[m]!;
        const position = order[rank]!;
        const [best, bestRank] = indexed ? closestIndexed(index!, fingerprints[position]!) : closestKept(words, position, kept, keptCount, order);
        if (best <= distance) {
          representative[position] = order[bestRank]!;
          bits[position] = best;
        } else if (indexed) {
          index!.add(rank, fingerprints[position]!);
        } else if (keptCount < COMPARED_KEPT) {
          kept[keptCount++] = rank;
        } else {
          // Kept documents of other components are never within the distance: one index
          // serves every component that needs it.
          index ??= new Index({ distance });
          for (const earlier of kept) index.add(earlier, fingerprints[order[earlier]!]!);
          index.add(rank, fingerprints[position]!);
          indexed = true;
        }
      }
    }
  } finally {
    index?.free();
  }
  return { representative, distance: bits };
}

/** {@link closestKept} over an index of the kept documents by rank. */
function closestIndexed(index: SimHashIndex, fingerprint: bigint): [distance: number, rank: number] {
  const found = index.query(fingerprint, { limit: 1 });
  return found.ids.length === 0 ? [65, 0] : [found.distances[0]!, found.ids[0]!];
}

/**
 * Of the kept documents ranked `kept[0..count]` (in taking order), the closest to the document
 * at `position` and its distance, ties to the one taken first; `words` holds each fingerprint's
 * two halves. The distance is 65 when there are none.
 */
function closestKept(words: Uint32Array, position: number, kept: Uint32Array, count: number, order: Uint32Array): [distance: number, rank: number] {
  const low = words[2 * position]!;
  const high = words[2 * position + 1]!;
  let best = 65;
  let bestRank = 0;
  for (let k = 0; k < count; k++) {
    const other = order[kept[k]!]!;
    const d = popcount64(low ^ words[2 * other]!, high ^ words[2 * other + 1]!);
    if (d < best) [best, bestRank] = [d, kept[k]!];
  }
  return [best, bestRank];
}

/** No component: a label of fewer than two documents. */
const ALONE = 0xffff_ffff;

/**
 * The ranks of the documents of each component of two or more (by `labels`), grouped by
 * component and in taking order within each: component `c` holds `ranks[starts[c]..starts[c + 1]]`.
 */
function componentsInTakingOrder(labels: Uint32Array, order: Uint32Array): { starts: Uint32Array; ranks: Uint32Array } {
  const n = labels.length;
  const size = new Uint32Array(n);
  for (let i = 0; i < n; i++) size[labels[i]!]!++;
  const starts: number[] = [];
  // `next[label]`: where the component's next member goes; it takes the place of `size`.
  const next = size;
  let at = 0;
  for (let label = 0; label < n; label++) {
    const members = size[label]!;
    if (members >= 2) {
      starts.push(at);
      next[label] = at;
      at += members;
    } else {
      next[label] = ALONE;
    }
  }
  starts.push(at);
  const ranks = new Uint32Array(at);
  for (let rank = 0; rank < n; rank++) {
    const label = labels[order[rank]!]!;
    if (next[label] !== ALONE) ranks[next[label]!++] = rank;
  }
  return { starts: Uint32Array.from(starts), ranks };
}

/**
 * The online rule, one batch at a time: documents `ids[q]` with fingerprints `values[q]`, taken
 * in order, against an index holding only kept documents, whose answer for the batch (limit 2,
 * sorted by (distance, id)) is `found`. A document is removed when the index or an earlier
 * document of the batch that was kept lies within `distance`, and points to the closest, ties
 * to the smaller id; a document whose own id the index already holds within the distance was
 * kept before and stays kept. The caller adds the kept documents (`representative[q] ===
 * ids[q]`) to the index. `Index` serves the batch's own kept documents.
 */
export function decideAgainst(
  Index: SimHashIndexConstructor,
  distance: number,
  values: BigUint64Array,
  ids: Uint32Array,
  found: QueryManyResult,
): OnlineDecisions {
  const n = values.length;
  const representative = new Uint32Array(n);
  const bits = new Uint8Array(n);
  // A document the index holds with this very fingerprint was kept before and stays kept; the
  // index's entry for any other id of the batch is about to be replaced or removed, so it is
  // no candidate for anyone.
  const batch = new Map<number, number>();
  ids.forEach((id, q) => batch.set(id, q));
  const keptBefore = new Uint8Array(n);
  for (let q = 0; q < n; q++) {
    for (let m = found.offsets[q]!; m < found.offsets[q + 1]!; m++) if (found.ids[m] === ids[q] && found.distances[m] === 0) keptBefore[q] = 1;
  }
  const local = new Index({ distance });
  // The batch's kept documents, by their rank in the local index.
  const keptIds: number[] = [];
  try {
    for (let q = 0; q < n; q++) {
      const id = ids[q]!;
      let best = -1;
      let bestBits = 65;
      for (let m = found.offsets[q]! ; m < found.offsets[q + 1]! && keptBefore[q] === 0; m++) {
        const other = batch.get(found.ids[m]!);
        if (other !== undefined && keptBefore[other] === 0) continue;
        [best, bestBits] = [found.ids[m]!, found.distances[m]!];
        break;
      }
      if (keptBefore[q] === 0) {
        const near = local.query(values[q]!, { limit: keptIds.length });
        for (let m = 0; m < near.ids.length && near.distances[m]! <= bestBits; m++) {
          const other = keptIds[near.ids[m]!]!;
          if (near.distances[m]! < bestBits || other < best) [best, bestBits] = [other, near.distances[m]!];
        }
      }
      if (keptBefore[q] === 1 || best < 0) {
        representative[q] = id;
        local.add(keptIds.length, values[q]!);
        keptIds.push(id);
      } else {
        representative[q] = best;
        bits[q] = bestBits;
      }
    }
  } finally {
    local.free();
  }
  return { representative, distance: bits };
}

/**
 * `decideMany` of both entries' `SimHashIndex`: the online rule for `ids` and `fingerprints`
 * against `index` (which holds kept documents only), adding the kept ones.
 *
 * @throws {TypeError | RangeError} for bad ids or fingerprints, or more than one fingerprint per id.
 */
export function decideManyIn(index: SimHashIndex, Index: SimHashIndexConstructor, ids: unknown, fingerprints: U64Input): OnlineDecisions {
  if (!(ids instanceof Uint32Array)) throw new TypeError(`ids must be a Uint32Array, got ${describe(ids)}`);
  const values = new BigUint64Array(toU64Array(fingerprints, 'fingerprints'));
  if (ids.length !== values.length) throw new RangeError(`fingerprints must have one fingerprint per id: expected ${ids.length}, got ${values.length}`);
  checkDistinctIds(ids);
  const decisions = decideAgainst(Index, index.distance, values, ids, index.queryMany(values, { limit: queryLimit(ids) }));
  const kept = keptOf(ids, decisions);
  ids.forEach((id, q) => {
    if (kept[q] === 0 && index.has(id)) index.remove(id);
  });
  index.addMany(ids.filter((_, q) => kept[q] === 1), values.filter((_, q) => kept[q] === 1));
  return decisions;
}

/**
 * How many answers per query `decideAgainst` needs: one beyond every entry the batch's own ids
 * may hold, which it passes over.
 */
export function queryLimit(ids: Uint32Array): number {
  return ids.length + 1;
}

/**
 * Refuses a batch that names an id twice: its second document would replace the first in the
 * index while both were decided as kept.
 *
 * @throws {RangeError} naming the id and its two places.
 */
export function checkDistinctIds(ids: Uint32Array): void {
  const seen = new Map<number, number>();
  ids.forEach((id, q) => {
    const first = seen.get(id);
    if (first !== undefined) throw new RangeError(`ids must be distinct within a batch: ids[${first}] and ids[${q}] are both ${id}`);
    seen.set(id, q);
  });
}

/** 1 for each document `decideAgainst` kept. */
export function keptOf(ids: Uint32Array, decisions: OnlineDecisions): Uint8Array {
  return Uint8Array.from(ids, (id, q) => (decisions.representative[q] === id ? 1 : 0));
}

/**
 * The decisions over MinHash `signatures` (n of `numPerm` positions back to back) at
 * `threshold`: a document is removed when an already kept document shares an LSH band with it
 * and their estimated similarity reaches the threshold, and points to the most similar one
 * (ties to the one taken first). Kept documents are bucketed by band; only kept documents are,
 * so a family of identical documents costs each of its members one candidate per band.
 * Two kept documents can still reach the threshold when they share no band: LSH misses such a
 * pair at the rate its plan states.
 *
 * @throws {TypeError | RangeError} for bad signatures or options.
 */
export function decideMinHash(signatures: Uint32Array, options?: DecideMinHashOptions): MinHashDecisions {
  const o = options === undefined ? {} : (checkOptions(options, DECIDE_MINHASH_OPTIONS, 'decideMinHash') as DecideMinHashOptions);
  const { priority, ...lshOptions } = o;
  const plan = planMinHashLsh(lshOptions);
  const n = checkSignatures(signatures, plan.numPerm);
  const order = takingOrder(priority, n);
  const k = plan.numPerm;
  const { bands, rows } = plan;
  const needed = minEqual(plan.threshold, k);
  const representative = new Uint32Array(n);
  const similarity = new Float64Array(n);
  const kept = new KeptBands(bands, rows);
  // seen[rank] = the rank of the document that last confirmed it as a candidate.
  const seen = new Int32Array(n).fill(-1);
  for (let rank = 0; rank < n; rank++) {
    const position = order[rank]!;
    const at = position * k;
    let best = -1;
    let bestEqual = -1;
    kept.candidates(signatures, at, (r) => order[r]! * k, seen, rank, (candidate) => {
      const equal = equalPositions(signatures, at, signatures, order[candidate]! * k, k);
      if (equal >= needed && (equal > bestEqual || (equal === bestEqual && candidate < best))) {
        best = candidate;
        bestEqual = equal;
      }
    });
    if (best < 0) {
      representative[position] = position;
      similarity[position] = 1;
      kept.addLast(rank);
    } else {
      representative[position] = order[best]!;
      similarity[position] = bestEqual / k;
    }
  }
  return { representative, similarity };
}

/** One kept document and the documents removed as its near-duplicates. */
export interface DecisionGroup {
  /** Positions: the kept document first, then those it represents in input order. */
  readonly members: Uint32Array;
}

/**
 * The kept documents that represent at least one removed document, each with the documents it
 * represents, ordered by the kept document's position.
 */
export function decisionGroups(representative: Uint32Array): DecisionGroup[] {
  if (!(representative instanceof Uint32Array)) throw new TypeError(`representative must be a Uint32Array, got ${describe(representative)}`);
  const n = representative.length;
  representative.forEach((kept, i) => {
    if (kept >= n || representative[kept] !== kept) {
      throw new RangeError(`representative[${i}] must be the position of a kept document (one that represents itself), got ${kept}`);
    }
  });
  const sizes = new Uint32Array(n);
  for (let i = 0; i < n; i++) sizes[representative[i]!]!++;
  const groupOf = new Int32Array(n).fill(-1);
  const groups: Uint32Array[] = [];
  const filled: number[] = [];
  for (let i = 0; i < n; i++) {
    if (representative[i] === i && sizes[i]! > 1) {
      groupOf[i] = groups.length;
      const members = new Uint32Array(sizes[i]!);
      members[0] = i;
      groups.push(members);
      filled.push(1);
    }
  }
  for (let i = 0; i < n; i++) {
    const kept = representative[i]!;
    if (kept === i) continue;
    const g = groupOf[kept]!;
    groups[g]![filled[g]!++] = i;
  }
  return groups.map((members) => ({ members }));
}
