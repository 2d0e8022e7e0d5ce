/**
 * Where an index's data lives in Redis: the permuted tables, how each is cut into bucket keys,
 * which hash tag (group) each key carries, and the id records.
 *
 * The keys of index `name`: `simhash:{name/t}:t<table>:<bucket>` (strings of 12-byte members),
 * `simhash:{name/t}:r<n>` (hashes id → fingerprint), `simhash:{name/t}:n` (entries counted in
 * the group), and `simhash:{name}:meta` and `simhash:{name}:lock`, where t is the
 * tag number of group g (`0..groups-1`, see `hash-tags.ts`). The keys of one group share a slot,
 * so one script can write many of them at once, while different groups spread over the
 * cluster's masters.
 */

import { permutationLayout } from '../shared/layout.js';
import { ballVolume, partSlack } from '../shared/plan.js';

/** The stored description of an index: fixed when the index is created. */
export interface Description {
  readonly distance: number;
  /**
   * Blocks of the permuted tables; 0 with `parts` 0 when every entry lives in one table of one
   * bucket.
   */
  readonly blocks: number;
  /** Parts of the multi-index filter (one table per part searched), or 0 for permuted tables. */
  readonly parts: number;
  /** Entries the index was sized for. */
  readonly capacity: number;
  /** Bucket keys per table are 2^bucketBits (fewer when a table's prefix or part is narrower). */
  readonly bucketBits: number;
  /** Record hashes are 2^recordBits. */
  readonly recordBits: number;
  /** Hash tags the keys spread over. */
  readonly groups: number;
  /** The tag number of each group: keys of group g carry the hash tag `{name/tags[g]}`. */
  readonly tags: readonly number[];
}

/**
 * One table: where each input byte's bits land, and its bucket width. A query reads the buckets
 * within `radius` bits of its own: 0 for a permuted table (whose bucket bits lie within the
 * prefix every near entry shares), a part's slack less one for a part.
 */
interface Table {
  /**
   * `moves[(8 * 256 * 0) + ...]`: for input byte i (bits 8i..8i+7) holding v, entries
   * `2 (256 i + v)` and `+ 1` are the low and high 32 bits of what those bits become. A
   * permutation moves bits without combining them, so a value's image is the OR of its bytes'.
   */
  readonly moves: Uint32Array;
  /** The same for the inverse permutation: a member's bits back to the fingerprint's. */
  readonly back: Uint32Array;
  readonly bucketBits: number;
  readonly radius: number;
}

/** Key names and permutations of one index. Values are handled as 32-bit halves (high, low). */
export class Geometry {
  readonly description: Description;
  readonly tables: readonly Table[];
  readonly #name: string;
  /** `simhash:{name/g}:` for each group g: key names are built on every operation. */
  readonly #groupPrefixes: readonly string[];
  /** `2 ** bucketBits`, once: a power with a variable exponent is a call to `pow` each time. */
  readonly #bucketStride: number;
  /** Output of {@link Geometry.permute}: no allocation per call on the hot path. */
  high = 0;
  low = 0;

  constructor(name: string, description: Description) {
    this.#name = name;
    this.description = description;
    this.#groupPrefixes = description.tags.map((tag) => `simhash:{${name}/${tag}}:`);
    this.#bucketStride = 2 ** description.bucketBits;
    if (description.parts > 0) {
      this.tables = partTables(description);
      return;
    }
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
      return table(destination, Math.min(description.bucketBits, t.prefixBits), 0);
    });
  }

  /** Sets `high`/`low` to the value `(high, low)` with its blocks in table `t`'s order. */
  permute(high: number, low: number, t: number): void {
    this.#move(high, low, this.tables[t]!.moves);
  }

  /** Sets `high`/`low` to the fingerprint whose image in table `t` is `(high, low)`. */
  unpermute(high: number, low: number, t: number): void {
    this.#move(high, low, this.tables[t]!.back);
  }

  #move(high: number, low: number, moves: Uint32Array): void {
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
    return t * this.#bucketStride + b;
  }

  /** The key of the bucket {@link Geometry.bucketId} named, with its group. */
  bucketKeyOf(id: number): string {
    const stride = this.#bucketStride;
    const t = Math.floor(id / stride);
    const b = id - t * stride;
    return this.bucketKey(t, b, this.bucketGroup(t, b));
  }

  /** The group of bucket `b` of table `t`: a hash, so a table's buckets spread over all groups. */
  bucketGroup(t: number, b: number): number {
    return (Math.imul((t << 24) ^ b, 0x9e37_79b1) >>> 0) % this.description.groups;
  }

  bucketKey(t: number, b: number, group: number): string {
    return `${this.#groupPrefixes[group]}t${t}:${b}`;
  }

  /** Which record hash holds `id`. */
  record(id: number): number {
    return id & ((1 << this.description.recordBits) - 1);
  }

  recordGroup(record: number): number {
    return record % this.description.groups;
  }

  recordKey(record: number, group: number): string {
    return `${this.#groupPrefixes[group]}r${record}`;
  }

  counterKey(group: number): string {
    return `${this.#groupPrefixes[group]}n`;
  }

  /**
   * What `key` is to this index: bucket `b` of table `t`, record hash `r`, or neither (another
   * index's key, a counter, or a name out of range).
   */
  parseKey(key: string): { kind: 'bucket'; t: number; b: number } | { kind: 'record'; r: number } | undefined {
    const close = key.indexOf('}:');
    const group = close < 0 ? -1 : this.#groupPrefixes.indexOf(key.slice(0, close + 2));
    if (group < 0) return undefined;
    const rest = key.slice(close + 2);
    const record = /^r(\d{1,8})$/.exec(rest);
    if (record !== null) {
      const r = Number(record[1]);
      return r < 2 ** this.description.recordBits && this.recordGroup(r) === group ? { kind: 'record', r } : undefined;
    }
    const bucket = /^t(\d{1,3}):(\d{1,8})$/.exec(rest);
    if (bucket === null) return undefined;
    const t = Number(bucket[1]);
    const b = Number(bucket[2]);
    return t < this.tables.length && b < this.#bucketStride && this.bucketGroup(t, b) === group ? { kind: 'bucket', t, b } : undefined;
  }

  /** Every key of the index matches this pattern (for SCAN). */
  get keyPattern(): string {
    return `simhash:{${escapeGlob(this.#name)}/*}:*`;
  }

  /** Every record hash of the index matches this pattern (for SCAN). */
  get recordPattern(): string {
    return `simhash:{${escapeGlob(this.#name)}/*}:r*`;
  }
}

