// workerd, slim entry: init(module) with the module imported as CompiledWasm.
import * as pure from 'simhash-wasm/pure';
import wasm from 'simhash-wasm/simhash.wasm';
import * as slim from 'simhash-wasm/slim';
import { assertSame, smoke } from '../smoke.mjs';

export default {
  async test() {
    await slim.init(wasm);
    assertSame(smoke(slim), smoke(pure));
  },
};
