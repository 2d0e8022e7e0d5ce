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
  // The worker pool (Node's worker_threads; module Web Workers in Bun and Deno, counted): the
  // same results as the synchronous API, then a clean close. Started before init(), the pool
  // loads simhash.wasm from disk itself.
  async parallel() {
    const WebWorker = globalThis.Worker;
    let webWorkers = 0;
    if (WebWorker !== undefined) {
      globalThis.Worker = class extends WebWorker {
        constructor(...args) {
          super(...args);
          webWorkers++;
        }
      };
    }
    const api = await import('simhash-wasm');
    const { createPool } = await import('simhash-wasm/parallel');
    const pool = await createPool({ threads: 2 });
    const webRuntime = 'Bun' in globalThis || 'Deno' in globalThis;
    if (webWorkers !== (webRuntime ? 2 : 0)) throw new Error(`parallel: ${webWorkers} Web Workers made, want ${webRuntime ? 2 : 0}`);
    await api.init();
    const texts = Array.from({ length: 300 }, (_, i) => `document ${i % 37} says the same ${i % 37 === 5 ? 'thing' : 'words'} again, line ${i % 11}`);
    const fingerprints = api.fingerprintMany(texts);
    try {
      const same = (got, want, what) => {
        const g = JSON.stringify(got, (_, v) => (typeof v === 'bigint' ? `${v}` : ArrayBuffer.isView(v) ? Array.from(v, String) : v));
        const w = JSON.stringify(want, (_, v) => (typeof v === 'bigint' ? `${v}` : ArrayBuffer.isView(v) ? Array.from(v, String) : v));
        if (g !== w) throw new Error(`parallel ${what}: got ${g.slice(0, 120)}, want ${w.slice(0, 120)}`);
      };
      same(await pool.fingerprintMany(texts), fingerprints, 'fingerprintMany');
      for (const distance of [3, 10]) {
        same(await pool.findAll(fingerprints, { distance }), api.findAll(fingerprints, { distance }), `findAll d=${distance}`);
        same(await pool.findClusters(fingerprints, { distance }), api.findClusters(fingerprints, { distance }), `findClusters d=${distance}`);
      }
      const index = await pool.createIndex({ distance: 3 });
      await index.addMany(Uint32Array.from(texts, (_, i) => i), fingerprints);
      const one = new api.SimHashIndex({ distance: 3 });
      one.addMany(Uint32Array.from(texts, (_, i) => i), fingerprints);
      same(await index.queryMany(fingerprints), one.queryMany(fingerprints), 'ShardedIndex.queryMany');
    } finally {
      await pool.close();
    }
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
