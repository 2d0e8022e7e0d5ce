/**
 * The words of the sketched texts (text decision specification v3), the twin of the Rust core's
 * `adaptive::vocabulary`: each word's id and unit hash, its base (the word without the `+` and
 * `#` signs after it), whether it is light (a common word, or a number — ASCII digits, `v` and
 * digits, or digits and `st`, `nd`, `rd` or `th`, bare or a release's) and its typos (words
 * without digits or signs, heavy or common but not both common, of at least {@link TYPO_CHARS}
 * code points, that become equal when at most one code point is removed from each; or names with
 * digits and without signs, of at least {@link TYPO_CHARS} code points, that differ in one digit
 * alone), found through typo keys as each word arrives. A key lists at most
 * {@link TYPO_KEY_WORDS} words, the first to come: a word arriving when its key is full does not
 * take it, so that words made to share one key by the thousand cost no more than real ones.
 */

import { TYPO_CHARS, TYPO_KEY_WORDS } from '../shared/adaptive.js';
import { COMMON_WORDS } from '../shared/adaptive-words.js';
import { NOT_A_NUMBER, RELEASE_MARK, digitsOf, pack } from './text-numbers.js';
import { xxh3 } from './xxh3.js';

const utf8 = new TextEncoder();
/** What stands for the digit a name's typo key leaves out: a byte no UTF-8 text holds. */
const DIGIT_MARK = 0xff;
const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;

/**
 * Every word seen, by id (ids in order of first appearance). A word is a token with the `+` and
 * `#` signs right after it (`c`, `c++` and `c#` are three words); its base is the word without
 * them, the token specification v2 judges by.
 */
export class Vocabulary {
  readonly #ids = new Map<bigint, number>();
  /** Each word's unit hash. */
  readonly hash: bigint[] = [];
  /** Each word's base (itself when it has no signs). */
  readonly base: number[] = [];
  /** Whether each word is light. */
  readonly light: boolean[] = [];
  /** Each bare number's packed digits, {@link NOT_A_NUMBER} for any other word. */
  readonly number: bigint[] = [];
  /** Each word's typos. */
  readonly neighbours: number[][] = [];
  /** Each word's typo keys: two words are typos when they share one (none for a word that can be no typo; only the keys it was listed under). */
  readonly typoKeys: bigint[][] = [];
  /** Typo key → the words listed under it. */
  readonly #keys = new Map<bigint, number[]>();
  readonly #seed: bigint;
  readonly #common: Set<bigint>;

  constructor(seed: bigint) {
    this.#seed = seed;
    this.#common = new Set(COMMON_WORDS.map((word) => xxh3(utf8.encode(word), seed)));
  }

  /** Number of words seen. */
  get length(): number {
    return this.light.length;
  }

  /**
   * Forgets the words added since the vocabulary had `mark` words, as if they had never come: a
   * query's words, which must not make the vocabulary grow with every text asked about.
   */
  rollBack(mark: number): void {
    for (let id = this.length - 1; id >= mark; id--) {
      // Newest first, each was the last pushed under its keys and on its older typos' lists.
      for (const key of this.typoKeys[id]!) {
        const listed = this.#keys.get(key)!;
        listed.pop();
        if (listed.length === 0) this.#keys.delete(key);
      }
      for (const other of this.neighbours[id]!) if (other < mark) this.neighbours[other]!.pop();
      this.#ids.delete(this.hash[id]!);
    }
    for (const column of [this.hash, this.base, this.light, this.number, this.neighbours, this.typoKeys]) column.length = mark;
  }

  /** The id of the word with this hash, if it was seen. */
  id(hash: bigint): number | undefined {
    return this.#ids.get(hash);
  }

  /** Whether the token of unit hash `hash` is one of the common words. */
  isCommon(hash: bigint): boolean {
    return this.#common.has(hash);
  }

  /** Whether word `id` is heavy. */
  heavy(id: number): boolean {
    return !this.light[id];
  }

