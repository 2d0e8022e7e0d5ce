/**
 * Batching of script calls by hash tag: every piece of work (a few 32-bit words) is filed under
 * its group and key, and each group becomes one script call (its keys share a slot), all groups
 * sent at once. A call gets two arguments whatever its number of keys (an argument per key
 * cost the client more than the rest of a write): every key's pieces as big-endian words, key
 * after key, and each key's share of those bytes as a big-endian 32-bit count.
 */

/** The pieces of one key: their words, and a number per piece the caller gets back. */
interface KeyWork {
  readonly key: number;
  readonly words: number[];
  readonly tags: number[];
}

/** Work filed by group, then key, in insertion order. */
export class GroupedCalls {
  readonly #width: number;
  readonly #keyName: (key: number) => string;
  readonly #groups = new Map<number, Map<number, KeyWork>>();

  /**
   * @param width words per piece, 0 to 4 (0: the keys alone matter).
   * @param keyName the Redis key of a key number.
   */
  constructor(width: number, keyName: (key: number) => string) {
    this.#width = width;
    this.#keyName = keyName;
  }

  /** Files a piece of `width` words (`a`, `b`, ...) for key number `key` of `group`. */
  push(group: number, key: number, tag: number, a: number, b = 0, c = 0, d = 0): void {
    let keys = this.#groups.get(group);
    if (keys === undefined) this.#groups.set(group, (keys = new Map()));
    let work = keys.get(key);
    if (work === undefined) keys.set(key, (work = { key, words: [], tags: [] }));
    const words = work.words;
    if (this.#width > 0) words.push(a);
    if (this.#width > 1) words.push(b);
    if (this.#width > 2) words.push(c);
    if (this.#width > 3) words.push(d);
    work.tags.push(tag);
  }

  /**
   * Calls `call` once per group, concurrently, with the group's keys and its two arguments
   * (none at width 0); returns each reply with its pieces' tags in the order the script met
   * them, and the same tags key by key.
   */
  async run(call: (keys: string[], args: Buffer[], group: number) => Promise<unknown>): Promise<{ reply: unknown; tags: number[]; keyTags: number[][] }[]> {
    const pending = Array.from(this.#groups, async ([group, keys]) => {
      const works = Array.from(keys.values());
      let args: Buffer[] = [];
      if (this.#width > 0) {
        const words = works.reduce((sum, work) => sum + work.words.length, 0);
        const data = new DataView(new ArrayBuffer(4 * words));
        const counts = new DataView(new ArrayBuffer(4 * works.length));
        let at = 0;
        works.forEach((work, k) => {
          counts.setUint32(4 * k, 4 * work.words.length);
          for (const word of work.words) {
            data.setUint32(at, word);
            at += 4;
          }
        });
        args = [Buffer.from(data.buffer), Buffer.from(counts.buffer)];
      }
      const reply = await call(works.map((work) => this.#keyName(work.key)), args, group);
      return { reply, tags: works.flatMap((work) => work.tags), keyTags: works.map((work) => work.tags) };
    });
    return Promise.all(pending);
  }
}
