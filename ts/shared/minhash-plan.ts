/**
 * Choosing LSH bands × rows for a Jaccard threshold, as datasketch does: the pair of a
 * signature of k positions cut into b bands of r rows becomes a candidate with probability
 * 1 − (1 − s^r)^b at similarity s; the planner minimises the weighted areas of false positives
 * (the curve below the threshold) and false negatives (above it, under 1).
 */

import { MINHASH_LSH_OPTIONS, type MinHashLshOptions, type MinHashLshPlan } from './minhash-types.js';
import { checkInteger, DEFAULT_NUM_PERM, MAX_NUM_PERM } from './minhash-options.js';
import { checkOptions, describe } from './validate.js';

/** The default Jaccard threshold (measured: see docs/quality.md). */
export const DEFAULT_THRESHOLD = 0.6;

/** Adaptive Simpson quadrature of `f` over [a, b] to about `tolerance`. */
function integrate(f: (s: number) => number, a: number, b: number, tolerance = 1e-9): number {
  const simpson = (fa: number, fm: number, fb: number, width: number): number => (width / 6) * (fa + 4 * fm + fb);
  const step = (a: number, b: number, fa: number, fm: number, fb: number, whole: number, tol: number, depth: number): number => {
    const m = (a + b) / 2;
    const lm = (a + m) / 2;
    const rm = (m + b) / 2;
    const flm = f(lm);
    const frm = f(rm);
    const left = simpson(fa, flm, fm, m - a);
    const right = simpson(fm, frm, fb, b - m);
    if (depth <= 0 || Math.abs(left + right - whole) <= 15 * tol) return left + right + (left + right - whole) / 15;
    return step(a, m, fa, flm, fm, left, tol / 2, depth - 1) + step(m, b, fm, frm, fb, right, tol / 2, depth - 1);
  };
  const fa = f(a);
  const fb = f(b);
  const fm = f((a + b) / 2);
  return step(a, b, fa, fm, fb, simpson(fa, fm, fb, b - a), tolerance, 40);
}

/** ∫₀ᵗ P(candidate | s) ds. */
export function falsePositiveArea(threshold: number, bands: number, rows: number): number {
  return integrate((s) => 1 - (1 - s ** rows) ** bands, 0, threshold);
}

/** ∫ₜ¹ (1 − P(candidate | s)) ds. */
export function falseNegativeArea(threshold: number, bands: number, rows: number): number {
  return integrate((s) => (1 - s ** rows) ** bands, threshold, 1);
}

function checkThreshold(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!(value > 0 && value <= 1)) throw new RangeError(`${name} must be in (0, 1], got ${value}`);
  return value;
}

function checkWeight(value: unknown, name: string): number {
  if (value === undefined) return 0.5;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!(value >= 0 && Number.isFinite(value))) throw new RangeError(`${name} must be finite and non-negative, got ${value}`);
  return value;
}

/** Checks a query threshold. */
export function checkQueryThreshold(value: unknown, name: string, fallback: number): number {
  return checkThreshold(value, name, fallback);
}

/**
 * Bands × rows for LSH over signatures of `numPerm` positions: the (b, r) with b·r ≤ numPerm
 * minimising `falsePositiveWeight`·FP + `falseNegativeWeight`·FN, searched over every b and r
 * as datasketch's `MinHashLSH` does (the first minimum in order of b, then r). `bands` and
 * `rows` given together skip the search.
 *
 * @example
 * planMinHashLsh({ threshold: 0.8, numPerm: 128 }); // { bands: 9, rows: 13, … }
 * @throws {TypeError | RangeError} for bad options.
 */
export function planMinHashLsh(options?: MinHashLshOptions): MinHashLshPlan {
  const o = options === undefined ? {} : checkOptions(options, MINHASH_LSH_OPTIONS, 'planMinHashLsh');
  const threshold = checkThreshold(o.threshold, 'options.threshold', DEFAULT_THRESHOLD);
  const numPerm = checkInteger(o.numPerm, 'options.numPerm', 1, MAX_NUM_PERM, DEFAULT_NUM_PERM);
  const fpWeight = checkWeight(o.falsePositiveWeight, 'options.falsePositiveWeight');
  const fnWeight = checkWeight(o.falseNegativeWeight, 'options.falseNegativeWeight');
  if ((o.bands === undefined) !== (o.rows === undefined)) {
    throw new TypeError('options.bands and options.rows must be given together or not at all');
  }
  if (o.bands !== undefined) {
    const bands = checkInteger(o.bands, 'options.bands', 1, numPerm, 1);
    const rows = checkInteger(o.rows, 'options.rows', 1, numPerm, 1);
    if (bands * rows > numPerm) throw new RangeError(`options.bands × options.rows must not exceed numPerm ${numPerm}, got ${bands} × ${rows}`);
    return { threshold, numPerm, bands, rows, falsePositive: falsePositiveArea(threshold, bands, rows), falseNegative: falseNegativeArea(threshold, bands, rows) };
  }
  const key = `${threshold}:${numPerm}:${fpWeight}:${fnWeight}`;
  const known = plans.get(key);
  if (known !== undefined) return known;
  let best = { bands: 1, rows: 1, falsePositive: 0, falseNegative: 0 };
  let bestError = Infinity;
  for (let bands = 1; bands <= numPerm; bands++) {
    for (let rows = 1; rows <= Math.floor(numPerm / bands); rows++) {
      const falsePositive = falsePositiveArea(threshold, bands, rows);
      const falseNegative = falseNegativeArea(threshold, bands, rows);
      const error = fpWeight * falsePositive + fnWeight * falseNegative;
      if (error < bestError) {
        bestError = error;
        best = { bands, rows, falsePositive, falseNegative };
      }
    }
  }
  const plan = { threshold, numPerm, ...best };
  if (plans.size >= 256) plans.clear();
  plans.set(key, plan);
  return plan;
}

/** Plans already searched (the search integrates the curve for every b and r: ~0.1 s at k = 128). */
const plans = new Map<string, MinHashLshPlan>();
