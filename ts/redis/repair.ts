/**
 * `RedisSimHashIndex.repair()`: every key of an index checked against what the index writes,
 * and put right from what is still readable. Records are the truth for buckets (a member no
 * record accounts for is a stray; a corrupt bucket is rebuilt from the records) and buckets are
 * the witnesses for records (a member holds its whole fingerprint, permuted, so an unreadable
 * record is restored from what its members agree on).
 *
 * Nothing corrupt is deleted before what replaces it is known: a corrupt key is replaced in one
 * command or script, so a repair that fails part-way leaves each key either as it was or put
 * right, and running it again finishes the work.
 */

import type { Cluster, Redis } from 'ioredis';
import type { Geometry } from './geometry.js';
import { type Deadline, mastersOf, send } from './requests.js';
import { COUNT_RULE, REPLACE_RECORDS, type RecordValues } from './scripts.js';

/** What `repair()` found and did. */
export interface RepairReport {
  /** Table members no record accounted for (left by interrupted writes), removed. */
  strays: number;
  /** Second copies of members (left by writes sent twice), removed. */
  copies: number;
  /** Keys that held what the index never writes, each named once, sorted. */
  corrupt: string[];
  /** Ids whose record was unreadable or lost, given back the fingerprint their members agree on. */
  restored: number;
  /** Ids whose record was unreadable and whose members did not settle its fingerprint: removed. */
  lost: number[];
  /** Corrupt bucket keys rebuilt from the records. */
  rebuilt: number;
  /** Entry counters that disagreed with the records, set anew. */
  counters: number;
}

/** What a repair needs of its index. */
export interface RepairAccess {
  readonly client: Redis | Cluster;
  readonly geometry: Geometry;
  /** A new deadline: each request has the index's time limit. */
  deadline(): Deadline;
  /** What the records of `ids` hold. */
  readRecords(ids: Uint32Array, deadline: Deadline): Promise<RecordValues>;
  /** Removes `members` (12 bytes each) and any second copy of a member from bucket `key`; how many went. */
  removeMembers(node: Redis, key: string, members: Buffer, deadline: Deadline): Promise<number>;
  /** Adds the members of entries (values as low, high halves) that their buckets lack. */
  addMembers(ids: Uint32Array, values: Uint32Array, deadline: Deadline): Promise<void>;
}

/** Buckets read, or keys counted, per round. */
const ROUND = 256;

interface Located {
  readonly node: Redis;
  readonly key: string;
}

interface Witness extends Located {
  readonly member: Buffer;
}

/** One run of `repair()`. */
export class Repair {
  readonly #access: RepairAccess;
  readonly #report: RepairReport = { strays: 0, copies: 0, corrupt: [], restored: 0, lost: [], rebuilt: 0, counters: 0 };
  readonly #corrupt = new Set<string>();
  /** Record hashes, by record number. */
  readonly #records = new Map<number, Located>();
  /** Record keys of another type than hash, by record number: their ids are restored from members. */
  readonly #lostRecords = new Map<number, Located>();
  /** Ids whose value is unreadable, with their record hash. */
  readonly #unreadable = new Map<number, Located>();
  /** For ids to restore: each candidate fingerprint (as high:low) with the members that hold it. */
  readonly #witnesses = new Map<number, Map<string, Witness[]>>();
  /** Corrupt buckets to rebuild, by bucket id (see `Geometry.bucketId`). */
  readonly #rebuild = new Map<number, Located>();

  constructor(access: RepairAccess) {
    this.#access = access;
  }

