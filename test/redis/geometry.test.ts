// The Redis index's permutations (byte tables over 32-bit halves) against the shared layout's
// `permute`, its part tables and balls of buckets against the pigeonhole rule they rely on, and
// its 32-bit popcount against a bit loop: no servers needed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Geometry, bucketsPerQuery, forEachInBall, partShapes, popcount32 } from '../../ts/redis/geometry.js';
import { balancedTags, tagSlot } from '../../ts/redis/hash-tags.js';
import { permute, permutationLayout } from '../../ts/shared/layout.js';
import { fcParams } from '../suite/helpers.js';

describe('Geometry', () => {
  it('permutes as permutationLayout and permute describe', () => {
    const shapes = fc.integer({ min: 0, max: 10 }).chain((distance) => fc.tuple(fc.constant(distance), fc.integer({ min: distance + 1, max: distance + 2 })));
    fc.assert(
      fc.property(shapes, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), ([distance, blocks], value) => {
        const geometry = new Geometry('g', { distance, blocks, parts: 0, capacity: 32 << 10, bucketBits: 10, recordBits: 6, groups: 64, tags: Array.from({ length: 64 }, (_, g) => g) });
        const layout = permutationLayout(blocks, distance);
        expect(geometry.tables.length).toBe(layout.tables.length);
        geometry.tables.forEach((table, t) => {
          const expected = permute(value, layout, t);
          geometry.permute(Number(value >> 32n), Number(value & 0xffff_ffffn), t);
          expect((BigInt(geometry.high) << 32n) | BigInt(geometry.low)).toBe(expected);
          // A bucket lies within the prefix every near entry of the table shares.
          expect(table.bucketBits).toBe(Math.min(10, layout.tables[t]!.prefixBits));
          expect(geometry.bucket(geometry.high, t)).toBe(Number(expected >> BigInt(64 - table.bucketBits)) * (table.bucketBits === 0 ? 0 : 1));
        });
      }),
      fcParams(0x9e0, 100),
    );
  });

  const bits = (v: bigint): number => v.toString(2).replaceAll('0', '').length;
  const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });

  it('finds every pair within the distance through a part whose buckets lie within its radius', () => {
    // Pairs at exactly the distance are the hardest case; flips spread over random bits.
    const cases = fc.record({
      distance: fc.integer({ min: 0, max: 16 }),
      parts: fc.integer({ min: 1, max: 18 }),
      bucketBits: fc.integer({ min: 0, max: 20 }),
      value: u64,
      flips: fc.array(fc.integer({ min: 0, max: 63 }), { maxLength: 16 }),
    });
    fc.assert(
      fc.property(cases, ({ distance, parts, bucketBits, value, flips }) => {
        let other = value;
        for (const bit of new Set(flips.slice(0, distance))) other ^= 1n << BigInt(bit);
        const geometry = new Geometry('g', { distance, blocks: 0, parts, capacity: 1, bucketBits, recordBits: 6, groups: 4, tags: [0, 1, 2, 3] });
        expect(geometry.tables.length).toBe(partShapes(parts, distance, bucketBits).length);
        const near = geometry.tables.some((table, t) => {
          geometry.permute(Number(value >> 32n), Number(value & 0xffff_ffffn), t);
          const a = geometry.bucket(geometry.high, t);
          const [h, l] = [geometry.high, geometry.low];
          geometry.permute(Number(other >> 32n), Number(other & 0xffff_ffffn), t);
          // The permutation moves bits without losing any.
          expect(popcount32(h ^ geometry.high) + popcount32(l ^ geometry.low)).toBe(bits(value ^ other));
          return bits(BigInt(a ^ geometry.bucket(geometry.high, t))) <= table.radius;
        });
        expect(near).toBe(true);
      }),
      fcParams(0x9e2, 500),
    );
  });

  it('enumerates a ball of buckets once each', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 16 }), fc.integer({ min: 0, max: 4 }), fc.nat(), (width, radius, seed) => {
        const key = width === 0 ? 0 : seed % 2 ** width;
        const seen: number[] = [];
        forEachInBall(key, width, radius, (value) => seen.push(value));
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen[0]).toBe(key);
        let expected = 0;
        for (let v = 0; v < 2 ** width; v++) if (popcount32(v ^ key) <= radius) expected++;
        expect(seen.length).toBe(expected);
        for (const value of seen) expect(popcount32(value ^ key)).toBeLessThanOrEqual(radius);
        expect(bucketsPerQuery([{ low: 0, high: width, bucketBits: width, radius }])).toBe(expected);
      }),
      fcParams(0x9e3, 200),
    );
  });

  it('hashes tags to the slots Redis Cluster gives them', () => {
    // CLUSTER KEYSLOT answers, and the CRC16/XMODEM check value of '123456789' (0x31c3).
    expect(tagSlot('foo')).toBe(12182);
    expect(tagSlot('bar')).toBe(5061);
    expect(tagSlot('somekey')).toBe(11058);
    expect(tagSlot('123456789')).toBe(0x31c3);
  });

  it('spreads tag numbers evenly over masters, and falls back to 0..n-1 without any', () => {
    const thirds = (slot: number): string => (slot <= 5460 ? 'a' : slot <= 10922 ? 'b' : 'c');
    for (const [name, groups] of [['pages', 12], ['x', 8], ['d3', 24]] as const) {
      const tags = balancedTags(name, groups, thirds);
      expect(new Set(tags).size).toBe(groups);
      const perMaster = new Map<string, number>();
      for (const t of tags) perMaster.set(thirds(tagSlot(`${name}/${t}`)), (perMaster.get(thirds(tagSlot(`${name}/${t}`))) ?? 0) + 1);
      expect([...perMaster.values()].every((n) => n <= Math.ceil(groups / 3) && n >= Math.floor(groups / 3))).toBe(true);
    }
    expect(balancedTags('pages', 4, () => undefined)).toEqual([0, 1, 2, 3]);
    // Slots held by one master only: every tag goes there.
    expect(balancedTags('pages', 8, () => 'only')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('counts bits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), (value) => {
        let expected = 0;
        for (let bit = 0; bit < 32; bit++) expected += (value >>> bit) & 1;
        expect(popcount32(value)).toBe(expected);
      }),
      fcParams(0x9e1, 1000),
    );
  });
});
