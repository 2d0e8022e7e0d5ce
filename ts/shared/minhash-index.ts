/**
 * `MinHashLSH`: a mutable LSH index of MinHash signatures under numeric ids. Plain TypeScript
 * over typed arrays, shared by both entries: its work is table look-ups, which JavaScript does
 * as fast as a call into WebAssembly would, and one implementation makes both entries agree by
 * construction and load each other's bytes.
 *
 * Layout: signatures live in slots; each band has an open-addressing table from band key to
 * the first slot of a chain linked both ways through `next` and `prev`, so that removing a slot
 * costs the same however many share its band. Removed slots are reused.
 */

import type { MinHashDecisions } from './decide.js';
import { bandEqual, bandKey, equalPositions, minEqual } from './minhash-bands.js';
import { decodeMinHashLsh, encodeMinHashLsh } from './minhash-format.js';
import { checkInteger, checkSignatures } from './minhash-options.js';
import { checkQueryThreshold, planMinHashLsh } from './minhash-plan.js';
import { MINHASH_LSH_OPTIONS, MINHASH_QUERY_OPTIONS, type MinHashLshOptions, type MinHashQueryManyResult, type MinHashQueryOptions, type MinHashQueryResult } from './minhash-types.js';
import { checkOptions, describe } from './validate.js';

/** A table entry never used. */
const UNUSED = -2;
/** A table entry whose key is known but whose chain is empty (kept so probing stays correct). */
const NO_SLOT = -1;

/**
 * One band's table from key to the first slot of its chain. Key and head sit side by side
 * (`entries[2i]`, `entries[2i + 1]`) so that a probe costs one cache miss, not two: on a large
 * index that miss is most of a query's cost.
 */
class BandTable {
  entries = new Int32Array(32).fill(UNUSED);
  used = 0;

  /** Entries the table has room for. */
  get capacity(): number {
    return this.entries.length / 2;
  }

  /** The entry of `key` (as `key | 0`), or the unused entry where it would go. */
  find(key: number): number {
    const mask = this.capacity - 1;
    const entries = this.entries;
    let i = (Math.imul(key, 0x9e37_79b1) >>> 0) & mask;
    while (entries[2 * i + 1] !== UNUSED && entries[2 * i] !== key) i = (i + 1) & mask;
    return i;
  }

  head(entry: number): number {
    return this.entries[2 * entry + 1]!;
  }

  setHead(entry: number, slot: number): void {
    this.entries[2 * entry + 1] = slot;
  }

  /** Claims the unused `entry` for `key`, with an empty chain. */
  claim(entry: number, key: number): void {
    this.entries[2 * entry] = key;
    this.entries[2 * entry + 1] = NO_SLOT;
    this.used++;
  }

  /** Makes room for one more key, dropping keys with empty chains when it rebuilds. */
  reserve(): void {
    if (2 * (this.used + 1) <= this.capacity) return;
    const old = this.entries;
    let live = 0;
    for (let i = 1; i < old.length; i += 2) if (old[i]! >= 0) live++;
    let size = 16;
    while (size < 4 * (live + 1)) size *= 2;
    this.entries = new Int32Array(2 * size).fill(UNUSED);
    this.used = 0;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1]! < 0) continue;
      const at = this.find(old[i]!);
      this.entries[2 * at] = old[i]!;
      this.entries[2 * at + 1] = old[i + 1]!;
      this.used++;
    }
  }
}

/**
 * An index of MinHash signatures answering "which ids are at or above the threshold of this
 * signature?", with LSH bands chosen by {@link planMinHashLsh}. Candidates come from equal
 * bands; each is confirmed by its estimated Jaccard similarity.
 *
 * @example
 * const lsh = new MinHashLSH({ threshold: 0.8 });
 * lsh.add(1, minhash(textA));
 * lsh.query(minhash(textB)); // { ids, similarities } of the near-duplicates
 */