  async run(): Promise<RepairReport> {
    const buckets = await this.#scan(this.#access.geometry.keyPattern);
    for (const [r, record] of this.#records) await this.#checkRecords(r, record);
    for (let start = 0; start < buckets.length; start += ROUND) await this.#checkBuckets(buckets.slice(start, start + ROUND));
    const { winners, losing } = this.#choose();
    await this.#rebuildBuckets(winners);
    await this.#restore(winners, losing);
    await this.#setCounters();
    this.#report.corrupt = [...this.#corrupt].sort();
    this.#report.lost.sort((a, b) => a - b);
    return this.#report;
  }

  /** Keys matching `pattern` on every master: the buckets returned, the record hashes kept. */
  async #scan(pattern: string): Promise<(Located & { t: number; b: number })[]> {
    const { client, geometry } = this.#access;
    const buckets: (Located & { t: number; b: number })[] = [];
    this.#records.clear();
    for (const node of mastersOf(client)) {
      let cursor = '0';
      do {
        let keys: string[];
        [cursor, keys] = await send(client, this.#access.deadline(), () => node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000));
        for (const key of keys) {
          const parsed = geometry.parseKey(key);
          if (parsed?.kind === 'bucket') buckets.push({ node, key, t: parsed.t, b: parsed.b });
          else if (parsed?.kind === 'record') this.#records.set(parsed.r, { node, key });
        }
      } while (cursor !== '0');
    }
    return buckets;
  }

  /** Step 1 for one record hash: fields that are no ids of it deleted, the rest noted. */
  async #checkRecords(r: number, located: Located): Promise<void> {
    const { client } = this.#access;
    const { node, key } = located;
    const type = await send(client, this.#access.deadline(), () => node.type(key));
    if (type !== 'hash') {
      if (type === 'none') return;
      this.#corrupt.add(key);
      this.#lostRecords.set(r, located);
      return;
    }
    await this.#eachRecord(located, (id, value) => {
      if (value.length !== 8) {
        this.#unreadable.set(id, located);
        this.#corrupt.add(key);
      }
    }, async (strange) => {
      this.#corrupt.add(key);
      await send(client, this.#access.deadline(), () => node.hdel(key, ...strange));
    });
  }

  /**
   * Calls `visit` with each field of record hash `r` that is an id of it, and `strange` with
   * each page's other fields.
   */
  async #eachRecord({ node, key }: Located, visit: (id: number, value: Buffer) => void, strange?: (fields: Buffer[]) => Promise<void>): Promise<void> {
    const { client, geometry } = this.#access;
    const r = geometry.parseKey(key);
    let cursor = '0';
    do {
      const [next, flat] = await send(client, this.#access.deadline(), () => node.hscanBuffer(key, cursor, 'COUNT', 1000));
      cursor = String(next);
      const others: Buffer[] = [];
      for (let k = 0; k + 1 < flat.length; k += 2) {
        const field = flat[k]!;
        if (field.length === 4 && r?.kind === 'record' && geometry.record(field.readUInt32BE(0)) === r.r) visit(field.readUInt32BE(0), flat[k + 1]!);
        else others.push(field);
      }
      if (others.length > 0 && strange !== undefined) await strange(others);
    } while (cursor !== '0');
  }

