// workerd, the Cloudflare Workers example of docs/browser.md (written beside this file as
// docs-example.mjs by the matrix): its fetch handler answers a text's fingerprint, as the pure
// entry computes it.
import * as pure from 'simhash-wasm/pure';
import example from './docs-example.mjs';

export default {
  async test() {
    for (const text of ['Release 2.4 fixes the crash when the cache directory is missing.', '']) {
      const response = await example.fetch(new Request('http://example.test/', { method: 'POST', body: text }));
      const got = await response.text();
      const want = pure.fingerprint(text).toString(16);
      if (got !== want) throw new Error(`the docs' workerd example answered ${got} for ${JSON.stringify(text)}, want ${want}`);
    }
  },
};
