/**
 * Fingerprinting documents in bounded batches, keeping only what grouping and the report need:
 * one fingerprint and one id per document.
 */

import type { Pool } from '../parallel/pool.js';
import type { TextOptions } from '../shared/types.js';
import { featurelessPositions, fingerprintMany } from '../wasm/text.js';

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

/** A batch is fingerprinted once it holds this many documents... */
const BATCH_DOCUMENTS = 1024;
/** ...or this many UTF-16 code units of text, whichever comes first. */
const BATCH_CHARS = 8 << 20;

/** A batch sent to a pool and not yet stored. */
interface PendingBatch {
  readonly texts: string[];
  readonly ids: string[];
  readonly scores: number[];
  readonly fingerprints: Promise<BigUint64Array>;
}

/**
 * Collects documents and fingerprints them a batch at a time: on this thread, or with a pool,
 * on its workers while more documents are read, a few batches per worker at most.
 */
export class FingerprintCollector {
  readonly #options: TextOptions;
  readonly #pool: Pool | undefined;
  readonly #pending: PendingBatch[] = [];
  #texts: string[] = [];
  #textIds: string[] = [];
  #textScores: number[] = [];
  #chars = 0;
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
    this.#pool = pool;
  }

  /**
   * Adds a document; its text is released once its batch is fingerprinted. Returns a promise
   * when the caller should wait before adding more (the workers have enough to do).
   */
  add(id: string, text: string, score = 0): Promise<void> | undefined {
    this.#texts.push(text);
    this.#textIds.push(id);
    this.#textScores.push(score);
    this.#chars += text.length;
    if (this.#texts.length < BATCH_DOCUMENTS && this.#chars < BATCH_CHARS) return undefined;
    if (this.#pool === undefined) {
      this.#flush();
      return undefined;
    }
    this.#submit(this.#pool);
    return this.#pending.length > 2 * this.#pool.threads ? this.#storeOldest() : undefined;
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
    if (this.#pool === undefined) {
      this.#flush();
    } else {
      if (this.#texts.length > 0) this.#submit(this.#pool);
      while (this.#pending.length > 0) await this.#storeOldest();
    }
    return {
      fingerprints: this.#fingerprints.subarray(0, this.#count),
      ids: this.#ids,
      scores: this.#scores,
      featureless: this.#featureless,
      featurelessAt: this.#featurelessAt,
    };
  }

  #flush(): void {
    if (this.#texts.length === 0) return;
    this.#storeBatch(fingerprintMany(this.#texts, this.#options), this.#texts, this.#textIds, this.#textScores);
    this.#clear();
  }

  #submit(pool: Pool): void {
    const fingerprints = pool.fingerprintMany(this.#texts, this.#options);
    // Awaited in order by #storeOldest; marked handled so that a failure while older batches
    // are awaited is not reported as unhandled.
    fingerprints.catch(() => undefined);
    this.#pending.push({ texts: this.#texts, ids: this.#textIds, scores: this.#textScores, fingerprints });
    this.#clear();
  }

  async #storeOldest(): Promise<void> {
    const batch = this.#pending.shift()!;
    this.#storeBatch(await batch.fingerprints, batch.texts, batch.ids, batch.scores);
  }

  #clear(): void {
    this.#texts = [];
    this.#textIds = [];
    this.#textScores = [];
    this.#chars = 0;
  }

  #storeBatch(batch: BigUint64Array, texts: readonly string[], ids: readonly string[], scores: readonly number[]): void {
    this.addFingerprinted(batch, featurelessPositions(texts, batch, this.#options), (i) => ids[i] ?? '', (i) => scores[i] ?? 0);
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
