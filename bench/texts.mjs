// Seeded documents for the text workloads: English-like prose from a Zipf-distributed synthetic
// vocabulary, and Chinese-like prose from the commonest block of ideographs. Same seed, same
// texts, on every machine.

/**
 * A generator of floats in [0, 1) from a 32-bit seed (mulberry32: enough for picking words).
 *
 * @param {number} seed
 * @returns {() => number}
 */
function uniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Index in 0..n-1, small indices far likelier (about Zipf with exponent 1). @param {() => number} next @param {number} n */
const zipf = (next, n) => Math.min(n - 1, Math.floor(Math.exp(next() * Math.log(n + 1)) - 1));

/**
 * `count` documents of about `bytes` UTF-8 bytes each: words of 2..10 letters from a vocabulary
 * of 20,000, with commas and full stops.
 *
 * @param {number} seed @param {number} count @param {number} bytes
 * @returns {string[]}
 */
export function englishLike(seed, count, bytes) {
  const next = uniform(seed);
  const vocabulary = Array.from({ length: 20_000 }, () => {
    const length = 2 + Math.floor(next() * 9);
    let word = '';
    for (let i = 0; i < length; i++) word += String.fromCharCode(97 + Math.floor(next() * 26));
    return word;
  });
  return Array.from({ length: count }, () => {
    let text = '';
    while (text.length < bytes) {
      text += vocabulary[zipf(next, vocabulary.length)];
      const r = next();
      text += r < 0.05 ? '. ' : r < 0.12 ? ', ' : ' ';
    }
    return text;
  });
}

/**
 * `count` documents of about `bytes` UTF-8 bytes each (3 per ideograph): ideographs from
 * U+4E00..U+5DFF with Chinese punctuation.
 *
 * @param {number} seed @param {number} count @param {number} bytes
 * @returns {string[]}
 */
export function chineseLike(seed, count, bytes) {
  const next = uniform(seed);
  return Array.from({ length: count }, () => {
    let text = '';
    while (text.length * 3 < bytes) {
      text += String.fromCharCode(0x4e00 + zipf(next, 0x1000));
      const r = next();
      if (r < 0.04) text += '。';
      else if (r < 0.1) text += '，';
    }
    return text;
  });
}

/** Total UTF-8 bytes of `texts`. @param {string[]} texts */
export const utf8Bytes = (texts) => texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
