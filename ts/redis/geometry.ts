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

/** One table's permutation as shifts and masks, with its bucket and prefix widths. */
interface Table {
  /** `[from, width, to]`: bits `from .. from+width` of the value go to bits `to .. to+width`. */
  readonly moves: readonly (readonly [bigint, bigint, bigint])[];
  readonly prefixBits: number;
  readonly bucketBits: number;
}

const MASK64 = 0xffff_ffff_ffff_ffffn;

/** Key names and permutations of one index. */
export class Geometry {
  readonly description: Description;
  readonly tables: readonly Table[];
  readonly #name: string;

  constructor(name: string, description: Description) {
    this.#name = name;
    this.description = description;
    if (description.blocks === 0) {
      this.tables = [{ moves: [[0n, 64n, 0n]], prefixBits: 0, bucketBits: 0 }];
      return;
    }
    const layout = permutationLayout(description.blocks, description.distance);
    this.tables = layout.tables.map((table) => {
      let top = 64;
      const moves = table.order.map((block) => {
        const [low, high] = layout.blockBitRanges[block]!;
        const width = high - low + 1;
        top -= width;
        return [BigInt(low), BigInt(width), BigInt(top)] as const;
      });
      return { moves, prefixBits: table.prefixBits, bucketBits: Math.min(description.bucketBits, table.prefixBits) };
    });
  }

  /** `value` with its blocks in table `t`'s order (Hamming distances are unchanged by it). */
  permute(value: bigint, t: number): bigint {
    let result = 0n;
    for (const [from, width, to] of this.tables[t]!.moves) {
      result |= ((value >> from) & ((1n << width) - 1n)) << to;
    }
    return result;
  }

  /** The bits a table's members share with a query they can match: the top `prefixBits`. */
  prefixRange(permuted: bigint, t: number): [low: bigint, high: bigint] {
    const rest = BigInt(64 - this.tables[t]!.prefixBits);
    const low = rest === 64n ? 0n : (permuted >> rest) << rest;
    return [low, low | (MASK64 >> (64n - rest))];
  }

  /** The bucket of a permuted value in table `t`: its top `bucketBits` bits. */
  bucket(permuted: bigint, t: number): number {
    const bits = this.tables[t]!.bucketBits;
    return bits === 0 ? 0 : Number(permuted >> BigInt(64 - bits));
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
