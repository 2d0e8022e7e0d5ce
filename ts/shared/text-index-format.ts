/**
 * The byte format of a saved `TextIndex`, version 3, shared by both entries: the pure entry
 * encodes and decodes with it; the WebAssembly entry decodes in Rust
 * (crates/simhash-core/src/adaptive/format.rs, the same layout) and builds its errors here, so
 * both entries fail alike. The layout is in docs/specifications.md.
 */

import { IndexFormatError, crc32, type IndexFormatProblem } from './index-format.js';

/** The first 8 bytes: `\x89SHTXT\r\n`. */
const MAGIC = Uint8Array.of(0x89, 0x53, 0x48, 0x54, 0x58, 0x54, 0x0d, 0x0a);
const VERSION = 3;
const HEADER_BYTES = 36;
/** Values of a word-pair signature. */
const SIGNATURE = 128;

/** A text index's columns: its words, then its texts in the order they were taken. */
export interface TextIndexColumns {
  readonly templates: boolean;
  /** Per word: unit hash, base, kind (0 heavy, 1 light, 2 a bare number, its one key its packed digits), end of its keys in `typoKeys`. */
  readonly hash: BigUint64Array;
  readonly base: Uint32Array;
  readonly light: Uint8Array;
  readonly typoKeyEnds: Uint32Array;
  readonly typoKeys: BigUint64Array;
  /** Per text: id, state (0 removed as a near-duplicate, 1 kept, 2 kept then removed), kind. */
  readonly ids: Uint32Array;
  readonly states: Uint8Array;
  readonly kinds: Uint8Array;
  /** Per text: end of its words (ascending ids) in `words`, of its shape in `shapes`. */
  readonly wordEnds: Uint32Array;
  readonly words: Uint32Array;
  readonly shapeEnds: Uint32Array;
  readonly shapes: Uint16Array;
  /** Per text: its signature's number in `signatures` (128 values each), or 0xFFFFFFFF. */
  readonly signatureOf: Uint32Array;
  readonly signatures: Uint32Array;
}

/** Bytes of the columns the header's counts announce. */
function encodedLength(v: number, k: number, n: number, w: number, s: number, g: number): number {
  return HEADER_BYTES + 17 * v + 8 * k + 18 * n + 4 * w + 2 * s + 4 * SIGNATURE * g + 4;
}

/** The columns as bytes. */
export function encodeTextIndex(c: TextIndexColumns): Uint8Array {
  const [v, k, n, w, s, g] = [c.hash.length, c.typoKeys.length, c.ids.length, c.words.length, c.shapes.length, c.signatures.length / SIGNATURE];
  const out = new Uint8Array(encodedLength(v, k, n, w, s, g));
  const view = new DataView(out.buffer);
  out.set(MAGIC);
  view.setUint16(8, VERSION, true);
  out[10] = c.templates ? 1 : 0;
  [v, k, n, w, s, g].forEach((count, i) => view.setUint32(12 + 4 * i, count, true));
  let at = HEADER_BYTES;
  const put = (values: ArrayLike<number | bigint>, bytes: 1 | 2 | 4 | 8): void => {
    for (let i = 0; i < values.length; i++, at += bytes) {
      const value = values[i]!;
      if (bytes === 8) view.setBigUint64(at, value as bigint, true);
      else if (bytes === 4) view.setUint32(at, value as number, true);
      else if (bytes === 2) view.setUint16(at, value as number, true);
      else out[at] = value as number;
    }
  };
  put(c.hash, 8);
  put(c.base, 4);
  put(c.light, 1);
  put(c.typoKeyEnds, 4);
  put(c.typoKeys, 8);
  put(c.ids, 4);
  put(c.states, 1);
  put(c.kinds, 1);
  put(c.wordEnds, 4);
  put(c.words, 4);
  put(c.shapeEnds, 4);
  put(c.shapes, 2);
  put(c.signatureOf, 4);
  put(c.signatures, 4);
  view.setUint32(at, crc32(out.subarray(0, at)), true);
  return out;
}

