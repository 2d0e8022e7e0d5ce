// A tiny app that uses the worker pool: the same summary from a pool of two workers and from the
// synchronous API. `?init=first` loads the module (inlined) before the pool starts, which must
// then give its workers that module; `?init=after` starts the pool first, which then loads the
// module's file itself.

import * as simhash from 'simhash-wasm';
import { createPool } from 'simhash-wasm/parallel';
import { summarise, summarisePool } from '../summarise.js';

async function run() {
  const initFirst = new URLSearchParams(location.search).get('init') === 'first';
  let result;
  try {
    if (initFirst) await simhash.init();
    const pool = await createPool({ threads: 2 });
    let pooled;
    try {
      pooled = await summarisePool(pool);
    } finally {
      await pool.close();
    }
    if (!initFirst) await simhash.init();
    result = { pool: pooled, sync: summarise(simhash) };
  } catch (error) {
    result = { error: String(error) };
  }
  // Indented, so that a screenshot of the page can be read.
  document.getElementById('result').textContent = JSON.stringify(result, null, 1);
}

run();
