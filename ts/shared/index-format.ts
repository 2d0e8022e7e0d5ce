/**
 * The byte format of a saved `SimHashIndex`, versions 1 and 2, shared by both entries: the pure entry
 * encodes and decodes with it; the WebAssembly entry decodes in Rust
 * (crates/simhash-core/src/index_format.rs, the same layout) and builds its errors here, so
 * both entries fail alike. The layout is in docs/specifications.md.
 */

import { PARTS_CODE } from './filter.js';
import { MAX_TABLES, describe } from './validate.js';

/** The first 8 bytes: `\x89SHIDX\r\n`. */
const MAGIC = Uint8Array.of(0x89, 0x53, 0x48, 0x49, 0x44, 0x58, 0x0d, 0x0a);

/** The version written when the index fixes a part layout (0x80 + parts in byte 11). */
const VERSION = 2;
/** The version written when no part layout is fixed, which earlier releases also read. */
const PLAIN_VERSION = 1;

/** Bytes before the fingerprints. */
const HEADER_BYTES = 16;

/** Bytes of a saved index of `n` entries. */
function encodedLength(n: number): number {
  return HEADER_BYTES + 12 * n + 4;
}

/** What is wrong with bytes that are not a saved index, in the Rust core's numbering. */
export type IndexFormatProblem = 'magic' | 'version' | 'length' | 'checksum' | 'header' | 'ids' | 'contents';

const PROBLEMS: readonly IndexFormatProblem[] = ['magic', 'version', 'length', 'checksum', 'header', 'ids', 'contents'];

/** First status code of the WebAssembly functions that means "not a saved index". */
const FIRST_FORMAT_STATUS = 32;

/**
 * Thrown by `SimHashIndex.deserialize` for bytes that are not a saved index: truncated,
 * damaged, of another format version, or not an index at all. A `RangeError` (the argument
 * has the right type but breaks the format), with `problem` saying which rule it breaks.
 */
export class IndexFormatError extends RangeError {
  /** Which rule of the format the bytes break. */
  readonly problem: IndexFormatProblem;

  constructor(problem: IndexFormatProblem, message: string) {
    super(message);
    this.name = 'IndexFormatError';
    this.problem = problem;
  }
}

/** The problem a WebAssembly status code stands for, or `undefined` for other codes. */
export function problemOfStatus(status: number): IndexFormatProblem | undefined {
  return PROBLEMS[status - FIRST_FORMAT_STATUS];
}

/** The error for `bytes` having `problem`, with what the bytes tell about it. */
export function indexFormatError(problem: IndexFormatProblem, bytes: Uint8Array): IndexFormatError {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const what = 'bytes is not a saved SimHashIndex';
  switch (problem) {
    case 'magic':
      return new IndexFormatError(problem, `${what}: it does not start with the magic bytes 89 53 48 49 44 58 0d 0a ("\\x89SHIDX\\r\\n")`);
    case 'version':
      return new IndexFormatError(
        problem,
        `${what} this version can read: it has format version ${view.getUint16(8, true)}, and this version reads versions ${PLAIN_VERSION} and ${VERSION}`,
      );
    case 'length': {
      if (bytes.length < HEADER_BYTES) {
        return new IndexFormatError(problem, `${what}: it is truncated (${bytes.length} bytes, shorter than the ${HEADER_BYTES}-byte header)`);
      }
      const n = view.getUint32(12, true);
      const expected = encodedLength(n);
      const kind = bytes.length < expected ? 'truncated' : 'followed by extra bytes';
      return new IndexFormatError(
        problem,
        `${what}: it is ${kind} (${bytes.length} bytes, but its header announces ${n} ${n === 1 ? 'entry' : 'entries'}, ${expected} bytes)`,
      );
    }
    case 'checksum': {
      const end = bytes.length - 4;
      return new IndexFormatError(
        problem,
        `${what}: it is damaged (its CRC-32 is ${hex(view.getUint32(end, true))}, its content gives ${hex(crc32(bytes.subarray(0, end)))})`,
      );
    }
    case 'header':
      return new IndexFormatError(
        problem,
        `${what}: its header is invalid (distance ${bytes[10]}, filter ${bytes[11]}; distance must be in 0..64, and the filter 0, blocks with distance < blocks <= 64 and at most ${MAX_TABLES} tables, or in version 2 0x80 + parts with parts in 1..64)`,
      );
    case 'ids':
      return new IndexFormatError(problem, `${what}: its ids are not strictly increasing (entry ${firstUnorderedId(bytes)})`);
    case 'contents':
      // (A status only a text index gives.)
      return new IndexFormatError(problem, `${what}: its contents break the format`);
  }
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}

/** Index of the first id not above the one before it, in valid-length bytes. */
function firstUnorderedId(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(12, true);
  const start = HEADER_BYTES + 8 * n;
  for (let k = 1; k < n; k++) {
    if (view.getUint32(start + 4 * k, true) <= view.getUint32(start + 4 * (k - 1), true)) return k;
  }
  return -1;
}

