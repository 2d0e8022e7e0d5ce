// esbuild's way to the separate module file: built with `loader: { '.wasm': 'file' }`.
import wasmUrl from 'simhash-wasm/simhash.wasm';
import { run } from './app.js';

run(wasmUrl);
