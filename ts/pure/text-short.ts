/**
 * The short-text rule of text decision specification v3 in plain TypeScript, the twin of the
 * Rust core's `adaptive::short`. Words are heavy or light; a heavy word of one text and a typo
 * of it in the other pair when one of the two is held by no other short text taken before.
 * - *Lines* (either text below {@link LINE_WORDS} distinct words): the same heavy words
 *   but for one typo (a pair, or one word too many that is a typo of a word the other holds)
 *   when they share {@link TYPO_CONTEXT} heavy words besides, at most
 *   `min(LIGHT_CHANGES, heavy words shared)` light words on each side that the other lacks, and
 *   shapes that do not clash (`text-shape.ts`).
 * - *Sentences*: weighted Jaccard similarity `M / (W(x) + W(y) − M)` (heavy
 *   {@link HEAVY_WEIGHT}, light {@link LIGHT_WEIGHT}, a typo pair sharing {@link TYPO_SHARED},
 *   pairs by maximum matching) at least {@link THRESHOLD}, and at most one unpaired heavy word on
 *   each side per {@link SUBSTITUTION_SPAN} words of the smaller text.
 * - With template siblings removed: the similarity alone, against {@link TEMPLATES_THRESHOLD}.
 *
 * Candidates of lines come from keys (`text-lines.ts`); those of sentences (and of every pair
 * when template siblings are removed) from lists of kept texts per word, cheapest first, under
 * one of two guarantees that miss no pair: by weight (probe words until less than the
 * threshold's share of the text's weight is left), or by substitution (at most `b` heavy words of
 * this text go unpaired, so its `b + 1` cheapest heavy words meet every near-duplicate, or its
 * `b + 2` cheapest meet it twice). A typo of a probed word is probed with it.
 *
 * Two sentences are compared only through a word fewer than {@link SENTENCES_PER_WORD} kept
 * sentences hold, so a list stops growing there and is never probed: a plan that would probe a
 * full list gives way to probing every shorter list of the text's words, which meets every pair
 * the rule compares. Sentences of the same words are always compared, through a list per word set.
 */

import { HEAVY_WEIGHT, LIGHT_WEIGHT, LINE_WORDS, SENTENCES_PER_WORD, SHAPES_PER_WORD_SET, SUBSTITUTION_SPAN, TEMPLATES_THRESHOLD, THRESHOLD, TYPO_CONTEXT, TYPO_SHARED, TYPO_SIBLINGS } from '../shared/adaptive.js';
import { KEYED_WORDS, LineKeys, lightChanges } from './text-lines.js';
import { NOT_A_NUMBER, agree } from './text-numbers.js';
import { clash, type Shaped } from './text-shape.js';
import type { Vocabulary } from './text-vocabulary.js';

/** A kept text in a list: its rank and weight. */
interface Entry {
  readonly kept: number;
  readonly weight: number;
}

/** What judging a candidate costs against meeting a list entry, for choosing how to probe. */
const JUDGE_COST = 8;

/** How a sentence's lists are probed (see `ShortMatcher.#choose`). */
type Probe = { readonly kind: 'weight'; readonly words: number } | { readonly kind: 'substitution'; readonly need: 1 | 2 } | { readonly kind: 'open' };

const substitutionsAllowed = (words: number): number => Math.floor(words / SUBSTITUTION_SPAN);

/** Whether weight `shared` of texts weighing `wx` and `wy` reaches `[num, den]`. */
const reaches = ([num, den]: readonly [number, number], shared: number, wx: number, wy: number): boolean => shared * den >= num * (wx + wy - shared);

/** The candidate so far: the highest similarity, ties to the lowest rank; with `every`, each candidate accepted too. */
export interface Best {
  similarity: number;
  kept: number;
  readonly every?: [similarity: number, kept: number][];
}

/** Considers `kept` at `similarity` for `best`. */
export function consider(best: Best, similarity: number, kept: number): void {
  if (similarity > best.similarity || (similarity === best.similarity && kept < best.kept)) {
    best.similarity = similarity;
    best.kept = kept;
  }
  best.every?.push([similarity, kept]);
}

/** `array` in an array of `size` elements, the new ones `fill`. */
function grown<T extends Int32Array | Uint32Array | Uint8Array>(array: T, size: number, fill: number): T {
  const out = new (array.constructor as new (size: number) => T)(size);
  out.set(array);
  out.fill(fill, array.length);
  return out;
}

