/**
 * Step 1 of the text fingerprint specification (NFKC, then `toLowerCase()`) applied only where
 * it can change the tokens: most text is ASCII with a rare accent, dash or quote, and running
 * the engine's normaliser and case mapping over all of it costs as much as the rest of the
 * pipeline.
 *
 * Code points are *settled* when step 1 provably leaves them alone or only turns them into
 * other separators. The text is cut at ASCII characters (all settled) into runs of the
 * others; each run with an unsettled code point is normalised on its own, together with the
 * ASCII character before it; settled code points are kept as they are, except that ASCII
 * capitals are left for the caller to lower in the UTF-8 bytes (`A`–`Z` to `a`–`z`).
 * The tokens of the result, once those capitals are lowered, are those of the specification's
 * step 1 applied to the whole text:
 *
 * - **NFKC splits there.** Every settled code point is a starter (canonical combining class 0)
 *   that no composition takes as its second character, and what NFKC makes of it starts with
 *   such a starter too; so normalisation never reaches across the point before it
 *   (Unicode Standard Annex 15, normalisation boundaries). A run can still compose with the
 *   starter before it (`e` + U+0301 is `é`): that is why the ASCII character before a run is
 *   normalised with the run.
 * - **Lower case splits there.** Without a locale, `toLowerCase()` maps each code point on its
 *   own except capital sigma, whose form depends on the letters around it (final sigma). A run
 *   that contains U+03A3 after NFKC sends the whole text through step 1 instead.
 * - **Settled code points come out the same.** The *fixed* ones (ASCII, lower-case Latin-1
 *   letters, common punctuation, and the kana, ideographs and Hangul syllables of scripts
 *   without case) are their own NFKC and lower case; ASCII capitals are lowered by the caller
 *   exactly as `toLowerCase()` lowers them. The *separator* ones (no-break and other spaces,
 *   the ellipsis, full-width punctuation) are separators whose NFKC is ASCII separators:
 *   tokens depend only on where separators are, not on which ones they are, so keeping them
 *   changes no token.
 *
 * `test/text-normalize.test.ts` checks each of these facts against the engine, code point by
 * code point, and the result against the plain step 1 on adversarial text.
 */

import type { ResolvedTextOptions } from './text-options.js';
import { normalizeText } from './text-options.js';

/**
 * The settled code points, as the negated class of a regular expression source: `FIXED` are
 * left alone by step 1, `SEPARATORS` become ASCII separators under NFKC.
 */
const FIXED =
  '\\x00-\\x7f' +
  '\\xa1-\\xa7\\xa9\\xab-\\xae\\xb0\\xb1\\xb6\\xb7\\xbb\\xbf\\xd7\\xdf-\\xff' +
  '\\u2010\\u2012-\\u2016\\u2018-\\u2023\\u2027\\u2030-\\u2032\\u2039\\u203a' +
  '\\u3001-\\u3003\\u3008-\\u3011\\u3014-\\u301b\\u3041-\\u3096\\u30a1-\\u30fa\\u30fc' +
  '\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7a3';
const SEPARATORS = '\\xa0\\u2002-\\u200a\\u2026\\u3000\\uff01-\\uff0f\\uff1a-\\uff20\\uff3b-\\uff40\\uff5b-\\uff5e';

/** The code points the tests check, as the same ranges: `[first, last]` pairs. */
export const SETTLED_FIXED: readonly (readonly [number, number])[] = ranges(FIXED);
export const SETTLED_SEPARATORS: readonly (readonly [number, number])[] = ranges(SEPARATORS);

/** A maximal run of code units outside ASCII. */
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;

const CAPITAL_SIGMA = '\u03a3';

/** A run longer than this (in code units) sends the whole text through step 1. */
const LONG_RUN = 24;

/** `settled[u]` is 1 iff BMP code unit `u` is settled; built on first use (64 KiB). */
let settled: Uint8Array | undefined;

function settledTable(): Uint8Array {
  if (settled === undefined) {
    settled = new Uint8Array(0x10000);
    for (const [first, last] of [...SETTLED_FIXED, ...SETTLED_SEPARATORS]) settled.fill(1, first, last + 1);
  }
  return settled;
}

/**
 * Checks that `text` is a string and applies step 1 where it matters, as described above: the
 * result differs from `normalizeText(text, options)` only in ASCII capitals (still to be
 * lowered when `options.lowercase`) and in separators.
 *
 * Runs outside ASCII are found first (ASCII is settled, and a regular expression over it is
 * fast); a run with an unsettled code unit is normalised together with the ASCII character
 * before it. Settled code points are all in the BMP and not surrogates, so a surrogate, paired
 * or lone, is never settled and a run never splits a pair.
 *
 * @throws {TypeError} naming `name` if `text` is not a string.
 */
export function normalizeRuns(text: unknown, options: ResolvedTextOptions, name = 'text'): string {
  if (typeof text !== 'string') return normalizeText(text, options, name);
  if (!options.normalize && !options.lowercase) return text;
  const table = settledTable();
  let out = '';
  let copied = 0;
  NON_ASCII_RUN.lastIndex = 0;
  for (let match = NON_ASCII_RUN.exec(text); match !== null; match = NON_ASCII_RUN.exec(text)) {
    const end = NON_ASCII_RUN.lastIndex;
    // Text mostly outside ASCII (Chinese, Russian) is cheaper through the engine in one go.
    if (end - match.index > LONG_RUN) return normalizeText(text, options, name);
    let i = match.index;
    while (i < end && table[text.charCodeAt(i)] === 1) i++;
    if (i === end) continue;
    const from = match.index > 0 ? match.index - 1 : 0;
    let piece = text.slice(from, end);
    if (options.normalize) piece = piece.normalize('NFKC');
    if (options.lowercase) {
      if (piece.includes(CAPITAL_SIGMA)) return normalizeText(text, options, name);
      piece = piece.toLowerCase();
    }
    out += text.slice(copied, from) + piece;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Parses the `first-last` and single code point escapes of a class source. */
function ranges(source: string): (readonly [number, number])[] {
  const out: (readonly [number, number])[] = [];
  for (const match of source.matchAll(/\\(?:x([0-9a-f]{2})|u([0-9a-f]{4}))(?:-\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})))?/g)) {
    const first = parseInt(match[1] ?? match[2]!, 16);
    const last = match[3] ?? match[4];
    out.push([first, last === undefined ? first : parseInt(last, 16)]);
  }
  return out;
}
