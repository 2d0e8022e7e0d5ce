/**
 * The sketches `--method adaptive` decides on, made in bounded batches: texts are released once
 * their batch is sketched, and the sketches (a word set or a word-pair signature per document)
 * stay in WebAssembly memory until the decision.
 */

import type { MinHashDecisions } from '../shared/decide.js';
import { TextSketches } from '../wasm/text-sketches.js';
import { Batches } from './batches.js';

/** What is left of the documents once their texts are gone. */
export interface Sketched {
  /** `ids[i]` names document i of the decisions. */
  readonly ids: readonly string[];
  /** `scores[i]`: the priority of document i (`--keep`), higher taken first. */
  readonly scores: readonly number[];
  /** Documents without a single word: they are not compared. */
  readonly featureless: readonly string[];
  /** Their positions among all added, ascending. */
  readonly featurelessAt: readonly number[];
  /**
   * The decisions over the documents with words (positions of `ids`), taken by `priority`
   * (input order when undefined); frees the sketches.
   */
  readonly decide: (priority: Float64Array | undefined) => MinHashDecisions;
  /** The texts of the documents with words (`ids[i]`'s is `texts[i]`), when the collector kept them for a shared index. */
  readonly texts?: readonly string[];
}

/**
 * Collects documents and sketches them a batch at a time; with `keepTexts` (for `--redis`, where
 * the shared index takes the texts themselves) it also keeps the texts of those with words.
 */
export class TextSketchCollector {
  readonly #sketches = new TextSketches();
  readonly #kept: string[] | undefined;
  readonly #batches: Batches<void>;
  readonly #ids: string[] = [];
  readonly #scores: number[] = [];

  constructor(options: { keepTexts?: boolean } = {}) {
    this.#kept = options.keepTexts === true ? [] : undefined;
    this.#batches = new Batches({
      here: (texts) => this.#sketches.add(texts),
      store: (_, batch) => {
        this.#ids.push(...batch.ids);
        this.#scores.push(...batch.scores);
        this.#kept?.push(...batch.texts);
      },
    });
  }

  /** Adds a document; its text is released once its batch is sketched. */
  add(id: string, text: string, score = 0): void {
    void this.#batches.add(id, text, score);
  }

  /** Sketches what is left and returns everything collected. */
  async finish(): Promise<Sketched> {
    await this.#batches.finish();
    const sketches = this.#sketches;
    const wordless = new Set(sketches.wordless());
    // A shared index takes the texts themselves: the sketches only told which have words.
    if (this.#kept !== undefined) sketches.free();
    // Documents with words, by their position among all, and the way back.
    const positions = this.#ids.map((_, i) => i).filter((i) => !wordless.has(i));
    const compact = new Int32Array(this.#ids.length).fill(-1);
    positions.forEach((position, i) => (compact[position] = i));
    return {
      ids: positions.map((p) => this.#ids[p]!),
      scores: positions.map((p) => this.#scores[p]!),
      featureless: [...wordless].map((p) => this.#ids[p]!),
      featurelessAt: [...wordless],
      ...(this.#kept === undefined ? {} : { texts: positions.map((p) => this.#kept![p]!) }),
      decide: (priority) => {
        if (this.#kept !== undefined) throw new Error('these documents are decided through the shared index');
        try {
          // Documents without words are kept and compared with none, wherever they are taken.
          let options: { priority: Float64Array } | undefined;
          if (priority !== undefined) {
            const all = new Float64Array(this.#ids.length);
            positions.forEach((p, i) => (all[p] = priority[i]!));
            options = { priority: all };
          }
          const decided = sketches.decide(options);
          return {
            representative: Uint32Array.from(positions, (p) => compact[decided.representative[p]!]!),
            similarity: Float64Array.from(positions, (p) => decided.similarity[p]!),
          };
        } finally {
          sketches.free();
        }
      },
    };
  }
}
