/**
 * Step 3 of the text fingerprint specification: the class of a code point, from the committed
 * ranges of `ts/text-classes.ts`.
 */
import { RANGES, SEPARATOR } from '../shared/text-classes.js';

export { MARK, SEPARATOR, UNSEGMENTED, WORD } from '../shared/text-classes.js';

/**
 * The class of every code point of the Basic Multilingual Plane, where nearly all text lives:
 * one load instead of a binary search. Built on first use (64 KiB, well under a millisecond).
 */
let bmp: Uint8Array | undefined;

/** The table of the BMP's classes, building it if needed. */
export function bmpClasses(): Uint8Array {
  if (bmp === undefined) {
    bmp = new Uint8Array(0x10000);
    for (let r = 0; r < RANGES.length && RANGES[r]! < 0x10000; r += 3) {
      bmp.fill(RANGES[r + 2]!, RANGES[r]!, Math.min(RANGES[r + 1]!, 0xffff) + 1);
    }
  }
  return bmp;
}

/** The class of a code point above U+FFFF, by binary search over the ranges. */
export function astralClass(codePoint: number): number {
  let low = 0;
  let high = RANGES.length / 3;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (RANGES[3 * middle + 1]! < codePoint) low = middle + 1;
    else high = middle;
  }
  return low < RANGES.length / 3 && RANGES[3 * low]! <= codePoint ? RANGES[3 * low + 2]! : SEPARATOR;
}
