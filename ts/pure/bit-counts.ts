/**
 * Per-bit tallies over a run of 64-bit hashes given as 32-bit halves (see `words.ts`): the
 * kernels behind `compute` and its weighted and batch forms.
 */

/** One in the lowest bit of each byte: selects four byte-wide lanes of a word. */
const LANES = 0x0101_0101;

/** 16-hash groups counted in byte lanes before a flush: a lane holds at most 255. */
const GROUPS_PER_FLUSH = 255;

/**
 * Adds, for `b` in `0..31`, the number of hashes `k` in `[start, end)` whose half `half`
 * (0 low, 1 high) has bit `b` set to `counts[offset + b]`.
 *
 * Looping 32 times per hash is what makes a naive count slow. Instead, a Harley-Seal tree of
 * carry-save adders folds 16 hashes into bit-sliced ones/twos/fours/eights counters plus one
 * "sixteens" word, a few word operations per hash. The sixteens are tallied in byte lanes (lane
 * `j` of accumulator `r` counts bit `8 j + r`), so per-bit counters are only touched once per
 * 255 groups, and once more at the end for the counters' residue and the last < 16 hashes.
 */
export function countSetBits(
  words: Uint32Array,
  start: number,
  end: number,
  half: number,
  counts: Int32Array,
  offset: number,
): void {
  let ones = 0;
  let twos = 0;
  let fours = 0;
  let eights = 0;
  let i = 2 * start + half;
  let groupsLeft = Math.floor((end - start) / 16);
  while (groupsLeft > 0) {
    const groups = Math.min(groupsLeft, GROUPS_PER_FLUSH);
    groupsLeft -= groups;
    let l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0;
    for (let g = 0; g < groups; g++, i += 32) {
      // Each step is a full adder: (carry, sum) of three equally weighted words.
      let x = words[i]!;
      let y = words[i + 2]!;
      let u = ones ^ x;
      const twosA = (ones & x) | (u & y);
      ones = u ^ y;
      x = words[i + 4]!;
      y = words[i + 6]!;
      u = ones ^ x;
      const twosB = (ones & x) | (u & y);
      ones = u ^ y;
      u = twos ^ twosA;
      const foursA = (twos & twosA) | (u & twosB);
      twos = u ^ twosB;
      x = words[i + 8]!;
      y = words[i + 10]!;
      u = ones ^ x;
      const twosC = (ones & x) | (u & y);
      ones = u ^ y;
      x = words[i + 12]!;
      y = words[i + 14]!;
      u = ones ^ x;
      const twosD = (ones & x) | (u & y);
      ones = u ^ y;
      u = twos ^ twosC;
      const foursB = (twos & twosC) | (u & twosD);
      twos = u ^ twosD;
      u = fours ^ foursA;
      const eightsA = (fours & foursA) | (u & foursB);
      fours = u ^ foursB;
      x = words[i + 16]!;
      y = words[i + 18]!;
      u = ones ^ x;
      const twosE = (ones & x) | (u & y);
      ones = u ^ y;
      x = words[i + 20]!;
      y = words[i + 22]!;
      u = ones ^ x;
      const twosF = (ones & x) | (u & y);
      ones = u ^ y;
      u = twos ^ twosE;
      const foursC = (twos & twosE) | (u & twosF);
      twos = u ^ twosF;
      x = words[i + 24]!;
      y = words[i + 26]!;
      u = ones ^ x;
      const twosG = (ones & x) | (u & y);
      ones = u ^ y;
      x = words[i + 28]!;
      y = words[i + 30]!;
      u = ones ^ x;
      const twosH = (ones & x) | (u & y);
      ones = u ^ y;
      u = twos ^ twosG;
      const foursD = (twos & twosG) | (u & twosH);
      twos = u ^ twosH;
      u = fours ^ foursC;
      const eightsB = (fours & foursC) | (u & foursD);
      fours = u ^ foursD;
      u = eights ^ eightsA;
      const sixteens = (eights & eightsA) | (u & eightsB);
      eights = u ^ eightsB;
      l0 += sixteens & LANES;
      l1 += (sixteens >>> 1) & LANES;
      l2 += (sixteens >>> 2) & LANES;
      l3 += (sixteens >>> 3) & LANES;
      l4 += (sixteens >>> 4) & LANES;
      l5 += (sixteens >>> 5) & LANES;
      l6 += (sixteens >>> 6) & LANES;
      l7 += (sixteens >>> 7) & LANES;
    }
    flushLanes(counts, offset, 16, l0, l1, l2, l3, l4, l5, l6, l7);
  }
  // The residue weighs at most 1 + 2 + 4 + 8 per bit and the tail fewer than 16 more, so one
  // set of byte lanes takes both.
  let l0 = residueLanes(ones, twos, fours, eights, 0);
  let l1 = residueLanes(ones, twos, fours, eights, 1);
  let l2 = residueLanes(ones, twos, fours, eights, 2);
  let l3 = residueLanes(ones, twos, fours, eights, 3);
  let l4 = residueLanes(ones, twos, fours, eights, 4);
  let l5 = residueLanes(ones, twos, fours, eights, 5);
  let l6 = residueLanes(ones, twos, fours, eights, 6);
  let l7 = residueLanes(ones, twos, fours, eights, 7);
  for (const stop = 2 * end + half; i < stop; i += 2) {
    const x = words[i]!;
    l0 += x & LANES;
    l1 += (x >>> 1) & LANES;
    l2 += (x >>> 2) & LANES;
    l3 += (x >>> 3) & LANES;
    l4 += (x >>> 4) & LANES;
    l5 += (x >>> 5) & LANES;
    l6 += (x >>> 6) & LANES;
    l7 += (x >>> 7) & LANES;
  }
  flushLanes(counts, offset, 1, l0, l1, l2, l3, l4, l5, l6, l7);
}

