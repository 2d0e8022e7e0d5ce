// An ESM TypeScript consumer of the packed package (checked with lib es2022, no DOM, and
// skipLibCheck false). The @ts-expect-error lines fail if the types degrade to `any`.
import { SimHashIndex, findAll, findClusters, fingerprintMany, init, initSync, type PairResult } from 'simhash-wasm';
import * as pure from 'simhash-wasm/pure';
import * as slim from 'simhash-wasm/slim';
import wasmUrl from 'simhash-wasm/simhash.wasm';

await init();
await init(new URL('file:///srv/simhash.wasm'));
initSync(new Uint8Array(8));
const source: string | object = wasmUrl;
await slim.init(source);
slim.initSync(new ArrayBuffer(8));

const fingerprints: BigUint64Array = fingerprintMany(['a b c d', 'a b c e']);
const pairs: PairResult = findAll(fingerprints, { distance: 3 });
const purePairs: PairResult = pure.findAll(fingerprints, { distance: 3 });
const labels: Uint32Array = findClusters(fingerprints, { distance: 3 });
const slimLabels: Uint32Array = slim.findClusters(slim.fingerprintMany(['a b c d']), { distance: 3 });

const index = new SimHashIndex({ distance: 3 });
index.add(1, 0xabcdn);
const ids: Uint32Array = index.query(0xabcfn).ids;
const saved: Uint8Array = index.serialize();
using loaded = pure.SimHashIndex.deserialize(saved);
index.free();

// @ts-expect-error findAll requires its options
findAll(fingerprints);
// @ts-expect-error the module is a URL string or an object, not a number
const notANumber: number = wasmUrl;

export { pairs, purePairs, labels, slimLabels, ids, loaded, notANumber };
