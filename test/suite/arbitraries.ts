/**
 * fast-check generators for random and adversarial inputs: values near 0 and 2^64 - 1, single
 * bits, duplicates, all-equal lists, complements, and near copies planted at an exact number of
 * differing bits.
 */
import fc from 'fast-check';
import { U64_MAX, binomial, flipBits } from '../oracle.js';

/** Uniform u64. */
export const u64Uniform: fc.Arbitrary<bigint> = fc.bigInt({ min: 0n, max: U64_MAX });

/** Values at the edges: near 0, near 2^64 - 1, one bit set or clear, alternating patterns. */
export const u64Edge: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: 0n, max: 255n }),
  fc.bigInt({ min: U64_MAX - 255n, max: U64_MAX }),
  fc.integer({ min: 0, max: 63 }).map((bit) => 1n << BigInt(bit)),
  fc.integer({ min: 0, max: 63 }).map((bit) => U64_MAX ^ (1n << BigInt(bit))),
  fc.constantFrom(
    0n,
    U64_MAX,
    1n << 63n,
    (1n << 63n) - 1n,
    0xffff_ffffn,
    0xffff_ffff_0000_0000n,
    0x5555_5555_5555_5555n,
    0xaaaa_aaaa_aaaa_aaaan,
  ),
);

/** A u64, uniform or at an edge. */
export const u64: fc.Arbitrary<bigint> = fc.oneof(
  { arbitrary: u64Uniform, weight: 3 },
  { arbitrary: u64Edge, weight: 2 },
);

/** A PRNG seeded from fast-check, for choosing which bits a near copy flips. */
function rngFrom(seed: number): { below(n: number): number } {
  let state = seed >>> 0 || 0x9e37_79b9;
  return {
    below(n: number): number {
      // xorshift32
      state ^= state << 13;
      state >>>= 0;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      return state % n;
    },
  };
}

/**
 * One step of building an adversarial list: a fresh value, an exact copy or the complement of an
 * earlier element, or a near copy of an earlier element with `distance + delta` bits flipped
 * (so pairs land exactly on, just inside and just outside the threshold).
 */
export type Step =
  | { kind: 'fresh'; value: bigint }
  | { kind: 'copy'; ref: number }
  | { kind: 'complement'; ref: number }
  | { kind: 'near'; ref: number; delta: number; seed: number };

export const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: u64.map((value): Step => ({ kind: 'fresh', value })) },
  { weight: 1, arbitrary: fc.nat().map((ref): Step => ({ kind: 'copy', ref })) },
  { weight: 1, arbitrary: fc.nat().map((ref): Step => ({ kind: 'complement', ref })) },
  {
    weight: 3,
    arbitrary: fc
      .record({ ref: fc.nat(), delta: fc.integer({ min: -2, max: 1 }), seed: fc.nat() })
      .map((r): Step => ({ kind: 'near', ...r })),
  },
);

/** Turns steps into values for a findAll threshold of `distance` (near copies flip bits around it). */
export function materialize(steps: readonly Step[], distance: number): bigint[] {
  const values: bigint[] = [];
  for (const s of steps) {
    const base = values.length === 0 ? 0n : values[('ref' in s ? s.ref : 0) % values.length]!;
    switch (s.kind) {
      case 'fresh':
        values.push(s.value);
        break;
      case 'copy':
        values.push(base);
        break;
      case 'complement':
        values.push(U64_MAX ^ base);
        break;
      case 'near': {
        // delta -1, 0, 1 flip distance - 1, distance, distance + 1 bits; delta -2 also plants at
        // exactly `distance`, so the threshold itself is hit twice as often.
        const flips = s.delta === -2 ? distance : distance + s.delta;
        values.push(flipBits(base, Math.min(64, Math.max(0, flips)), rngFrom(s.seed)));
        break;
      }
    }
  }
  return values;
}

/** Lists with every kind of adversarial structure, of length 0 to `maxLength`. */
export function steps(maxLength: number): fc.Arbitrary<Step[]> {
  return fc.array(step, { maxLength });
}

/** A list of u64 (random, edges, duplicates, complements, near copies at distance 3). */
export function u64List(maxLength: number): fc.Arbitrary<bigint[]> {
  return fc.oneof(
    { weight: 4, arbitrary: steps(maxLength).map((s) => materialize(s, 3)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(u64, fc.integer({ min: 0, max: maxLength }))
        .map(([value, n]) => Array.from({ length: n }, () => value)),
    },
  );
}

/** Distances: the interesting ones often, any valid one sometimes. */
export const distance: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, 1, 2, 3, 4, 63, 64) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 64 }) },
);

/** Blocks that do not divide 64 (and 64 itself) that the tests always try when valid. */
export const INTERESTING_BLOCKS = [5, 7, 9, 10, 64] as const;

/**
 * Valid explicit `blocks` for `distance` whose table count `C(blocks, distance)` stays at most
 * `maxTables` (larger layouts are valid but would make a property test slow, not more telling).
 */
export function validBlocks(distance: number, maxTables: number): number[] {
  const result: number[] = [];
  for (let b = distance + 1; b <= 64; b++) {
    if (binomial(b, distance) <= maxTables) result.push(b);
  }
  return result;
}

/**
 * The `blocks` a findAll property tries for `distance`: automatic (`undefined`), `distance + 1`,
 * the interesting ones, each only when valid and cheap enough.
 */
export function blocksToTry(distance: number, maxTables: number): Array<number | undefined> {
  const valid = new Set(validBlocks(distance, maxTables));
  const picks = new Set<number>();
  if (valid.has(distance + 1)) picks.add(distance + 1);
  for (const b of INTERESTING_BLOCKS) if (valid.has(b)) picks.add(b);
  return [undefined, ...[...picks].sort((x, y) => x - y)];
}

/** Non-negative finite weights, with zeros, ties, and magnitudes far apart (so f64 order matters). */
export const weight: fc.Arbitrary<number> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(0, 1, 2, 3, 0.5, 0.1, 0.2, 0.3, 1e16, 2 ** 53, 1e-300, 5e-324) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 4 }) },
  { weight: 2, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 1e300, noNaN: true, noDefaultInfinity: true }) },
);

/** Hashes with one weight each. */
export function weightedList(maxLength: number): fc.Arbitrary<{ hashes: bigint[]; weights: number[] }> {
  return u64List(maxLength).chain((hashes) =>
    fc
      .array(weight, { minLength: hashes.length, maxLength: hashes.length })
      .map((weights) => ({ hashes, weights })),
  );
}

/**
 * Document offsets over `hashCount` hashes: non-decreasing, within `0..=hashCount`, not
 * necessarily starting at 0 or ending at `hashCount`, with empty documents (repeated offsets).
 */
export function offsets(hashCount: number, maxDocuments: number): fc.Arbitrary<Uint32Array> {
  return fc.oneof(
    fc
      .array(fc.integer({ min: 0, max: hashCount }), { maxLength: maxDocuments + 1 })
      .map((o) => Uint32Array.from(o.sort((x, y) => x - y))),
    // A full partition 0 .. hashCount, the usual shape.
    fc
      .array(fc.integer({ min: 0, max: hashCount }), { maxLength: maxDocuments })
      .map((cuts) => Uint32Array.from([0, ...cuts.sort((x, y) => x - y), hashCount])),
  );
}
