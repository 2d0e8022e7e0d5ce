/**
 * Where an index's data lives in Redis: the permuted tables, how each is cut into bucket keys,
 * which hash tag (group) each key carries, and the id records.
 *
 * Keys of index `name` all start with `simhash:{name/`: `simhash:{name/g}:t<table>:<bucket>`
 * (sorted sets of 12-byte members), `simhash:{name/g}:r<n>` (hashes id → fingerprint),
 * `simhash:{name/g}:n` (entries counted in group g), and `simhash:{name}:meta`. Group g, a number
 * in `0..groups-1`, is the hash tag, so the keys of one group share a slot and one script can
 * write many of them at once, while different groups spread over the cluster's masters.
 */

import { permutationLayout } from '../shared/layout.js';

/** The stored description of an index: fixed when the index is created. */
export interface Description {
  readonly distance: number;
  /** Blocks of the permuted tables; 0 when every entry lives in one table of one bucket. */
  readonly blocks: number;
  /** Bucket keys per table are 2^bucketBits (fewer when a table's prefix is narrower). */
  readonly bucketBits: number;
  /** Record hashes are 2^recordBits. */
  readonly recordBits: number;
  /** Hash tags the keys spread over. */
  readonly groups: number;
}

/** One table: where each input byte's bits land, and the table's prefix and bucket widths. */
interface Table {
  /**
   * `moves[(8 * 256 * 0) + ...]`: for input byte i (bits 8i..8i+7) holding v, entries
   * `2 (256 i + v)` and `+ 1` are the low and high 32 bits of what those bits become. A
   * permutation moves bits without combining them, so a value's image is the OR of its bytes'.
   */
  readonly moves: Uint32Array;
  readonly prefixBits: number;
  readonly bucketBits: number;
  /** High and low 32 bits of the mask of the top `prefixBits` bits. */
  readonly maskHigh: number;
  readonly maskLow: number;
}

/** Key names and permutations of one index. Values are handled as 32-bit halves (high, low). */
export class Geometry {
  readonly description: Description;
  readonly tables: readonly Table[];
  readonly #name: string;
  /** Output of {@link Geometry.permute}: no allocation per call on the hot path. */
  high = 0;
  low = 0;

  constructor(name: string, description: Description) {
    this.#name = name;
    this.description = description;
    if (description.blocks === 0) {
      this.tables = [table(Array.from({ length: 64 }, (_, bit) => bit), 0, 0)];
      return;
    }
    const layout = permutationLayout(description.blocks, description.distance);
    this.tables = layout.tables.map((t) => {
      // destination[s]: the bit that source bit s becomes.
      const destination = new Array<number>(64).fill(0);
      let top = 64;
      for (const block of t.order) {
        const [low, high] = layout.blockBitRanges[block]!;
        top -= high - low + 1;
        for (let s = low; s <= high; s++) destination[s] = top + (s - low);
      }
      return table(destination, t.prefixBits, Math.min(description.bucketBits, t.prefixBits));
    });
  }

  /** Sets `high`/`low` to the value `(high, low)` with its blocks in table `t`'s order. */
  permute(high: number, low: number, t: number): void {
    const moves = this.tables[t]!.moves;
    let h = 0;
    let l = 0;
    for (let i = 0; i < 4; i++) {
      const a = 2 * (256 * i + ((low >>> (8 * i)) & 0xff));
      const b = 2 * (256 * (i + 4) + ((high >>> (8 * i)) & 0xff));
      l |= moves[a]! | moves[b]!;
      h |= moves[a + 1]! | moves[b + 1]!;
    }
    this.high = h >>> 0;
    this.low = l >>> 0;
  }

  /** The bucket of a permuted value (by its high half) in table `t`: its top `bucketBits` bits. */
  bucket(permutedHigh: number, t: number): number {
    const bits = this.tables[t]!.bucketBits;
    return bits === 0 ? 0 : permutedHigh >>> (32 - bits);
  }

  /** A number naming bucket `b` of table `t` (see {@link Geometry.bucketKeyOf}). */
  bucketId(t: number, b: number): number {
    return t * 2 ** this.description.bucketBits + b;
  }

  /** The key of the bucket {@link Geometry.bucketId} named, with its group. */
  bucketKeyOf(id: number): string {
    const stride = 2 ** this.description.bucketBits;
    const t = Math.floor(id / stride);
    const b = id - t * stride;
    return this.bucketKey(t, b, this.bucketGroup(t, b));
  }

  /** The group of bucket `b` of table `t`: a hash, so a table's buckets spread over all groups. */
  bucketGroup(t: number, b: number): number {
    return (Math.imul((t << 24) ^ b, 0x9e37_79b1) >>> 0) % this.description.groups;
  }

  bucketKey(t: number, b: number, group: number): string {
    return `simhash:{${this.#name}/${group}}:t${t}:${b}`;
  }

  /** Which record hash holds `id`. */
  record(id: number): number {
    return id & ((1 << this.description.recordBits) - 1);
  }

  recordGroup(record: number): number {
    return record % this.description.groups;
  }

  recordKey(record: number, group: number): string {
    return `simhash:{${this.#name}/${group}}:r${record}`;
  }

  counterKey(group: number): string {
    return `simhash:{${this.#name}/${group}}:n`;
  }

  /** Every key of the index matches this pattern (for SCAN). */
  get keyPattern(): string {
    return `simhash:{${escapeGlob(this.#name)}/*}:*`;
  }
}

/** The key of an index's description. */
export function descriptionKey(name: string): string {
  return `simhash:{${name}}:meta`;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** A table moving source bit s to `destination[s]`, with the given prefix and bucket widths. */
function table(destination: readonly number[], prefixBits: number, bucketBits: number): Table {
  const moves = new Uint32Array(8 * 256 * 2);
  for (let i = 0; i < 8; i++) {
    for (let v = 0; v < 256; v++) {
      let low = 0;
      let high = 0;
      for (let j = 0; j < 8; j++) {
        if (((v >>> j) & 1) === 0) continue;
        const d = destination[8 * i + j]!;
        if (d < 32) low |= 1 << d;
        else high |= 1 << (d - 32);
      }
      moves[2 * (256 * i + v)] = low >>> 0;
      moves[2 * (256 * i + v) + 1] = high >>> 0;
    }
  }
  const maskHigh = prefixBits >= 32 ? 0xffff_ffff : prefixBits === 0 ? 0 : (0xffff_ffff << (32 - prefixBits)) >>> 0;
  const maskLow = prefixBits <= 32 ? 0 : prefixBits === 64 ? 0xffff_ffff : (0xffff_ffff << (64 - prefixBits)) >>> 0;
  return { moves, prefixBits, bucketBits, maskHigh, maskLow };
}

/** Number of set bits of a 32-bit value. */
export function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x5555_5555);
  v = (v & 0x3333_3333) + ((v >>> 2) & 0x3333_3333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f_0f0f, 0x0101_0101) >>> 24);
}