/** Checks the argument of `SimHashIndex.deserialize`. */
export function checkIndexBytes(bytes: unknown): Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, got ${describe(bytes)}`);
  return bytes;
}

/** A decoded index: parameters, and entries in increasing id order. */
export interface DecodedIndex {
  readonly distance: number;
  /** The filter code (see `filter.ts`); 0 when the planner chooses. */
  readonly filter: number;
  readonly ids: Uint32Array;
  /** Fingerprints as 32-bit halves, low half first. */
  readonly words: Uint32Array;
}

/**
 * Checks and decodes `bytes`, in the order that gives the most telling error (the Rust core's
 * order): magic, version, length, checksum, then the fields a checksum cannot vouch for.
 *
 * @throws {IndexFormatError} naming the first problem found.
 */
export function decodeIndex(bytes: Uint8Array): DecodedIndex {
  const magicLength = Math.min(bytes.length, MAGIC.length);
  for (let i = 0; i < magicLength; i++) {
    if (bytes[i] !== MAGIC[i]) throw indexFormatError('magic', bytes);
  }
  if (bytes.length < HEADER_BYTES) throw indexFormatError('length', bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(8, true);
  if (version !== VERSION && version !== PLAIN_VERSION) throw indexFormatError('version', bytes);
  const n = view.getUint32(12, true);
  if (bytes.length !== encodedLength(n)) throw indexFormatError('length', bytes);
  const end = bytes.length - 4;
  if (crc32(bytes.subarray(0, end)) !== view.getUint32(end, true)) throw indexFormatError('checksum', bytes);
  const distance = bytes[10]!;
  let filter = bytes[11]!;
  // Releases before the cap wrote layouts of up to 2^16 tables: such an index loads with the
  // layout the host plans (the same answers), and no table of the one named is ever built.
  if (filter <= PARTS_CODE && distance < filter && filter <= 64) {
    const tables = tableCount(filter, distance);
    if (tables > MAX_TABLES && tables <= LEGACY_MAX_TABLES) filter = 0;
  }
  const validFilter =
    filter === 0 ||
    (filter > PARTS_CODE ? version === VERSION && filter <= PARTS_CODE + 64 : validBlocks(filter, distance));
  if (distance > 64 || !validFilter) throw indexFormatError('header', bytes);
  // Copies into fresh arrays: the input's offset need not suit 32-bit views.
  const words = new Uint32Array(2 * n);
  new Uint8Array(words.buffer).set(bytes.subarray(HEADER_BYTES, HEADER_BYTES + 8 * n));
  const ids = new Uint32Array(n);
  new Uint8Array(ids.buffer).set(bytes.subarray(HEADER_BYTES + 8 * n, end));
  for (let k = 1; k < n; k++) {
    if (ids[k]! <= ids[k - 1]!) throw indexFormatError('ids', bytes);
  }
  return { distance, filter, ids, words };
}

/** The most tables a layout saved by an earlier release may name. */
const LEGACY_MAX_TABLES = 1 << 16;

/** `C(blocks, distance)`, exact below 2^53. */
function tableCount(blocks: number, distance: number): number {
  let tables = 1;
  for (let i = 1; i <= distance; i++) tables = (tables * (blocks - distance + i)) / i;
  return Math.round(tables);
}

function validBlocks(blocks: number, distance: number): boolean {
  if (blocks <= distance || blocks > 64) return false;
  return tableCount(blocks, distance) <= MAX_TABLES;
}

/**
 * The bytes of an index with these parameters and entries: `ids` strictly increasing, and the
 * fingerprint of `ids[k]` at `words[2k]` (low half) and `words[2k + 1]`.
 */
export function encodeIndex(distance: number, filter: number, ids: Uint32Array, words: Uint32Array): Uint8Array {
  const n = ids.length;
  const bytes = new Uint8Array(encodedLength(n));
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC);
  view.setUint16(8, filter > PARTS_CODE ? VERSION : PLAIN_VERSION, true);
  bytes[10] = distance;
  bytes[11] = filter;
  view.setUint32(12, n, true);
  bytes.set(new Uint8Array(words.buffer, words.byteOffset, 8 * n), HEADER_BYTES);
  bytes.set(new Uint8Array(ids.buffer, ids.byteOffset, 4 * n), HEADER_BYTES + 8 * n);
  const end = bytes.length - 4;
  view.setUint32(end, crc32(bytes.subarray(0, end)), true);
  return bytes;
}

/** Slicing-by-4 tables of CRC-32 (zlib's), built on first use. */
let crcTables: Uint32Array | null = null;

function tables(): Uint32Array {
  if (crcTables !== null) return crcTables;
  const t = new Uint32Array(4 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb8_8320 ^ (c >>> 1) : c >>> 1;
    t[i] = c;
  }
  for (let i = 0; i < 256; i++) {
    for (let s = 1; s < 4; s++) {
      const previous = t[(s - 1) * 256 + i]!;
      t[s * 256 + i] = (previous >>> 8) ^ t[previous & 0xff]!;
    }
  }
  crcTables = t;
  return t;
}

/** CRC-32 as zlib, PNG and gzip compute it, four bytes per step. */
export function crc32(bytes: Uint8Array): number {
  const t = tables();
  let crc = 0xffff_ffff;
  const whole = bytes.length & ~3;
  for (let i = 0; i < whole; i += 4) {
    crc ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    crc = t[768 + (crc & 0xff)]! ^ t[512 + ((crc >>> 8) & 0xff)]! ^ t[256 + ((crc >>> 16) & 0xff)]! ^ t[crc >>> 24]!;
  }
  for (let i = whole; i < bytes.length; i++) crc = (crc >>> 8) ^ t[(crc ^ bytes[i]!) & 0xff]!;
  return (crc ^ 0xffff_ffff) >>> 0;
}
