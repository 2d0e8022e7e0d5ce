/// <reference lib="esnext.disposable" preserve="true" />
/**
 * `SimHashIndex` in plain TypeScript. The structure is the Rust core's (see the module comment
 * of crates/simhash-core/src/index.rs), over 32-bit halves: append-only slots with tombstones,
 * bucketed permuted tables, a delta threaded into per-bucket chains, and a tail compared one by
 * one; the same layout policy and the same byte format, so both entries answer alike and load
 * each other's saved indexes.
 */

import { checkId, checkIds, checkIndexOptions, checkQueryOptions, checkSameLength, freedIndex } from '../shared/index-args.js';
import { checkIndexBytes, decodeIndex, encodeIndex } from '../shared/index-format.js';
import { PARTS_CODE, blocksOf, partsOf } from '../shared/filter.js';
import { LayoutPolicy, bucketBits, partKeyBits } from '../shared/plan.js';
import type {
  OnlineDecisions,
  QueryManyResult,
  QueryOptions,
  QueryResult,
  SimHashIndexConstructor,
  SimHashIndexOptions,
  SimHashIndex as SimHashIndexType,
  U64Input,
} from '../shared/types.js';
import { checkU64 } from '../shared/validate.js';
import { decideManyIn } from '../shared/decide.js';
import { popcount64 } from '../shared/popcount.js';
import { toU64Array } from '../shared/u64-input.js';
import { KeySorter } from './radix-sort.js';
import { keyLowOf } from './tables.js';
import { Ball, filterUnits, partUnits, type Unit } from './units.js';
import { highWord, lowWord, toWords } from './words.js';

/** End of a delta chain. */
const NONE = -1;

/** The delta is merged once it holds more than this many slots and an eighth of the tables. */
const MIN_DELTA = 256;

/** Widest bucket directory (as the Rust core's). */
const MAX_BUCKET_BITS = 24;

/** The entries of one unit of the filter (a permuted table, or a part). */
interface Table {
  readonly unit: Unit;
  /** Bits the buckets are keyed on. */
  readonly bits: number;
  /** A fingerprint's bucket is the low bits of its key: `keyLowOf(...) & mask`. */
  readonly mask: number;
  /** Bucket `b` holds entries `starts[b] .. starts[b + 1]`. */
  starts: Uint32Array;
  low: Uint32Array;
  high: Uint32Array;
  slots: Uint32Array;
  /** First delta slot of each bucket's chain, or {@link NONE}. */
  readonly heads: Int32Array;
  /** `links[s - indexed]`: the next delta slot of slot `s`'s chain. */
  links: Int32Array;
}

function emptyTable(unit: Unit, bits: number): Table {
  const buckets = 2 ** Math.min(bits, unit.keyBits);
  return {
    unit,
    bits: Math.min(bits, unit.keyBits),
    mask: buckets - 1,
    starts: new Uint32Array(buckets + 1),
    low: new Uint32Array(0),
    high: new Uint32Array(0),
    slots: new Uint32Array(0),
    heads: new Int32Array(buckets).fill(NONE),
    links: new Int32Array(64),
  };
}

/** The keys a query probes in one table; reused. */
const probeBall = new Ball();

/** A query's finds as `distance * 2^32 + id`, the order they are reported in; reused. */
let found = new Float64Array(64);

/** Entries `deserialize` decoded, for the constructor to adopt; nothing else can make one. */
class Loaded {
  readonly ids: Uint32Array;
  readonly words: Uint32Array;
  constructor(ids: Uint32Array, words: Uint32Array) {
    this.ids = ids;
    this.words = words;
  }
}

class PureSimHashIndex implements SimHashIndexType {
  readonly distance: number;
  /** The filter code (see `filter.ts`) the index was made with; 0: planned. */
  readonly #configured: number;
  readonly #policy: LayoutPolicy | null;
  #freed = false;
  /** Code of the filter in use; 0: every entry is compared. */
  #filter = 0;
  /** Units of a part filter for each query distance, made on first use. */
  #queryUnits: Unit[][] = [];
  #tables: Table[] = [];
  /** Per slot: fingerprint halves (low first), id, live flag. */
  #words = new Uint32Array(128);
  #ids = new Uint32Array(64);
  #live = new Uint8Array(64);
  #slots = 0;
  #dead = 0;
  readonly #slotOf = new Map<number, number>();
  /** Slots below this are in the tables; from there to `#chained`, in the delta chains. */
  #indexed = 0;
  #chained = 0;
  #bucketBits = 0;

