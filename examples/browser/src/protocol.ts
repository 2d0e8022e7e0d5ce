/** The messages between the page and the fingerprinting worker. */

/** Something to fingerprint: a dropped file (read inside the worker) or pasted text. */
export type Input =
  | { readonly kind: 'file'; readonly file: File }
  | { readonly kind: 'text'; readonly name: string; readonly text: string };

/** What the page shows of a document; the text itself stays in the worker. */
export interface DocumentInfo {
  readonly name: string;
  readonly characters: number;
  /** The first words, for recognising the document in a group. */
  readonly snippet: string;
}

/** Page → worker. */
export type Request =
  | { readonly type: 'add'; readonly id: number; readonly inputs: readonly Input[] }
  | { readonly type: 'clear' };

/** Worker → page. */
export type Reply =
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number }
  | {
      readonly type: 'added';
      readonly id: number;
      readonly documents: readonly DocumentInfo[];
      /** One per document just added, in order; `0n` for a document without words. */
      readonly fingerprints: BigUint64Array;
      /** The distance distribution over every document so far. */
      readonly histogram: Histogram;
    }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

/** How many pairs of documents differ in each number of bits, 0 to 64. */
export interface Histogram {
  /** `counts[d]`: pairs at distance d (scaled up to all pairs when sampled). */
  readonly counts: Float64Array;
  /** Whether the counts come from a uniform sample of the documents. */
  readonly sampled: boolean;
  /** The number of pairs the counts stand for. */
  readonly pairs: number;
}
