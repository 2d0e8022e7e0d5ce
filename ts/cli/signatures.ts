/**
 * MinHash signatures of documents in bounded batches, keeping only what grouping and the report
 * need: one signature and one id per document.
 */

import type { MinHashOptions } from '../shared/minhash-types.js';
import { minhashMany } from '../wasm/minhash.js';
import { features } from '../wasm/text.js';

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

/** A batch is signed once it holds this many documents... */
const BATCH_DOCUMENTS = 1024;
/** ...or this many UTF-16 code units of text, whichever comes first. */
const BATCH_CHARS = 8 << 20;

/** Collects documents and signs them a batch at a time. */
export class SignatureCollector {
  readonly #options: MinHashOptions & { readonly numPerm: number };
  /** The text options alone, for `features`. */
  readonly #textOptions: Omit<MinHashOptions, 'numPerm'>;
  #texts: string[] = [];
  #textIds: string[] = [];
  #textScores: number[] = [];
  #chars = 0;
  #signatures: Uint32Array;
  #count = 0;
  readonly #ids: string[] = [];
  readonly #scores: number[] = [];
  readonly #featureless: string[] = [];
  readonly #featurelessAt: number[] = [];
  /** Documents signed so far, with and without features. */
  #added = 0;

  constructor(options: MinHashOptions & { readonly numPerm: number }) {
    this.#options = options;
    const { numPerm: _numPerm, ...text } = options;
    this.#textOptions = text;
    this.#signatures = new Uint32Array(1024 * options.numPerm);
  }

  /** Adds a document; its text is released once its batch is signed. */
  add(id: string, text: string, score = 0): void {
    this.#texts.push(text);
    this.#textIds.push(id);
    this.#textScores.push(score);
    this.#chars += text.length;
    if (this.#texts.length >= BATCH_DOCUMENTS || this.#chars >= BATCH_CHARS) this.#flush();
  }

  /** Signs what is left and returns everything collected. */
  finish(): Signed {
    this.#flush();
    return { signatures: this.#signatures.subarray(0, this.#count * this.#options.numPerm), numPerm: this.#options.numPerm, ids: this.#ids, scores: this.#scores, featureless: this.#featureless, featurelessAt: this.#featurelessAt };
  }

  #flush(): void {
    if (this.#texts.length === 0) return;
    const k = this.#options.numPerm;
    const batch = minhashMany(this.#texts, this.#options);
    for (let i = 0; i < this.#texts.length; i++) {
      const position = this.#added++;
      const signature = batch.subarray(i * k, (i + 1) * k);
      const id = this.#textIds[i] ?? '';
      // An empty set signs as 0xFFFFFFFF everywhere; a set with features does so only by a
      // vanishing chance, confirmed on these few texts only.
      if (signature.every((v) => v === 0xffff_ffff) && features(this.#texts[i] ?? '', this.#textOptions).length === 0) {
        this.#featureless.push(id);
        this.#featurelessAt.push(position);
      } else {
        this.#store(signature, id, this.#textScores[i] ?? 0);
      }
    }
    this.#texts = [];
    this.#textIds = [];
    this.#textScores = [];
    this.#chars = 0;
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
