// What the tiny app computes, here and in its worker; the test computes the same in Node.

const TEXTS = [
  'Minutes of the board meeting: the budget for next year was approved without changes.',
  'Minutes of the board meeting: the budget for next year was approved with no changes.',
  'MINUTES OF THE BOARD MEETING — the budget for next year was approved without changes!',
  'A recipe for bread: flour, water, salt and a little yeast, left to rise overnight.',
  '会議の議事録：来年度の予算は変更なしで承認されました。',
  '会議の議事録：来年度の予算は変更なしで承認された。',
  'Weather report for the coast: rain in the morning, clearing by the afternoon.',
];

const DISTANCE = 12;

function summary(fingerprints, { left, right, distance }) {
  return {
    fingerprints: Array.from(fingerprints, (value) => value.toString(16)),
    pairs: Array.from(left, (l, i) => [l, right[i], distance[i]]),
  };
}

/** Fingerprints of the texts and every pair within 12 bits, as JSON. */
export function summarise(api) {
  const fingerprints = api.fingerprintMany(TEXTS);
  return summary(fingerprints, api.findAll(fingerprints, { distance: DISTANCE }));
}

/** The same, computed by a pool of `simhash-wasm/parallel`'s workers. */
export async function summarisePool(pool) {
  const fingerprints = await pool.fingerprintMany(TEXTS);
  return summary(fingerprints, await pool.findAll(fingerprints, { distance: DISTANCE }));
}