export class MinHashLSH {
  /** The Jaccard similarity queries must reach by default. */
  readonly threshold: number;
  /** Positions of every signature. */
  readonly numPerm: number;
  /** LSH bands: a pair is a candidate when its signatures agree in every position of one band. */
  readonly bands: number;
  /** Positions per band (`bands × rows ≤ numPerm`). */
  readonly rows: number;
  #signatures: Uint32Array;
  #ids: Uint32Array;
  #next: Int32Array;
  /** `prev[slot·bands + band]`: the slot before in the band's chain, or `NO_SLOT` at its head. */
  #prev: Int32Array;
  #stamp: Uint32Array;
  /** `taken[slot]`: when its signature was added (a count), so that ties go to the one kept first. */
  #taken: Float64Array;
  #added = 0;
  #query = 0;
  #slots = 0;
  readonly #free: number[] = [];
  readonly #slotOf = new Map<number, number>();
  readonly #tables: BandTable[];

  /**
   * An empty index. Options as {@link planMinHashLsh}: `threshold` (default 0.6), `numPerm`
   * (default 128), the weights of false positives and negatives, or `bands` and `rows`.
   *
   * @throws {TypeError | RangeError} for bad options.
   */
  constructor(options?: MinHashLshOptions) {
    const plan = planMinHashLsh(options === undefined ? undefined : checkOptions(options, MINHASH_LSH_OPTIONS, 'MinHashLSH'));
    this.threshold = plan.threshold;
    this.numPerm = plan.numPerm;
    this.bands = plan.bands;
    this.rows = plan.rows;
    this.#signatures = new Uint32Array(16 * this.numPerm);
    this.#ids = new Uint32Array(16);
    this.#next = new Int32Array(16 * this.bands);
    this.#prev = new Int32Array(16 * this.bands);
    this.#stamp = new Uint32Array(16);
    this.#taken = new Float64Array(16);
    this.#tables = Array.from({ length: this.bands }, () => new BandTable());
  }

  /** How many ids the index holds. */
  get size(): number {
    return this.#slotOf.size;
  }

  /** Whether `id` is in the index. */
  has(id: number): boolean {
    return this.#slotOf.has(checkId(id));
  }

