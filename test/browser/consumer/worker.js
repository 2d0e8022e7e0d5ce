// The tiny app's worker: synchronous initialisation from the inlined module (allowed in
// workers), or the separate file when the page passes its URL.

import * as simhash from 'simhash-wasm';
import { summarise } from './summarise.js';

self.addEventListener('message', async ({ data: wasmUrl }) => {
  try {
    if (wasmUrl === null) simhash.initSync();
    else await simhash.init(wasmUrl);
    self.postMessage(summarise(simhash));
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
});
