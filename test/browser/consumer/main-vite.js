// Vite's way to the separate module file: `?url` makes it an asset and gives its URL.
import wasmUrl from 'simhash-wasm/simhash.wasm?url';
import { run } from './app.js';

run(wasmUrl);
