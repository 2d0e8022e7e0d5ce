/**
 * Fingerprinting documents in bounded batches, keeping only what grouping and the report need:
 * one fingerprint and one id per document.
 */

import type { TextOptions } from '../shared/types.js';
import { features, fingerprintMany } from '../wasm/text.js';

/** What is left of the documents once their texts are gone. */
export interface Fingerprinted {
  /** Fingerprints of the documents that have words, in input order. */
  readonly fingerprints: BigUint64Array;
  /** `ids[i]` names `fingerprints[i]`. */
  readonly ids: readonly string[];
  /** Documents without a single shingle (empty, or punctuation only): they are not compared. */
  readonly featureless: readonly string[];
}

/** A batch is fingerprinted once it holds this many documents... */
const BATCH_DOCUMENTS = 1024;
/** ...or this many UTF-16 code units of text, whichever comes first. */
const BATCH_CHARS = 8 << 20;

/** Collects documents and fingerprints them a batch at a time. */
export class FingerprintCollector {
  readonly #options: TextOptions;
  #texts: string[] = [];
  #textIds: string[] = [];
  #chars = 0;
  #fingerprints = new BigUint64Array(1024);
  #count = 0;
  readonly #ids: string[] = [];
  readonly #featureless: string[] = [];

  constructor(options: TextOptions) {
    this.#options = options;
  }

  /** Adds a document; its text is released once its batch is fingerprinted. */
  add(id: string, text: string): void {
    this.#texts.push(text);
    this.#textIds.push(id);
    this.#chars += text.length;
    if (this.#texts.length >= BATCH_DOCUMENTS || this.#chars >= BATCH_CHARS) this.#flush();
  }

  /** Fingerprints what is left and returns everything collected. */
  finish(): Fingerprinted {
    this.#flush();
    return {
      fingerprints: this.#fingerprints.subarray(0, this.#count),
      ids: this.#ids,
      featureless: this.#featureless,
    };
  }

  #flush(): void {
    if (this.#texts.length === 0) return;
    const batch = fingerprintMany(this.#texts, this.#options);
    for (let i = 0; i < batch.length; i++) {
      const fingerprint = batch[i] ?? 0n;
      const id = this.#textIds[i] ?? '';
      // 0n is also, very rarely, the fingerprint of a text with shingles; only those without any
      // are set apart, and confirming costs one more pass over these few texts only.
      if (fingerprint === 0n && features(this.#texts[i] ?? '', this.#options).length === 0) {
        this.#featureless.push(id);
      } else {
        this.#store(fingerprint, id);
      }
    }
    this.#texts = [];
    this.#textIds = [];
    this.#chars = 0;
  }

  #store(fingerprint: bigint, id: string): void {
    if (this.#count === this.#fingerprints.length) {
      const grown = new BigUint64Array(this.#fingerprints.length * 2);
      grown.set(this.#fingerprints);
      this.#fingerprints = grown;
    }
    this.#fingerprints[this.#count++] = fingerprint;
    this.#ids.push(id);
  }
}
