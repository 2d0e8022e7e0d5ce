/**
 * MinHash signatures of documents in bounded batches, keeping only what grouping and the report
 * need: one signature and one id per document.
 */

import type { MinHashOptions } from '../shared/minhash-types.js';
import { minhashMany } from '../wasm/minhash.js';
import { features } from '../wasm/text.js';
import type { Pool } from '../parallel/pool.js';
import { Batches, type Batch } from './batches.js';

/** What is left of the documents once their texts are gone. */
export interface Signed {
  /** Signatures of the documents that have words, back to back, in input order. */
  readonly signatures: Uint32Array;
  /** Positions of each signature. */
  readonly numPerm: number;
  /** `ids[i]` names signature i. */
  readonly ids: readonly string[];
  /** `scores[i]`: the priority of document i (`--keep`), higher taken first. */
  readonly scores: readonly number[];
  /** Documents without a single shingle: they are not compared. */
  readonly featureless: readonly string[];
  /** The positions of the featureless documents among all added, ascending. */
  readonly featurelessAt: readonly number[];
}

/**
 * Collects documents and signs them a batch at a time: on this thread, or with a pool, on its
 * workers while more documents are read.
 */
export class SignatureCollector {
  readonly #options: MinHashOptions & { readonly numPerm: number };
  /** The text options alone, for `features`. */
  readonly #textOptions: Omit<MinHashOptions, 'numPerm'>;
  readonly #batches: Batches<Uint32Array>;
  #signatures: Uint32Array;
  #count = 0;
  readonly #ids: string[] = [];
  readonly #scores: number[] = [];
  readonly #featureless: string[] = [];
  readonly #featurelessAt: number[] = [];
  /** Documents signed so far, with and without features. */
  #added = 0;

  constructor(options: MinHashOptions & { readonly numPerm: number }, pool?: Pool) {
    this.#options = options;
    const { numPerm: _numPerm, ...text } = options;
    this.#textOptions = text;
    this.#signatures = new Uint32Array(1024 * options.numPerm);
    this.#batches = new Batches({
      here: (texts) => minhashMany(texts, options),
      ...(pool === undefined ? {} : { pool: { sketch: (texts) => pool.minhashMany(texts, options), lanes: pool.threads } }),
      store: (signatures, batch) => this.#storeBatch(signatures, batch),
    });
  }

  /**
   * Adds a document; its text is released once its batch is signed. Returns a promise when the
   * caller should wait before adding more (the workers have enough to do).
   */
  add(id: string, text: string, score = 0): Promise<void> | undefined {
    return this.#batches.add(id, text, score);
  }

  /** Signs what is left and returns everything collected. */
  async finish(): Promise<Signed> {
    await this.#batches.finish();
    return { signatures: this.#signatures.subarray(0, this.#count * this.#options.numPerm), numPerm: this.#options.numPerm, ids: this.#ids, scores: this.#scores, featureless: this.#featureless, featurelessAt: this.#featurelessAt };
  }

  #storeBatch(signatures: Uint32Array, batch: Batch): void {
    const k = this.#options.numPerm;
    for (let i = 0; i < batch.texts.length; i++) {
      const position = this.#added++;
      const signature = signatures.subarray(i * k, (i + 1) * k);
      const id = batch.ids[i] ?? '';
      // An empty set signs as 0xFFFFFFFF everywhere; a set with features does so only by a
      // vanishing chance, confirmed on these few texts only.
      if (signature.every((v) => v === 0xffff_ffff) && features(batch.texts[i] ?? '', this.#textOptions).length === 0) {
        this.#featureless.push(id);
        this.#featurelessAt.push(position);
      } else {
        this.#store(signature, id, batch.scores[i] ?? 0);
      }
    }
  }

  #store(signature: Uint32Array, id: string, score: number): void {
    const k = this.#options.numPerm;
    if ((this.#count + 1) * k > this.#signatures.length) {
      const grown = new Uint32Array(this.#signatures.length * 2);
      grown.set(this.#signatures);
      this.#signatures = grown;
    }
    this.#signatures.set(signature, this.#count * k);
    this.#count++;
    this.#ids.push(id);
    this.#scores.push(score);
  }
}
