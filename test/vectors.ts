/**
 * The reference vectors of `test/vectors/*.json` (produced by simhash-cpp), parsed and checked
 * for shape, with every decimal-string u64 turned into a `bigint`.
 */
import { readFileSync } from 'node:fs';

export interface ComputeCase {
  name: string;
  hashes: bigint[];
  expected: bigint;
}

export interface FindAllCase {
  name: string;
  hashes: bigint[];
  blocks: number;
  distance: number;
  uniqueInputs: number;
  /** Value pairs `[min, max]`, sorted numerically, duplicates and `(h, h)` excluded. */
  expected: Array<[bigint, bigint]>;
}

export interface FindAllErrorCase {
  name: string;
  hashes: bigint[];
  blocks: number;
  distance: number;
  /** The reference's own message (ours differ; only the error kind is compared). */
  expectedError: string;
}

export interface PermutationVector {
  order: number[];
  searchMask: bigint;
  searchMaskBits: number;
  /** `apply[i]` is the permutation applied to `samples[i]`. */
  apply: bigint[];
}

export interface PermutationCase {
  blocks: number;
  distance: number;
  blockBitRanges: Array<[number, number]>;
  blockMasks: bigint[];
  samples: bigint[];
  permutations: PermutationVector[];
}

const U64_MAX = (1n << 64n) - 1n;

function fail(where: string, what: string): never {
  throw new Error(`test/vectors: ${where}: expected ${what}`);
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'an object');
  return value as Record<string, unknown>;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) fail(where, 'an array');
  return value as unknown[];
}

function str(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'a string');
  return value;
}

function int(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(where, 'an integer');
  return value;
}

function u64(value: unknown, where: string): bigint {
  const s = str(value, where);
  if (!/^[0-9]+$/.test(s)) fail(where, 'a decimal string');
  const v = BigInt(s);
  if (v > U64_MAX) fail(where, 'a u64');
  return v;
}

function u64List(value: unknown, where: string): bigint[] {
  return list(value, where).map((v, i) => u64(v, `${where}[${i}]`));
}

function intList(value: unknown, where: string): number[] {
  return list(value, where).map((v, i) => int(v, `${where}[${i}]`));
}

function cases(file: string): Array<Record<string, unknown>> {
  const text = readFileSync(new URL(`./vectors/${file}`, import.meta.url), 'utf8');
  const root = record(JSON.parse(text) as unknown, file);
  return list(root['cases'], `${file}.cases`).map((c, i) => record(c, `${file}.cases[${i}]`));
}

function pair(value: unknown, where: string): [bigint, bigint] {
  const [a, b, ...rest] = list(value, where);
  if (rest.length !== 0) fail(where, 'a pair');
  return [u64(a, `${where}[0]`), u64(b, `${where}[1]`)];
}

export function loadComputeCases(): ComputeCase[] {
  return cases('compute_vectors.json').map((c, i) => {
    const where = `compute_vectors.json cases[${i}]`;
    return {
      name: str(c['name'], `${where}.name`),
      hashes: u64List(c['hashes'], `${where}.hashes`),
      expected: u64(c['expected'], `${where}.expected`),
    };
  });
}

export function loadFindAllCases(): FindAllCase[] {
  return cases('find_all_vectors.json').map((c, i) => {
    const where = `find_all_vectors.json cases[${i}]`;
    return {
      name: str(c['name'], `${where}.name`),
      hashes: u64List(c['hashes'], `${where}.hashes`),
      blocks: int(c['blocks'], `${where}.blocks`),
      distance: int(c['distance'], `${where}.distance`),
      uniqueInputs: int(c['unique_inputs'], `${where}.unique_inputs`),
      expected: list(c['expected'], `${where}.expected`).map((p, k) => pair(p, `${where}.expected[${k}]`)),
    };
  });
}

export function loadFindAllErrorCases(): FindAllErrorCase[] {
  return cases('find_all_error_vectors.json').map((c, i) => {
    const where = `find_all_error_vectors.json cases[${i}]`;
    return {
      name: str(c['name'], `${where}.name`),
      hashes: u64List(c['hashes'], `${where}.hashes`),
      blocks: int(c['blocks'], `${where}.blocks`),
      distance: int(c['distance'], `${where}.distance`),
      expectedError: str(c['expected_error'], `${where}.expected_error`),
    };
  });
}

export function loadPermutationCases(): PermutationCase[] {
  return cases('permutation_vectors.json').map((c, i) => {
    const where = `permutation_vectors.json cases[${i}]`;
    return {
      blocks: int(c['blocks'], `${where}.blocks`),
      distance: int(c['distance'], `${where}.distance`),
      blockBitRanges: list(c['block_bit_ranges'], `${where}.block_bit_ranges`).map((r, k) => {
        const [low, high, ...rest] = intList(r, `${where}.block_bit_ranges[${k}]`);
        if (low === undefined || high === undefined || rest.length !== 0) fail(where, 'bit ranges [low, high]');
        return [low, high];
      }),
      blockMasks: u64List(c['block_masks'], `${where}.block_masks`),
      samples: u64List(c['samples'], `${where}.samples`),
      permutations: list(c['permutations'], `${where}.permutations`).map((p, k) => {
        const pw = `${where}.permutations[${k}]`;
        const r = record(p, pw);
        return {
          order: intList(r['order'], `${pw}.order`),
          searchMask: u64(r['search_mask'], `${pw}.search_mask`),
          searchMaskBits: int(r['search_mask_bits'], `${pw}.search_mask_bits`),
          apply: u64List(r['apply'], `${pw}.apply`),
        };
      }),
    };
  });
}
