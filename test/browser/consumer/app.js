// A tiny app: load simhash-wasm on the page (inlined module, or the separate file with
// `?wasm=file`), compute, do the same in a module worker, and show both results.

import * as simhash from 'simhash-wasm';
import { summarise } from './summarise.js';

function inWorker(wasmUrl) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event) => resolve(event.data));
    worker.addEventListener('error', (event) => reject(new Error(event.message || 'the worker failed to load')));
    worker.postMessage(wasmUrl);
  });
}

export async function run(wasmUrl) {
  const useFile = new URLSearchParams(location.search).get('wasm') === 'file';
  // A worker resolves relative URLs against its own script; give it an absolute one.
  const absolute = useFile ? String(new URL(wasmUrl, location.href)) : null;
  let result;
  try {
    await simhash.init(absolute ?? undefined);
    result = { page: summarise(simhash), worker: await inWorker(absolute) };
  } catch (error) {
    result = { error: String(error) };
  }
  // Indented, so that a screenshot of the page can be read.
  document.getElementById('result').textContent = JSON.stringify(result, null, 1);
}
