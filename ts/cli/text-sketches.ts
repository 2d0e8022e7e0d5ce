/**
 * The sketches `--method adaptive` decides on, made in bounded batches: texts are released once
 * their batch is sketched, and the sketches (a word set or a word-pair signature per document)
 * stay in WebAssembly memory until the decision.
 */

import { TextKind } from '../shared/adaptive.js';
import type { MinHashDecisions } from '../shared/decide.js';
import { WasmTextSketches } from '../wasm/text-sketches.js';

/** What is left of the documents once their texts are gone. */
export interface Sketched {
  /** `ids[i]` names document i of the decisions. */
  readonly ids: readonly string[];
  /** `scores[i]`: the priority of document i (`--keep`), higher taken first. */
  readonly scores: readonly number[];
  /** Documents without a single word: they are not compared. */
  readonly featureless: readonly string[];
  /** The decisions over the documents with words, taken in `order` (positions of `ids`); frees the sketches. */
  readonly decide: (order: Uint32Array) => MinHashDecisions;
}

/** A batch is sketched once it holds this many documents... */
const BATCH_DOCUMENTS = 1024;
/** ...or this many UTF-16 code units of text, whichever comes first. */
const BATCH_CHARS = 8 << 20;

/** Collects documents and sketches them a batch at a time. */
export class TextSketchCollector {
  readonly #set = new WasmTextSketches();
  #texts: string[] = [];
  #chars = 0;
  readonly #ids: string[] = [];
  readonly #scores: number[] = [];

  /** Adds a document; its text is released once its batch is sketched. */
  add(id: string, text: string, score = 0): void {
    this.#texts.push(text);
    this.#ids.push(id);
    this.#scores.push(score);
    this.#chars += text.length;
    if (this.#texts.length >= BATCH_DOCUMENTS || this.#chars >= BATCH_CHARS) this.#flush();
  }

  /** Sketches what is left and returns everything collected. */
  finish(): Sketched {
    this.#flush();
    const set = this.#set;
    const kinds = set.kinds();
    // Documents with words, by their position among all, and the way back.
    const positions: number[] = [];
    const featureless: string[] = [];
    kinds.forEach((kind, i) => (kind === TextKind.wordless ? featureless.push(this.#ids[i]!) : positions.push(i)));
    const compact = new Int32Array(kinds.length).fill(-1);
    positions.forEach((position, i) => (compact[position] = i));
    return {
      ids: positions.map((p) => this.#ids[p]!),
      scores: positions.map((p) => this.#scores[p]!),
      featureless,
      decide: (order) => {
        // Wordless documents are kept without a look wherever they are taken: last will do.
        const all = new Uint32Array(kinds.length);
        order.forEach((i, rank) => (all[rank] = positions[i]!));
        let rank = order.length;
        kinds.forEach((kind, i) => kind === TextKind.wordless && (all[rank++] = i));
        try {
          const decided = set.decide(all);
          return {
            representative: Uint32Array.from(positions, (p) => compact[decided.representative[p]!]!),
            similarity: Float64Array.from(positions, (p) => decided.similarity[p]!),
          };
        } finally {
          set.free();
        }
      },
    };
  }

  #flush(): void {
    if (this.#texts.length === 0) return;
    this.#set.add(this.#texts);
    this.#texts = [];
    this.#chars = 0;
  }
}
