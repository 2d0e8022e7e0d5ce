/**
 * Batching of script calls by hash tag: every piece of work is filed under its group and key,
 * and each group becomes one script call (its keys share a slot), all sent at once.
 */

/** Pieces of one key: their bytes, concatenated into one script argument, and caller tags. */
interface KeyWork {
  readonly parts: Buffer[];
  readonly tags: unknown[];
}

/** Work filed by group, then key, in insertion order. */
export class GroupedCalls {
  readonly #groups = new Map<number, Map<string, KeyWork>>();

  /** Files `part` for `key` of `group`; `tag` comes back with the answer to it. */
  push(group: number, key: string, part: Buffer, tag: unknown): void {
    let keys = this.#groups.get(group);
    if (keys === undefined) this.#groups.set(group, (keys = new Map()));
    let work = keys.get(key);
    if (work === undefined) keys.set(key, (work = { parts: [], tags: [] }));
    work.parts.push(part);
    work.tags.push(tag);
  }

  /** The tags of every piece, in the order {@link GroupedCalls.run} returns the answers. */
  get tags(): unknown[] {
    const tags: unknown[] = [];
    for (const keys of this.#groups.values()) for (const work of keys.values()) tags.push(...work.tags);
    return tags;
  }

  /**
   * Calls `call` once per group, concurrently, with the group's keys and one argument per key;
   * returns the groups' array replies concatenated (one element per piece, for scripts that
   * answer each piece), or an empty array for scripts that answer otherwise.
   */
  async run(call: (keys: string[], args: Buffer[]) => Promise<unknown>): Promise<unknown[]> {
    const replies = await this.runGroups((keys, args) => call(keys, args));
    return replies.flatMap(({ reply }) => (Array.isArray(reply) ? (reply as unknown[]) : []));
  }

  /** Calls `call` once per group, concurrently; returns each reply with its pieces' tags. */
  async runGroups(
    call: (keys: string[], args: Buffer[], group: number) => Promise<unknown>,
  ): Promise<{ reply: unknown; tags: unknown[] }[]> {
    const pending = Array.from(this.#groups, async ([group, keys]) => {
      const names = Array.from(keys.keys());
      const works = Array.from(keys.values());
      const reply = await call(names, works.map((work) => Buffer.concat(work.parts)), group);
      return { reply, tags: works.flatMap((work) => work.tags) };
    });
    return Promise.all(pending);
  }
}
