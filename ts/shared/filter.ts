/**
 * The filter a search uses, as one number shared with the Rust core (its `Strategy` code) and
 * the saved-index format: 0 compares directly, `1..=64` is a permuted-table layout of that many
 * blocks, {@link PARTS_CODE} `+ m` is multi-index hashing over `m` parts.
 */

import { checkBlocks, describe } from './validate.js';

/** Codes at or above this name a part layout: `PARTS_CODE + parts`. */
export const PARTS_CODE = 0x80;

/** Checks `parts`: an integer in `1..=64`. */
export function checkParts(parts: unknown, name = 'options.parts'): number {
  if (typeof parts !== 'number') throw new TypeError(`${name} must be a number, got ${describe(parts)}`);
  if (!Number.isInteger(parts) || parts < 1 || parts > 64) {
    throw new RangeError(`${name} must be an integer in 1..64, got ${parts}`);
  }
  return parts;
}

/**
 * The filter code an options object fixes with `blocks` or `parts`, or `undefined` when it
 * leaves the choice to the planner.
 *
 * @throws {TypeError | RangeError} for an invalid value, or both given.
 */
export function explicitFilter(opts: { blocks?: unknown; parts?: unknown }, distance: number): number | undefined {
  if (opts.blocks !== undefined && opts.parts !== undefined) {
    throw new TypeError('options.blocks and options.parts choose different filter families: give at most one');
  }
  if (opts.blocks !== undefined) return checkBlocks(opts.blocks, distance);
  if (opts.parts !== undefined) return PARTS_CODE + checkParts(opts.parts);
  return undefined;
}

/** The blocks of a filter code (0 unless it names tables). */
export function blocksOf(code: number): number {
  return code < PARTS_CODE ? code : 0;
}

/** The parts of a filter code (0 unless it names parts). */
export function partsOf(code: number): number {
  return code >= PARTS_CODE ? code - PARTS_CODE : 0;
}

/**
 * The options that fix filter `code` again elsewhere (a worker, a shard): `{ blocks }`,
 * `{ parts }`, or nothing for 0, which no option names and the planner chooses again from the
 * same n.
 */
export function filterOptions(code: number): { blocks?: number; parts?: number } {
  if (code === 0) return {};
  return code >= PARTS_CODE ? { parts: code - PARTS_CODE } : { blocks: code };
}
