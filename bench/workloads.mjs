// Seeded inputs and the operations timed on them. Everything derives from fixed seeds so that
// runs on different commits and machines time exactly the same work, and both implementations
// receive the very same arrays.

import { chineseLike, englishLike, realChinese, realEnglish, utf8Bytes } from './texts.mjs';

/** @typedef {typeof import('../dist/esm/index.js')} Api */
/** @typedef {'full' | 'quick'} Mode */

/**
 * @typedef {object} Rng
 * @property {() => number} u32 uniform in `0..2^32-1`
 * @property {(n: number) => number} below uniform integer in `0..n-1` (n ≤ 2^32)
 * @property {() => number} float uniform in `[0, 1)`
 */

/**
 * An operation bound to one implementation's API and to inputs already in place, so that only
 * the call itself is timed.
 *
 * @typedef {object} Bound
 * @property {() => unknown} call
 * @property {() => void} free releases what {@link Workload.bind} allocated
 */

/**
 * @typedef {object} Workload
 * @property {string} id unique across modes: `find-all-memory.mjs` takes it on its command line
 * @property {string} operation
 * @property {string} size
 * @property {number} items what the throughput is counted in
 * @property {string} unit
 * @property {boolean} throws the call is expected to throw a `RangeError`
 * @property {boolean} [shared] both entries run the same TypeScript (MinHash decisions): timed
 * for the figure, not for the ratio
 * @property {() => unknown} prepare generates the inputs, once for both implementations
 * @property {(api: Api, inputs: any) => Bound} bind
 * @property {FindAllCase} [findAll] present for findAll workloads, whose memory is measured
 * @property {boolean} [peakMemory] measure the WebAssembly memory one call grows on a fresh
 * instance, per item (`call-memory.mjs`)
 */

/**
 * @typedef {object} FindAllCase
 * @property {() => BigUint64Array} fingerprints
 * @property {import('../dist/esm/index.js').FindAllOptions} options
 */

/** @param {number} x @param {number} k */
const rotl = (x, k) => (x << k) | (x >>> (32 - k));

/**
 * xoshiro128** seeded through splitmix32: 32-bit integer arithmetic only, because generating
 * millions of values through BigInt would dominate the setup time.
 *
 * @param {number} seed
 * @returns {Rng}
 */
export function createRng(seed) {
  let x = seed >>> 0;
  const splitmix = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const u32 = () => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  return { u32, below: (n) => Math.floor((u32() / 2 ** 32) * n), float: () => u32() / 2 ** 32 };
}

/** @param {Rng} rng @param {number} n */
function randomU64(rng, n) {
  const out = new BigUint64Array(n);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < words.length; i++) words[i] = rng.u32();
  return out;
}

/**
 * Flips bit `bit` of `values[index]` through its 32-bit halves, to stay clear of BigInt (on a
 * big-endian host the bit numbering differs, the distances do not).
 *
 * @param {BigUint64Array} values @param {number} index @param {number} bit
 */
function flipBit(values, index, bit) {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  words[2 * index + (bit >>> 5)] ^= 1 << (bit & 31);
}

/** @param {Rng} rng @param {BigUint64Array} values @param {number} index @param {number} count */
function flipDistinctBits(rng, values, index, count) {
  const flipped = new Set();
  while (flipped.size < count) {
    const bit = rng.below(64);
    if (flipped.has(bit)) continue;
    flipped.add(bit);
    flipBit(values, index, bit);
  }
}

/** Fisher–Yates, so that near-duplicates are not adjacent in the input. @param {Rng} rng @param {BigUint64Array} values */
function shuffle(rng, values) {
  for (let i = values.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = values[i];
    values[i] = values[j];
    values[j] = t;
  }
  return values;
}

/**
 * `bases` random fingerprints, each present `copies` times with 0..3 random bits flipped: the
 * shape of a corpus with many small clusters.
 *
 * @param {number} seed @param {number} bases @param {number} copies
 */
function clusteredFingerprints(seed, bases, copies) {
  const rng = createRng(seed);
  const base = randomU64(rng, bases);
  const out = new BigUint64Array(bases * copies);
  for (let b = 0; b < bases; b++) {
    for (let c = 0; c < copies; c++) {
      const k = b * copies + c;
      out[k] = base[b];
      flipDistinctBits(rng, out, k, rng.below(4));
    }
  }
  return shuffle(rng, out);
}

