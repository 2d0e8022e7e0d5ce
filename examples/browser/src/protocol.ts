/** The messages between the page and the fingerprinting worker. */

/**
 * Something to fingerprint: a dropped or chosen file (read inside the worker) or pasted text.
 * `name` is what the page shows: a file's path relative to what was dropped or chosen.
 */
export type Input =
  | { readonly kind: 'file'; readonly name: string; readonly file: File }
  | { readonly kind: 'text'; readonly name: string; readonly text: string };

/** What the page shows of a document; the text itself stays in the worker. */
export interface DocumentInfo {
  readonly name: string;
  readonly characters: number;
  /** The first words, for recognising the document in a group. */
  readonly snippet: string;
}

/** An input that is not a document: a binary file, or one that could not be read. */
export interface Skipped {
  readonly name: string;
  readonly reason: string;
}

/** Page → worker. */
export type Request =
  | {
      readonly type: 'add';
      readonly id: number;
      readonly inputs: readonly Input[];
      /** Also compute the MinHash signatures of the new documents (MinHash is chosen). */
      readonly sign: boolean;
      /** Use a pool of this many workers if the drop is large; 1 never does. */
      readonly threads: number;
    }
  /** Computes the signatures of every document that has none yet, reading them again. */
  | { readonly type: 'sign'; readonly id: number }
  | { readonly type: 'clear' };

/**
 * MinHash signatures of consecutive documents: those of documents `from` onwards, back to back.
 * The worker signs documents in order, so every document before `from` already has one, and
 * sends them only when every document so far has one.
 */
export interface Signed {
  readonly from: number;
  readonly signatures: Uint32Array;
  /** How many pairs of documents with words agree in each number of signature positions. */
  readonly agreement: Histogram;
}

/**
 * The length-adaptive decisions over every document so far: its kept representative (itself
 * when kept) and its similarity to it (word sets for short texts, word pairs for long ones).
 */
export interface Adaptive {
  readonly representative: Uint32Array;
  readonly similarity: Float64Array;
}

/** Worker → page. */
export type Reply =
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number }
  | {
      readonly type: 'added';
      readonly id: number;
      /** The inputs that were documents, in the order given. */
      readonly documents: readonly DocumentInfo[];
      /** One per document just added, in order; `0n` for a document without words. */
      readonly fingerprints: BigUint64Array;
      /** The inputs that were not, in the order given. */
      readonly skipped: readonly Skipped[];
      /** The distance distribution over every document so far. */
      readonly histogram: Histogram;
      /** Signatures of the new documents, when asked for and every earlier one had its own. */
      readonly signed: Signed | null;
      /** The length-adaptive decisions (`decideTexts`'s rule) over every document so far. */
      readonly adaptive: Adaptive;
      /** How many workers fingerprinted them: 1, or the pool's size for a large drop. */
      readonly workers: number;
      /** Why a large drop that should have gone to a pool did not (it could not start). */
      readonly poolFailure: string | null;
    }
  | { readonly type: 'signed'; readonly id: number; readonly signed: Signed }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

/**
 * How many pairs of documents differ in each number of bits, 0 to 64 (SimHash), or agree in
 * each number of signature positions, 0 to 128 (MinHash).
 */
export interface Histogram {
  /** `counts[d]`: pairs at d (scaled up to all pairs when sampled). */
  readonly counts: Float64Array;
  /** Whether the counts come from a uniform sample of the documents. */
  readonly sampled: boolean;
  /** The number of pairs the counts stand for. */
  readonly pairs: number;
}
