// A CommonJS TypeScript consumer of the packed package (require conditions; typesVersions
// under node10). The @ts-expect-error line fails if the types degrade to `any`.
import api = require('simhash-wasm');
import pure = require('simhash-wasm/pure');

api.initSync();
void api.init(new URL('file:///srv/simhash.wasm'));

const fingerprints: BigUint64Array = api.fingerprintMany(['a b c d', 'a b c e']);
const pairs: api.PairResult = api.findAll(fingerprints, { distance: 3 });
const purePairs: pure.PairResult = pure.findAll(fingerprints, { distance: 3 });
const labels: Uint32Array = api.findClusters(fingerprints, { distance: 3 });

const index = new api.SimHashIndex({ distance: 3 });
index.add(1, 0xabcdn);
const ids: Uint32Array = index.query(0xabcfn).ids;
const loaded = pure.SimHashIndex.deserialize(index.serialize());
index.free();
loaded.free();

// @ts-expect-error findAll requires its options
api.findAll(fingerprints);

export = { pairs, purePairs, labels, ids };
