// Under moduleResolution node10 the .wasm subpath is found through typesVersions.
import wasmUrl from 'simhash-wasm/simhash.wasm';
import slim = require('simhash-wasm/slim');

const source: string | object = wasmUrl;
void slim.init(source);

export = source;