/**
 * `randomCount` random fingerprints plus `familySize` copies of one base with at most one bit
 * flipped each, so every two members differ in at most 2 bits: the family alone yields
 * `familySize (familySize - 1) / 2` pairs at distance 3.
 *
 * @param {number} seed @param {number} randomCount @param {number} familySize
 */
function familyFingerprints(seed, randomCount, familySize) {
  const rng = createRng(seed);
  const out = new BigUint64Array(randomCount + familySize);
  out.set(randomU64(rng, randomCount));
  const base = randomU64(rng, 1)[0];
  for (let k = randomCount; k < out.length; k++) {
    out[k] = base;
    // 65 outcomes: one of the 64 bits, or none.
    const bit = rng.below(65);
    if (bit < 64) flipBit(out, k, bit);
  }
  return shuffle(rng, out);
}

/** Offsets of `docs` documents of `perDoc` hashes each. @param {number} docs @param {number} perDoc */
function uniformOffsets(docs, perDoc) {
  const offsets = new Uint32Array(docs + 1);
  for (let d = 0; d <= docs; d++) offsets[d] = d * perDoc;
  return offsets;
}

/** @param {number} n */
function si(n) {
  if (n >= 1e6 && n % 1e4 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 10 === 0) return `${n / 1e3}k`;
  return String(n);
}

/** A HashArray of the given implementation holding a copy of `values`. @param {Api} api @param {BigUint64Array} values */
function hashArrayOf(api, values) {
  const array = api.allocHashArray(values.length);
  array.view.set(values);
  return array;
}

const noop = () => {};

/**
 * @param {string} id @param {string} operation @param {string} size @param {number} items
 * @param {string} unit @param {Workload['prepare']} prepare @param {Workload['bind']} bind
 * @returns {Workload}
 */
function workload(id, operation, size, items, unit, prepare, bind) {
  return { id, operation, size, items, unit, throws: false, prepare, bind };
}

/**
 * findAll is always given a HashArray, as a caller searching a large set would: the WebAssembly
 * entry then reads the fingerprints in place instead of copying them in on every call.
 *
 * @param {string} id @param {string} operation @param {string} size @param {number} items
 * @param {FindAllCase} findAll @param {boolean} [throws]
 * @returns {Workload}
 */
function findAllWorkload(id, operation, size, items, findAll, throws = false) {
  return {
    id,
    operation,
    size,
    items,
    unit: 'fp',
    throws,
    findAll,
    prepare: findAll.fingerprints,
    bind(api, /** @type {BigUint64Array} */ fingerprints) {
      const array = hashArrayOf(api, fingerprints);
      return { call: () => api.findAll(array, findAll.options), free: () => array.free() };
    },
  };
}

const SIZES = {
  full: { hashes: 1_000_000, docs: 100_000, findAll: [100_000, 1_000_000], clusterBases: 100_000, familyRandom: 1_000_000, family: 40_000, texts: 20_000, realTextBytes: 16_000_000, large: 100_000, largeIndex: 1_000_000 },
  // A family of 10k still exceeds the default maxPairs (49,995,000 > 2^25 pairs).
  quick: { hashes: 100_000, docs: 10_000, findAll: [10_000, 100_000], clusterBases: 10_000, familyRandom: 100_000, family: 10_000, texts: 2_000, realTextBytes: 400_000, large: 20_000, largeIndex: 100_000 },
};
/** Bytes of UTF-8 per generated document. */
const TEXT_BYTES = 2_000;
const HASHES_PER_DOC = 50;
const DISTANCE = 3;
const CLUSTER_COPIES = 10;

/**
 * n fingerprints from a fixed seed (for the batch search benches, `growth.mjs` and
 * `batch-plan-check.mjs`): random, or (a share `near`) an earlier one with 1 or 2 bits
 * flipped. From xoshiro128**: two consecutive outputs of a linear generator (xorshift32) are a
 * linear function of each other, and made 3.7 times as many pairs within 10 bits of 1M such
 * fingerprints (474k against 129k), with buckets far from even.
 */
