/**
 * The byte format of a saved `MinHashLSH`, version 2 (docs/specifications.md):
 * little-endian, magic `\x89SHMHL\r\n`, version, numPerm, bands, rows, threshold (f64), count,
 * the ids in the order they were added (distinct), their signatures in the same order, and a
 * CRC-32 of everything before it. The order is what `decideMany` breaks ties by (the signature
 * added first), so a loaded index decides as the saved one. Version 1 held the ids ascending,
 * and reads as if they had been added in that order. Shared by both entries, which therefore
 * load each other's bytes.
 */

import { crc32, IndexFormatError } from './index-format.js';
import { MAX_NUM_PERM } from './minhash-options.js';
import { describe } from './validate.js';

const MAGIC = Uint8Array.of(0x89, 0x53, 0x48, 0x4d, 0x48, 0x4c, 0x0d, 0x0a);
const VERSION = 2;
/** The version that held the ids ascending. */
const ASCENDING_VERSION = 1;
const HEADER_BYTES = 36;

/** What a saved index holds. */
export interface DecodedMinHashLsh {
  readonly numPerm: number;
  readonly bands: number;
  readonly rows: number;
  readonly threshold: number;
  readonly ids: Uint32Array;
  readonly signatures: Uint32Array;
}

/** Encodes an index whose `ids` are distinct, in the order they were added, and `signatures` in the same order. */
export function encodeMinHashLsh(index: DecodedMinHashLsh): Uint8Array {
  const n = index.ids.length;
  const end = HEADER_BYTES + 4 * n + 4 * n * index.numPerm;
  const bytes = new Uint8Array(end + 4);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC, 0);
  view.setUint32(8, VERSION, true);
  view.setUint32(12, index.numPerm, true);
  view.setUint32(16, index.bands, true);
  view.setUint32(20, index.rows, true);
  view.setFloat64(24, index.threshold, true);
  view.setUint32(32, n, true);
  let at = HEADER_BYTES;
  for (let i = 0; i < n; i++, at += 4) view.setUint32(at, index.ids[i]!, true);
  for (let i = 0; i < index.signatures.length; i++, at += 4) view.setUint32(at, index.signatures[i]!, true);
  view.setUint32(end, crc32(bytes.subarray(0, end)), true);
  return bytes;
}

function fail(problem: IndexFormatError['problem'], detail: string): IndexFormatError {
  return new IndexFormatError(problem, `bytes is not a saved MinHashLSH: ${detail}`);
}

/**
 * Decodes and checks saved bytes.
 *
 * @throws {TypeError} unless `bytes` is a `Uint8Array`.
 * @throws {IndexFormatError} naming the rule the bytes break.
 */
export function decodeMinHashLsh(bytes: unknown): DecodedMinHashLsh {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array, got ${describe(bytes)}`);
  if (bytes.length < MAGIC.length || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw fail('magic', 'it does not start with the magic bytes 89 53 48 4d 48 4c 0d 0a ("\\x89SHMHL\\r\\n")');
  }
  if (bytes.length < HEADER_BYTES + 4) throw fail('length', `${bytes.length} bytes are too few for the header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== VERSION && version !== ASCENDING_VERSION) throw fail('version', `it has format version ${version}; this library reads versions ${ASCENDING_VERSION} and ${VERSION}`);
  const numPerm = view.getUint32(12, true);
  const bands = view.getUint32(16, true);
  const rows = view.getUint32(20, true);
  const threshold = view.getFloat64(24, true);
  const n = view.getUint32(32, true);
  const validHeader = numPerm >= 1 && numPerm <= MAX_NUM_PERM && bands >= 1 && rows >= 1 && bands * rows <= numPerm && threshold > 0 && threshold <= 1;
  const end = HEADER_BYTES + 4 * n + 4 * n * numPerm;
  if (validHeader && bytes.length !== end + 4) throw fail('length', `${n} signatures of ${numPerm} need ${end + 4} bytes, got ${bytes.length}`);
  if (crc32(bytes.subarray(0, bytes.length - 4)) !== view.getUint32(bytes.length - 4, true)) throw fail('checksum', 'it is damaged (CRC-32 mismatch)');
  if (!validHeader) throw fail('header', `numPerm ${numPerm}, bands ${bands}, rows ${rows}, threshold ${threshold} do not fit together`);
  const ids = new Uint32Array(n);
  const seen = new Set<number>();
  let at = HEADER_BYTES;
  for (let i = 0; i < n; i++, at += 4) {
    ids[i] = view.getUint32(at, true);
    if (version === ASCENDING_VERSION && i > 0 && ids[i]! <= ids[i - 1]!) throw fail('ids', `ids must be strictly ascending in version 1 (at ${i})`);
    if (seen.has(ids[i]!)) throw fail('ids', `id ${ids[i]} is saved twice (at ${i})`);
    seen.add(ids[i]!);
  }
  const signatures = new Uint32Array(n * numPerm);
  for (let i = 0; i < signatures.length; i++, at += 4) signatures[i] = view.getUint32(at, true);
  return { numPerm, bands, rows, threshold, ids, signatures };
}
