/**
 * `RedisSimHashIndex.repair()`: every key of an index checked against what the index writes,
 * and put right from what is still readable. Records are the truth for buckets (a member no
 * record accounts for is a stray; a lost bucket is rebuilt from the records) and buckets are
 * the witnesses for records (a member holds its whole fingerprint, permuted, so an unreadable
 * record is restored from what its members agree on).
 */

import type { Cluster, Redis } from 'ioredis';
import type { Geometry } from './geometry.js';
import { type Deadline, isCluster, send } from './requests.js';
import type { RecordValues } from './scripts.js';

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
  /** Bucket keys deleted as corrupt and rebuilt from the records. */
  rebuilt: number;
  /** Entry counters that disagreed with the records, set anew. */
  counters: number;
}

/** What a repair needs of its index. */
export interface RepairAccess {
  readonly client: Redis | Cluster;
  readonly geometry: Geometry;
  /** A new deadline: each round of requests has the index's time limit. */
  deadline(): Deadline;
  /** What the records of `ids` hold. */
  readRecords(ids: Uint32Array, deadline: Deadline): Promise<RecordValues>;
  /** Removes `members` (12 bytes each) and any second copy of a member from bucket `key`; how many went. */
  removeMembers(node: Redis, key: string, members: Buffer, deadline: Deadline): Promise<number>;
  /** Writes records and adds whatever table members they lack (values as low, high halves). */
  restore(ids: Uint32Array, values: Uint32Array, deadline: Deadline): Promise<void>;
  /** Adds the members of entries that their buckets lack. */
  addMembers(ids: Uint32Array, values: Uint32Array, deadline: Deadline): Promise<void>;
}

/** Buckets read per round. */
const BUCKETS_PER_ROUND = 256;

interface Located {
  readonly node: Redis;
  readonly key: string;
}

/** One run of `repair()`. */
export class Repair {
  readonly #access: RepairAccess;
  readonly #report: RepairReport = { strays: 0, copies: 0, corrupt: [], restored: 0, lost: [], rebuilt: 0, counters: 0 };
  readonly #corrupt = new Set<string>();
  /** Record hashes found, by record number. */
  readonly #records = new Map<number, Located>();
  /** Record numbers whose hash was deleted as corrupt: their ids are restored from members. */
  readonly #lostRecords = new Set<number>();
  /** Ids whose value is unreadable, with their record hash. */
  readonly #unreadable = new Map<number, Located>();
  /** For ids to restore: each candidate fingerprint (as high:low) with the members that hold it. */
  readonly #witnesses = new Map<number, Map<string, { node: Redis; key: string; member: Buffer }[]>>();
  /** Bucket ids (see `Geometry.bucketId`) deleted as corrupt, to rebuild. */
  readonly #rebuild = new Set<number>();

  constructor(access: RepairAccess) {
    this.#access = access;
  }

