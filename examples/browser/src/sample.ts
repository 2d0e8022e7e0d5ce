/**
 * The "Try a sample" documents: the real texts of examples/corpus (licences, manual pages and
 * READMEs in several versions, with their sources and licences in its README.md, which is one of
 * them). Vite emits each as a file of the built page, fetched only when the button is pressed.
 */

import type { Input } from './protocol.js';

const CORPUS = '../../corpus/';

const urls = import.meta.glob<string>('../../corpus/**/*.{txt,md}', { query: '?url', import: 'default', eager: true });

/** The sample's documents, named by their path in examples/corpus, in path order. */
export async function loadSample(): Promise<Input[]> {
  const entries = Object.entries(urls).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    entries.map(async ([path, url]) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`the sample file ${url} could not be fetched (HTTP ${response.status})`);
      return { kind: 'text', name: path.slice(CORPUS.length), text: await response.text() } as const;
    }),
  );
}
