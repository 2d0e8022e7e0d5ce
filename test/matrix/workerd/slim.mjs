// workerd, slim entry: a TypeError naming init(source) before init, then init(module) with the
// module imported as CompiledWasm.
import * as pure from 'simhash-wasm/pure';
import wasm from 'simhash-wasm/simhash.wasm';
import * as slim from 'simhash-wasm/slim';
import { assertSame, smoke } from '../smoke.mjs';

export default {
  async test() {
    let error;
    try {
      slim.fingerprintMany(['before init']);
    } catch (e) {
      error = e;
    }
    if (!(error instanceof TypeError) || !error.message.includes('init(source)')) {
      throw new Error(`slim without init: want a TypeError naming init(source), got ${error}`);
    }
    await slim.init(wasm);
    assertSame(smoke(slim), smoke(pure));
  },
};
