// One case of the runtime matrix in Node, Bun or Deno: `<runtime> run.mjs <case>`, run in a
// project where the packed package is installed. Prints `ok <case>` or exits non-zero.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { assertSame, smoke } from './smoke.mjs';

const require = createRequire(import.meta.url);
const wasmPath = () => require.resolve('simhash-wasm/simhash.wasm');
const pureDigest = async () => smoke(await import('simhash-wasm/pure'));

const cases = {
  // The default entry with its inlined module, against the pure entry.
  async inline() {
    const api = await import('simhash-wasm');
    await api.init();
    assertSame(smoke(api), await pureDigest());
  },
  async pure() {
    await pureDigest();
  },
  // The entry without the inlined module: refuses to work before init(source), then works
  // from the bytes of simhash.wasm.
  async slim() {
    const slim = await import('simhash-wasm/slim');
    let error;
    try {
      slim.fingerprintMany(['before init']);
    } catch (e) {
      error = e;
    }
    if (!(error instanceof TypeError) || !error.message.includes('init(source)')) {
      throw new Error(`slim without init: want a TypeError naming init(source), got ${error}`);
    }
    await slim.init(readFileSync(wasmPath()));
    assertSame(smoke(slim), await pureDigest());
  },
  // init with a file: URL in Node, in the default entry and in the slim one, where success
  // proves that the file was read.
  async 'file-url'() {
    const api = await import('simhash-wasm');
    await api.init(pathToFileURL(wasmPath()));
    assertSame(smoke(api), await pureDigest());
    const slim = await import('simhash-wasm/slim');
    await slim.init(pathToFileURL(wasmPath()));
    assertSame(smoke(slim), await pureDigest());
  },
  // CommonJS: require and initSync.
  async cjs() {
    const api = require('simhash-wasm');
    const pure = require('simhash-wasm/pure');
    api.initSync();
    assertSame(smoke(api), smoke(pure));
  },
};

const name = process.argv[2];
if (!(name in cases)) throw new Error(`run.mjs: unknown case ${name}; one of ${Object.keys(cases).join(', ')}`);
await cases[name]();
console.log(`ok ${name}`);
