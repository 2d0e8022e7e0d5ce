/** Decisions over fingerprints, searched and indexed in plain TypeScript. */

import { decideTextsWith, type DecideTextsOptions } from '../shared/adaptive.js';
import { decideSimHash, type DecideOptions, type MinHashDecisions, type SimHashDecisions } from '../shared/decide.js';
import type { U64Input } from '../shared/types.js';
import { findClusters } from './clusters.js';
import { SimHashIndex } from './simhash-index.js';
import { TextSketches } from './text-sketches.js';

const engine = { findClusters, SimHashIndex };

/**
 * Which documents to keep and which to remove: documents are taken in priority order (input
 * order by default); one is removed when a document already kept lies within
 * `options.distance` bits, and points to the closest such one (ties to the one taken first);
 * otherwise it is kept. Every removed document is within the distance of its representative,
 * no two kept documents are within it of each other, and the result depends only on the
 * fingerprints and the priority. Time and memory stay linear in n on families of identical
 * documents. For connected components (transitive groups) see `findClusters`.
 *
 * @example
 * const { representative, distance } = decide(fingerprints, { distance: 3 });
 * const removed = representative.filter((kept, i) => kept !== i).length;
 * @throws {TypeError | RangeError} for bad fingerprints or options.
 */
export function decide(fingerprints: U64Input, options: DecideOptions): SimHashDecisions {
  return decideSimHash(engine, fingerprints, options);
}

/**
 * Which texts to keep and which to remove, by the length-adaptive rule (text decision
 * specification v3, docs/adaptive.md): two lines (either below 20 distinct words) are
 * near-duplicates when they hold the same heavy words (all but common words, annotations such
 * as `Re:`, and numbers; a letter alone and a name's parts such as `8859-1` are heavy) but for one typo, and at most three light words
 * apart each way; other texts of at most 40 distinct words when their words, weighed by what
 * they say, reach a weighted Jaccard similarity of 0.7 with typos forgiven and one unpaired
 * heavy word per 10 words on each side (no such pair is missed); other pairs when the estimated
 * Jaccard similarity of their word-pair sets is at least 0.62. Otherwise the rule of `decide`: texts taken in priority
 * order, each removed for the most similar kept one (ties to the one taken first). `version: 2`
 * selects the earlier rule; `templates: 'remove'` removes lines naming different items on one
 * template too.
 *
 * @example
 * const { representative, similarity } = decideTexts(['Fix the build on arm64', 'Fix the biuld on arm64.', 'Fix the build on armel']);
 * // representative: [0, 0, 2]
 * @throws {TypeError | RangeError} for texts that are not strings, or a bad priority.
 */
export function decideTexts(texts: readonly string[], options?: DecideTextsOptions): MinHashDecisions {
  return decideTextsWith(TextSketches, texts, options);
}
