/**
 * Fingerprinting documents in bounded batches, keeping only what grouping and the report need:
 * one fingerprint and one id per document.
 */

import type { Pool } from '../parallel/pool.js';
import type { TextOptions } from '../shared/types.js';
import { featurelessPositions, fingerprintMany } from '../wasm/text.js';
import { Batches } from './batches.js';

/** What is left of the documents once their texts are gone. */
export interface Fingerprinted {
  /** Fingerprints of the documents that have words, in input order. */
  readonly fingerprints: BigUint64Array;
  /** `ids[i]` names `fingerprints[i]`. */
  readonly ids: readonly string[];
  /** `scores[i]`: the priority of document i (`--keep`), higher taken first. */
  readonly scores: readonly number[];
  /** Documents without a single shingle (empty, or punctuation only): they are not compared. */
  readonly featureless: readonly string[];
  /** The positions of the featureless documents among all added, ascending. */
  readonly featurelessAt: readonly number[];
}

/**
 * Collects documents and fingerprints them a batch at a time: on this thread, or with a pool,
 * on its workers while more documents are read, a few batches per worker at most.
 */
export class FingerprintCollector {
  readonly #options: TextOptions;
  readonly #batches: Batches<BigUint64Array>;
  #fingerprints = new BigUint64Array(1024);
  #count = 0;
  readonly #ids: string[] = [];
  readonly #scores: number[] = [];
  readonly #featureless: string[] = [];
  readonly #featurelessAt: number[] = [];
  /** Documents added so far, with and without features. */
  #added = 0;

  constructor(options: TextOptions, pool?: Pool) {
    this.#options = options;
    this.#batches = new Batches({
      here: (texts) => fingerprintMany(texts, options),
      ...(pool === undefined ? {} : { pool: { sketch: (texts) => pool.fingerprintMany(texts, options), lanes: pool.threads } }),
      store: (fingerprints, batch) =>
        this.addFingerprinted(fingerprints, featurelessPositions(batch.texts, fingerprints, this.#options), (i) => batch.ids[i] ?? '', (i) => batch.scores[i] ?? 0),
    });
  }

  /**
   * Adds a document; its text is released once its batch is fingerprinted. Returns a promise
   * when the caller should wait before adding more (the workers have enough to do).
   */
  add(id: string, text: string, score = 0): Promise<void> | undefined {
    return this.#batches.add(id, text, score);
  }

  /**
   * Adds documents fingerprinted elsewhere (a pool's workers read them): `fingerprints[i]` is
   * that of the document `idOf(i)` (priority `scoreOf(i)`, default 0), and the positions in
   * `featureless` are texts without shingles.
   */
  addFingerprinted(fingerprints: BigUint64Array, featureless: Uint32Array, idOf: (i: number) => string, scoreOf?: (i: number) => number): void {
    let next = 0;
    for (let i = 0; i < fingerprints.length; i++) {
      const position = this.#added++;
      if (next < featureless.length && featureless[next] === i) {
        this.#featureless.push(idOf(i));
        this.#featurelessAt.push(position);
        next++;
      } else {
        this.#store(fingerprints[i]!, idOf(i), scoreOf?.(i) ?? 0);
      }
    }
  }

  /** Fingerprints what is left and returns everything collected. */
  async finish(): Promise<Fingerprinted> {
    await this.#batches.finish();
    return {
      fingerprints: this.#fingerprints.subarray(0, this.#count),
      ids: this.#ids,
      scores: this.#scores,
      featureless: this.#featureless,
      featurelessAt: this.#featurelessAt,
    };
  }

  #store(fingerprint: bigint, id: string, score: number): void {
    if (this.#count === this.#fingerprints.length) {
      const grown = new BigUint64Array(this.#fingerprints.length * 2);
      grown.set(this.#fingerprints);
      this.#fingerprints = grown;
    }
    this.#fingerprints[this.#count++] = fingerprint;
    this.#ids.push(id);
    this.#scores.push(score);
  }
}
