/**
 * The sketches `--method adaptive` decides on, made in bounded batches: per document its
 * word-pair signature and, when it is short, its word set and that set's signature.
 */

import { type TextSketches, sketchTexts } from '../shared/adaptive.js';
import { minhashMany } from '../wasm/minhash.js';
import { features } from '../wasm/text.js';

const engine = { features, minhashMany };

/** What is left of the documents once their texts are gone. */
export interface Sketched {
  readonly sketches: TextSketches;
  /** `ids[i]` names document i of the sketches. */
  readonly ids: readonly string[];
  /** `scores[i]`: the priority of document i (`--keep`), higher taken first. */
  readonly scores: readonly number[];
  /** Documents without a single word: they are not compared. */
  readonly featureless: readonly string[];
}

/** A batch is sketched once it holds this many documents... */
const BATCH_DOCUMENTS = 1024;
/** ...or this many UTF-16 code units of text, whichever comes first. */
const BATCH_CHARS = 8 << 20;

/** Collects documents and sketches them a batch at a time. */
export class TextSketchCollector {
  #texts: string[] = [];
  #pending: { id: string; score: number }[] = [];
  #chars = 0;
  readonly #long: Uint32Array[] = [];
  readonly #short: Uint32Array[] = [];
  readonly #words: (BigUint64Array | null)[] = [];
  readonly #ids: string[] = [];
  readonly #scores: number[] = [];
  readonly #featureless: string[] = [];

  /** Adds a document; its text is released once its batch is sketched. */
  add(id: string, text: string, score = 0): void {
    this.#texts.push(text);
    this.#pending.push({ id, score });
    this.#chars += text.length;
    if (this.#texts.length >= BATCH_DOCUMENTS || this.#chars >= BATCH_CHARS) this.#flush();
  }

  /** Sketches what is left and returns everything collected. */
  finish(): Sketched {
    this.#flush();
    const join = (parts: Uint32Array[]): Uint32Array => {
      const all = new Uint32Array(parts.reduce((sum, part) => sum + part.length, 0));
      let at = 0;
      for (const part of parts) {
        all.set(part, at);
        at += part.length;
      }
      return all;
    };
    return {
      sketches: { long: join(this.#long), short: join(this.#short), words: this.#words },
      ids: this.#ids,
      scores: this.#scores,
      featureless: this.#featureless,
    };
  }

  #flush(): void {
    if (this.#texts.length === 0) return;
    const batch = sketchTexts(engine, this.#texts);
    const k = batch.long.length / this.#texts.length;
    const long = new Uint32Array(batch.long.length);
    let kept = 0;
    // Short signatures come in the order of the short texts, wordless ones among them.
    let short = 0;
    batch.words.forEach((words, i) => {
      const { id, score } = this.#pending[i]!;
      const wordless = words !== null && words.length === 0;
      if (words !== null) short++;
      if (wordless) {
        this.#featureless.push(id);
        return;
      }
      long.set(batch.long.subarray(i * k, (i + 1) * k), kept++ * k);
      if (words !== null) this.#short.push(batch.short.slice((short - 1) * k, short * k));
      this.#ids.push(id);
      this.#scores.push(score);
      this.#words.push(words);
    });
    this.#long.push(long.subarray(0, kept * k));
    this.#texts = [];
    this.#pending = [];
    this.#chars = 0;
  }
}
