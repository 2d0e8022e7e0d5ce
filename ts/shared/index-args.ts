/** Argument checks of `SimHashIndex`, shared by both entries so that both fail alike. */

import { QUERY_OPTIONS, SIMHASH_INDEX_OPTIONS, type QueryOptions, type SimHashIndexOptions } from './types.js';
import { explicitFilter } from './filter.js';
import { MAX_ELEMENTS, checkDistance, checkOptions, describe } from './validate.js';

/**
 * Checks the options of `new SimHashIndex(...)`; `filter` is the code (see `filter.ts`) that
 * `blocks` or `parts` fixes, 0 when left to the planner.
 */
export function checkIndexOptions(options: SimHashIndexOptions, where = 'SimHashIndex', known: readonly string[] = SIMHASH_INDEX_OPTIONS): { distance: number; filter: number } {
  const opts = checkOptions(options, known, where);
  const distance = checkDistance(opts.distance);
  return { distance, filter: explicitFilter(opts, distance) ?? 0 };
}

/** Checks an id: an integer in `0..2^32-1`. */
export function checkId(id: unknown, name = 'id'): number {
  if (typeof id !== 'number') throw new TypeError(`${name} must be a number, got ${describe(id)}`);
  if (!Number.isInteger(id) || id < 0 || id > MAX_ELEMENTS) {
    throw new RangeError(`${name} must be an integer in 0..${MAX_ELEMENTS}, got ${id}`);
  }
  return id;
}

/** Checks the ids of `addMany`: a `Uint32Array` (every value is then a valid id). */
export function checkIds(ids: unknown): Uint32Array {
  if (!(ids instanceof Uint32Array)) throw new TypeError(`ids must be a Uint32Array, got ${describe(ids)}`);
  return ids;
}

/** Checks that `addMany` got one fingerprint per id. */
export function checkSameLength(ids: Uint32Array, fingerprints: number): void {
  if (ids.length !== fingerprints) {
    throw new RangeError(`fingerprints must have one fingerprint per id: expected ${ids.length}, got ${fingerprints}`);
  }
}

/** Largest `limit`, and what a query without one gets. */
const NO_LIMIT = MAX_ELEMENTS;

/**
 * Checks the options of a query against an index answering up to `indexDistance` bits.
 * Returns the distance (default: the index's) and the limit (default: no limit).
 */
export function checkQueryOptions(options: QueryOptions | undefined, indexDistance: number): { distance: number; limit: number } {
  if (options === undefined) return { distance: indexDistance, limit: NO_LIMIT };
  const opts = checkOptions(options, QUERY_OPTIONS, 'a query');
  let distance = indexDistance;
  if (opts.distance !== undefined) {
    distance = checkDistance(opts.distance);
    if (distance > indexDistance) {
      throw new RangeError(`options.distance must not exceed the index's distance (${indexDistance}), got ${distance}`);
    }
  }
  let limit = NO_LIMIT;
  if (opts.limit !== undefined) {
    if (typeof opts.limit !== 'number') throw new TypeError(`options.limit must be a number, got ${describe(opts.limit)}`);
    if (!Number.isInteger(opts.limit) || opts.limit < 0 || opts.limit > NO_LIMIT) {
      throw new RangeError(`options.limit must be an integer in 0..${NO_LIMIT}, got ${opts.limit}`);
    }
    limit = opts.limit;
  }
  return { distance, limit };
}

/** The error every method of a freed index throws. */
export function freedIndex(): TypeError {
  return new TypeError('this SimHashIndex has been freed');
}