/** The lists of kept short texts of one decision. */
export class ShortMatcher {
  readonly #vocabulary: Vocabulary;
  readonly #templates: boolean;
  readonly #threshold: readonly [number, number];
  /** Word → the kept texts listed under it: every one when template siblings are removed, else the first {@link SENTENCES_PER_WORD} sentences (a full list). */
  readonly #all: Entry[][] = [];
  /** A word set (its words joined) → the kept sentences with it, by rank. */
  readonly #same = new Map<string, number[]>();
  /** Per kept rank: the visit that last judged it; the visit whose meetings `#hits` counts, and the count. */
  #judged = new Int32Array(0);
  /** Per rank: whether the text taken then is kept (and not removed since). */
  #kept = new Uint8Array(0);
  #round = new Int32Array(0);
  #hits = new Uint32Array(0);
  /** Per word: the visit of the text being decided, when it holds the word. */
  #marks = new Int32Array(0);
  /** Per word, how many short texts taken so far hold it. */
  #held = new Uint32Array(0);
  readonly #keptText: (kept: number) => Shaped;
  /** Kept texts of at most {@link KEYED_WORDS} words by key. */
  readonly #lines: LineKeys;
  /** The shape of the line being decided, if it compares shapes: fewer than {@link SHAPES_PER_WORD_SET} kept lines hold its heavy words. */
  #shape: Uint16Array | undefined;

  constructor(vocabulary: Vocabulary, texts: number, templates: boolean, keptText: (kept: number) => Shaped) {
    this.#vocabulary = vocabulary;
    this.#templates = templates;
    this.#threshold = templates ? TEMPLATES_THRESHOLD : THRESHOLD;
    this.#keptText = keptText;
    this.#lines = new LineKeys(vocabulary);
    this.grow(texts);
  }

