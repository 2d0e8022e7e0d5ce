/** Decisions over fingerprints, searched and indexed in plain TypeScript. */

import { decideSimHash, type DecideOptions, type SimHashDecisions } from '../shared/decide.js';
import type { U64Input } from '../shared/types.js';
import { findClusters } from './clusters.js';
import { SimHashIndex } from './simhash-index.js';

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
