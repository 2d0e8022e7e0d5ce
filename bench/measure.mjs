// Timing: one warm-up call (JIT tiers, first growth of the WebAssembly memory), then repeated
// calls reduced to their median, which a single GC pause or scheduler hiccup cannot move.

/**
 * @typedef {object} Timing
 * @property {number} medianMs
 * @property {number[]} samplesMs
 * @property {boolean} capped fewer runs than asked for because the time budget ran out
 * @property {unknown} result what the last call returned (or threw, when `throws`)
 */

/**
 * @typedef {object} MeasureOptions
 * @property {number} runs timed calls wanted at least
 * @property {number} minMs calls are repeated until they took this long together (up to
 * {@link MAX_RUNS} calls): a median of 7 calls of a few milliseconds still moves with every
 * burst of background load
 * @property {number} budgetMs no further call of an implementation starts once its timed calls
 * together took this long, so that a slow implementation cannot stretch the benchmark indefinitely
 * @property {boolean} throws every call is expected to throw a `RangeError`
 */

const MAX_RUNS = 1000;

/** @param {readonly number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * @param {() => unknown} call
 * @param {boolean} throws
 */
function invoke(call, throws) {
  if (!throws) return call();
  try {
    call();
  } catch (error) {
    if (error instanceof RangeError) return error;
    throw error;
  }
  throw new Error('expected a RangeError, but the call returned');
}

/**
 * Times several implementations of one operation, alternating between them call by call so
 * that a change in background load (this machine is shared) hits all of them alike instead of
 * skewing their ratio.
 *
 * @param {Array<() => unknown>} calls
 * @param {MeasureOptions} options
 * @returns {Timing[]} in the order of `calls`
 */
export function measure(calls, { runs, minMs, budgetMs, throws }) {
  const sides = calls.map((call) => ({ call, samplesMs: /** @type {number[]} */ ([]), spent: 0, result: /** @type {unknown} */ (undefined) }));
  for (const side of sides) invoke(side.call, throws);
  /** @param {(typeof sides)[number]} side */
  const wantsMore = (side) =>
    side.spent < budgetMs && side.samplesMs.length < MAX_RUNS && (side.samplesMs.length < runs || side.spent < minMs);
  while (sides.some(wantsMore)) {
    for (const side of sides) {
      if (!wantsMore(side)) continue;
      const started = performance.now();
      side.result = invoke(side.call, throws);
      const elapsed = performance.now() - started;
      side.samplesMs.push(elapsed);
      side.spent += elapsed;
    }
  }
  return sides.map(({ samplesMs, result }) => ({ medianMs: median(samplesMs), samplesMs, capped: samplesMs.length < runs, result }));
}
