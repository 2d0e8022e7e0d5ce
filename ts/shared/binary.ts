/** Telling binary files from text. */

/** How many leading bytes are looked at. */
export const BINARY_PROBE_BYTES = 1024;

/**
 * Whether `bytes` (the start of a file) look binary: a NUL byte among the first
 * {@link BINARY_PROBE_BYTES}. Text in UTF-8 never contains NUL, while images, archives, object
 * files and UTF-16 text nearly always do early on. This is git's and grep's test.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
}