export function nearCopies(n, near) {
  const rng = createRng(12345);
  const fingerprints = new BigUint64Array(n);
  const words = new Uint32Array(fingerprints.buffer);
  for (let i = 0; i < n; i++) {
    if (i > 0 && rng.float() < near) {
      const from = rng.below(i);
      words[2 * i] = words[2 * from];
      words[2 * i + 1] = words[2 * from + 1];
      for (let flips = 1 + rng.below(2); flips > 0; flips--) {
        const bit = rng.below(64);
        words[2 * i + (bit >> 5)] ^= 1 << (bit & 31);
      }
    } else {
      words[2 * i] = rng.u32();
      words[2 * i + 1] = rng.u32();
    }
  }
  return fingerprints;
}

/**
 * The workloads of one mode, in report order.
 *
 * @param {Mode} mode
 * @returns {Workload[]}
 */
export function workloads(mode) {
  const s = SIZES[mode];
  const docHashes = s.docs * HASHES_PER_DOC;
  const docSize = `${si(s.docs)} docs × ${HASHES_PER_DOC}`;
  const hashes = () => randomU64(createRng(1), s.hashes);
  const weighted = () => {
    const rng = createRng(2);
    const values = randomU64(rng, s.hashes);
    return { values, weights: Float64Array.from({ length: s.hashes }, () => rng.float()) };
  };
  const docs = () => ({ values: randomU64(createRng(3), docHashes), offsets: uniformOffsets(s.docs, HASHES_PER_DOC) });
  const weightedDocs = () => {
    const rng = createRng(4);
    const values = randomU64(rng, docHashes);
    const weights = Float64Array.from({ length: docHashes }, () => rng.float());
    return { values, weights, offsets: uniformOffsets(s.docs, HASHES_PER_DOC) };
  };

  /** @type {Workload[]} */
  const list = [
    workload(`compute-${si(s.hashes)}`, 'compute', `${si(s.hashes)} hashes`, s.hashes, 'hash', hashes, (api, values) => ({
      call: () => api.compute(values),
      free: noop,
    })),
    workload(`compute-zero-copy-${si(s.hashes)}`, 'compute (HashArray)', `${si(s.hashes)} hashes`, s.hashes, 'hash', hashes, (api, values) => {
      const array = hashArrayOf(api, values);
      return { call: () => api.compute(array), free: () => array.free() };
    }),
    workload(`compute-many-${si(s.docs)}`, 'computeMany', docSize, docHashes, 'hash', docs, (api, { values, offsets }) => ({
      call: () => api.computeMany(values, offsets),
      free: noop,
    })),
    workload(`compute-many-zero-copy-${si(s.docs)}`, 'computeMany (HashArray)', docSize, docHashes, 'hash', docs, (api, { values, offsets }) => {
      const array = hashArrayOf(api, values);
      return { call: () => api.computeMany(array, offsets), free: () => array.free() };
    }),
    workload(`compute-weighted-${si(s.hashes)}`, 'computeWeighted', `${si(s.hashes)} hashes`, s.hashes, 'hash', weighted, (api, { values, weights }) => ({
      call: () => api.computeWeighted(values, weights),
      free: noop,
    })),
    workload(`compute-many-weighted-${si(s.docs)}`, 'computeManyWeighted', docSize, docHashes, 'hash', weightedDocs, (api, { values, weights, offsets }) => ({
      call: () => api.computeManyWeighted(values, weights, offsets),
      free: noop,
    })),
    workload(`hamming-${si(s.hashes)}`, 'hammingDistances', `1 query × ${si(s.hashes)} fp`, s.hashes, 'fp', () => {
      const rng = createRng(5);
      return { query: randomU64(rng, 1)[0], values: randomU64(rng, s.hashes) };
    }, (api, { query, values }) => ({ call: () => api.hammingDistances(query, values), free: noop })),
  ];

  for (const n of s.findAll) {
    for (const blocks of [4, 5, 6, undefined]) {
      const options = blocks === undefined ? { distance: DISTANCE } : { distance: DISTANCE, blocks };
      list.push(findAllWorkload(`find-all-random-${si(n)}-${blocks ?? 'auto'}`, `findAll d=${DISTANCE} random, blocks ${blocks ?? 'auto'}`, `${si(n)} fp`, n, {
        fingerprints: () => randomU64(createRng(6), n),
        options,
      }));
    }
  }
  const clustered = s.clusterBases * CLUSTER_COPIES;
  list.push(findAllWorkload(`find-all-clustered-${si(clustered)}`, `findAll d=${DISTANCE} clustered, blocks auto`, `${si(s.clusterBases)} × ${CLUSTER_COPIES} fp`, clustered, {
    fingerprints: () => clusteredFingerprints(7, s.clusterBases, CLUSTER_COPIES),
    options: { distance: DISTANCE },
  }));
  list.push(findAllWorkload(`find-all-family-${si(s.familyRandom)}`, `findAll d=${DISTANCE} family → RangeError`, `${si(s.familyRandom)} + ${si(s.family)} family fp`, s.familyRandom + s.family, {
    fingerprints: () => familyFingerprints(8, s.familyRandom, s.family),
    options: { distance: DISTANCE },
  }, true));
  list.push(...clusterAndIndexWorkloads(s.familyRandom, s.family));
  list.push(...largeDistanceWorkloads(s.large, s.largeIndex));
  list.push(...textWorkloads(s.texts, s.realTextBytes));
  list.push(...minhashWorkloads(s.texts));
  list.push(...decisionWorkloads(s.familyRandom, s.family, s.large));
  list.push(textIndexWorkload(s.large));
  return list;
}

