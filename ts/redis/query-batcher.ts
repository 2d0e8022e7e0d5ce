/**
 * Coalescing of concurrent single queries: the `query` calls a process makes while others are
 * waiting for Redis go out together as one `queryMany`, so a service answering many requests
 * at once pays one round of script calls per batch instead of one per query (a round trip costs
 * far more client CPU than the work of one query in it).
 */

import type { QueryManyResult, QueryResult } from '../shared/types.js';

interface Pending {
  readonly value: bigint;
  readonly resolve: (result: QueryResult) => void;
  readonly reject: (error: unknown) => void;
}

/** Queries waiting for the next batch, by their options. */
export class QueryBatcher {
  readonly #run: (values: BigUint64Array, distance: number, limit: number) => Promise<QueryManyResult>;
  readonly #waiting = new Map<string, { distance: number; limit: number; queries: Pending[] }>();
  #scheduled = false;

  /** @param run answers a batch, as `queryMany` with these options. */
  constructor(run: (values: BigUint64Array, distance: number, limit: number) => Promise<QueryManyResult>) {
    this.#run = run;
  }

  /**
   * The answer to one query, sent with every other query made before the event loop next
   * checks for I/O.
   */
  query(value: bigint, distance: number, limit: number): Promise<QueryResult> {
    return new Promise<QueryResult>((resolve, reject) => {
      const key = `${distance}/${limit}`;
      let group = this.#waiting.get(key);
      if (group === undefined) this.#waiting.set(key, (group = { distance, limit, queries: [] }));
      group.queries.push({ value, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const groups = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const { distance, limit, queries } of groups) {
      const values = BigUint64Array.from(queries, (q) => q.value);
      this.#run(values, distance, limit).then(
        (result) => {
          queries.forEach((q, k) => {
            const from = result.offsets[k]!;
            const to = result.offsets[k + 1]!;
            q.resolve({ ids: result.ids.slice(from, to), distances: result.distances.slice(from, to) });
          });
        },
        (error: unknown) => {
          for (const q of queries) q.reject(error);
        },
      );
    }
  }
}
