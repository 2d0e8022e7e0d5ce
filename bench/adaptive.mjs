// `node bench/adaptive.mjs`: the command line's default decision (`decideTexts`, length-adaptive)
// against the SimHash default it replaced (`fingerprintMany` with binary weighting, then `decide`
// at 10 bits), timed alternately in one process on the same texts: real English prose, and real
// short lines (every change entry of this machine's Debian changelogs, repeats and all, as a
// dump of titles or commit messages has them, and each distinct one once). Prints MB/s for each
// and their ratio, with the machine's load.

import { loadavg } from 'node:os';
import { decide, decideTexts, fingerprintMany, init } from '../dist/esm/index.js';
import { measure } from './measure.mjs';
import { changelogLines, realEnglish, utf8Bytes } from './texts.mjs';

await init();
const sets = [
  ['real English prose', realEnglish(16_000_000)],
  ['short lines (Debian changelog entries)', changelogLines().map((line) => line.text)],
  ['distinct short lines (the same, each text once)', [...new Set(changelogLines().map((line) => line.text))]],
];
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; node ${process.version}`);
for (const [name, texts] of sets) {
  const bytes = utf8Bytes(texts);
  const [simhash, adaptive] = measure(
    [() => decide(fingerprintMany(texts), { distance: 10 }).representative.length, () => decideTexts(texts).representative.length],
    { runs: 5, minMs: 1000, budgetMs: 30_000, throws: false },
  );
  const rate = (ms) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(
    `${name}: ${texts.length.toLocaleString('en')} texts, ${(bytes / 1e6).toFixed(1)} MB — SimHash default ${simhash.medianMs.toFixed(0)} ms (${rate(simhash.medianMs)}), ` +
      `adaptive ${adaptive.medianMs.toFixed(0)} ms (${rate(adaptive.medianMs)}); adaptive takes ${(adaptive.medianMs / simhash.medianMs).toFixed(2)}× the time`,
  );
}
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
