/**
 * What a line says that its word set does not (text decision specification v3), the twin of the
 * Rust core's `adaptive::shape`: a heavy word said more than once, and the order of two heavy
 * words joined by a hyphen or by one light word. Two lines the words call near-duplicates are not
 * when their shapes clash: each says a word both hold more often than the other does; or one
 * joins heavy words `a` and `b` as `a L b` and the other as `b L a`, with the same light word,
 * each of `a` and `b` said once in each; or a heavy word said once in each stands before a
 * hyphen joining heavy words, and after none, in one, and after one, and before none, in the
 * other (`English-Czech` / `Czech-English`, `English-Modern Greek` / `Modern Greek-English`).
 * Repeats are counted up to 1,023. Entries name words by their positions in the text's sorted
 * word set.
 */

import { SHAPE_ENTRIES } from '../shared/adaptive.js';
import { KEYED_WORDS } from './text-lines.js';

/** The tag of an entry that says a word is repeated; other entries are joints. */
const REPEAT = 1 << 15;
/** The joint of two words joined by a hyphen alone (a position no text reaches). */
const HYPHEN = 31;
/** The shape of a text that says more than {@link SHAPE_ENTRIES} entries. */
const OVERFLOW = 0xffff;
/** The most repeats an entry counts. */
const MOST_REPEATS = (1 << 10) - 1;

/** One word of a text, in text order. */
export interface Token {
  /** The word's position in the text's sorted word set. */
  readonly position: number;
  readonly heavy: boolean;
  /** Whether a hyphen alone separates it from the word before. */
  readonly hyphen: boolean;
}

/** The shape of a text of at most {@link KEYED_WORDS} distinct words whose words, in text order, are `tokens`. */
export function shapeOf(tokens: readonly Token[]): Uint16Array {
  const entries = new Set<number>();
  const counts = new Uint32Array(KEYED_WORDS);
  for (const token of tokens) if (token.heavy) counts[token.position]!++;
  counts.forEach((count, position) => count > 1 && entries.add(REPEAT | (position << 10) | Math.min(count, MOST_REPEATS)));
  const joint = (a: number, j: number, b: number): number => (a << 10) | (j << 5) | b;
  tokens.forEach((a, k) => {
    const b = tokens[k + 1];
    if (b === undefined) return;
    if (a.heavy && b.heavy && b.hyphen && a.position !== b.position) entries.add(joint(a.position, HYPHEN, b.position));
    const c = tokens[k + 2];
    if (c !== undefined && a.heavy && !b.heavy && c.heavy && a.position !== c.position) entries.add(joint(a.position, b.position, c.position));
  });
  if (entries.size > SHAPE_ENTRIES) return Uint16Array.of(OVERFLOW);
  return Uint16Array.from(entries).sort();
}

/** A text's sorted word set and its shape. */
export interface Shaped {
  readonly words: Uint32Array;
  readonly shape: Uint16Array;
}

/** How often `x` says `word`, a word it holds. */
function says(x: Shaped, word: number): number {
  for (const e of x.shape) if ((e & REPEAT) !== 0 && x.words[(e >> 10) & 31] === word) return e & MOST_REPEATS;
  return 1;
}

/** The joints of `x` as `[word, joint word or -1 for a hyphen, word]`, each word passed through `map`. */
function joints(x: Shaped, map: (word: number) => number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const e of x.shape) {
    if ((e & REPEAT) !== 0) continue;
    const j = (e >> 5) & 31;
    out.push([map(x.words[(e >> 10) & 31]!), j === HYPHEN ? -1 : x.words[j]!, map(x.words[e & 31]!)]);
  }
  return out;
}

/**
 * Whether the shapes of lines `x` and `y` clash. `typo`: x's word and y's typo of it that the two
 * pair, if they do; `xHolds` and `yHolds` say whether a text holds a word (y's typo counting as
 * x's word).
 */
export function clash(x: Shaped, y: Shaped, typo: readonly [number, number] | undefined, xHolds: (word: number) => boolean, yHolds: (word: number) => boolean): boolean {
  if ((x.shape.length === 1 && x.shape[0] === OVERFLOW) || (y.shape.length === 1 && y.shape[0] === OVERFLOW)) return false;
  const map = (w: number): number => (typo !== undefined && w === typo[1] ? typo[0] : w);
  let moreX = false;
  let moreY = false;
  for (const e of x.shape) {
    if ((e & REPEAT) === 0) continue;
    const word = x.words[(e >> 10) & 31]!;
    if (!yHolds(word)) continue;
    const inY = says(y, typo !== undefined && typo[0] === word ? typo[1] : word);
    moreX ||= (e & MOST_REPEATS) > inY;
    moreY ||= (e & MOST_REPEATS) < inY;
  }
  for (const e of y.shape) {
    if ((e & REPEAT) === 0) continue;
    const word = map(y.words[(e >> 10) & 31]!);
    if (!xHolds(word)) continue;
    const inX = says(x, word);
    moreY ||= (e & MOST_REPEATS) > inX;
    moreX ||= (e & MOST_REPEATS) < inX;
  }
  if (moreX && moreY) return true;
  const theirs = joints(y, map);
  // (Order says little of a word said twice: `attributes in thread attributes` is
  // `attributes thread in attributes` with two words swapped.)
  const once = (w: number): boolean => says(x, w) === 1 && says(y, typo !== undefined && w === typo[0] ? typo[1] : w) === 1;
  const ours = joints(x, (w) => w);
  // Whether a line joins `w` by a hyphen to a word after it, and to one before it.
  const sides = (js: readonly [number, number, number][], w: number): string => `${js.some(([c, k]) => k === -1 && c === w)} ${js.some(([, k, d]) => k === -1 && d === w)}`;
  // A compound turned round a word: `English-Modern Greek` / `Modern Greek-English`.
  const turned = (w: number, before: boolean): boolean => once(w) && sides(ours, w) === `${before} ${!before}` && sides(theirs, w) === `${!before} ${before}`;
  return ours.some(([a, j, b]) => (j === -1 ? turned(a, true) || turned(b, false) : once(a) && once(b) && theirs.some(([c, k, d]) => c === b && d === a && k === j)));
}