/** Byte lanes of bit `shift` of each byte, weighted by the counter each word stands for. */
function residueLanes(ones: number, twos: number, fours: number, eights: number, shift: number): number {
  return (
    ((ones >>> shift) & LANES) +
    (((twos >>> shift) & LANES) << 1) +
    (((fours >>> shift) & LANES) << 2) +
    (((eights >>> shift) & LANES) << 3)
  );
}

/** Adds `scale` times byte lane `j` of accumulator `r` to `counts[offset + 8 j + r]`. */
function flushLanes(
  counts: Int32Array,
  offset: number,
  scale: number,
  l0: number,
  l1: number,
  l2: number,
  l3: number,
  l4: number,
  l5: number,
  l6: number,
  l7: number,
): void {
  for (let shift = 0; shift < 32; shift += 8) {
    const o = offset + shift;
    counts[o] = counts[o]! + scale * ((l0 >>> shift) & 0xff);
    counts[o + 1] = counts[o + 1]! + scale * ((l1 >>> shift) & 0xff);
    counts[o + 2] = counts[o + 2]! + scale * ((l2 >>> shift) & 0xff);
    counts[o + 3] = counts[o + 3]! + scale * ((l3 >>> shift) & 0xff);
    counts[o + 4] = counts[o + 4]! + scale * ((l4 >>> shift) & 0xff);
    counts[o + 5] = counts[o + 5]! + scale * ((l5 >>> shift) & 0xff);
    counts[o + 6] = counts[o + 6]! + scale * ((l6 >>> shift) & 0xff);
    counts[o + 7] = counts[o + 7]! + scale * ((l7 >>> shift) & 0xff);
  }
}

/** Hashes per chunk of {@link addSignedWeights}: their halves and weights stay in L1 cache. */
const CHUNK = 512;

/**
 * For `b` in `0..31` and each hash `k` in `[start, end)` in increasing order, adds
 * `weights[k]` to `sums[offset + b]` if bit `b` of the hash's half `half` is set and subtracts
 * it otherwise.
 *
 * Each bit's sum sees exactly that sequence of f64 additions (the contract that makes results
 * identical across implementations), but eight bits are summed side by side: one running sum
 * would wait on the latency of every addition. `w * (2 bit - 1)` is exactly `±w`, and avoids
 * a branch the random bits would mispredict half the time.
 */
export function addSignedWeights(
  words: Uint32Array,
  weights: Float64Array,
  start: number,
  end: number,
  half: number,
  sums: Float64Array,
  offset: number,
): void {
  for (let chunk = start; chunk < end; chunk += CHUNK) {
    const stop = Math.min(end, chunk + CHUNK);
    // Eight bits per pass: eight accumulators still fit in registers.
    for (let shift = 0; shift < 32; shift += 8) {
      const o = offset + shift;
      let s0 = sums[o]!, s1 = sums[o + 1]!, s2 = sums[o + 2]!, s3 = sums[o + 3]!;
      let s4 = sums[o + 4]!, s5 = sums[o + 5]!, s6 = sums[o + 6]!, s7 = sums[o + 7]!;
      for (let k = chunk; k < stop; k++) {
        const w = weights[k]!;
        const x = words[2 * k + half]! >>> shift;
        s0 += w * (((x & 1) << 1) - 1);
        s1 += w * ((x & 2) - 1);
        s2 += w * (((x >>> 1) & 2) - 1);
        s3 += w * (((x >>> 2) & 2) - 1);
        s4 += w * (((x >>> 3) & 2) - 1);
        s5 += w * (((x >>> 4) & 2) - 1);
        s6 += w * (((x >>> 5) & 2) - 1);
        s7 += w * (((x >>> 6) & 2) - 1);
      }
      sums[o] = s0; sums[o + 1] = s1; sums[o + 2] = s2; sums[o + 3] = s3;
      sums[o + 4] = s4; sums[o + 5] = s5; sums[o + 6] = s6; sums[o + 7] = s7;
    }
  }
}
