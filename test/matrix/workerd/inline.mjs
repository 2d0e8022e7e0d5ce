// workerd, default entry: compiling bytes is forbidden there, so bare init() must fail with a
// hint naming init(module); init with the module imported as CompiledWasm then works.
import * as api from 'simhash-wasm';
import * as pure from 'simhash-wasm/pure';
import wasm from 'simhash-wasm/simhash.wasm';
import { assertSame, smoke } from '../smoke.mjs';

export default {
  async test() {
    // Set by the matrix from the compatibility date.
    if ((typeof FinalizationRegistry === 'function') !== MATRIX_HAS_FINALIZATION_REGISTRY) {
      throw new Error(`this workerd ${MATRIX_HAS_FINALIZATION_REGISTRY ? 'lacks' : 'has'} FinalizationRegistry at this compatibility date`);
    }
    let error;
    try {
      await api.init();
    } catch (e) {
      error = e;
    }
    if (error === undefined) throw new Error('bare init() succeeded where compiling WebAssembly from bytes is forbidden');
    if (!/init\((module|wasm)\)/.test(error.message)) throw new Error(`bare init() failed without naming init(module): ${error.message}`);
    if (!(wasm instanceof WebAssembly.Module)) throw new Error(`the .wasm import is not a WebAssembly.Module: ${typeof wasm}`);
    await api.init(wasm);
    assertSame(smoke(api), smoke(pure));
  },
};
