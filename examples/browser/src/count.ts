/** Counts in words, so that the page never says "1 pairs". */

/** `n` and `noun`, plural unless `n` is 1: "1 pair", "0 pairs", "1,234 pairs". */
export const count = (n: number, noun: string): string => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

/** `noun` alone, as `count` would write it after `n`. */
export const unit = (n: number, noun: string): string => (n === 1 ? noun : `${noun}s`);
