/** The conformance suite against the WebAssembly entry (`simhash-wasm`). */
import type { Api } from './api.js';
import {
  describeComputeSuite,
  describeErrorSuite,
  describeFindAllSuite,
  describeHashArraySuite,
  describePermutationSuite,
} from './suite/index.js';

const NAME = 'wasm';

async function load(): Promise<Api> {
  const m: Api = await import('../ts/index.js');
  await m.init();
  // Initialising again is memoised and harmless.
  await m.init();
  m.initSync();
  return m;
}

describeComputeSuite(NAME, load);
describeFindAllSuite(NAME, load);
describePermutationSuite(NAME, load);
describeErrorSuite(NAME, load);
describeHashArraySuite(NAME, load);
