/**
 * The units of a filter over 32-bit halves, as the batch scan and the index use them: a
 * permuted table or a part of a multi-index layout, each a key per fingerprint (packed by
 * `pieces`, see {@link TableWords}), a radius of keys to probe around a query's key, and the
 * rule that makes exactly one unit report each pair (see crates/simhash-core/src/search/
 * filter.rs for the same in Rust).
 */

import { PARTS_CODE } from '../shared/filter.js';
import { permutationLayout } from '../shared/layout.js';
import { partSlack } from '../shared/plan.js';
import { popcount64 } from '../shared/popcount.js';
import { collidesFirstHere, halfMask, pushPieces, tableWords } from './tables.js';

/** One unit of a filter. */
export interface Unit {
  /** Width of the key. */
  readonly keyBits: number;
  /** How the key is packed from a fingerprint's halves (see `TableWords.pieces`). */
  readonly pieces: Int32Array;
  /** Keys within this many bits of a query's are probed; -1: the unit is never searched. */
  readonly radius: number;
  /**
   * Whether a pair with difference halves `x` (low) and `y` (high), found in this unit, is
   * reported here: it agrees on the key or qualifies here, and in no earlier unit.
   */
  readonly first: (x: number, y: number) => boolean;
}

/** The units of the filter with code `code` (not 0) for pairs within `distance`. */
export function filterUnits(code: number, distance: number): Unit[] {
  if (code >= PARTS_CODE) return partUnits(code - PARTS_CODE, distance);
  const layout = permutationLayout(code, distance);
  return layout.tables.map((_, t) => {
    const { keyBits, pieces, leadingLow, leadingHigh, earlierBlocks } = tableWords(layout, t);
    return {
      keyBits,
      pieces,
      radius: 0,
      // The key may be bucketed on fewer bits than it has: the leading blocks are checked.
      first: (x: number, y: number) => ((x & leadingLow) | (y & leadingHigh)) === 0 && collidesFirstHere(x, y, earlierBlocks),
    };
  });
}

/**
 * The parts of `parts` parts (split as blocks are) under the slack of `distance`: a pair
 * qualifies in part i when it differs there in fewer than `slack[i]` bits.
 */
export function partUnits(parts: number, distance: number): Unit[] {
  const slack = partSlack(parts, distance);
  const masks = new Int32Array(2 * parts);
  const units: Unit[] = [];
  for (let i = 0; i < parts; i++) {
    const low = Math.floor((64 * i) / parts);
    const high = Math.floor((64 * (i + 1)) / parts) - 1;
    masks[2 * i] = halfMask(low, high, 0);
    masks[2 * i + 1] = halfMask(low, high, 1);
    const part = i;
    const qualifies = (x: number, y: number, j: number): boolean =>
      popcount64(x & masks[2 * j]!, y & masks[2 * j + 1]!) < slack[j]!;
    units.push({
      keyBits: high - low + 1,
      pieces: partPieces(low, high),
      radius: slack[i]! - 1,
      first: (x: number, y: number) => {
        if (!qualifies(x, y, part)) return false;
        for (let j = 0; j < part; j++) if (qualifies(x, y, j)) return false;
        return true;
      },
    });
  }
  return units;
}

/** Pieces (see `TableWords.pieces`) that pack bits `low..=high` into a key at bit 0. */
function partPieces(low: number, high: number): Int32Array {
  const pieces: number[] = [];
  pushPieces(pieces, low, high, 0);
  return Int32Array.from(pieces);
}

/**
 * Every mask of `bits` bits (at most 30) with at most `radius` bits set, fewest bits first,
 * the empty mask first. Reused: {@link Ball.reset}, then {@link Ball.next} until it gives -1.
 */
export class Ball {
  #bits = 0;
  #radius = 0;
  #ones = 0;
  #next = -1;

  /** Starts the ball of `radius` in `bits`-bit keys (empty when `radius` < 0). */
  reset(bits: number, radius: number): this {
    this.#bits = bits;
    this.#radius = Math.min(radius, bits);
    this.#ones = 0;
    this.#next = radius < 0 ? -1 : 0;
    return this;
  }

  /** The next mask, or -1 when all were given. */
  next(): number {
    const mask = this.#next;
    if (mask < 0) return -1;
    let following = -1;
    if (mask !== 0) {
      // The next larger value with as many bits set (Gosper's hack); exact in doubles.
      const lowest = mask & -mask;
      const ripple = mask + lowest;
      following = ripple | (((ripple ^ mask) / lowest) >>> 2);
      if (following >= 2 ** this.#bits) following = -1;
    }
    if (following < 0 && this.#ones < this.#radius) {
      this.#ones++;
      following = 2 ** this.#ones - 1;
    }
    this.#next = following;
    return mask;
  }
}
