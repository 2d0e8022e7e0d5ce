// The smoke test every runtime of the matrix runs against the installed package, for either
// entry: text fingerprints, findAll and findClusters against brute force, and a SimHashIndex
// added to, queried, saved and loaded. It returns a digest of what it computed, so that a
// runner can also require the WebAssembly and the pure entries to agree.

const MASK = (1n << 64n) - 1n;

function fail(what) {
  throw new Error(`smoke: ${what}`);
}

function popcount(x) {
  let n = 0;
  for (; x !== 0n; x &= x - 1n) n++;
  return n;
}

/** Seeded fingerprints with planted near-duplicates: every distance up to 4 occurs. */
function plantedFingerprints(count) {
  let state = 0x9e3779b97f4a7c15n;
  const next = () => {
    state ^= (state << 13n) & MASK;
    state ^= state >> 7n;
    state ^= (state << 17n) & MASK;
    return state;
  };
  const out = new BigUint64Array(count);
  for (let i = 0; i < count; i++) {
    if (i % 3 === 2) {
      let flips = 0n;
      for (let b = 0; b < i % 5; b++) flips |= 1n << (next() % 64n);
      out[i] = out[i - 1] ^ flips;
    } else {
      out[i] = next();
    }
  }
  return out;
}

function bruteForcePairs(fps, distance) {
  const pairs = [];
  for (let i = 0; i < fps.length; i++) {
    for (let j = i + 1; j < fps.length; j++) {
      const d = popcount(fps[i] ^ fps[j]);
      if (d <= distance) pairs.push([i, j, d]);
    }
  }
  return pairs;
}

/** One label per fingerprint: the first position of its connected component. */
function bruteForceClusters(count, pairs) {
  const parent = Array.from({ length: count }, (_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (const [i, j] of pairs) {
    const a = find(i);
    const b = find(j);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  return Array.from({ length: count }, (_, i) => find(i));
}

function same(got, want, what) {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) fail(`${what}: got ${g.slice(0, 200)}, want ${w.slice(0, 200)}`);
}

/**
 * Runs the smoke test on `api` (the namespace of `simhash-wasm`, `simhash-wasm/slim` or
 * `simhash-wasm/pure`, initialised) and returns its digest.
 */
export function smoke(api) {
  const licence =
    'Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files, to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software.';
  const texts = [
    `Copyright (c) 2024 Ada. ${licence}`,
    `Copyright (c) 2024 Ada. ${licence}`,
    `Copyright (c) 2026 Grace. ${licence}`,
    'SimHash maps a document to a 64-bit fingerprint so that similar documents differ in few bits.',
  ];
  const textPrints = api.fingerprintMany(texts);
  if (!(textPrints instanceof BigUint64Array) || textPrints.length !== texts.length) fail('fingerprintMany returns one fingerprint per text');
  if (textPrints[0] !== textPrints[1]) fail('equal texts get equal fingerprints');
  if (api.fingerprint(texts[2]) !== textPrints[2]) fail('fingerprint agrees with fingerprintMany');

  const fps = plantedFingerprints(300);
  const distance = 3;
  const want = bruteForcePairs(fps, distance);
  if (want.length < 50) fail(`the planted input has too few pairs (${want.length})`);
  const found = api.findAll(fps, { distance });
  same(
    Array.from(found.left, (left, k) => [left, found.right[k], found.distance[k]]),
    want,
    'findAll against brute force',
  );
  same(Array.from(api.findClusters(fps, { distance })), bruteForceClusters(fps.length, want), 'findClusters against brute force');

  const index = new api.SimHashIndex({ distance });
  const answers = [];
  let loaded;
  try {
    for (let id = 0; id < fps.length; id++) index.add(id, fps[id]);
    if (index.size !== fps.length) fail(`index.size ${index.size} after ${fps.length} adds`);
    const queries = [fps[0], fps[2], fps[17], fps[17] ^ 0b101n];
    for (const q of queries) {
      const got = index.query(q);
      const expected = Array.from(fps, (fp, id) => [popcount(fp ^ q), id])
        .filter(([d]) => d <= distance)
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      same(Array.from(got.ids, (id, k) => [got.distances[k], id]), expected, `SimHashIndex.query(${q})`);
      answers.push(Array.from(got.ids));
    }
    const bytes = index.serialize();
    if (!(bytes instanceof Uint8Array) || bytes.length === 0) fail('serialize returns bytes');
    loaded = api.SimHashIndex.deserialize(bytes);
    for (const [k, q] of queries.entries()) same(Array.from(loaded.query(q).ids), answers[k], 'the deserialized index answers alike');
  } finally {
    index.free();
    loaded?.free();
  }
  return {
    text: Array.from(textPrints, String),
    pairs: found.left.length,
    answers,
  };
}

/** Throws unless two digests (of the WebAssembly and the pure entries) are identical. */
export function assertSame(wasmDigest, pureDigest) {
  same(wasmDigest, pureDigest, 'the WebAssembly entry against the pure entry');
}
