/**
 * Numbers in short lines under text decision specification v3, the twin of the Rust core's
 * `adaptive::numbers`: a number in a release (a `.` between it and a digit, or a `-` or `~`
 * joining it to a release before it: `5.14.2`, `python3.11`, `6.1.0-47`) is a word of its own, its token and
 * {@link RELEASE_MARK}; a number that a single `-` joins to the token before it, in no release,
 * is a name's (`ISO 8859-1`, `SHA-2`), a heavy word of its own, its token and {@link NAME_MARK};
 * any other number is bare, and two lines that hold bare numbers the other lacks are the same
 * line only when at most one number is replaced, by one one edit from it (one apart, or of as
 * many digits with one changed); numbers added or dropped besides are versions. A bare number
 * is kept as its digits packed in 64 bits (four each, at most {@link PACKED_DIGITS}, their count
 * on top).
 */

/** The byte that follows a release number's token in its word. */
export const RELEASE_MARK = 0x2e;
/** The byte that follows the token of a name's part (a number after a hyphen, a common word that begins a compound) in its word (`-`: no token holds it). */
export const NAME_MARK = 0x2d;
/** A word that is no bare number. */
export const NOT_A_NUMBER = 0xffff_ffff_ffff_ffffn;
/** A bare number of more than {@link PACKED_DIGITS} digits: one edit from no other. */
export const LONG_NUMBER = 0xffff_ffff_ffff_fffen;
/** The most digits a packed number holds. */
export const PACKED_DIGITS = 15;

const ORDINALS = ['st', 'nd', 'rd', 'th'];
const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39;

/** The digits of a number token (digits, `v` and digits, or digits and an ordinal suffix), else `undefined`. */
export function digitsOf(token: Uint8Array): string | undefined {
  const text = String.fromCharCode(...token);
  const ordinal = ORDINALS.find((suffix) => text.length > 2 && text.endsWith(suffix));
  const digits = ordinal !== undefined ? text.slice(0, -2) : text.startsWith('v') ? text.slice(1) : text;
  return digits.length > 0 && /^[0-9]+$/.test(digits) ? digits : undefined;
}

/** The packed digits of a bare number. */
export function pack(digits: string): bigint {
  if (digits.length > PACKED_DIGITS) return LONG_NUMBER;
  let packed = 0n;
  for (const d of digits) packed = (packed << 4n) | BigInt(d.charCodeAt(0) - 0x30);
  return packed | (BigInt(digits.length) << 60n);
}

/** The digits a packed number holds. */
function unpack(packed: bigint): string {
  const length = Number(packed >> 60n);
  let digits = '';
  for (let i = length - 1; i >= 0; i--) digits += String(Number((packed >> BigInt(4 * i)) & 0xfn));
  return digits;
}

/** Whether `packed` is what {@link pack} makes of some digits. */
export function packsANumber(packed: bigint): boolean {
  if (packed === LONG_NUMBER) return true;
  const length = Number(packed >> 60n);
  if (length < 1 || length > PACKED_DIGITS || (packed & ((1n << 60n) - 1n)) >> BigInt(4 * length) !== 0n) return false;
  for (let i = 0; i < length; i++) if (((packed >> BigInt(4 * i)) & 0xfn) > 9n) return false;
  return true;
}

/** Whether two packed bare numbers are one edit apart: one apart, or of as many digits with one changed. */
export function oneEdit(a: bigint, b: bigint): boolean {
  if (a === LONG_NUMBER || b === LONG_NUMBER || a === NOT_A_NUMBER || b === NOT_A_NUMBER) return false;
  const [da, db] = [unpack(a), unpack(b)];
  const apart = BigInt(da) - BigInt(db);
  if (apart >= -1n && apart <= 1n) return true;
  let changed = 0;
  for (let i = 0; i < da.length; i++) if (da[i] !== db[i]) changed++;
  return da.length === db.length && changed <= 1;
}

/**
 * Whether the bare numbers only x holds (`nx`) and only y holds (`ny`), packed, leave two lines
 * the same line: at most one number replaced, by one one edit from it (numbers added or dropped
 * besides are versions).
 */
export function agree(nx: readonly bigint[], ny: readonly bigint[]): boolean {
  const [fewer, more] = nx.length <= ny.length ? [nx, ny] : [ny, nx];
  if (fewer.length > 1) return false;
  return fewer.length === 0 || more.some((b) => oneEdit(fewer[0]!, b));
}

/**
 * Whether the number token `bytes[start, end)` stands in a release: a `.` and a digit after it,
 * a digit and a `.` before it, or a single `-` or `~` after a release word that ended at
 * `previousRelease`.
 */
export function inRelease(bytes: Uint8Array, start: number, end: number, previousRelease: number | undefined): boolean {
  const dotAfter = bytes[end] === 0x2e && isDigit(bytes[end + 1]);
  const dotBefore = start >= 2 && bytes[start - 1] === 0x2e && isDigit(bytes[start - 2]);
  const joined = previousRelease !== undefined && start === previousRelease + 1 && (bytes[previousRelease] === 0x2d || bytes[previousRelease] === 0x7e);
  return dotAfter || dotBefore || joined;
}