  /**
   * An empty index for queries up to `options.distance` bits.
   *
   * @throws {TypeError | RangeError} for invalid options.
   */
  constructor(options: SimHashIndexOptions, loaded?: Loaded) {
    const { distance, filter } = checkIndexOptions(options);
    this.distance = distance;
    this.#configured = filter;
    this.#policy = filter === 0 ? new LayoutPolicy(distance) : null;
    this.#setFilter(filter);
    if (loaded instanceof Loaded) {
      const entries = loaded;
      this.#reserve(entries.ids.length);
      for (let k = 0; k < entries.ids.length; k++) this.#push(entries.ids[k]!, entries.words[2 * k]!, entries.words[2 * k + 1]!);
      this.#maintain();
    }
    this.#replan();
  }

  /**
   * The index saved in `bytes` by `serialize()` of either entry.
   *
   * @throws {TypeError} unless `bytes` is a `Uint8Array`.
   * @throws {IndexFormatError} for bytes that are not a saved index.
   */
  static deserialize(bytes: Uint8Array): SimHashIndexType {
    const { distance, filter, ids, words } = decodeIndex(checkIndexBytes(bytes));
    const options =
      filter === 0 ? { distance } : filter >= PARTS_CODE ? { distance, parts: partsOf(filter) } : { distance, blocks: filter };
    return new PureSimHashIndex(options, new Loaded(ids, words));
  }

  get freed(): boolean {
    return this.#freed;
  }

  get size(): number {
    this.#check();
    return this.#slotOf.size;
  }

