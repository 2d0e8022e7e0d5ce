import type * as Api from '../../../ts/index.js';
import type { Pool } from '../../../ts/parallel/index.js';

/** What the tiny app shows: fingerprints in hex, pairs as `[left, right, distance]`. */
export interface Summary {
  readonly fingerprints: string[];
  readonly pairs: [number, number, number][];
}

export function summarise(api: typeof Api): Summary;
export function summarisePool(pool: Pool): Promise<Summary>;
