/**
 * Batching of script calls by hash tag: every piece of work (a few 32-bit words) is filed under
 * its group and key, and each group becomes one script call (its keys share a slot), all groups
 * sent at once. A call gets two arguments whatever its number of keys (an argument per key
 * cost the client more than the rest of a write): every key's pieces as big-endian words, key
 * after key, and each key's share of those bytes as a big-endian 32-bit count.
 *
 * Pieces live in flat typed arrays chained per key, not in an object and two arrays per key: a
 * round of writes files tens of thousands of keys, and their garbage was a fifth of the
 * client's time.
 */

/** The keys of one group, in the order first filed, each with the first and last of its pieces. */
interface GroupKeys {
  readonly slots: Map<number, number>;
  readonly keys: number[];
  readonly first: number[];
  readonly last: number[];
  pieces: number;
}

/** What one group's call answered, and which pieces it was for. */
export interface GroupReply {
  readonly reply: unknown;
  /** The pieces' tags, key after key, in the order each key's pieces were filed. */
  readonly tags: Int32Array;
  /** Key k's tags are `tags[keyStarts[k] .. keyStarts[k + 1]]`. */
  readonly keyStarts: Int32Array;
}

/** Work filed by group, then key, in insertion order. */
export class GroupedCalls {
  readonly #width: number;
  readonly #keyName: (key: number) => string;
  readonly #groups = new Map<number, GroupKeys>();
  #count = 0;
  // Small at first: a query's round files a few dozen pieces, a write's tens of thousands.
  #tags = new Int32Array(64);
  #next = new Int32Array(64);
  #words: Uint32Array;

  /**
   * @param width words per piece, 0 to 4 (0: the keys alone matter).
   * @param keyName the Redis key of a key number.
   */
  constructor(width: number, keyName: (key: number) => string) {
    this.#width = width;
    this.#keyName = keyName;
    this.#words = new Uint32Array(64 * width);
  }

  /** Files a piece of `width` words (`a`, `b`, ...) for key number `key` of `group`. */
  push(group: number, key: number, tag: number, a: number, b = 0, c = 0, d = 0): void {
    const piece = this.#count++;
    if (piece === this.#tags.length) this.#grow();
    let keys = this.#groups.get(group);
    if (keys === undefined) this.#groups.set(group, (keys = { slots: new Map(), keys: [], first: [], last: [], pieces: 0 }));
    const slot = keys.slots.get(key);
    if (slot === undefined) {
      keys.slots.set(key, keys.keys.length);
      keys.keys.push(key);
      keys.first.push(piece);
      keys.last.push(piece);
    } else {
      this.#next[keys.last[slot]!] = piece;
      keys.last[slot] = piece;
    }
    keys.pieces++;
    this.#tags[piece] = tag;
    this.#next[piece] = -1;
    const width = this.#width;
    const at = piece * width;
    const words = this.#words;
    if (width > 0) words[at] = a;
    if (width > 1) words[at + 1] = b;
    if (width > 2) words[at + 2] = c;
    if (width > 3) words[at + 3] = d;
  }

  /**
   * Calls `call` once per group, concurrently, with the group's keys and its two arguments
   * (none at width 0); returns each reply with its pieces' tags in the order the script meets
   * them.
   */
  async run(call: (keys: string[], args: Buffer[], group: number) => Promise<unknown>): Promise<GroupReply[]> {
    const width = this.#width;
    const pending = Array.from(this.#groups, async ([group, { keys, first, pieces }]) => {
      const tags = new Int32Array(pieces);
      const keyStarts = new Int32Array(keys.length + 1);
      const data = Buffer.allocUnsafe(4 * width * pieces);
      const counts = Buffer.allocUnsafe(4 * keys.length);
      let m = 0;
      for (let k = 0; k < keys.length; k++) {
        keyStarts[k] = m;
        for (let piece = first[k]!; piece !== -1; piece = this.#next[piece]!) {
          for (let w = 0; w < width; w++) data.writeUInt32BE(this.#words[piece * width + w]!, 4 * (m * width + w));
          tags[m++] = this.#tags[piece]!;
        }
        counts.writeUInt32BE(4 * width * (m - keyStarts[k]!), 4 * k);
      }
      keyStarts[keys.length] = m;
      const reply = await call(keys.map(this.#keyName), width > 0 ? [data, counts] : [], group);
      return { reply, tags, keyStarts };
    });
    return Promise.all(pending);
  }

  #grow(): void {
    const size = 2 * this.#tags.length;
    const tags = new Int32Array(size);
    tags.set(this.#tags);
    this.#tags = tags;
    const next = new Int32Array(size);
    next.set(this.#next);
    this.#next = next;
    const words = new Uint32Array(size * this.#width);
    words.set(this.#words);
    this.#words = words;
  }
}
