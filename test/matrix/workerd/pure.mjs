// workerd, pure entry: no WebAssembly at all.
import * as pure from 'simhash-wasm/pure';
import { smoke } from '../smoke.mjs';

export default {
  async test() {
    smoke(pure);
  },
};
