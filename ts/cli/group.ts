/** What the decide step gives the report: groups of near-duplicates, and the decisions. */

/**
 * One family of near-duplicates: at least two documents. With decisions the first member is
 * kept and the others are removed as its near-duplicates; with components the first member is
 * the family's earliest document.
 */
export interface Group {
  /** Positions of the members: the first, then the others ascending. */
  readonly members: Uint32Array;
  /** `bits[k]`: how many bits `members[k]`'s fingerprint differs from the first member's (SimHash). */
  readonly bits: Uint8Array;
  /** `similarity[k]`: the estimated Jaccard similarity of `members[k]` and the first member (MinHash). */
  readonly similarity?: Float64Array;
}

/** Groups, and for decisions the representative of every document (itself when kept). */
export interface Grouped {
  readonly groups: Group[];
  readonly representative: Uint32Array | undefined;
}