/**
 * Checks the frame of `bytes` and reads its columns: magic, version, length, checksum, header.
 * The fields a checksum cannot vouch for are the engine's to check, as it builds on them.
 *
 * @throws {IndexFormatError} naming the first problem found.
 */
export function decodeTextIndex(bytes: Uint8Array): TextIndexColumns {
  for (let i = 0; i < Math.min(bytes.length, MAGIC.length); i++) {
    if (bytes[i] !== MAGIC[i]) throw textIndexFormatError('magic', bytes);
  }
  if (bytes.length < HEADER_BYTES + 4) throw textIndexFormatError('length', bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint16(8, true) !== VERSION) throw textIndexFormatError('version', bytes);
  const counts = [0, 1, 2, 3, 4, 5].map((i) => view.getUint32(12 + 4 * i, true));
  const [v, k, n, w, s, g] = counts as [number, number, number, number, number, number];
  if (bytes.length !== encodedLength(v, k, n, w, s, g)) throw textIndexFormatError('length', bytes);
  const end = bytes.length - 4;
  if (crc32(bytes.subarray(0, end)) !== view.getUint32(end, true)) throw textIndexFormatError('checksum', bytes);
  if (bytes[10]! > 1 || bytes[11] !== 0) throw textIndexFormatError('header', bytes);
  let at = HEADER_BYTES;
  const take = <T>(count: number, bytesEach: number, make: (count: number) => T, read: (out: T, i: number, at: number) => void): T => {
    const out = make(count);
    for (let i = 0; i < count; i++, at += bytesEach) read(out, i, at);
    return out;
  };
  const u64 = (count: number): BigUint64Array => take(count, 8, (c) => new BigUint64Array(c), (o, i, p) => (o[i] = view.getBigUint64(p, true)));
  const u32 = (count: number): Uint32Array => take(count, 4, (c) => new Uint32Array(c), (o, i, p) => (o[i] = view.getUint32(p, true)));
  const u16 = (count: number): Uint16Array => take(count, 2, (c) => new Uint16Array(c), (o, i, p) => (o[i] = view.getUint16(p, true)));
  const u8 = (count: number): Uint8Array => {
    const out = bytes.slice(at, at + count);
    at += count;
    return out;
  };
  return {
    templates: bytes[10] === 1,
    hash: u64(v),
    base: u32(v),
    light: u8(v),
    typoKeyEnds: u32(v),
    typoKeys: u64(k),
    ids: u32(n),
    states: u8(n),
    kinds: u8(n),
    wordEnds: u32(n),
    words: u32(w),
    shapeEnds: u32(n),
    shapes: u16(s),
    signatureOf: u32(n),
    signatures: u32(SIGNATURE * g),
  };
}

/** The error for bytes that are not a saved text index, by the rule they break. */
export function textIndexFormatError(problem: IndexFormatProblem, bytes: Uint8Array): IndexFormatError {
  const what = 'bytes is not a saved TextIndex';
  const because: Record<IndexFormatProblem, string> = {
    magic: 'it does not start with the magic bytes 89 53 48 54 58 54 0d 0a ("\\x89SHTXT\\r\\n")',
    version: `its format version is ${bytes.length >= 10 ? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(8, true) : 'missing'}, and this version reads version ${VERSION}`,
    length: `its length (${bytes.length} bytes) does not match the counts in its ${HEADER_BYTES}-byte header`,
    checksum: 'its CRC-32 does not match its content: it is damaged',
    header: `its rule byte is ${bytes[10]} (0 or 1) or its reserved byte ${bytes[11]} (0)`,
    ids: 'two kept texts hold one id',
    contents: 'its columns break the format (a word, end, kind, shape or signature out of place)',
  };
  return new IndexFormatError(problem, `${what}: ${because[problem]}`);
}