/** The family the issue tracker's users hit: identical documents, 100,000 of them. */
const IDENTICAL = 100_000;

/**
 * Decisions beside the searches they build on: `decide` on the family set and on random
 * fingerprints at d = 10 (compare the findClusters rows), on 100,000 identical fingerprints,
 * and `decideMinHash` on 100,000 identical signatures, whose pairs would all share every band.
 *
 * @param {number} n @param {number} family @param {number} large
 * @returns {Workload[]}
 */
function decisionWorkloads(n, family, large) {
  const identical = () => new BigUint64Array(IDENTICAL).fill(0x0123_4567_89ab_cdefn);
  return [
    workload(`decide-family-${si(n)}`, `decide d=${DISTANCE} family`, `${si(n)} + ${si(family)} family fp`, n + family, 'fp', () => familyFingerprints(8, n, family), (api, fingerprints) => ({
      call: () => api.decide(fingerprints, { distance: DISTANCE }),
      free: noop,
    })),
    workload(`decide-d${TEXT_DISTANCE}-random-${si(large)}`, `decide d=${TEXT_DISTANCE} random`, `${si(large)} fp`, large, 'fp', () => randomU64(createRng(15), large), (api, fingerprints) => ({
      call: () => api.decide(fingerprints, { distance: TEXT_DISTANCE }),
      free: noop,
    })),
    workload(`decide-identical-${si(IDENTICAL)}`, `decide d=${TEXT_DISTANCE}, identical`, `${si(IDENTICAL)} fp`, IDENTICAL, 'fp', identical, (api, fingerprints) => ({
      call: () => api.decide(fingerprints, { distance: TEXT_DISTANCE }),
      free: noop,
    })),
    {
      ...workload(`decide-minhash-identical-${si(IDENTICAL)}`, 'decideMinHash 0.6, identical, 128 perm', `${si(IDENTICAL)} sig`, IDENTICAL, 'sig', () => {
      const signatures = new Uint32Array(IDENTICAL * 128);
      const rng = createRng(18);
      const one = Uint32Array.from({ length: 128 }, () => rng.u32());
      for (let d = 0; d < IDENTICAL; d++) signatures.set(one, d * 128);
      return signatures;
    }, (api, signatures) => ({
        call: () => api.decideMinHash(signatures),
        free: noop,
      })),
      shared: true,
    },
  ];
}

/**
 * The default rule online: `TextIndex.decideMany` over `n` lines of 8 words of real English prose
 * and, after them, `n / 4` copies of earlier lines with one word changed, in batches of 1,000,
 * each call on a new index.
 *
 * @param {number} n
 * @returns {Workload}
 */