  /** Room for every word of the vocabulary and `texts` texts in all, as an index grows. */
  grow(texts: number): void {
    const words = this.#vocabulary.length;
    while (this.#all.length < words) this.#all.push([]);
    if (this.#marks.length < words) {
      const size = Math.max(words, 2 * this.#marks.length);
      this.#marks = grown(this.#marks, size, -1);
      this.#held = grown(this.#held, size, 0);
    }
    if (this.#kept.length < texts) {
      const size = Math.max(texts, 2 * this.#kept.length);
      this.#round = grown(this.#round, size, -1);
      this.#judged = grown(this.#judged, size, -1);
      this.#hits = grown(this.#hits, size, 0);
      this.#kept = grown(this.#kept, size, 0);
    }
  }

  /** Forgets every visit's marks, so that numbering may start again. */
  clearMarks(): void {
    for (const marks of [this.#marks, this.#round, this.#judged]) marks.fill(-1);
  }

  /** The kept text taken `rank`-th is no longer kept: no text is judged against it again. */
  remove(rank: number): void {
    this.#kept[rank] = 0;
  }

  #weight(word: number): number {
    return this.#vocabulary.heavy(word) ? HEAVY_WEIGHT : LIGHT_WEIGHT;
  }

  #weigh(words: Uint32Array): [number, number] {
    let weight = 0;
    let heavy = 0;
    for (const word of words) {
      weight += this.#weight(word);
      if (this.#vocabulary.heavy(word)) heavy++;
    }
    return [weight, heavy];
  }

  /** The word and those of its typos it may pair with (of a word other texts hold, only typos no other text holds). */
  #probed(word: number): number[] {
    const vocabulary = this.#vocabulary;
    return vocabulary.heavy(word) ? [word, ...vocabulary.neighbours[word]!.filter((typo) => vocabulary.heavy(typo) && this.#pairable(word, typo))] : [word];
  }

  /** A list this long compares no pair: {@link SENTENCES_PER_WORD} kept sentences, unless template siblings are removed. */
  get #full(): number {
    return this.#templates ? Infinity : SENTENCES_PER_WORD;
  }

  /**
   * What probing `word` costs (the entries of the lists it is probed through), and what probing
   * those of them that are not full costs: the two are equal when none is full (a full list is
   * never empty).
   */
  #cost(word: number): [cost: number, open: number] {
    const lengths = this.#probed(word).map((listed) => this.#all[listed]!.length);
    return [lengths.reduce((sum, n) => sum + n, 0), lengths.reduce((sum, n) => sum + (n < this.#full ? n : 0), 0)];
  }

  /**
   * Judges against `text` every kept short text the rule may call its near-duplicate, into
   * `best`; `rank` (a visit: a number no text found since the marks were last cleared had)
   * marks what it meets.
   */
  find(text: Shaped, rank: number, best: Best): void {
    const x = text.words;
    for (const word of x) this.#marks[word] = rank;
    if (this.#templates) {
      this.#findInLists(x, rank, best);
      return;
    }
    if (x.length <= KEYED_WORDS) {
      this.#shape = this.#lines.keptWithHeavyWordsOf(x) < SHAPES_PER_WORD_SET ? text.shape : undefined;
      const found = this.#lines.probe(x, (word) => this.#marks[word] === rank, this.#held);
      for (const k of found) {
        if (!this.#kept[k] || this.#judged[k] === rank) continue;
        this.#judged[k] = rank;
        const similarity = this.judge(x, rank, this.#keptText(k));
        if (similarity !== undefined) consider(best, similarity, k);
      }
    }
    if (x.length >= LINE_WORDS) this.#findInLists(x, rank, best);
  }

  /** Judges against `x` every kept text in the lists the rule may call its near-duplicate. */
  #findInLists(x: Uint32Array, rank: number, best: Best): void {
    const [wx, hx] = this.#weigh(x);
    const plans = Array.from(x, (word) => [...this.#cost(word), word] as const).sort((a, b) => a[0] - b[0] || a[2] - b[2]);
    if (!this.#templates) this.#meetSameWords(x, rank, best);
    const plan = this.#choose(x, wx, hx, plans);
    if (plan.kind === 'weight') for (const [, , word] of plans.slice(0, plan.words)) this.#meet(x, wx, rank, word, 1, best);
    else if (plan.kind === 'open') for (const [, , word] of plans) this.#meet(x, wx, rank, word, 1, best);
    else {
      const b = substitutionsAllowed(x.length);
      for (const [, , word] of plans.filter(([, , w]) => this.#vocabulary.heavy(w)).slice(0, b + plan.need)) this.#meet(x, wx, rank, word, plan.need, best);
    }
  }

  /** Judges the kept sentences of `x`'s words (the first still kept is the best, unless every near-duplicate is asked for), which full lists may hide. */
  #meetSameWords(x: Uint32Array, rank: number, best: Best): void {
    for (const k of this.#same.get(x.join()) ?? []) {
      if (!this.#kept[k] || this.#judged[k] === rank) continue;
      this.#judged[k] = rank;
      const similarity = this.judge(x, rank, this.#keptText(k));
      if (similarity === undefined) continue;
      consider(best, similarity, k);
      if (best.every === undefined) return;
    }
  }

  /**
   * The cheapest way to probe the lists for `x`, whose words `plans` holds cheapest first, among
   * those that probe no full list (each meets every pair the rule compares): by weight (the
   * cheapest words until what is left weighs less than the threshold's share); by substitution
   * (the `b + 1` cheapest heavy words, each meeting judged, or the `b + 2` cheapest, a text judged
   * when met twice); every list of the text's words that is not full, each meeting judged.
   */
  #choose(x: Uint32Array, wx: number, hx: number, plans: readonly (readonly [cost: number, open: number, word: number])[]): Probe {
    const [num, den] = this.#threshold;
    let probed = 0;
    let words = 0;
    let weightCost = 0;
    let open = true;
    while (probed * den <= (den - num) * wx) {
      const [cost, o, word] = plans[words]!;
      probed += this.#weight(word);
      weightCost += cost;
      open &&= cost === o;
      words++;
    }
    let cost = open ? weightCost * JUDGE_COST : Infinity;
    let plan: Probe = { kind: 'weight', words };
    const b = substitutionsAllowed(x.length);
    if (!this.#templates && hx > b) {
      const heavy = plans.filter(([, , word]) => this.#vocabulary.heavy(word));
      for (const need of [1, 2] as const) {
        if (hx < b + need) continue;
        const first = heavy.slice(0, b + need);
        const c = first.reduce((sum, [n]) => sum + n, 0) * (need === 1 ? JUDGE_COST : 1);
        if (first.every(([n, o]) => n === o) && c < cost) [cost, plan] = [c, { kind: 'substitution', need }];
      }
    }
    if (!this.#templates) {
      const c = plans.reduce((sum, [, o]) => sum + o, 0) * JUDGE_COST;
      if (c < cost) plan = { kind: 'open' };
    }
    return plan;
  }

  /** Meets the kept texts listed under `word` and its typos in `all`; a text met `need` times is judged, once. */
  #meet(x: Uint32Array, wx: number, rank: number, word: number, need: number, best: Best): void {
    const [num, den] = this.#threshold;
    for (const listed of this.#probed(word)) {
      // A full list compares no pair.
      if (this.#all[listed]!.length >= this.#full) continue;
      for (const entry of this.#all[listed]!) {
        const k = entry.kept;
        if (need > 1) {
          if (this.#round[k] !== rank) {
            this.#round[k] = rank;
            this.#hits[k] = 0;
          }
          if (++this.#hits[k]! < need) continue;
        }
        if (this.#judged[k] === rank || !this.#kept[k]) continue;
        this.#judged[k] = rank;
        if (Math.max(wx, entry.weight) * num > Math.min(wx, entry.weight) * den) continue;
        const similarity = this.judge(x, rank, this.#keptText(k));
        if (similarity !== undefined) consider(best, similarity, k);
      }
    }
  }

  /** The similarity of `x` (whose words are marked with the visit `rank`) and `kept` if the rule calls them near-duplicate. */
  judge(x: Uint32Array, rank: number, kept: Shaped): number | undefined {
    const y = kept.words;
    const [wx] = this.#weigh(x);
    const inY = new Set(y);
    let wy = 0;
    let shared = 0;
    // With template siblings removed no list is full, and typos alone may join a pair.
    let through = this.#templates;
    let sharedHeavy = 0;
    let sharedSum = 0n;
    let lightY = 0;
    const uy: number[] = [];
    for (const word of y) {
      const weight = this.#weight(word);
      wy += weight;
      if (this.#marks[word] === rank) {
        shared += weight;
        // Sentences compare through a shared word whose list is not full.
        if (this.#all[word]!.length < this.#full) through = true;
        if (weight === HEAVY_WEIGHT) {
          sharedHeavy++;
          sharedSum = BigInt.asUintN(64, sharedSum + this.#vocabulary.hash[word]!);
        }
      } else if (weight === HEAVY_WEIGHT) uy.push(word);
      else lightY++;
    }
    const ux = Array.from(x).filter((word) => !inY.has(word) && this.#vocabulary.heavy(word));
    if (!this.#templates && Math.min(x.length, y.length) < LINE_WORDS) {
      const lightX = x.reduce((n, word) => n + (!inY.has(word) && !this.#vocabulary.heavy(word) ? 1 : 0), 0);
      const changes = lightChanges(sharedHeavy);
      if (lightX > changes || lightY > changes || !agree(this.#bareNumbers(x, (w) => inY.has(w)), this.#bareNumbers(y, (w) => this.#marks[w] === rank))) return undefined;
      const paired = this.#oneTypo(ux, uy, sharedHeavy, (word) => this.#marks[word] === rank, (word) => inY.has(word));
      if (paired === undefined || !this.#slotOpen(ux, uy, sharedSum)) return undefined;
      if (this.#shape !== undefined) {
        const typo = paired ? ([ux[0]!, uy[0]!] as const) : undefined;
        const yHolds = (word: number): boolean => inY.has(word) || typo?.[0] === word;
        if (clash({ words: x, shape: this.#shape }, kept, typo, (word) => this.#marks[word] === rank, yHolds)) return undefined;
      }
      const total = shared + (paired ? TYPO_SHARED : 0);
      return total / (wx + wy - total);
    }
    const most = Math.min(ux.length, uy.length);
    if (!(through || (shared === wx && shared === wy)) || !reaches(this.#threshold, shared + TYPO_SHARED * most, wx, wy)) return undefined;
    const paired = most === 0 ? 0 : this.#typoPairs(ux, uy);
    if (!this.#templates) {
      const allowed = substitutionsAllowed(Math.min(x.length, y.length));
      if (ux.length - paired > allowed || uy.length - paired > allowed) return undefined;
    }
    const total = shared + TYPO_SHARED * paired;
    return reaches(this.#threshold, total, wx, wy) ? total / (wx + wy - total) : undefined;
  }

  /** The packed bare numbers of `words` that the other text (`holds`) lacks. */
  #bareNumbers(words: ArrayLike<number>, holds: (word: number) => boolean): bigint[] {
    const found: bigint[] = [];
    for (let i = 0; i < words.length; i++) {
      const number = this.#vocabulary.number[words[i]!]!;
      if (number !== NOT_A_NUMBER && !holds(words[i]!)) found.push(number);
    }
    return found;
  }

  /**
   * For a pair judged as lines, with unpaired heavy words `ux` and `uy` and `sharedHeavy` heavy
   * words shared: `undefined` unless they are no more than one typo — a pair of them, or one word
   * that is a typo of a word the other text holds, in a pair sharing {@link TYPO_CONTEXT} heavy
   * words — and then whether they are a pair.
   */
  #oneTypo(ux: readonly number[], uy: readonly number[], sharedHeavy: number, inX: (word: number) => boolean, inY: (word: number) => boolean): boolean | undefined {
    if (ux.length + uy.length === 0) return false;
    if (sharedHeavy < TYPO_CONTEXT || ux.length + uy.length > 2) return undefined;
    const typos = this.#vocabulary.neighbours;
    if (ux.length === 1 && uy.length === 1) return typos[ux[0]!]!.includes(uy[0]!) && this.#pairable(ux[0]!, uy[0]!) ? true : undefined;
    if (ux.length === 1) return typos[ux[0]!]!.some((w) => inY(w) && this.#pairable(ux[0]!, w)) ? false : undefined;
    if (uy.length === 1) return typos[uy[0]!]!.some((w) => inX(w) && this.#pairable(w, uy[0]!)) ? false : undefined;
    return undefined;
  }

  /**
   * Whether a pair judged as lines, with unpaired heavy words `ux` and `uy` and shared heavy words
   * whose hashes sum to `sharedSum`, may forgive a typo there: when fewer than
   * {@link TYPO_SIBLINGS} kept texts fill that slot with a third word. Other kept lines filling it
   * make a word one letter apart another item.
   */
  #slotOpen(ux: readonly number[], uy: readonly number[], sharedSum: bigint): boolean {
    if (ux.length + uy.length === 0) return true;
    // The pair's own words fill the slot once each at most (a word has one first holder).
    const own = [...ux, ...uy].filter((word) => this.#lines.fillsWith(word, sharedSum)).length;
    return this.#lines.slotFillers(sharedSum) - own < TYPO_SIBLINGS;
  }

  /**
   * Whether the text's word `a` and the candidate's typo of it `b` pair: when one of them is held
   * by no other short text taken before. A misspelling is rare; two words of a corpus one letter
   * apart (`clang`, `flang`) are two names.
   */
  #pairable(a: number, b: number): boolean {
    return this.#held[a] === 0 || this.#held[b]! <= 1;
  }

  /** Counts the words of the short text `x` taken `rank`-th, kept or not. */
  count(x: Uint32Array, rank: number): void {
    for (const word of x) this.#held[word]!++;
    if (!this.#templates && x.length <= KEYED_WORDS) this.#lines.count(x, rank, this.#held);
  }

  /** The size of a maximum matching of `ux` to `uy` by typos (augmenting paths). */
  #typoPairs(ux: readonly number[], uy: readonly number[]): number {
    const place = new Map(uy.map((word, j) => [word, j]));
    const partner = new Int32Array(uy.length).fill(-1);
    const augment = (i: number, visited: Uint8Array): boolean => {
      for (const typo of this.#vocabulary.neighbours[ux[i]!]!) {
        const j = place.get(typo);
        if (j === undefined || visited[j] === 1 || !this.#pairable(ux[i]!, typo)) continue;
        visited[j] = 1;
        if (partner[j] === -1 || augment(partner[j]!, visited)) {
          partner[j] = i;
          return true;
        }
      }
      return false;
    };
    let pairs = 0;
    for (let i = 0; i < ux.length; i++) if (augment(i, new Uint8Array(uy.length))) pairs++;
    return pairs;
  }

  /**
   * Lists the kept text `y`, taken `rank`-th: under its keys if it has at most
   * {@link KEYED_WORDS} words; and, if it has {@link LINE_WORDS} or more (any, when
   * template siblings are removed), in `all` under every word whose list is not full.
   */
  keep(y: Uint32Array, rank: number): void {
    this.#kept[rank] = 1;
    if (!this.#templates && y.length <= KEYED_WORDS) this.#lines.keep(y, rank);
    if (!this.#templates && y.length < LINE_WORDS) return;
    const [weight] = this.#weigh(y);
    const entry: Entry = { kept: rank, weight };
    if (!this.#templates) {
      const key = y.join();
      const same = this.#same.get(key);
      if (same === undefined) this.#same.set(key, [rank]);
      else same.push(rank);
    }
    for (const word of y) if (this.#all[word]!.length < this.#full) this.#all[word]!.push(entry);
  }
}
