// Iterables that break the protocol get errors naming the argument, from both entries, instead
// of the engine's ("Iterator result 5 is not an object", "input is not iterable"); and a bad
// element closes the iterator it came from, as a plain for…of does.
import { describe, expect, it } from 'vitest';
import * as pure from '../ts/pure/index.js';
import * as wasm from '../ts/index.js';

const broken = {
  'a [Symbol.iterator] that is not a function': { [Symbol.iterator]: 5 },
  'a [Symbol.iterator]() that returns no iterator': { [Symbol.iterator]: () => 5 },
  'an iterator without next()': { [Symbol.iterator]: () => ({}) },
  'a next() that returns no object': { [Symbol.iterator]: () => ({ next: () => 5 }) },
} as unknown as Record<string, Iterable<string>>;

for (const [entry, api] of [['WebAssembly', wasm], ['pure TypeScript', pure]] as const) {
  describe(`${entry}: an iterable that breaks the protocol`, () => {
    const calls: [string, string, (bad: Iterable<string>) => unknown][] = [
      ['fingerprintMany', 'texts', (bad) => api.fingerprintMany(bad)],
      ['minhashMany', 'texts', (bad) => api.minhashMany(bad)],
      ['datasketchMinhash', 'tokens', (bad) => api.datasketchMinhash(bad)],
      ['datasketchMinhashMany', 'documents', (bad) => api.datasketchMinhashMany(bad as unknown as Iterable<Iterable<string>>)],
      ['datasketchMinhashMany, a document', 'documents[1]', (bad) => api.datasketchMinhashMany([['a'], bad])],
      ['shingle', 'tokens', (bad) => api.shingle(bad, 2)],
    ];
    for (const [call, name, run] of calls) {
      for (const [what, bad] of Object.entries(broken)) {
        it(`${call}: ${what} is a TypeError naming ${name}`, () => {
          expect(() => run(bad)).toThrow(TypeError);
          expect(() => run(bad)).toThrow(new RegExp(`^${name.replace(/[[\]]/g, '\\$&')}(?!\\w)`));
        });
      }
    }

    it('closes a generator whose element is refused', () => {
      let closed = 0;
      function* texts(): Generator<unknown> {
        try {
          yield 'a text';
          yield 5;
          yield 'never read';
        } finally {
          closed++;
        }
      }
      expect(() => api.fingerprintMany(texts() as Iterable<string>)).toThrow(/texts\[1\] must be a string/);
      expect(() => api.minhashMany(texts() as Iterable<string>)).toThrow(/texts\[1\] must be a string/);
      expect(closed).toBe(2);
    });

    it('reads a well-behaved iterable once, as an array would be read', () => {
      const texts = ['one text here', 'another text there'];
      let reads = 0;
      const once = { [Symbol.iterator]: () => (reads++, texts[Symbol.iterator]()) };
      expect(api.fingerprintMany(once)).toEqual(api.fingerprintMany(texts));
      expect(api.minhashMany(once)).toEqual(api.minhashMany(texts));
      expect(reads).toBe(2);
    });
  });
}
