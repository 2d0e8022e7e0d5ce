/**
 * The length-adaptive decision (text decision specification v3, or v2) in plain TypeScript: the
 * twin of the Rust core's `adaptive::decide`, decision for decision. Texts are taken one at a
 * time, each found against the kept ones, then taken (kept or not), so a batch and an index that
 * takes texts as they come decide alike. Short texts find candidates by v3's lists
 * (`text-short.ts`) or v2's prefix filtering over words ranked rarest first, both missing no
 * pair; texts with word-pair signatures find theirs in LSH bands. Only kept texts are indexed.
 */

import { LINE_WORDS, LONG_BANDS, LONG_EQUAL, LONG_ROWS, NUM_PERM, RuleCode, TextKind } from '../shared/adaptive.js';
import { bandEqual, bandKey, equalPositions } from '../shared/minhash-bands.js';
import { clash, type Shaped } from './text-shape.js';
import { ShortMatcher, consider, type Best } from './text-short.js';
import type { SketchStore } from './text-store.js';

/**
 * The prefixes a set of `s` words is probed with (as the larger of a pair: s − ⌈2s/5⌉ + 1) and
 * indexed under (as the smaller: s − ⌈4s/7⌉ + 1), for Jaccard 2/5.
 */
const probePrefix = (s: number): number => s - Math.ceil((2 * s) / 5) + 1;
const indexPrefix = (s: number): number => s - Math.ceil((4 * s) / 7) + 1;

/** Common elements of two ascending lists. */
function common(x: Uint32Array, y: Uint32Array): number {
  let i = 0;
  let j = 0;
  let c = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      c++;
      i++;
      j++;
    } else if (x[i]! < y[j]!) i++;
    else j++;
  }
  return c;
}

/** Whether sets of `sx` and `sy` words with at most `overlap` in common can reach Jaccard 2/5. */
function reachable(sx: number, sy: number, overlap: number): boolean {
  return 5 * Math.min(sx, sy) >= 2 * Math.max(sx, sy) && 7 * overlap >= 2 * (sx + sy);
}

/** Whether `rule` tells apart two texts of the same words by their shapes: lines by v3 with template siblings kept, whose shapes clash. */
function clashes(rule: number, x: Shaped, y: Shaped): boolean {
  return rule === RuleCode.v3 && x.words.length < LINE_WORDS && clash(x, y, undefined, () => true, () => true);
}

/**
 * The texts a {@link Decider} takes: the store's, judged by their word sets as sketched (v3) or
 * by `sets` (v2's ranks), the text taken r-th at position `order[r]` (at r without an order).
 */
export interface Taken {
  readonly store: SketchStore;
  readonly sets?: readonly Uint32Array[];
  readonly order?: Uint32Array;
}

/** What the texts taken so far leave for the next: the kept texts' lists and band buckets, and the counts of words. */
export class Decider {
  readonly #rule: number;
  readonly #taken: Taken;
  readonly #matcher: ShortMatcher | null;
  /** Word rank → (kept rank, its size, the word's position in it) triples, for v2. */
  readonly #indexed: number[][] = [];
  readonly #probed: number[][] = [];
  readonly #buckets = new Map<number, number[]>();
  /** A kept short text's word set → the first kept text with it. */
  readonly #keptSets = new Map<string, number>();
  /** Per rank: whether the text is kept (and not removed since); the visit that last met it in a band. */
  readonly #kept: boolean[] = [];
  #stamp: number[] = [];
  #visit = 0;

  constructor(rule: number, taken: Taken) {
    this.#rule = rule;
    this.#taken = taken;
    this.#matcher = rule === RuleCode.v2 ? null : new ShortMatcher(taken.store.vocabulary, taken.store.length, rule === RuleCode.v3Templates, (k) => this.#text(k));
  }

