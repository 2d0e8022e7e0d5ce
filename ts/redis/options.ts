/** Checks of the options every Redis-backed index takes alike. */

import type { Cluster, Redis } from 'ioredis';
import { describe } from '../shared/validate.js';

/** No braces (they delimit the hash tag) and no slash (which separates the name from a tag number). */
const NAME_RULE = /^[^{}/\s]{1,100}$/;

/** `options.client`: anything that can run scripts as an ioredis client does. */
export function checkClient(value: unknown): Redis | Cluster {
  if (typeof value !== 'object' || value === null || typeof (value as { evalsha?: unknown }).evalsha !== 'function') {
    throw new TypeError(`options.client must be an ioredis Redis or Cluster client, got ${describe(value)}`);
  }
  return value as Redis | Cluster;
}

/** `options.name`: 1 to 100 characters, none of them a brace, a slash or a space. */
export function checkName(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`options.name must be a string, got ${describe(value)}`);
  if (!NAME_RULE.test(value)) throw new RangeError(`options.name must be 1 to 100 characters without braces, slashes or spaces, got '${value}'`);
  return value;
}

/** An optional integer option in `min..=max`, `fallback` when left out. */
export function optionalInteger(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer in ${min}..${max}, got ${value}`);
  return value;
}