function textIndexWorkload(n) {
  const prepare = () => {
    const words = realEnglish(256 * n).join(' ').split(/\s+/).filter(Boolean);
    const lines = [];
    for (let i = 0; i + 8 <= words.length && lines.length < n; i += 8) lines.push(words.slice(i, i + 8).join(' '));
    for (let i = 0; i < n / 4; i++) {
      const edited = lines[(i * 3) % lines.length].split(' ');
      edited[2] = 'changed';
      lines.push(edited.join(' '));
    }
    return lines;
  };
  return workload(`text-index-${si(n)}`, 'TextIndex.decideMany, 8-word lines, batches of 1k', `${si(n)} + ${si(n / 4)} edited lines`, n + n / 4, 'text', prepare, (api, lines) => ({
    call: () => {
      const index = new api.TextIndex();
      try {
        for (let at = 0; at < lines.length; at += 1000) {
          const batch = lines.slice(at, at + 1000);
          index.decideMany(Uint32Array.from(batch, (_, q) => at + q), batch);
        }
        return index.size;
      } finally {
        index.free();
      }
    },
    free: noop,
  }));
}

/** The distance the README recommends for text. */
const TEXT_DISTANCE = 10;

/**
 * The larger distances, where the planner picks the multi-index (parts) family: findAll and
 * findClusters at d = 8 and 10 over `n` random fingerprints (the pure entry makes larger n
 * too slow to sample), and SimHashIndex queries at d = 6 and 10 over `indexN`.
 *
 * @param {number} n @param {number} indexN
 * @returns {Workload[]}
 */
function largeDistanceWorkloads(n, indexN) {
  const random = () => randomU64(createRng(15), n);
  /** @type {Workload[]} */
  const list = [];
  for (const distance of [8, TEXT_DISTANCE]) {
    list.push(findAllWorkload(`find-all-d${distance}-random-${si(n)}`, `findAll d=${distance} random, auto`, `${si(n)} fp`, n, {
      fingerprints: random,
      options: { distance },
    }));
  }
  list.push(workload(`find-clusters-d${TEXT_DISTANCE}-random-${si(n)}`, `findClusters d=${TEXT_DISTANCE} random, auto`, `${si(n)} fp`, n, 'fp', random, (api, fingerprints) => {
    const array = hashArrayOf(api, fingerprints);
    return { call: () => api.findClusters(array, { distance: TEXT_DISTANCE }), free: () => array.free() };
  }));
  const queries = 2_000;
  for (const distance of [6, TEXT_DISTANCE]) {
    list.push(workload(`index-query-d${distance}-${si(indexN)}`, `SimHashIndex query d=${distance}, one at a time`, `${si(queries)} q, ${si(indexN)} fp`, queries, 'query', () => {
      const values = randomU64(createRng(16), indexN);
      return { values, queries: queriesNear(17, values, queries) };
    }, (api, { values, queries: qs }) => {
      const index = new api.SimHashIndex({ distance });
      index.addMany(Uint32Array.from({ length: values.length }, (_, i) => i), values);
      return {
        call: () => {
          let found = 0;
          for (let q = 0; q < qs.length; q++) found += index.query(qs[q]).ids.length;
          return found;
        },
        free: () => index.free(),
      };
    }));
  }
  return list;
}

/**
 * MinHash signatures of the same seeded prose, 128 permutations, throughput in UTF-8 bytes:
 * the specification's one-permutation scheme over word 3-shingles, and the datasketch-compatible
 * scheme (k independent permutations of SHA-1 token hashes) over the same shingles as strings.
 *
 * @param {number} count documents of about 2 KB each
 * @returns {Workload[]}
 */
function minhashWorkloads(count) {
  const english = () => englishLike(13, count, TEXT_BYTES);
  const size = (/** @type {string[]} */ texts) => `${si(count)} docs, ${(utf8Bytes(texts) / 1e6).toFixed(1)} MB`;
  const sample = english();
  return [
    workload(`minhash-word-${si(count)}`, 'minhashMany, English, word 3, 128 perm', size(sample), utf8Bytes(sample), 'B', () => sample, (api, list) => ({
      call: () => api.minhashMany(list),
      free: noop,
    })),
    workload(`minhash-datasketch-${si(count)}`, 'datasketchMinhashMany, word 3-shingles, 128 perm', size(sample), utf8Bytes(sample), 'B', () => wordShingles(sample), (api, docs) => ({
      call: () => api.datasketchMinhashMany(docs),
      free: noop,
    })),
  ];
}

/**
 * Each text's word 3-shingles as strings ("w1 w2 w3"), as datasketch users feed them, split on
 * whitespace after lower-casing.
 *
 * @param {string[]} texts
 * @returns {string[][]}
 */