  #position(rank: number): number {
    return this.#taken.order?.[rank] ?? rank;
  }

  #text(rank: number): Shaped {
    const p = this.#position(rank);
    const sets = this.#taken.sets;
    return sets === undefined ? this.#taken.store.text(p) : { words: sets[p]!, shape: this.#taken.store.shapes[p]! };
  }

  /** Room for every word of the store's vocabulary and `texts` texts in all. */
  grow(texts: number): void {
    this.#matcher?.grow(texts);
  }

  /** The kept text taken `rank`-th is kept no longer: no text is found against it again. What it counted stays. */
  remove(rank: number): void {
    this.#kept[rank] = false;
    this.#matcher?.remove(rank);
  }

  #nextVisit(): number {
    // Marks live in 32-bit arrays: numbering starts again before it outgrows them.
    if (this.#visit >= 0x3fff_ffff) {
      this.#stamp = [];
      this.#matcher?.clearMarks();
      this.#visit = 0;
    }
    return ++this.#visit;
  }

  /**
   * Judges the text taken `rank`-th against the kept texts, into `best`: the most similar, or,
   * when `best.every` is a list, every one the rule calls its near-duplicate. Changes no count.
   */
  find(rank: number, best: Best): void {
    const store = this.#taken.store;
    const p = this.#position(rank);
    const kind = store.kinds[p]!;
    if (kind === TextKind.wordless) return;
    const visit = this.#nextVisit();
    const short = kind !== TextKind.long;
    const x = this.#text(rank);
    // A kept text of the same words is the best a short text can find among short ones (lines
    // of the same words may still clash in shape).
    const twin = short && best.every === undefined ? this.#keptSets.get(x.words.join()) : undefined;
    if (twin !== undefined && this.#kept[twin] && !clashes(this.#rule, x, this.#text(twin))) consider(best, 1, twin);
    else if (short && this.#matcher !== null) this.#matcher.find(x, visit, best);
    else if (short) {
      // Kept sets no larger under their index prefix, kept sets larger under their probe
      // prefix: the sizes part the two, so no text is looked at twice.
      this.#among(x.words, visit, probePrefix(x.words.length), this.#indexed, false, best);
      this.#among(x.words, visit, indexPrefix(x.words.length), this.#probed, true, best);
    }
    const signature = store.signatures[p];
    if (signature !== null && signature !== undefined) this.#findInBands(signature, short, visit, best);
  }

  #findInBands(signature: Uint32Array, short: boolean, visit: number, best: Best): void {
    const store = this.#taken.store;
    for (let band = 0; band < LONG_BANDS; band++) {
      for (const kept of this.#buckets.get(bandKey(signature, 0, band, LONG_ROWS)) ?? []) {
        const other = this.#position(kept);
        const theirs = store.signatures[other]!;
        if (this.#stamp[kept] === visit || !this.#kept[kept] || !bandEqual(signature, 0, theirs, 0, band, LONG_ROWS)) continue;
        this.#stamp[kept] = visit;
        // Two short texts are judged by their words alone.
        if (short && store.kinds[other] !== TextKind.long) continue;
        const equal = equalPositions(signature, 0, theirs, 0, NUM_PERM);
        if (equal >= LONG_EQUAL) consider(best, equal / NUM_PERM, kept);
      }
    }
  }

  /**
   * Looks at the kept texts listed under the first `prefix` words of `x` in `lists` (larger ones
   * if `larger`, else no larger). A kept text is met first under the first word the two share,
   * so the words after it bound their overlap; one that cannot reach the threshold is passed
   * over, and bounds only shrink at later meetings.
   */
  #among(x: Uint32Array, visit: number, prefix: number, lists: readonly number[][], larger: boolean, best: Best): void {
    const sx = x.length;
    for (let i = 0; i < prefix; i++) {
      const list = lists[x[i]!] ?? [];
      for (let e = 0; e < list.length; e += 3) {
        const kept = list[e]!;
        const sy = list[e + 1]!;
        const j = list[e + 2]!;
        if (sy > sx !== larger || !reachable(sx, sy, 1 + Math.min(sx - i - 1, sy - j - 1)) || this.#stamp[kept] === visit || !this.#kept[kept]) continue;
        this.#stamp[kept] = visit;
        // Nothing before the first shared word is shared.
        const c = 1 + common(x.subarray(i + 1), this.#text(kept).words.subarray(j + 1));
        const union = sx + sy - c;
        if (5 * c >= 2 * union) consider(best, c / union, kept);
      }
    }
  }

  /** Takes the text taken `rank`-th after {@link Decider.find}: counts its words, and lists it as kept when `keep`. */
  take(rank: number, keep: boolean): void {
    const store = this.#taken.store;
    const p = this.#position(rank);
    const kind = store.kinds[p]!;
    if (kind === TextKind.wordless) return;
    const short = kind !== TextKind.long;
    const x = this.#text(rank).words;
    if (short) this.#matcher?.count(x, rank);
    if (!keep) return;
    this.#kept[rank] = true;
    if (short) {
      const key = x.join();
      // Only the first: once it is removed, an earlier kept text of these words (whose shape
      // clashed with it) may be the best, which the search finds.
      if (!this.#keptSets.has(key)) this.#keptSets.set(key, rank);
      if (this.#matcher !== null) this.#matcher.keep(x, rank);
      else {
        for (let j = 0; j < indexPrefix(x.length); j++) (this.#indexed[x[j]!] ??= []).push(rank, x.length, j);
        for (let j = 0; j < probePrefix(x.length); j++) (this.#probed[x[j]!] ??= []).push(rank, x.length, j);
      }
    }
    const signature = store.signatures[p];
    if (signature === null || signature === undefined) return;
    for (let band = 0; band < LONG_BANDS; band++) {
      const key = bandKey(signature, 0, band, LONG_ROWS);
      const bucket = this.#buckets.get(key);
      if (bucket === undefined) this.#buckets.set(key, [rank]);
      else if (bucket[bucket.length - 1] !== rank) bucket.push(rank);
    }
  }
}