/** The key of an index's description. */
export function descriptionKey(name: string): string {
  return `simhash:{${name}}:meta`;
}

/** The key of the lock `decideMany` holds over index `name`. */
export function lockKey(name: string): string {
  return `simhash:{${name}}:lock`;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * Where part i lies (bits `low..high - 1`, bit 0 the lowest), how many of its top bits name its
 * bucket (all of them, or the index's bucket bits when fewer), and the radius of a query's ball
 * of buckets.
 */
export interface PartShape {
  readonly low: number;
  readonly high: number;
  readonly bucketBits: number;
  readonly radius: number;
}

/**
 * The parts searched by an index of `parts` parts at `distance` with buckets of `bucketBits`:
 * part i covers bits `floor(64 i / parts)` to `floor(64 (i + 1) / parts) - 1`, and a pair within
 * `distance` differs in at most `slack[i] - 1` bits of some part i (see `partSlack`). Parts of
 * slack 0 are left out: no pair is found through them.
 */
export function partShapes(parts: number, distance: number, bucketBits: number): PartShape[] {
  const slack = partSlack(parts, distance);
  const out: PartShape[] = [];
  for (let i = 0; i < parts; i++) {
    if (slack[i] === 0) continue;
    const low = Math.floor((64 * i) / parts);
    const high = Math.floor((64 * (i + 1)) / parts);
    out.push({ low, high, bucketBits: Math.min(high - low, bucketBits), radius: slack[i]! - 1 });
  }
  return out;
}

/** Buckets a query reads: the ball of each part. */
export function bucketsPerQuery(shapes: readonly PartShape[]): number {
  return shapes.reduce((sum, shape) => sum + ballVolume(shape.bucketBits, shape.radius), 0);
}

/**
 * A part's table puts the part's bits on top, then the other bits in order, so a member still
 * holds the whole fingerprint.
 */
function partTables(description: Description): Table[] {
  return partShapes(description.parts, description.distance, description.bucketBits).map(({ low, high, bucketBits, radius }) => {
    const destination = new Array<number>(64).fill(0);
    let top = 64 - (high - low);
    for (let s = low; s < high; s++) destination[s] = top + (s - low);
    for (let s = 63; s >= 0; s--) {
      if (s >= low && s < high) continue;
      destination[s] = --top;
    }
    return table(destination, bucketBits, radius);
  });
}

/** Calls `visit` with every value of `bits` bits (at most 31) within `radius` bits of `key`, `key` first. */
export function forEachInBall(key: number, bits: number, radius: number, visit: (value: number) => void): void {
  visit(key);
  const flip = (value: number, from: number, left: number): void => {
    for (let b = from; b < bits; b++) {
      const next = value ^ (1 << b);
      visit(next);
      if (left > 1) flip(next, b + 1, left - 1);
    }
  };
  if (radius > 0) flip(key, 0, radius);
}

/** A table moving source bit s to `destination[s]`, with the given bucket width and radius. */
function table(destination: readonly number[], bucketBits: number, radius: number): Table {
  const source = new Array<number>(64).fill(0);
  destination.forEach((d, s) => (source[d] = s));
  return { moves: moves(destination), back: moves(source), bucketBits, radius };
}

/** The byte tables of the permutation moving bit s to `destination[s]` (see `Table.moves`). */
function moves(destination: readonly number[]): Uint32Array {
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
  return moves;
}

/** Number of set bits of a 32-bit value. */
export function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x5555_5555);
  v = (v & 0x3333_3333) + ((v >>> 2) & 0x3333_3333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f_0f0f, 0x0101_0101) >>> 24);
}
