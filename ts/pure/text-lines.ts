/**
 * Candidates for pairs judged as lines (text decision specification v3: a text of fewer than
 * {@link LINE_WORDS} distinct words on one side), the twin of the Rust core's
 * `adaptive::lines`. Such a pair holds the same heavy words but for one typo (when they share
 * {@link TYPO_CONTEXT} heavy words besides), and each side holds at most
 * `min(LIGHT_CHANGES, heavy words shared)` light words the other lacks. So a kept text is listed
 * under keys made of its heavy words and of what is left of its light words when at most that
 * many are taken out, and a text probes the same keys of its own heavy words and of each variant
 * of them one typo away. A typo exactly one text taken before holds is indexed by typo key and by
 * the heavy words that text holds besides, so a probe finds only texts whose other heavy words are
 * its own (or its own but the word the typo replaces). A key is the sum of its words' unit hashes
 * (modulo 2⁶⁴). Two kept texts under one key would be
 * near-duplicates of each other but for their shapes, so a key lists at most
 * `SHAPES_PER_WORD_SET` kept texts of one word set (more only when sums collide): the work per
 * text is bounded by its own words and their typos.
 */

import { LIGHT_CHANGES, LINE_WORDS, TYPO_CONTEXT } from '../shared/adaptive.js';
import type { Vocabulary } from './text-vocabulary.js';

/** The most distinct words a text in a pair judged as lines may have: one typo and {@link LIGHT_CHANGES} light words more than a line. */
export const KEYED_WORDS = LINE_WORDS - 1 + LIGHT_CHANGES + 1;

/** The light words a pair judged as lines may hold on one side only, each way: as many as the heavy words shared, up to {@link LIGHT_CHANGES}. */
export const lightChanges = (sharedHeavy: number): number => Math.min(sharedHeavy, LIGHT_CHANGES);

const add = (a: bigint, b: bigint): bigint => BigInt.asUintN(64, a + b);
const sub = (a: bigint, b: bigint): bigint => BigInt.asUintN(64, a - b);

/** Calls `f` with `sum` less every choice of at most `left` of `hashes[from..]`. */
function lessAtMost(sum: bigint, hashes: readonly bigint[], from: number, left: number, f: (key: bigint) => void): void {
  f(sum);
  if (left === 0) return;
  for (let i = from; i < hashes.length; i++) lessAtMost(sub(sum, hashes[i]!), hashes, i + 1, left - 1, f);
}

/** Kept texts by key, and the words exactly one text taken so far holds, by typo key. */
export class LineKeys {
  readonly #vocabulary: Vocabulary;
  readonly #lists = new Map<bigint, number[]>();
  /**
   * Every sum of the other heavy words of a text beside a word with typo keys it alone held when
   * taken (a probe looks for typos under a sum only when some text has it) → how many kept texts
   * held such a heavy word beside those heavy words: the lines that fill that slot with a word of
   * their own (see `TYPO_SIBLINGS`).
   */
  readonly #singleRests = new Map<bigint, number>();
  /** Per word, the first text taken that holds it. */
  readonly #holder: number[] = [];
  /** Per word with typo keys, the sum of its first holder's other heavy words: a word one text holds is found through the vocabulary's lists of its typo keys. */
  readonly #rest: bigint[] = [];
  /** Per word, whether its first holder was kept and, a heavy word with typo keys, filled the slot `#rest` with it (counted in `#singleRests`). */
  readonly #filled: boolean[] = [];
  /** The sum of a kept text's heavy words → how many kept texts hold those heavy words. */
  readonly #wordSets = new Map<bigint, number>();

  constructor(vocabulary: Vocabulary) {
    this.#vocabulary = vocabulary;
  }

