/**
 * Buffers the text fingerprint reuses from one text to the next, so that fingerprinting many
 * small texts allocates next to nothing. Nothing in the pipeline calls back into user code, so
 * one set is enough.
 */

/** Scratch larger than this is let go after each call rather than kept for the next. */
const KEEP_BYTES = 1 << 24;

const encoder = new TextEncoder();

/** The UTF-8 of the text being fingerprinted. */
let text = new Uint8Array(1024);
let textView = new DataView(text.buffer);
/** Its unit hashes, 8 little-endian bytes each. */
let units = new DataView(new ArrayBuffer(8192));
/** Its shingle hashes as 32-bit halves, low half first. */
let shingles = new Uint32Array(2048);

/** The UTF-8 encoding of a string, held in scratch until the next {@link encode}. */
export interface Encoded {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly length: number;
}

/**
 * Encodes `value` as UTF-8 (a lone surrogate as U+FFFD, as `TextEncoder` does) into scratch,
 * with ASCII capitals lowered if `lowercaseAscii`, and makes sure the unit and shingle scratch
 * can take every unit it may contain.
 */
export function encode(value: string, lowercaseAscii: boolean): Encoded {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  if (text.length < 3 * value.length) {
    text = new Uint8Array(Math.max(3 * value.length, 2 * text.length));
    textView = new DataView(text.buffer);
  }
  const length = encoder.encodeInto(value, text).written;
  if (lowercaseAscii) {
    for (let i = 0; i < length; i++) {
      const b = text[i]!;
      if (b >= 0x41 && b <= 0x5a) text[i] = b | 0x20;
    }
  }
  // A unit takes at least one byte, and a text has no more shingles than units.
  if (units.byteLength < 8 * length) units = new DataView(new ArrayBuffer(Math.max(8 * length, 2 * units.byteLength)));
  if (shingles.length < 2 * length) shingles = new Uint32Array(Math.max(2 * length, 2 * shingles.length));
  return { bytes: text, view: textView, length };
}

/** The unit scratch, sized by the last {@link encode}. */
export function unitScratch(): DataView {
  return units;
}

/** The shingle scratch, sized by the last {@link encode}. */
export function shingleScratch(): Uint32Array {
  return shingles;
}

/** Lets go of scratch a very long text made large. */
export function trimScratch(): void {
  if (text.length > KEEP_BYTES) {
    text = new Uint8Array(1024);
    textView = new DataView(text.buffer);
  }
  if (units.byteLength > KEEP_BYTES) units = new DataView(new ArrayBuffer(8192));
  if (shingles.byteLength > KEEP_BYTES) shingles = new Uint32Array(2048);
}