  /**
   * Adds the word `word` (its UTF-8 bytes, `hash` their unit hash; its first `token` bytes the
   * token, the rest signs) and returns its id.
   */
  insert(hash: bigint, word: Uint8Array, token = word.length): number {
    const known = this.#ids.get(hash);
    if (known !== undefined) return known;
    const base = token < word.length ? this.insert(xxh3(word.subarray(0, token), this.#seed), word.subarray(0, token)) : undefined;
    const id = this.light.length;
    const common = this.#common.has(hash);
    // A release's number is its token and the mark (text-numbers.ts).
    const release = word.length === token + 1 && word[token] === RELEASE_MARK;
    const digits = digitsOf(word);
    const light = digits !== undefined || release || common;
    this.#ids.set(hash, id);
    this.hash.push(hash);
    this.base.push(base ?? id);
    this.light.push(light);
    this.number.push(digits === undefined ? NOT_A_NUMBER : pack(digits));
    this.neighbours.push([]);
    this.typoKeys.push([]);
    if ((common || !light) && base === undefined) this.#linkTypos(id, hash, word);
    return id;
  }

  #linkTypos(id: number, hash: bigint, token: Uint8Array): void {
    const starts: number[] = [];
    token.forEach((b, i) => (b & 0xc0) !== 0x80 && starts.push(i));
    if (starts.length < TYPO_CHARS) return;
    const named = token.some(isDigit);
    const keys = named ? [] : [hash];
    if (named) {
      token.forEach((b, at) => {
        if (!isDigit(b)) return;
        const variant = token.slice();
        variant[at] = DIGIT_MARK;
        const key = xxh3(variant, this.#seed);
        if (!keys.includes(key)) keys.push(key);
      });
    } else if (starts.length > TYPO_CHARS) {
      starts.forEach((start, k) => {
        const end = starts[k + 1] ?? token.length;
        const variant = new Uint8Array(token.length - (end - start));
        variant.set(token.subarray(0, start));
        variant.set(token.subarray(end), start);
        const key = xxh3(variant, this.#seed);
        if (!keys.includes(key)) keys.push(key);
      });
    }
    this.typoKeys[id] = keys;
    this.#link(id);
  }

  /** The words listed under typo key `key`, in the order they were listed. */
  wordsUnder(key: bigint): readonly number[] {
    return this.#keys.get(key) ?? [];
  }

  /**
   * Lists word `id` under its typo keys, linking it to the words listed there before; a key that
   * lists {@link TYPO_KEY_WORDS} words already leaves the word's keys.
   */
  #link(id: number): void {
    const mine = this.neighbours[id]!;
    const linked = new Set<number>();
    const taken: bigint[] = [];
    for (const key of this.typoKeys[id]!) {
      const listed = this.#keys.get(key);
      if (listed === undefined) {
        this.#keys.set(key, [id]);
      } else if (listed.length < TYPO_KEY_WORDS) {
        for (const other of listed) {
          // Two common words are never typos of each other.
          if (!(this.light[id] && this.light[other]) && !linked.has(other)) {
            linked.add(other);
            mine.push(other);
            this.neighbours[other]!.push(id);
          }
        }
        listed.push(id);
      } else {
        continue;
      }
      taken.push(key);
    }
    this.typoKeys[id] = taken;
  }

  /**
   * The words of a saved index, each with its unit hash, base, lightness, packed number and typo keys (word
   * i's keys `typoKeys[typoKeyEnds[i - 1]..typoKeyEnds[i]]`): the links between typos are made
   * again, in the order the words came. `undefined` when two words have one hash.
   */
  static fromColumns(seed: bigint, hash: BigUint64Array, base: Uint32Array, light: Uint8Array, number: readonly bigint[], typoKeyEnds: Uint32Array, typoKeys: BigUint64Array): Vocabulary | undefined {
    const vocabulary = new Vocabulary(seed);
    for (let id = 0; id < hash.length; id++) {
      if (vocabulary.#ids.has(hash[id]!)) return undefined;
      vocabulary.#ids.set(hash[id]!, id);
      vocabulary.hash.push(hash[id]!);
      vocabulary.base.push(base[id]!);
      vocabulary.light.push(light[id] === 1);
      vocabulary.number.push(number[id]!);
      vocabulary.neighbours.push([]);
      vocabulary.typoKeys.push(Array.from(typoKeys.subarray(id === 0 ? 0 : typoKeyEnds[id - 1]!, typoKeyEnds[id]!)));
      vocabulary.#link(id);
    }
    return vocabulary;
  }
}
