/**
 * Documents gathered into bounded batches for a method's sketching step — run on this thread, or
 * on a pool's workers while more documents are read, a few batches per worker at most — and the
 * results handed back in input order. Every collector of the command line batches this way.
 */

/** A batch is sketched once it holds this many documents... */
const BATCH_DOCUMENTS = 1024;
/** ...or this many UTF-16 code units of text, whichever comes first. */
const BATCH_CHARS = 8 << 20;

/** One batch's texts, ids and priorities. */
export interface Batch {
  readonly texts: readonly string[];
  readonly ids: readonly string[];
  readonly scores: readonly number[];
}

/** How a method sketches a batch: here, or (when given) on a pool with `lanes` workers. */
export interface Sketcher<R> {
  readonly here: (texts: readonly string[]) => R;
  readonly pool?: { readonly sketch: (texts: readonly string[]) => Promise<R>; readonly lanes: number };
  /** Takes a sketched batch; called in input order. */
  readonly store: (result: R, batch: Batch) => void;
}

/** Documents in batches, sketched by a {@link Sketcher}; texts are released once their batch is sketched. */
export class Batches<R> {
  readonly #sketcher: Sketcher<R>;
  readonly #pending: { readonly batch: Batch; readonly result: Promise<R> }[] = [];
  #texts: string[] = [];
  #ids: string[] = [];
  #scores: number[] = [];
  #chars = 0;

  constructor(sketcher: Sketcher<R>) {
    this.#sketcher = sketcher;
  }

  /** Adds a document. Returns a promise when the caller should wait before adding more (the workers have enough to do). */
  add(id: string, text: string, score: number): Promise<void> | undefined {
    this.#texts.push(text);
    this.#ids.push(id);
    this.#scores.push(score);
    this.#chars += text.length;
    if (this.#texts.length < BATCH_DOCUMENTS && this.#chars < BATCH_CHARS) return undefined;
    this.#send();
    const pool = this.#sketcher.pool;
    return pool !== undefined && this.#pending.length > 2 * pool.lanes ? this.#storeOldest() : undefined;
  }

  /** Sketches what is left and stores every batch. */
  async finish(): Promise<void> {
    if (this.#texts.length > 0) this.#send();
    while (this.#pending.length > 0) await this.#storeOldest();
  }

  #send(): void {
    const batch: Batch = { texts: this.#texts, ids: this.#ids, scores: this.#scores };
    this.#texts = [];
    this.#ids = [];
    this.#scores = [];
    this.#chars = 0;
    const pool = this.#sketcher.pool;
    if (pool === undefined) {
      this.#sketcher.store(this.#sketcher.here(batch.texts), batch);
      return;
    }
    const result = pool.sketch(batch.texts);
    // Awaited in order by #storeOldest; marked handled so that a failure while older batches
    // are awaited is not reported as unhandled.
    result.catch(() => undefined);
    this.#pending.push({ batch, result });
  }

  async #storeOldest(): Promise<void> {
    const { batch, result } = this.#pending.shift()!;
    this.#sketcher.store(await result, batch);
  }
}
