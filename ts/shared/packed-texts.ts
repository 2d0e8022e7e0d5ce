/**
 * Texts packed to cross to a worker cheaply: the ASCII ones (almost all, in most corpora) as
 * their bytes back to back in one transferable buffer, the others as strings. An ASCII text's
 * bytes are what the text path writes for it (normalisation leaves ASCII alone; capitals are
 * lowered later, in WebAssembly), so the worker copies them instead of decoding and re-encoding
 * strings, and this thread writes bytes instead of cloning strings.
 */

/** A batch of texts in the packed form. */
export interface PackedTexts {
  /** The ASCII texts' bytes, in text order. */
  readonly ascii: Uint8Array;
  /** `ends[i]`: where text `i`'s bytes end in `ascii` (the previous end for a text sent as a string). */
  readonly ends: Uint32Array;
  /** The texts that are not all ASCII, in text order... */
  readonly strings: readonly string[];
  /** ...and the position of each in the batch. */
  readonly stringAt: Uint32Array;
}

/** Node's `Buffer` write, much faster than `TextEncoder.encodeInto` for short strings. */
interface NodeBuffer extends Uint8Array {
  utf8Write(text: string, offset: number): number;
}
type BufferClass = { allocUnsafeSlow(size: number): NodeBuffer };

const encoder = new TextEncoder();

/**
 * Packs `texts`. Each text is written as UTF-8 with room for its worst case (3 bytes per code
 * unit), so a text written whole in as many bytes as it has code units is ASCII; any other is
 * rolled back and sent as a string.
 */
export function packTexts(texts: readonly string[]): PackedTexts {
  let units = 0;
  let longest = 0;
  for (const text of texts) {
    units += text.length;
    if (text.length > longest) longest = text.length;
  }
  // Rolled-back texts leave the write position at most `units` in, so room for `longest`
  // three times over always remains: a text is never cut short.
  const capacity = units + 2 * longest;
  const NodeBuffer = (globalThis as unknown as { Buffer?: BufferClass }).Buffer;
  const ascii = NodeBuffer === undefined ? new Uint8Array(capacity) : NodeBuffer.allocUnsafeSlow(capacity);
  const write: (text: string, at: number) => number =
    NodeBuffer === undefined
      ? (text, at) => {
          const done = encoder.encodeInto(text, ascii.subarray(at));
          return done.read === text.length ? done.written : -1;
        }
      : (text, at) => (ascii as NodeBuffer).utf8Write(text, at);
  const ends = new Uint32Array(texts.length);
  const strings: string[] = [];
  const stringAt: number[] = [];
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    if (text.length > 0 && write(text, at) !== text.length) {
      strings.push(text);
      stringAt.push(i);
    } else {
      at += text.length;
    }
    ends[i] = at;
  }
  // `allocUnsafeSlow` never hands out a slice of Node's shared pool: the buffer is ours to transfer.
  return { ascii: new Uint8Array(ascii.buffer, ascii.byteOffset, at), ends, strings, stringAt: Uint32Array.from(stringAt) };
}
