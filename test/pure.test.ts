/** The conformance suite against the pure TypeScript entry (`simhash-wasm/pure`). */
import type { Api } from './api.js';
import {
  describeComputeSuite,
  describeErrorSuite,
  describeFindAllSuite,
  describeHashArraySuite,
  describePermutationSuite,
} from './suite/index.js';

const NAME = 'pure';

async function load(): Promise<Api> {
  const m: Api = await import('../ts/pure/index.js');
  // No-ops in the pure entry, but part of the shared API: they must exist and resolve.
  await m.init();
  m.initSync();
  return m;
}

describeComputeSuite(NAME, load);
describeFindAllSuite(NAME, load);
describePermutationSuite(NAME, load);
describeErrorSuite(NAME, load);
describeHashArraySuite(NAME, load);