  #grow(): void {
    const capacity = this.#ids.length * 2;
    const grow = <T extends Uint32Array | Int32Array | Float64Array>(old: T, length: number, make: (n: number) => T): T => {
      const fresh = make(length);
      fresh.set(old);
      return fresh;
    };
    this.#signatures = grow(this.#signatures, capacity * this.numPerm, (n) => new Uint32Array(n));
    this.#ids = grow(this.#ids, capacity, (n) => new Uint32Array(n));
    this.#next = grow(this.#next, capacity * this.bands, (n) => new Int32Array(n));
    this.#prev = grow(this.#prev, capacity * this.bands, (n) => new Int32Array(n));
    this.#stamp = grow(this.#stamp, capacity, (n) => new Uint32Array(n));
    this.#taken = grow(this.#taken, capacity, (n) => new Float64Array(n));
  }

  /**
   * Adds `signature` under `id` (an integer in 0..2^32 − 1), replacing the signature of an id
   * already present.
   *
   * @throws {TypeError | RangeError} for a bad id or a signature of another length.
   */
  add(id: number, signature: Uint32Array): void {
    checkId(id);
    if (checkSignatures(signature, this.numPerm, 'signature') !== 1) {
      throw new RangeError(`signature must have numPerm (${this.numPerm}) positions, got ${signature.length}`);
    }
    this.#insert(id, signature, 0);
  }

  /**
   * Adds `ids[i]` with signature `signatures.subarray(i·numPerm, (i + 1)·numPerm)` for every i.
   *
   * @throws {TypeError | RangeError} for bad ids or signatures, before changing anything.
   */
  addMany(ids: Uint32Array, signatures: Uint32Array): void {
    if (!(ids instanceof Uint32Array)) throw new TypeError(`ids must be a Uint32Array, got ${describe(ids)}`);
    const n = checkSignatures(signatures, this.numPerm);
    if (n !== ids.length) throw new RangeError(`signatures must hold one signature per id (${ids.length}), got ${n}`);
    for (let i = 0; i < n; i++) this.#insert(ids[i]!, signatures, i * this.numPerm);
  }

  #insert(id: number, source: Uint32Array, at: number): void {
    this.remove(id);
    let slot = this.#free.pop();
    if (slot === undefined) {
      if (this.#slots === this.#ids.length) this.#grow();
      slot = this.#slots++;
    }
    const k = this.numPerm;
    this.#signatures.set(source.subarray(at, at + k), slot * k);
    this.#ids[slot] = id;
    this.#taken[slot] = ++this.#added;
    this.#slotOf.set(id, slot);
    for (let band = 0; band < this.bands; band++) {
      const table = this.#tables[band]!;
      table.reserve();
      const key = bandKey(this.#signatures, slot * k, band, this.rows) | 0;
      const entry = table.find(key);
      if (table.head(entry) === UNUSED) table.claim(entry, key);
      const head = table.head(entry);
      this.#next[slot * this.bands + band] = head;
      this.#prev[slot * this.bands + band] = NO_SLOT;
      if (head >= 0) this.#prev[head * this.bands + band] = slot;
      table.setHead(entry, slot);
    }
  }

  /**
   * Removes `id`; returns whether it was present.
   *
   * @throws {TypeError | RangeError} for a bad id.
   */
  remove(id: number): boolean {
    const slot = this.#slotOf.get(checkId(id));
    if (slot === undefined) return false;
    const k = this.numPerm;
    for (let band = 0; band < this.bands; band++) {
      const table = this.#tables[band]!;
      const entry = table.find(bandKey(this.#signatures, slot * k, band, this.rows) | 0);
      const link = slot * this.bands + band;
      const after = this.#next[link]!;
      const before = this.#prev[link]!;
      if (before === NO_SLOT) table.setHead(entry, after);
      else this.#next[before * this.bands + band] = after;
      if (after >= 0) this.#prev[after * this.bands + band] = before;
    }
    this.#slotOf.delete(id);
    this.#free.push(slot);
    return true;
  }

  /**
   * Appends to `ids` and `equal` the ids (and equal positions) the signature at `at` of `query`
   * finds, at least `needed` positions equal, best first, at most `limit` of them. Results go
   * into growing plain arrays so that a batch of queries allocates nothing per query.
   */
  #search(query: Uint32Array, at: number, needed: number, limit: number, ids: number[], equal: number[]): void {
    const k = this.numPerm;
    const start = ids.length;
    if (++this.#query === 0x1_0000_0000) {
      this.#stamp.fill(0);
      this.#query = 1;
    }
    const stamp = this.#query;
    const stamps = this.#stamp;
    const next = this.#next;
    const signatures = this.#signatures;
    for (let band = 0; band < this.bands; band++) {
      const table = this.#tables[band]!;
      const entry = table.find(bandKey(query, at, band, this.rows) | 0);
      for (let slot = table.head(entry); slot >= 0; slot = next[slot * this.bands + band]!) {
        if (stamps[slot] === stamp || !bandEqual(query, at, signatures, slot * k, band, this.rows)) continue;
        stamps[slot] = stamp;
        const e = equalPositions(query, at, signatures, slot * k, k);
        if (e >= needed) {
          ids.push(this.#ids[slot]!);
          equal.push(e);
        }
      }
    }
    const found = ids.length - start;
    if (found > 1) {
      const order = Array.from({ length: found }, (_, i) => start + i).sort((x, y) => equal[y]! - equal[x]! || ids[x]! - ids[y]!);
      const sortedIds = order.map((i) => ids[i]!);
      const sortedEqual = order.map((i) => equal[i]!);
      for (let i = 0; i < found; i++) {
        ids[start + i] = sortedIds[i]!;
        equal[start + i] = sortedEqual[i]!;
      }
    }
    if (found > limit) {
      ids.length = start + limit;
      equal.length = start + limit;
    }
  }

  #result(ids: number[], equal: number[]): MinHashQueryResult {
    const similarities = new Float64Array(equal.length);
    for (let i = 0; i < equal.length; i++) similarities[i] = equal[i]! / this.numPerm;
    return { ids: Uint32Array.from(ids), similarities };
  }

  #queryOptions(options: MinHashQueryOptions | undefined): { needed: number; limit: number } {
    const o = options === undefined ? {} : checkOptions(options, MINHASH_QUERY_OPTIONS, 'MinHashLSH.query');
    const threshold = checkQueryThreshold(o.threshold, 'options.threshold', this.threshold);
    const limit = checkInteger(o.limit, 'options.limit', 0, 0xffff_ffff, 0xffff_ffff);
    return { needed: minEqual(threshold, this.numPerm), limit };
  }

  /**
   * The ids whose signatures share a band with `signature` and whose estimated similarity
   * reaches the threshold, most similar first (ties by ascending id).
   *
   * @throws {TypeError | RangeError} for a bad signature or options.
   */
  query(signature: Uint32Array, options?: MinHashQueryOptions): MinHashQueryResult {
    if (checkSignatures(signature, this.numPerm, 'signature') !== 1) {
      throw new RangeError(`signature must have numPerm (${this.numPerm}) positions, got ${signature.length}`);
    }
    const { needed, limit } = this.#queryOptions(options);
    const ids: number[] = [];
    const equal: number[] = [];
    this.#search(signature, 0, needed, limit, ids, equal);
    return this.#result(ids, equal);
  }

  /**
   * {@link MinHashLSH.query} for each signature of `signatures` (back to back): query q found
   * `ids[offsets[q] .. offsets[q + 1]]`.
   *
   * @throws {TypeError | RangeError} for bad signatures or options.
   */
  queryMany(signatures: Uint32Array, options?: MinHashQueryOptions): MinHashQueryManyResult {
    const n = checkSignatures(signatures, this.numPerm);
    const { needed, limit } = this.#queryOptions(options);
    const offsets = new Uint32Array(n + 1);
    const found: number[] = [];
    const equal: number[] = [];
    for (let q = 0; q < n; q++) {
      this.#search(signatures, q * this.numPerm, needed, limit, found, equal);
      offsets[q + 1] = found.length;
    }
    const { ids, similarities } = this.#result(found, equal);
    return { offsets, ids, similarities };
  }

  /**
   * The online rule of `decideMinHash` at the index's threshold: decides `signatures` (one per
   * id, back to back) in order, each against the signatures the index holds and those kept
   * before it in the batch. Signature q is removed as a near-duplicate of the most similar one
   * that shares a band with it and reaches the threshold (ties to the one added first; an index
   * made by `deserialize` added its signatures in the saved order, ascending ids for format v1),
   * or kept and added under
   * `ids[q]`. `representative[q]` is that id, or `ids[q]` when kept; `similarity[q]` the
   * estimated similarity, or 1. Over an index that holds only what earlier calls kept, calls
   * over any split of a stream decide as `decideMinHash` over the whole stream with the same plan.
   *
   * @throws {TypeError | RangeError} for bad ids or signatures, or an id the index holds or the
   * batch names twice, before changing anything.
   */
  decideMany(ids: Uint32Array, signatures: Uint32Array): MinHashDecisions {
    if (!(ids instanceof Uint32Array)) throw new TypeError(`ids must be a Uint32Array, got ${describe(ids)}`);
    const n = checkSignatures(signatures, this.numPerm);
    if (n !== ids.length) throw new RangeError(`signatures must hold one signature per id (${ids.length}), got ${n}`);
    const batch = new Set<number>();
    ids.forEach((id, q) => {
      if (this.#slotOf.has(id)) throw new RangeError(`ids[${q}] = ${id} is held by the index: ids must be new (remove it first to reuse its id)`);
      if (batch.has(id)) throw new RangeError(`ids[${q}] = ${id} is named twice in the batch: ids must be distinct`);
      batch.add(id);
    });
    const k = this.numPerm;
    const needed = minEqual(this.threshold, k);
    const representative = new Uint32Array(n);
    const similarity = new Float64Array(n);
    for (let q = 0; q < n; q++) {
      const { slot, equal } = this.#closest(signatures, q * k, needed);
      if (slot < 0) {
        this.#insert(ids[q]!, signatures, q * k);
        representative[q] = ids[q]!;
        similarity[q] = 1;
      } else {
        representative[q] = this.#ids[slot]!;
        similarity[q] = equal / k;
      }
    }
    return { representative, similarity };
  }

  /** The slot most similar to the signature at `at` of `query` among those sharing a band with it, at least `needed` positions equal (ties to the one added first); -1 for none. */
  #closest(query: Uint32Array, at: number, needed: number): { slot: number; equal: number } {
    const k = this.numPerm;
    if (++this.#query === 0x1_0000_0000) {
      this.#stamp.fill(0);
      this.#query = 1;
    }
    const stamp = this.#query;
    let best = -1;
    let bestEqual = -1;
    for (let band = 0; band < this.bands; band++) {
      const table = this.#tables[band]!;
      const entry = table.find(bandKey(query, at, band, this.rows) | 0);
      for (let slot = table.head(entry); slot >= 0; slot = this.#next[slot * this.bands + band]!) {
        if (this.#stamp[slot] === stamp || !bandEqual(query, at, this.#signatures, slot * k, band, this.rows)) continue;
        this.#stamp[slot] = stamp;
        const e = equalPositions(query, at, this.#signatures, slot * k, k);
        if (e >= needed && (e > bestEqual || (e === bestEqual && this.#taken[slot]! < this.#taken[best]!))) {
          best = slot;
          bestEqual = e;
        }
      }
    }
    return { slot: best, equal: bestEqual };
  }

  /**
   * The index as bytes (format v2, docs/specifications.md): its signatures in the order they were
   * added, which `decideMany` breaks ties by, so that a loaded index decides as this one. The
   * same from both entries for the same history.
   */
  serialize(): Uint8Array {
    const slots = Array.from(this.#slotOf.values()).sort((a, b) => this.#taken[a]! - this.#taken[b]!);
    const k = this.numPerm;
    const ids = Uint32Array.from(slots, (slot) => this.#ids[slot]!);
    const signatures = new Uint32Array(slots.length * k);
    slots.forEach((slot, i) => signatures.set(this.#signatures.subarray(slot * k, (slot + 1) * k), i * k));
    return encodeMinHashLsh({ numPerm: k, bands: this.bands, rows: this.rows, threshold: this.threshold, ids, signatures });
  }

  /**
   * An index from {@link MinHashLSH.serialize}'s bytes (from either entry), its signatures added
   * in the saved order (format v1, which saved the ids ascending: in that order).
   *
   * @throws {IndexFormatError} for bytes that are not a saved index.
   */
  static deserialize(bytes: Uint8Array): MinHashLSH {
    const saved = decodeMinHashLsh(bytes);
    const index = new MinHashLSH({ threshold: saved.threshold, numPerm: saved.numPerm, bands: saved.bands, rows: saved.rows });
    index.addMany(saved.ids, saved.signatures);
    return index;
  }
}

function checkId(id: unknown): number {
  if (typeof id !== 'number') throw new TypeError(`id must be a number, got ${describe(id)}`);
  if (!Number.isInteger(id) || id < 0 || id > 0xffff_ffff) throw new RangeError(`id must be an integer in 0..2^32 − 1, got ${id}`);
  return id;
}