  async run(): Promise<RepairReport> {
    const { buckets } = await this.#scan();
    for (const [r, record] of this.#records) await this.#checkRecords(r, record);
    for (let start = 0; start < buckets.length; start += BUCKETS_PER_ROUND) await this.#checkBuckets(buckets.slice(start, start + BUCKETS_PER_ROUND));
    await this.#restore();
    await this.#rebuildBuckets();
    await this.#setCounters();
    this.#report.corrupt = [...this.#corrupt].sort();
    this.#report.lost.sort((a, b) => a - b);
    return this.#report;
  }

  /** Every key of the index, on every master. */
  async #scan(): Promise<{ buckets: (Located & { t: number; b: number })[] }> {
    const { client, geometry } = this.#access;
    const buckets: (Located & { t: number; b: number })[] = [];
    for (const node of isCluster(client) ? client.nodes('master') : [client]) {
      let cursor = '0';
      do {
        let keys: string[];
        [cursor, keys] = await send(client, this.#access.deadline(), () => node.scan(cursor, 'MATCH', geometry.keyPattern, 'COUNT', 1000));
        for (const key of keys) {
          const parsed = geometry.parseKey(key);
          if (parsed?.kind === 'bucket') buckets.push({ node, key, t: parsed.t, b: parsed.b });
          else if (parsed?.kind === 'record') this.#records.set(parsed.r, { node, key });
        }
      } while (cursor !== '0');
    }
    return { buckets };
  }

  /** Step 1 for one record hash. */
  async #checkRecords(r: number, { node, key }: Located): Promise<void> {
    const { client, geometry } = this.#access;
    const type = await send(client, this.#access.deadline(), () => node.type(key));
    if (type !== 'hash') {
      if (type === 'none') return;
      this.#corrupt.add(key);
      this.#lostRecords.add(r);
      this.#records.delete(r);
      await send(client, this.#access.deadline(), () => node.del(key));
      return;
    }
    let cursor = '0';
    do {
      let flat: Buffer[];
      [cursor, flat] = await send(client, this.#access.deadline(), () => node.hscanBuffer(key, cursor, 'COUNT', 1000)).then(([c, f]) => [String(c), f] as [string, Buffer[]]);
      const strange: Buffer[] = [];
      for (let k = 0; k + 1 < flat.length; k += 2) {
        const field = flat[k]!;
        const value = flat[k + 1]!;
        if (field.length !== 4 || geometry.record(field.readUInt32BE(0)) !== r) strange.push(field);
        else if (value.length !== 8) this.#unreadable.set(field.readUInt32BE(0), { node, key });
        else continue;
        this.#corrupt.add(key);
      }
      if (strange.length > 0) await send(client, this.#access.deadline(), () => node.hdel(key, ...strange));
    } while (cursor !== '0');
  }

  /** Step 2 for a round of buckets. */
  async #checkBuckets(round: (Located & { t: number; b: number })[]): Promise<void> {
    const { client, geometry } = this.#access;
    const deadline = this.#access.deadline();
    const held = await Promise.all(
      round.map(({ node, key }) =>
        send(client, deadline, () => node.getBuffer(key)).catch((error: unknown) => {
          if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return 'wrong type' as const;
          throw error;
        }),
      ),
    );
    const ids: number[] = [];
    const members: { at: number; bucket: Buffer }[] = [];
    for (let k = 0; k < round.length; k++) {
      const bucket = held[k]!;
      const { node, key, t, b } = round[k]!;
      if (bucket === 'wrong type' || (bucket !== null && bucket.length % 12 !== 0)) {
        this.#corrupt.add(key);
        this.#rebuild.add(geometry.bucketId(t, b));
        // Its members are lost either way; the rebuild writes what the records say.
        await send(client, deadline, () => node.del(key));
        continue;
      }
      if (bucket === null) continue;
      for (let at = 0; at < bucket.length; at += 12) {
        ids.push(bucket.readUInt32BE(at + 8));
        members.push({ at: k, bucket: bucket.subarray(at, at + 12) });
      }
    }
    if (ids.length === 0) return;
    const records = await this.#access.readRecords(Uint32Array.from(ids), deadline);
    const strays = new Map<number, Buffer[]>();
    const copies = new Map<number, number>();
    const seen = new Set<string>();
    members.forEach(({ at, bucket: member }, k) => {
      const { node, key, t } = round[at]!;
      const id = ids[k]!;
      const high = member.readUInt32BE(0);
      const low = member.readUInt32BE(4);
      if (records.found[k] === 1) {
        geometry.permute(records.high[k]!, records.low[k]!, t);
        if (geometry.high === high && geometry.low === low) {
          const text = key + member.toString('latin1');
          if (seen.has(text)) copies.set(at, (copies.get(at) ?? 0) + 1);
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
        const removed = await this.#access.removeMembers(node, key, Buffer.concat(stray), deadline);
        this.#report.strays += Math.min(removed, stray.length);
        this.#report.copies += Math.max(0, removed - stray.length);
      }),
    );
  }

  /**
   * Step 3: each id to restore gets the fingerprint most of its members hold (when no other
   * has as many); the members of the others go. Ids left unreadable with no such fingerprint
   * are removed.
   */
  async #restore(): Promise<void> {
    const { client } = this.#access;
    const ids: number[] = [];
    const values: number[] = [];
    const losing: { node: Redis; key: string; member: Buffer }[] = [];
    for (const [id, byValue] of this.#witnesses) {
      const ranked = [...byValue].sort((a, b) => b[1].length - a[1].length);
      const [best, second] = ranked;
      if (second !== undefined && second[1].length === best![1].length) {
        for (const [, list] of ranked) losing.push(...list);
        this.#report.lost.push(id);
        continue;
      }
      const [high, low] = best![0].split(':').map(Number) as [number, number];
      ids.push(id);
      values.push(low, high);
      for (const [, list] of ranked.slice(1)) losing.push(...list);
    }
    const deadline = this.#access.deadline();
    if (ids.length > 0) {
      await this.#access.restore(Uint32Array.from(ids), Uint32Array.from(values), deadline);
      this.#report.restored += ids.length;
    }
    for (const { node, key, member } of losing) this.#report.strays += await this.#access.removeMembers(node, key, member, deadline);
    // Unreadable values that no member vouched for.
    const restored = new Set(this.#witnesses.keys());
    for (const [id, { node, key }] of this.#unreadable) {
      if (restored.has(id)) continue;
      const field = Buffer.alloc(4);
      field.writeUInt32BE(id);
      await send(client, deadline, () => node.hdel(key, field));
      this.#report.lost.push(id);
    }
  }

  /** Step 3, buckets: every record whose entry has a member in a deleted bucket writes it again. */
  async #rebuildBuckets(): Promise<void> {
    if (this.#rebuild.size === 0) return;
    const { client, geometry } = this.#access;
    const tables = geometry.tables.length;
    // The record hashes as they are now: restoring may have made some.
    const { records } = await this.#recordKeys();
    for (const { node, key } of records.values()) {
      let cursor = '0';
      do {
        let flat: Buffer[];
        [cursor, flat] = await send(client, this.#access.deadline(), () => node.hscanBuffer(key, cursor, 'COUNT', 1000)).then(([c, f]) => [String(c), f] as [string, Buffer[]]);
        const ids: number[] = [];
        const values: number[] = [];
        for (let k = 0; k + 1 < flat.length; k += 2) {
          const value = flat[k + 1]!;
          if (flat[k]!.length !== 4 || value.length !== 8) continue;
          const high = value.readUInt32BE(0);
          const low = value.readUInt32BE(4);
          for (let t = 0; t < tables; t++) {
            geometry.permute(high, low, t);
            if (this.#rebuild.has(geometry.bucketId(t, geometry.bucket(geometry.high, t)))) {
              ids.push(flat[k]!.readUInt32BE(0));
              values.push(low, high);
              break;
            }
          }
        }
        if (ids.length > 0) await this.#access.addMembers(Uint32Array.from(ids), Uint32Array.from(values), this.#access.deadline());
      } while (cursor !== '0');
    }
    this.#report.rebuilt = this.#rebuild.size;
  }

  /** Step 3, counters: each group's counter set to the ids its record hashes hold, when it differs. */
  async #setCounters(): Promise<void> {
    const { client, geometry } = this.#access;
    const { records } = await this.#recordKeys();
    const deadline = this.#access.deadline();
    const totals = new Map<number, number>();
    await Promise.all(
      [...records].map(async ([r, { node, key }]) => {
        const held = await send(client, deadline, () => node.hlen(key));
        const group = geometry.recordGroup(r);
        totals.set(group, (totals.get(group) ?? 0) + held);
      }),
    );
    for (let group = 0; group < geometry.description.groups; group++) {
      const key = geometry.counterKey(group);
      const total = totals.get(group) ?? 0;
      // A key of another type answers WRONGTYPE: it is no counter either.
      const held = await send(client, deadline, () => client.get(key)).catch(() => 'not a string');
      if ((held === null && total === 0) || held === String(total)) continue;
      if (held !== null && !/^(0|[1-9]\d*)$/.test(held)) this.#corrupt.add(key);
      // SET replaces a key of any type.
      await send(client, deadline, () => client.set(key, String(total)));
      this.#report.counters++;
    }
  }

  /** The record hashes that exist now. */
  async #recordKeys(): Promise<{ records: Map<number, Located> }> {
    this.#records.clear();
    await this.#scan();
    return { records: this.#records };
  }
}
