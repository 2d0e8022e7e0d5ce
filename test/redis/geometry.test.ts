// The Redis index's permutations (byte tables over 32-bit halves) against the shared layout's
// `permute`, and its 32-bit popcount against a bit loop: no servers needed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Geometry, popcount32 } from '../../ts/redis/geometry.js';
import { permute, permutationLayout } from '../../ts/shared/layout.js';
import { fcParams } from '../suite/helpers.js';

describe('Geometry', () => {
  it('permutes as permutationLayout and permute describe', () => {
    const shapes = fc.integer({ min: 0, max: 10 }).chain((distance) => fc.tuple(fc.constant(distance), fc.integer({ min: distance + 1, max: distance + 2 })));
    fc.assert(
      fc.property(shapes, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), ([distance, blocks], value) => {
        const geometry = new Geometry('g', { distance, blocks, bucketBits: 10, recordBits: 6, groups: 64 });
        const layout = permutationLayout(blocks, distance);
        expect(geometry.tables.length).toBe(layout.tables.length);
        geometry.tables.forEach((table, t) => {
          const expected = permute(value, layout, t);
          geometry.permute(Number(value >> 32n), Number(value & 0xffff_ffffn), t);
          expect((BigInt(geometry.high) << 32n) | BigInt(geometry.low)).toBe(expected);
          const mask = (BigInt(table.maskHigh) << 32n) | BigInt(table.maskLow);
          expect(mask).toBe(layout.tables[t]!.searchMask);
          expect(geometry.bucket(geometry.high, t)).toBe(Number(expected >> BigInt(64 - table.bucketBits)) * (table.bucketBits === 0 ? 0 : 1));
        });
      }),
      fcParams(0x9e0, 100),
    );
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