  get blocks(): number {
    this.#check();
    return blocksOf(this.#filter);
  }

  get parts(): number {
    this.#check();
    return partsOf(this.#filter);
  }

  add(id: number, fingerprint: bigint): void {
    this.#check();
    const checkedId = checkId(id);
    const value = checkU64(fingerprint, 'fingerprint');
    const chain = this.#chaining();
    this.#reserve(1);
    this.#push(checkedId, lowWord(value), highWord(value));
    if (chain) this.#chainTail();
    this.#maintain();
    this.#replan();
  }

  addMany(ids: Uint32Array, fingerprints: U64Input): void {
    this.#check();
    const checkedIds = checkIds(ids);
    const words = toWords(toU64Array(fingerprints, 'fingerprints'));
    checkSameLength(checkedIds, words.length / 2);
    // A batch that is about to be merged needs no chains first.
    const chain = this.#chaining() && this.#slots + checkedIds.length - this.#indexed <= this.#deltaLimit();
    this.#reserve(checkedIds.length);
    for (let k = 0; k < checkedIds.length; k++) this.#push(checkedIds[k]!, words[2 * k]!, words[2 * k + 1]!);
    if (chain) this.#chainTail();
    this.#maintain();
    this.#replan();
  }

  remove(id: number): boolean {
    this.#check();
    const checkedId = checkId(id);
    const slot = this.#slotOf.get(checkedId);
    if (slot === undefined) return false;
    this.#slotOf.delete(checkedId);
    this.#kill(slot);
    this.#maintain();
    this.#replan();
    return true;
  }

  has(id: number): boolean {
    this.#check();
    return this.#slotOf.has(checkId(id));
  }

  query(fingerprint: bigint, options?: QueryOptions): QueryResult {
    this.#check();
    const value = checkU64(fingerprint, 'fingerprint');
    const { distance, limit } = checkQueryOptions(options, this.distance);
    const count = this.#find(lowWord(value), highWord(value), distance, limit);
    const ids = new Uint32Array(count);
    const distances = new Uint8Array(count);
    for (let k = 0; k < count; k++) {
      const f = found[k]!;
      distances[k] = Math.floor(f / 2 ** 32);
      ids[k] = f % 2 ** 32;
    }
    return { ids, distances };
  }

  decideMany(ids: Uint32Array, fingerprints: U64Input): OnlineDecisions {
    this.#check();
    return decideManyIn(this, PureSimHashIndex, ids, fingerprints);
  }

  queryMany(fingerprints: U64Input, options?: QueryOptions): QueryManyResult {
    this.#check();
    const words = toWords(toU64Array(fingerprints, 'fingerprints'));
    const { distance, limit } = checkQueryOptions(options, this.distance);
    const queries = words.length / 2;
    const offsets = new Uint32Array(queries + 1);
    let ids = new Uint32Array(Math.max(16, queries));
    let distances = new Uint8Array(ids.length);
    let total = 0;
    for (let q = 0; q < queries; q++) {
      const count = this.#find(words[2 * q]!, words[2 * q + 1]!, distance, limit);
      if (total + count > ids.length) {
        const capacity = Math.max(2 * ids.length, total + count);
        const biggerIds = new Uint32Array(capacity);
        const biggerDistances = new Uint8Array(capacity);
        biggerIds.set(ids);
        biggerDistances.set(distances);
        ids = biggerIds;
        distances = biggerDistances;
      }
      for (let k = 0; k < count; k++) {
        const f = found[k]!;
        distances[total + k] = Math.floor(f / 2 ** 32);
        ids[total + k] = f % 2 ** 32;
      }
      total += count;
      offsets[q + 1] = total;
    }
    return { offsets, ids: ids.slice(0, total), distances: distances.slice(0, total) };
  }

  serialize(): Uint8Array {
    this.#check();
    const n = this.#slotOf.size;
    const liveSlots = new Uint32Array(n);
    const sorter = new KeySorter(n, false);
    let k = 0;
    for (let slot = 0; slot < this.#slots; slot++) {
      if (this.#live[slot] === 0) continue;
      liveSlots[k] = slot;
      sorter.low[k] = this.#ids[slot]!;
      k++;
    }
    const { positions } = sorter.sort(32);
    const ids = new Uint32Array(n);
    const words = new Uint32Array(2 * n);
    for (let j = 0; j < n; j++) {
      const slot = liveSlots[positions[j]!]!;
      ids[j] = this.#ids[slot]!;
      words[2 * j] = this.#words[2 * slot]!;
      words[2 * j + 1] = this.#words[2 * slot + 1]!;
    }
    return encodeIndex(this.distance, this.#configured, ids, words);
  }

  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    // Dropping the storage is the whole release; later use fails loudly, as on the WebAssembly entry.
    this.#tables = [];
    this.#slotOf.clear();
    this.#words = new Uint32Array(0);
    this.#ids = new Uint32Array(0);
    this.#live = new Uint8Array(0);
  }

  [Symbol.dispose](): void {
    this.free();
  }

  #check(): void {
    if (this.#freed) throw freedIndex();
  }

  /** Switches layout when the policy says the size calls for another one. */
  #replan(): void {
    const planned = this.#policy?.due(this.#slotOf.size);
    if (planned !== undefined && planned !== this.#filter) this.#setFilter(planned);
  }

  #setFilter(filter: number): void {
    this.#filter = filter;
    this.#queryUnits = [];
    this.#rebuild();
  }

  /** Whether new slots join the delta chains: when there are tables and no tail. */
  #chaining(): boolean {
    return this.#tables.length > 0 && this.#chained === this.#slots;
  }

  /** Makes room for `count` more slots. */
  #reserve(count: number): void {
    const needed = this.#slots + count;
    if (needed <= this.#ids.length) return;
    const capacity = Math.max(needed, 2 * this.#ids.length);
    const words = new Uint32Array(2 * capacity);
    const ids = new Uint32Array(capacity);
    const live = new Uint8Array(capacity);
    words.set(this.#words.subarray(0, 2 * this.#slots));
    ids.set(this.#ids.subarray(0, this.#slots));
    live.set(this.#live.subarray(0, this.#slots));
    this.#words = words;
    this.#ids = ids;
    this.#live = live;
  }

  /** Appends a slot (room was reserved), replacing the id's previous one. */
  #push(id: number, low: number, high: number): void {
    const slot = this.#slots++;
    this.#words[2 * slot] = low;
    this.#words[2 * slot + 1] = high;
    this.#ids[slot] = id;
    this.#live[slot] = 1;
    const previous = this.#slotOf.get(id);
    if (previous !== undefined) this.#kill(previous);
    this.#slotOf.set(id, slot);
  }

  #kill(slot: number): void {
    this.#live[slot] = 0;
    this.#dead++;
  }

  /** Threads the tail into the delta chains. */
  #chainTail(): void {
    for (const table of this.#tables) {
      const needed = this.#slots - this.#indexed;
      if (needed > table.links.length) {
        const links = new Int32Array(Math.max(needed, 2 * table.links.length));
        links.set(table.links);
        table.links = links;
      }
      for (let slot = this.#chained; slot < this.#slots; slot++) {
        const bucket = keyLowOf(this.#words[2 * slot]!, this.#words[2 * slot + 1]!, table.unit.pieces) & table.mask;
        table.links[slot - this.#indexed] = table.heads[bucket]!;
        table.heads[bucket] = slot;
      }
    }
    this.#chained = this.#slots;
  }

  /** Most delta slots before a merge. */
  #deltaLimit(): number {
    return Math.max(MIN_DELTA, Math.floor(this.#indexed / 8));
  }

  /** Merges the delta, or rebuilds, when due (the Rust core's rule). */
  #maintain(): void {
    const live = this.#slots - this.#dead;
    if (this.#dead > MIN_DELTA && this.#dead > live) {
      this.#rebuild();
    } else if (this.#filter !== 0 && (this.#slots - this.#indexed > this.#deltaLimit() || this.#chained < this.#slots)) {
      if (this.#tables.length === 0 || indexBucketBits(live) >= this.#bucketBits + 2) this.#rebuild();
      else this.#merge();
    }
  }

  /** Drops the dead slots, renumbering the others, and builds the tables afresh. */
  #rebuild(): void {
    if (this.#dead > 0) this.#compact();
    this.#tables = [];
    this.#indexed = 0;
    this.#chained = 0;
    if (this.#filter === 0) return;
    const n = this.#slotOf.size;
    const bits = indexBucketBits(n);
    // A part's bucket holds about one entry (as in the Rust core).
    this.#tables = filterUnits(this.#filter, this.distance).map((unit) =>
      emptyTable(unit, this.#filter >= PARTS_CODE ? partKeyBits(unit.keyBits, n) : bits),
    );
    this.#bucketBits = bits;
    this.#merge();
  }

  #compact(): void {
    const renumbered = new Uint32Array(this.#slots);
    let kept = 0;
    for (let slot = 0; slot < this.#slots; slot++) {
      renumbered[slot] = kept;
      if (this.#live[slot] === 0) continue;
      this.#words[2 * kept] = this.#words[2 * slot]!;
      this.#words[2 * kept + 1] = this.#words[2 * slot + 1]!;
      this.#ids[kept] = this.#ids[slot]!;
      this.#live[kept] = 1;
      kept++;
    }
    this.#slots = kept;
    this.#dead = 0;
    for (const [id, slot] of this.#slotOf) this.#slotOf.set(id, renumbered[slot]!);
  }

  /**
   * Moves the live slots from `#indexed` on into the tables: per table, counted into buckets
   * and interleaved with the entries already there, which move in bulk copies between the
   * buckets that gain entries.
   */
  #merge(): void {
    const incoming: number[] = [];
    for (let slot = this.#indexed; slot < this.#slots; slot++) if (this.#live[slot] !== 0) incoming.push(slot);
    const buckets = new Uint32Array(incoming.length);
    const sorted = new Uint32Array(incoming.length);
    for (const table of this.#tables) {
      const { starts, mask } = table;
      // Counting sort of the incoming slots by bucket; `counts[b + 1]` ends as their start.
      const counts = new Uint32Array(mask + 2);
      for (let k = 0; k < incoming.length; k++) {
        const slot = incoming[k]!;
        const bucket = keyLowOf(this.#words[2 * slot]!, this.#words[2 * slot + 1]!, table.unit.pieces) & mask;
        buckets[k] = bucket;
        counts[bucket + 1]!++;
      }
      for (let b = 1; b < counts.length; b++) counts[b] = counts[b]! + counts[b - 1]!;
      const next = counts.slice(0, mask + 1);
      for (let k = 0; k < incoming.length; k++) sorted[next[buckets[k]!]!++] = incoming[k]!;
      const total = starts[mask + 1]! + incoming.length;
      const low = new Uint32Array(total);
      const high = new Uint32Array(total);
      const slots = new Uint32Array(total);
      // Old entries up to the end of each bucket that gains entries, then its new ones.
      let copied = 0;
      let written = 0;
      for (let k = 0; k < incoming.length; ) {
        const bucket = keyLowOf(this.#words[2 * sorted[k]!]!, this.#words[2 * sorted[k]! + 1]!, table.unit.pieces) & mask;
        const end = starts[bucket + 1]!;
        low.set(table.low.subarray(copied, end), written);
        high.set(table.high.subarray(copied, end), written);
        slots.set(table.slots.subarray(copied, end), written);
        written += end - copied;
        copied = end;
        for (; k < incoming.length && k < counts[bucket + 1]!; k++) {
          const slot = sorted[k]!;
          low[written] = this.#words[2 * slot]!;
          high[written] = this.#words[2 * slot + 1]!;
          slots[written] = slot;
          written++;
        }
      }
      low.set(table.low.subarray(copied), written);
      high.set(table.high.subarray(copied), written);
      slots.set(table.slots.subarray(copied), written);
      for (let b = 0; b < starts.length; b++) starts[b] = starts[b]! + counts[b]!;
      table.low = low;
      table.high = high;
      table.slots = slots;
      table.heads.fill(NONE);
    }
    this.#indexed = this.#slots;
    this.#chained = this.#slots;
  }

  /**
   * Leaves in `found[0 .. count)` the live entries within `distance` of the fingerprint with
   * halves `low` and `high`, sorted by (distance, id), at most `limit`; returns `count`.
   */
  #find(low: number, high: number, distance: number, limit: number): number {
    let count = 0;
    const report = (x: number, y: number, slot: number): void => {
      if (this.#live[slot] === 0) return;
      if (count === found.length) {
        const bigger = new Float64Array(2 * found.length);
        bigger.set(found);
        found = bigger;
      }
      found[count++] = popcount64(x, y) * 2 ** 32 + this.#ids[slot]!;
    };
    // Parts are probed with the slack of the query's distance (smaller balls below the
    // index's distance), as in the Rust core.
    let units: Unit[] | null = null;
    if (this.#filter >= PARTS_CODE && this.#tables.length > 0) {
      units = this.#queryUnits[distance] ??= partUnits(partsOf(this.#filter), distance);
    }
    for (let t = 0; t < this.#tables.length; t++) {
      const table = this.#tables[t]!;
      const unit = units === null ? table.unit : units[t]!;
      const key = keyLowOf(low, high, unit.pieces) & table.mask;
      const ball = probeBall.reset(table.bits, unit.radius);
      for (let m = ball.next(); m >= 0; m = ball.next()) {
        const bucket = key ^ m;
        for (let i = table.starts[bucket]!, end = table.starts[bucket + 1]!; i < end; i++) {
          const x = table.low[i]! ^ low;
          const y = table.high[i]! ^ high;
          if (popcount64(x, y) <= distance && unit.first(x, y)) report(x, y, table.slots[i]!);
        }
        for (let slot = table.heads[bucket]!; slot !== NONE; slot = table.links[slot - this.#indexed]!) {
          const x = this.#words[2 * slot]! ^ low;
          const y = this.#words[2 * slot + 1]! ^ high;
          if (popcount64(x, y) <= distance && unit.first(x, y)) report(x, y, slot);
        }
      }
    }
    for (let slot = this.#chained; slot < this.#slots; slot++) {
      const x = this.#words[2 * slot]! ^ low;
      const y = this.#words[2 * slot + 1]! ^ high;
      if (popcount64(x, y) <= distance) report(x, y, slot);
    }
    const sortedFinds = found.subarray(0, count);
    if (count <= 32) insertionSort(sortedFinds);
    else sortedFinds.sort();
    return Math.min(count, limit);
  }
}

/** Bucket bits for `n` entries, as the Rust core's `bucket_bits`. */
function indexBucketBits(n: number): number {
  return Math.min(bucketBits(n), MAX_BUCKET_BITS);
}

function insertionSort(values: Float64Array): void {
  for (let i = 1; i < values.length; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > v) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = v;
  }
}

/**
 * An index of `(id, fingerprint)` entries answering "which ids lie within k bits of this
 * fingerprint?", exactly, in plain TypeScript.
 *
 * @example
 * const index = new SimHashIndex({ distance: 3 });
 * index.addMany(ids, fingerprints);
 * const { ids: near, distances } = index.query(fingerprint); // sorted by (distance, id)
 */
export const SimHashIndex: SimHashIndexConstructor = PureSimHashIndex;
/** The instance type of {@link SimHashIndex}. */
export type SimHashIndex = SimHashIndexType;