export function wordShingles(texts) {
  return texts.map((text) => {
    const words = text.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
    const out = [];
    for (let i = 0; i + 3 <= words.length; i++) out.push(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
    return out;
  });
}

/**
 * fingerprintMany, throughput counted in UTF-8 bytes: the specification's defaults (word
 * 3-shingles, binary weighting), character 4-shingles, and Chinese, on real documents (see
 * `realEnglish` and `realChinese`; the README's figures) and on seeded prose.
 *
 * @param {number} count seeded documents of about 2 KB each
 * @param {number} realBytes real English documents up to about this many bytes
 * @returns {Workload[]}
 */
function textWorkloads(count, realBytes) {
  const english = () => englishLike(13, count, TEXT_BYTES);
  const chinese = () => chineseLike(14, count, TEXT_BYTES);
  /** @param {string} id @param {string} operation @param {string[]} sample @param {import('../dist/esm/index.js').TextOptions} options */
  const text = (id, operation, sample, options) =>
    workload(id, operation, `${sample.length.toLocaleString('en-US')} docs, ${(utf8Bytes(sample) / 1e6).toFixed(2)} MB`, utf8Bytes(sample), 'B', () => sample, (api, list) => ({
      call: () => api.fingerprintMany(list, options),
      free: noop,
    }));
  const realEnglishDocs = realEnglish(realBytes);
  const realChineseDocs = realChinese();
  const seededEnglish = english();
  const list = [
    text(`text-real-word-${si(realBytes)}`, 'fingerprintMany, real English, word 3 (defaults)', realEnglishDocs, {}),
    text(`text-real-char-${si(realBytes)}`, 'fingerprintMany, real English, char 4', realEnglishDocs, { unit: 'char' }),
  ];
  if (realChineseDocs.length > 0) list.push(text(`text-real-chinese-${si(realBytes)}`, 'fingerprintMany, real Chinese (defaults)', realChineseDocs, {}));
  list.push(
    text(`text-word-${si(count)}`, 'fingerprintMany, English-like, word 3 (defaults)', seededEnglish, {}),
    text(`text-char-${si(count)}`, 'fingerprintMany, English-like, char 4', seededEnglish, { unit: 'char' }),
    text(`text-chinese-${si(count)}`, 'fingerprintMany, Chinese-like (defaults)', chinese(), {}),
  );
  return list;
}

/** Single queries timed per call: enough that a call takes milliseconds. */
const QUERIES_PER_CALL = 10_000;
/** A batch for queryMany. */
const QUERY_BATCH = 100_000;
/** Add, remove and query rounds per call of the churn workload. */
const CHURN_ROUNDS = 5_000;

/**
 * Queries for an index of `values`: a third of them stored values with 0..3 bits flipped (so
 * they find something), the rest random.
 *
 * @param {number} seed @param {BigUint64Array} values @param {number} count
 */
function queriesNear(seed, values, count) {
  const rng = createRng(seed);
  const out = randomU64(rng, count);
  for (let k = 0; k < count; k += 3) {
    out[k] = values[rng.below(values.length)];
    flipDistinctBits(rng, out, k, rng.below(4));
  }
  return out;
}

/**
 * An index of `values` (ids 0..n-1) built by one addMany, the planner choosing its layout.
 *
 * @param {Api} api @param {BigUint64Array} values
 */
function indexOf(api, values) {
  const index = new api.SimHashIndex({ distance: DISTANCE });
  index.addMany(Uint32Array.from({ length: values.length }, (_, i) => i), values);
  return index;
}

/**
 * findClusters on the family set that makes findAll throw, and on random fingerprints; the
 * SimHashIndex over `n` random fingerprints: building, single and batch queries, interleaved
 * additions and removals, saving and loading.
 *
 * @param {number} n @param {number} family
 * @returns {Workload[]}
 */
function clusterAndIndexWorkloads(n, family) {
  const random = () => randomU64(createRng(9), n);
  const size = `${si(n)} fp`;
  /** @type {Workload[]} */
  const list = [
    {
      ...workload(`find-clusters-family-${si(n)}`, `findClusters d=${DISTANCE} family, blocks auto`, `${si(n)} + ${si(family)} family fp`, n + family, 'fp', () => familyFingerprints(8, n, family), (api, fingerprints) => {
        const array = hashArrayOf(api, fingerprints);
        return { call: () => api.findClusters(array, { distance: DISTANCE }), free: () => array.free() };
      }),
      peakMemory: true,
    },
    {
      ...workload(`find-clusters-random-${si(n)}`, `findClusters d=${DISTANCE} random, blocks auto`, size, n, 'fp', random, (api, fingerprints) => {
        const array = hashArrayOf(api, fingerprints);
        return { call: () => api.findClusters(array, { distance: DISTANCE }), free: () => array.free() };
      }),
      peakMemory: true,
    },
    {
      ...workload(`index-build-${si(n)}`, `SimHashIndex addMany d=${DISTANCE} (build)`, size, n, 'fp', random, (api, fingerprints) => ({
        call: () => {
          const index = indexOf(api, fingerprints);
          const result = { size: index.size, blocks: index.blocks };
          index.free();
          return result;
        },
        free: noop,
      })),
      peakMemory: true,
    },
    workload(`index-query-${si(n)}`, `SimHashIndex query d=${DISTANCE}, one at a time`, `${si(QUERIES_PER_CALL)} q, ${size}`, QUERIES_PER_CALL, 'query', () => {
      const values = random();
      return { values, queries: queriesNear(10, values, QUERIES_PER_CALL) };
    }, (api, { values, queries }) => {
      const index = indexOf(api, values);
      return {
        call: () => {
          let found = 0;
          for (let q = 0; q < queries.length; q++) found += index.query(queries[q]).ids.length;
          return found;
        },
        free: () => index.free(),
      };
    }),
    workload(`index-query-many-${si(n)}`, `SimHashIndex queryMany d=${DISTANCE}`, `${si(QUERY_BATCH)} q, ${size}`, QUERY_BATCH, 'query', () => {
      const values = random();
      return { values, queries: queriesNear(11, values, QUERY_BATCH) };
    }, (api, { values, queries }) => {
      const index = indexOf(api, values);
      return { call: () => index.queryMany(queries), free: () => index.free() };
    }),
    workload(`index-churn-${si(n)}`, `SimHashIndex add + remove + query, interleaved`, `${si(CHURN_ROUNDS)} rounds, ${size}`, 3 * CHURN_ROUNDS, 'op', () => {
      const values = random();
      return { values, incoming: randomU64(createRng(12), 1 << 20) };
    }, (api, { values, incoming }) => {
      const index = indexOf(api, values);
      // Each call replaces the oldest entries by new ones, so the size stays n and calls never
      // repeat an id; whole-index rebuilds are not part of it (merges of the delta are).
      let next = 0;
      return {
        call: () => {
          for (let r = 0; r < CHURN_ROUNDS; r++, next++) {
            const value = incoming[next % incoming.length];
            index.add(n + next, value);
            index.remove(next);
            index.query(value);
          }
          return index.size;
        },
        free: () => index.free(),
      };
    }),
    workload(`index-serialize-${si(n)}`, `SimHashIndex serialize`, size, n, 'fp', random, (api, values) => {
      const index = indexOf(api, values);
      return { call: () => index.serialize(), free: () => index.free() };
    }),
    workload(`index-deserialize-${si(n)}`, `SimHashIndex deserialize (and rebuild)`, size, n, 'fp', random, (api, values) => {
      const index = indexOf(api, values);
      const bytes = index.serialize();
      index.free();
      return {
        call: () => {
          const loaded = api.SimHashIndex.deserialize(bytes);
          const result = { size: loaded.size, blocks: loaded.blocks };
          loaded.free();
          return result;
        },
        free: noop,
      };
    }),
  ];
  return list;
}

/**
 * The workload named `id`, in either mode.
 *
 * @param {string} id
 */
export function workloadById(id) {
  const found = [...workloads('full'), ...workloads('quick')].find((w) => w.id === id);
  if (!found) throw new Error(`no workload named ${JSON.stringify(id)}`);
  return found;
}

/**
 * The findAll workload named `id`, in either mode.
 *
 * @param {string} id
 */
export function findAllWorkloadById(id) {
  const found = [...workloads('full'), ...workloads('quick')].find((w) => w.id === id && w.findAll);
  if (!found) throw new Error(`no findAll workload named ${JSON.stringify(id)}`);
  return found;
}