  /** The sum of the heavy words' hashes, their number, and the light words' hashes. */
  #split(words: Uint32Array): [heavy: bigint, count: number, light: bigint[]] {
    let heavy = 0n;
    let count = 0;
    const light: bigint[] = [];
    for (const word of words) {
      const hash = this.#vocabulary.hash[word]!;
      if (this.#vocabulary.heavy(word)) {
        heavy = add(heavy, hash);
        count++;
      } else light.push(hash);
    }
    return [heavy, count, light];
  }

  /** Lists the kept text of `words` (distinct), taken `rank`-th. */
  keep(words: Uint32Array, rank: number): void {
    const [heavy, count, light] = this.#split(words);
    this.#wordSets.set(heavy, (this.#wordSets.get(heavy) ?? 0) + 1);
    // A heavy word with typo keys this text was the first to hold fills its slot.
    for (const word of words) {
      if (!this.#vocabulary.heavy(word) || this.#holder[word] !== rank || this.#vocabulary.typoKeys[word]!.length === 0) continue;
      const slot = this.#rest[word]!;
      this.#singleRests.set(slot, (this.#singleRests.get(slot) ?? 0) + 1);
      this.#filled[word] = true;
    }
    lessAtMost(light.reduce(add, heavy), light, 0, lightChanges(count), (key) => {
      const list = this.#lists.get(key);
      if (list === undefined) this.#lists.set(key, [rank]);
      else list.push(rank);
    });
  }

  /** How many kept texts hold the heavy words of the text of `words`, and no other. */
  keptWithHeavyWordsOf(words: Uint32Array): number {
    return this.#wordSets.get(this.#split(words)[0]) ?? 0;
  }

  /** How many kept texts of at most {@link KEYED_WORDS} words hold the heavy words whose hashes sum to `shared` and one heavy word more with typo keys that no text taken before held. */
  slotFillers(shared: bigint): number {
    return this.#singleRests.get(shared) ?? 0;
  }

  /** Whether `word`'s first holder is one of the {@link LineKeys.slotFillers} of `shared`, by that word. */
  fillsWith(word: number, shared: bigint): boolean {
    return this.#filled[word] === true && this.#rest[word] === shared;
  }

  /** Notes that the text of `words`, taken `rank`-th, holds them: `held` counts the texts taken so far holding each word, this one among them. */
  count(words: Uint32Array, rank: number, held: Uint32Array): void {
    const [heavy] = this.#split(words);
    for (const word of words) {
      if (held[word] !== 1) continue;
      this.#holder[word] = rank;
      if (this.#vocabulary.typoKeys[word]!.length === 0) continue;
      const rest = this.#vocabulary.heavy(word) ? sub(heavy, this.#vocabulary.hash[word]!) : heavy;
      if (!this.#singleRests.has(rest)) this.#singleRests.set(rest, 0);
      this.#rest[word] = rest;
    }
  }

  /**
   * The holders of the words sharing a typo key with `word` that exactly one text taken so far
   * holds, in a text whose other heavy words sum to `rest` (bounded by `word`'s keys: a key lists
   * at most `TYPO_KEY_WORDS` words).
   */
  #singleTypos(word: number, rest: bigint, held: Uint32Array, found: number[]): void {
    if (!this.#singleRests.has(rest)) return;
    for (const typo of this.#vocabulary.typoKeys[word]!) {
      for (const other of this.#vocabulary.wordsUnder(typo)) {
        // (Words of the text being decided may be newer than the counts.)
        if (other !== word && held[other] === 1 && this.#rest[other] === rest && this.#holder[other] !== undefined) found.push(this.#holder[other]!);
      }
    }
  }

  /**
   * Every kept text that may be a near-duplicate of the text of `words` judged as lines, and some
   * other texts taken before (a text may come more than once). `holds(w)` says whether the text
   * holds word `w`; `held` counts the texts taken before holding each word. A word no text taken
   * before holds may pair with any typo a kept text holds: its variants are probed by key. A word
   * taken before pairs only with a typo exactly one text taken before holds: that text is the
   * candidate when its other heavy words are this text's (the typo added), or this text's but the
   * word (the typo replacing it, or a light typo beside it), or when it holds a word of this text
   * no other text holds (this text's word is one too many).
   */
  probe(words: Uint32Array, holds: (word: number) => boolean, held: Uint32Array): number[] {
    const vocabulary = this.#vocabulary;
    const [heavy, count, light] = this.#split(words);
    const found: number[] = [];
    const variants: [key: bigint, changes: number][] = [[heavy, lightChanges(count)]];
    const fewer = lightChanges(Math.max(count - 1, 0));
    if (count >= TYPO_CONTEXT) {
      for (const u of words) {
        if (held[u]! > 0) {
          // (A word held by a text too long to be a line has no holder.)
          const holder = this.#holder[u];
          if (held[u] === 1 && holder !== undefined) found.push(holder);
          this.#singleTypos(u, heavy, held, found);
          if (vocabulary.heavy(u)) this.#singleTypos(u, sub(heavy, vocabulary.hash[u]!), held, found);
          continue;
        }
        const replaceable = vocabulary.heavy(u) && count > TYPO_CONTEXT;
        const less = sub(heavy, vocabulary.hash[u]!);
        // A typo of a word the other text holds too, or of a light one: u is one too many.
        let extra = false;
        for (const n of vocabulary.neighbours[u]!) {
          if (held[n] === 0) continue;
          if (vocabulary.heavy(n) && !holds(n)) {
            if (replaceable) variants.push([add(less, vocabulary.hash[n]!), fewer]);
            // The kept text holds one word more: a typo of u.
            variants.push([add(heavy, vocabulary.hash[n]!), lightChanges(count)]);
          } else extra = true;
        }
        if (extra && replaceable) variants.push([less, fewer]);
      }
    }
    const lightSum = light.reduce(add, 0n);
    for (const [key, changes] of variants) {
      lessAtMost(add(key, lightSum), light, 0, changes, (probe) => {
        const list = this.#lists.get(probe);
        if (list !== undefined) found.push(...list);
      });
    }
    return found;
  }
}
