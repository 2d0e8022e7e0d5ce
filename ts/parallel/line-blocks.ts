/** Cutting a byte stream into blocks of whole lines, each in a buffer of its own to transfer. */

import { describe } from '../shared/validate.js';

const NEWLINE = 0x0a;

/**
 * The bytes of `chunks` in blocks of whole lines: each block ends with `\n` (the last one only
 * if the input does) and holds at least `target` bytes unless it is the last, or a line is
 * longer. Each block is a view from the start of a buffer no other block shares, so it can be
 * transferred; the chunks are copied and may be reused once the next is asked for.
 *
 * @throws {TypeError} for a chunk that is not a `Uint8Array`.
 */
export async function* lineBlocks(
  chunks: AsyncIterable<unknown> | Iterable<unknown>,
  target: number,
): AsyncGenerator<Uint8Array, void, undefined> {
  let buffer = new Uint8Array(2 * target);
  let used = 0;
  let index = 0;
  for await (const chunk of chunks) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError(`chunks[${index}] must be a Uint8Array, got ${describe(chunk)}`);
    index++;
    if (used + chunk.length > buffer.length) {
      const grown = new Uint8Array(Math.max(2 * buffer.length, used + chunk.length));
      grown.set(buffer.subarray(0, used));
      buffer = grown;
    }
    buffer.set(chunk, used);
    const from = used;
    used += chunk.length;
    if (used < target) continue;
    // Only the new bytes are searched: a line longer than many chunks costs linear time.
    const cut = buffer.subarray(from, used).lastIndexOf(NEWLINE);
    const end = from + cut + 1;
    if (cut === -1 || end < target) continue;
    const full = buffer;
    buffer = new Uint8Array(Math.max(2 * target, used - end));
    buffer.set(full.subarray(end, used));
    used -= end;
    yield full.subarray(0, end);
  }
  if (used > 0) yield buffer.subarray(0, used);
}
