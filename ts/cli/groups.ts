/** Groups of near-duplicates: what each decision keeps and removes, or connected components. */

import { decideMinHash, decisionGroups, takingOrder } from '../shared/decide.js';
import { findClustersMinHash } from '../shared/minhash-find.js';
import { decide } from '../wasm/decide.js';
import { findClusters } from '../wasm/clusters.js';
import { numDifferingBits } from '../wasm/distance.js';
import type { Pool } from '../parallel/pool.js';
import type { Group, Grouped } from './group.js';
import type { DedupOptions } from './args.js';
import type { Fingerprinted } from './fingerprints.js';
import type { Signed } from './signatures.js';
import type { Sketched } from './text-sketches.js';

/**
 * The step of `dedup` after the sketches: the decisions (or components, with `--groups
 * components`) over what the collector kept, by the default rule, SimHash or MinHash (here, or
 * with `--redis` against the method's shared index), and the documents the report names (with
 * `--redis`, also the representatives other processes kept).
 */
export async function decideOrGroup(
  collected: Fingerprinted | Signed | Sketched,
  options: DedupOptions,
  priority: Float64Array | undefined,
  pool: Pool | undefined,
): Promise<{ fingerprinted: Fingerprinted; grouped: Grouped }> {
  const decisions = options.grouping === 'decisions';
  if ('decide' in collected) {
    if (options.redis !== undefined) {
      // Loaded only here: ioredis is an optional peer dependency the plain command must not need.
      return (await import('./shared-decisions.js')).sharedTextDecisions(collected, options.redis);
    }
    const { representative, similarity } = collected.decide(priority);
    const groups = decisionGroups(representative).map(
      ({ members }): Group => ({ members, bits: new Uint8Array(members.length), similarity: Float64Array.from(members, (m) => similarity[m]!) }),
    );
    return { fingerprinted: { ids: collected.ids, scores: collected.scores, featureless: collected.featureless, featurelessAt: collected.featurelessAt, fingerprints: new BigUint64Array(0) }, grouped: { groups, representative } };
  }
  if ('signatures' in collected) {
    if (options.redis !== undefined) {
      return (await import('./shared-decisions.js')).sharedMinHashDecisions(collected, options.redis, { threshold: options.threshold, ...MINHASH_WEIGHTS });
    }
    const { numPerm } = collected;
    return {
      fingerprinted: { ...collected, fingerprints: new BigUint64Array(0) },
      grouped: decisions
        ? decideByMinHash(collected.signatures, numPerm, options.threshold, priority)
        : groupByMinHash(collected.signatures, numPerm, options.threshold),
    };
  }
  if (options.redis !== undefined) {
    // Loaded only here: ioredis is an optional peer dependency the plain command must not need.
    return (await import('./shared-decisions.js')).sharedDecisions(collected, options.redis, options.distance);
  }
  return {
    fingerprinted: collected,
    grouped: decisions
      ? await decideNearDuplicates(collected.fingerprints, options.distance, priority, pool)
      : await groupNearDuplicates(collected.fingerprints, options.distance, pool),
  };
}

/**
 * MinHash bands planned to miss few pairs (false negatives weighted 0.9): every candidate is
 * checked against the threshold, so the extra candidates cost only time, and on docs/quality.md's
 * corpus they raise F1 against exact Jaccard ≥ 0.8 from 0.94 to 0.97.
 */
const MINHASH_WEIGHTS = { falsePositiveWeight: 0.1, falseNegativeWeight: 0.9 } as const;

/**
 * The decisions over fingerprints at `distance` bits, taking documents by `priority` (input
 * order when `undefined`): each group is a kept document and those removed for it. With a
 * pool, its workers find the components the rule is applied within; the result is the same.
 */
export async function decideNearDuplicates(
  fingerprints: BigUint64Array,
  distance: number,
  priority: Float64Array | undefined,
  pool?: Pool,
): Promise<Grouped> {
  const options = priority === undefined ? { distance } : { distance, priority };
  const { representative, distance: bits } = pool === undefined ? decide(fingerprints, options) : await pool.decide(fingerprints, options);
  const groups = decisionGroups(representative).map(({ members }): Group => ({ members, bits: Uint8Array.from(members, (m) => bits[m]!) }));
  return { groups, representative };
}

/** {@link decideNearDuplicates} for MinHash signatures (`numPerm` values each, back to back). */
export function decideByMinHash(signatures: Uint32Array, numPerm: number, threshold: number, priority: Float64Array | undefined): Grouped {
  const { representative, similarity } = decideMinHash(signatures, {
    numPerm,
    threshold,
    ...MINHASH_WEIGHTS,
    ...(priority === undefined ? {} : { priority }),
  });
  const groups = decisionGroups(representative).map(
    ({ members }): Group => ({ members, bits: new Uint8Array(members.length), similarity: Float64Array.from(members, (m) => similarity[m]!) }),
  );
  return { groups, representative };
}

/**
 * The connected components of the graph linking fingerprints at most `distance` bits apart,
 * leaving out single documents, ordered by their first member. Members of a group can be more
 * than `distance` bits from its first member when a chain of closer pairs joins them; in return
 * the output stays linear in the number of documents however large a family is. With a pool,
 * its workers find the components.
 */
export async function groupNearDuplicates(fingerprints: BigUint64Array, distance: number, pool?: Pool): Promise<Grouped> {
  const roots = pool === undefined ? findClusters(fingerprints, { distance }) : await pool.findClusters(fingerprints, { distance });
  const groups = groupsOf(roots, (root, i) => numDifferingBits(fingerprints[root] as bigint, fingerprints[i] as bigint), undefined);
  return { groups, representative: undefined };
}

/** The connected components of MinHash signatures, as {@link groupNearDuplicates} gives for fingerprints. */
export function groupByMinHash(signatures: Uint32Array, numPerm: number, threshold: number): Grouped {
  const similarity = (root: number, i: number): number => {
    let equal = 0;
    for (let p = 0; p < numPerm; p++) if (signatures[root * numPerm + p] === signatures[i * numPerm + p]) equal++;
    return equal / numPerm;
  };
  const groups = groupsOf(findClustersMinHash(signatures, { numPerm, threshold, ...MINHASH_WEIGHTS }), () => 0, similarity);
  return { groups, representative: undefined };
}

function groupsOf(
  roots: Uint32Array,
  bitsFrom: (root: number, i: number) => number,
  similarityFrom: ((root: number, i: number) => number) | undefined,
): Group[] {
  const n = roots.length;
  const sizes = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const root = roots[i] as number;
    sizes[root] = (sizes[root] as number) + 1;
  }

  const groups: Group[] = [];
  const groupOfRoot = new Uint32Array(n);
  const filled = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const root = roots[i] as number;
    const size = sizes[root] as number;
    if (size < 2) continue;
    // A root is the smallest position of its component, so its group starts with it.
    if (root === i) {
      groupOfRoot[root] = groups.length;
      groups.push({
        members: new Uint32Array(size),
        bits: new Uint8Array(size),
        ...(similarityFrom === undefined ? {} : { similarity: new Float64Array(size) }),
      });
    }
    const g = groupOfRoot[root] as number;
    const group = groups[g] as Group;
    const k = filled[g] as number;
    filled[g] = k + 1;
    group.members[k] = i;
    group.bits[k] = bitsFrom(root, i);
    if (group.similarity !== undefined && similarityFrom !== undefined) group.similarity[k] = similarityFrom(root, i);
  }
  return groups;
}