  /** Step 2 for a round of buckets: corrupt ones noted, strays and copies removed, witnesses kept. */
  async #checkBuckets(round: (Located & { t: number; b: number })[]): Promise<void> {
    const { client, geometry } = this.#access;
    const held = await Promise.all(
      round.map(({ node, key }) =>
        send(client, this.#access.deadline(), () => node.getBuffer(key)).catch((error: unknown) => {
          if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return 'wrong type' as const;
          throw error;
        }),
      ),
    );
    const ids: number[] = [];
    const members: { at: number; member: Buffer }[] = [];
    for (let k = 0; k < round.length; k++) {
      const bucket = held[k]!;
      const { node, key, t, b } = round[k]!;
      if (bucket === 'wrong type' || (bucket !== null && bucket.length % 12 !== 0)) {
        this.#corrupt.add(key);
        this.#rebuild.set(geometry.bucketId(t, b), { node, key });
        continue;
      }
      if (bucket === null) continue;
      for (let at = 0; at < bucket.length; at += 12) {
        ids.push(bucket.readUInt32BE(at + 8));
        members.push({ at: k, member: bucket.subarray(at, at + 12) });
      }
    }
    if (ids.length === 0) return;
    // A record key of another type would fail the read: its ids count as having no record.
    const readable = ids.filter((id) => !this.#lostRecords.has(geometry.record(id)));
    const read = await this.#access.readRecords(Uint32Array.from(readable), this.#access.deadline());
    const records: RecordValues =
      readable.length === ids.length ? read : { found: new Uint8Array(ids.length), high: new Uint32Array(ids.length), low: new Uint32Array(ids.length) };
    if (readable.length !== ids.length) {
      for (let k = 0, m = 0; k < ids.length; k++) {
        if (this.#lostRecords.has(geometry.record(ids[k]!))) continue;
        records.found[k] = read.found[m]!;
        records.high[k] = read.high[m]!;
        records.low[k] = read.low[m++]!;
      }
    }
    const strays = new Map<number, Buffer[]>();
    const copies = new Set<number>();
    const seen = new Set<string>();
    members.forEach(({ at, member }, k) => {
      const { node, key, t } = round[at]!;
      const id = ids[k]!;
      const high = member.readUInt32BE(0);
      const low = member.readUInt32BE(4);
      if (records.found[k] === 1) {
        geometry.permute(records.high[k]!, records.low[k]!, t);
        if (geometry.high === high && geometry.low === low) {
          const text = key + member.toString('latin1');
          if (seen.has(text)) copies.add(at);
          else seen.add(text);
          return;
        }
      } else if (records.found[k] === 2 || this.#lostRecords.has(geometry.record(id))) {
        // A witness of what the record held: kept until the record is restored or given up.
        geometry.unpermute(high, low, t);
        const candidate = `${geometry.high}:${geometry.low}`;
        let byValue = this.#witnesses.get(id);
        if (byValue === undefined) this.#witnesses.set(id, (byValue = new Map()));
        const list = byValue.get(candidate) ?? [];
        if (!list.some((w) => w.key === key && w.member.equals(member))) list.push({ node, key, member: Buffer.from(member) });
        byValue.set(candidate, list);
        return;
      }
      let list = strays.get(at);
      if (list === undefined) strays.set(at, (list = []));
      list.push(member);
    });
    await Promise.all(
      round.map(async ({ node, key }, at) => {
        const stray = strays.get(at) ?? [];
        if (stray.length === 0 && !copies.has(at)) return;
        // The script drops the strays (and any second copy of a member) from what the bucket
        // holds then, so members added meanwhile stay.
        const removed = await this.#access.removeMembers(node, key, Buffer.concat(stray), this.#access.deadline());
        this.#report.strays += Math.min(removed, stray.length);
        this.#report.copies += Math.max(0, removed - stray.length);
      }),
    );
  }

  /**
   * Each id to restore gets the fingerprint most of its members hold, when no other has as
   * many; the members holding the others are to go, and every member of an id with no such
   * fingerprint.
   */
  #choose(): { winners: Map<number, [number, number]>; losing: Witness[] } {
    const winners = new Map<number, [number, number]>();
    const losing: Witness[] = [];
    for (const [id, byValue] of this.#witnesses) {
      const ranked = [...byValue].sort((a, b) => b[1].length - a[1].length);
      const [best, second] = ranked;
      if (second !== undefined && second[1].length === best![1].length) {
        for (const [, list] of ranked) losing.push(...list);
        continue;
      }
      winners.set(id, best![0].split(':').map(Number) as [number, number]);
      for (const [, list] of ranked.slice(1)) losing.push(...list);
    }
    return { winners, losing };
  }

  /**
   * Each corrupt bucket replaced, in one command, by the members the readable records and the
   * restored ids put in it.
   */
  async #rebuildBuckets(winners: Map<number, [number, number]>): Promise<void> {
    if (this.#rebuild.size === 0) return;
    const { client, geometry } = this.#access;
    const contents = new Map<number, Buffer[]>();
    const place = (id: number, high: number, low: number): void => {
      for (let t = 0; t < geometry.tables.length; t++) {
        geometry.permute(high, low, t);
        const bucket = geometry.bucketId(t, geometry.bucket(geometry.high, t));
        if (!this.#rebuild.has(bucket)) continue;
        const member = Buffer.allocUnsafe(12);
        member.writeUInt32BE(geometry.high, 0);
        member.writeUInt32BE(geometry.low, 4);
        member.writeUInt32BE(id, 8);
        let list = contents.get(bucket);
        if (list === undefined) contents.set(bucket, (list = []));
        list.push(member);
      }
    };
    for (const [r, located] of this.#records) {
      if (this.#lostRecords.has(r)) continue;
      await this.#eachRecord(located, (id, value) => {
        if (value.length === 8 && !winners.has(id)) place(id, value.readUInt32BE(0), value.readUInt32BE(4));
      });
    }
    for (const [id, [high, low]] of winners) place(id, high, low);
    for (const [bucket, { node, key }] of this.#rebuild) {
      const members = Buffer.concat(contents.get(bucket) ?? []);
      // SET replaces a key of any type in one step.
      await send(client, this.#access.deadline(), async (): Promise<unknown> => (members.length === 0 ? node.del(key) : node.set(key, members)));
    }
    this.#report.rebuilt = this.#rebuild.size;
  }

  /**
   * Restored ids get their members (before their record, as every write) and their record; a
   * record hash of another type is replaced by the restored ids in one script. Unreadable
   * values no fingerprint was settled for are deleted, and the members of what lost.
   */
  async #restore(winners: Map<number, [number, number]>, losing: Witness[]): Promise<void> {
    const { client, geometry } = this.#access;
    const ids = Uint32Array.from(winners.keys());
    const halves = Uint32Array.from([...winners.values()].flatMap(([high, low]) => [low, high]));
    for (let start = 0; start < ids.length; start += ROUND) {
      await this.#access.addMembers(ids.subarray(start, start + ROUND), halves.subarray(2 * start, 2 * (start + ROUND)), this.#access.deadline());
    }
    const byRecord = new Map<number, number[]>();
    for (const id of winners.keys()) {
      const r = geometry.record(id);
      let list = byRecord.get(r);
      if (list === undefined) byRecord.set(r, (list = []));
      list.push(id);
    }
    for (const r of this.#lostRecords.keys()) if (!byRecord.has(r)) byRecord.set(r, []);
    for (const [r, list] of byRecord) {
      const lost = this.#lostRecords.get(r);
      const { node, key } = lost ?? this.#unreadable.get(list[0]!)!;
      const pairs = Buffer.allocUnsafe(12 * list.length);
      list.forEach((id, k) => {
        const [high, low] = winners.get(id)!;
        pairs.writeUInt32BE(id, 12 * k);
        pairs.writeUInt32BE(high, 12 * k + 4);
        pairs.writeUInt32BE(low, 12 * k + 8);
      });
      await send(client, this.#access.deadline(), () => REPLACE_RECORDS.run(node, [key], [pairs, Buffer.from(lost === undefined ? '0' : '1')]));
    }
    this.#report.restored = winners.size;
    for (const { node, key, member } of losing) this.#report.strays += await this.#access.removeMembers(node, key, member, this.#access.deadline());
    for (const [id, { node, key }] of this.#unreadable) {
      if (winners.has(id)) continue;
      const field = Buffer.allocUnsafe(4);
      field.writeUInt32BE(id);
      await send(client, this.#access.deadline(), () => node.hdel(key, field));
      this.#report.lost.push(id);
    }
    for (const id of this.#witnesses.keys()) if (!winners.has(id) && !this.#unreadable.has(id)) this.#report.lost.push(id);
  }

  /** Each group's counter set to the ids its record hashes hold, when it differs. */
  async #setCounters(): Promise<void> {
    const { client, geometry } = this.#access;
    await this.#scan(geometry.recordPattern);
    const totals = new Map<number, number>();
    const records = [...this.#records];
    for (let start = 0; start < records.length; start += ROUND) {
      const deadline = this.#access.deadline();
      const counts = await Promise.all(records.slice(start, start + ROUND).map(([, { node, key }]) => send(client, deadline, () => node.hlen(key))));
      counts.forEach((count, k) => {
        const group = geometry.recordGroup(records[start + k]![0]);
        totals.set(group, (totals.get(group) ?? 0) + count);
      });
    }
    for (let group = 0; group < geometry.description.groups; group++) {
      const key = geometry.counterKey(group);
      const total = totals.get(group) ?? 0;
      const held = await send(client, this.#access.deadline(), () => client.get(key)).catch((error: unknown) => {
        // A key of another type is no counter either.
        if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return 'not a string';
        throw error;
      });
      if ((held === null && total === 0) || held === String(total)) continue;
      if (held !== null && !COUNT_RULE.test(held)) this.#corrupt.add(key);
      // SET replaces a key of any type.
      await send(client, this.#access.deadline(), () => client.set(key, String(total)));
      this.#report.counters++;
    }
  }
}
