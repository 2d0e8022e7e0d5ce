// A crawler loop sharing one near-duplicate index with every other crawler process, through
// Redis or Redis Cluster: `node examples/crawler-redis.mjs redis://127.0.0.1:6379 [index]`.
//
// Each page gets an id (here: its position in the crawl, offset by the process id so that
// processes never reuse one another's ids), is added to the shared index, and only then queried:
// it is a near-duplicate when the index holds a *smaller* id within 3 bits (the smallest id of a
// group represents it). Adding before querying means that of two near-duplicate pages crawled at
// the same moment by two processes, the one added last always sees the other: no pair goes
// unseen. In such a race both
// pages may be kept for now; querying the index again later settles it (the smaller id wins),
// and the groups are then those one process would have found (`dedup --redis` does exactly
// this).

import { fingerprint, init } from 'simhash-wasm';
import { RedisSimHashIndex, RedisIndexError, connectRedis } from 'simhash-wasm/redis';

const url = process.argv[2] ?? 'redis://127.0.0.1:6379';
const name = process.argv[3] ?? 'crawl';

/** Stands for fetching pages: two articles and a lightly edited copy of the first. */
function* crawl() {
  const words = 'river bridge market lantern harbour orchard meadow quarry tower garden canal mill ' +
    'school chapel forest valley station theatre museum library';
  const vocabulary = words.split(' ');
  // A 300-word article from a fixed recipe, so every run crawls the same pages.
  const article = (seed) => Array.from({ length: 300 }, (_, k) => vocabulary[(k * k * 7 + k * seed + seed) % vocabulary.length]).join(' ');
  const first = article(3);
  yield first;
  yield `${first} (updated)`;
  yield article(11);
}

await init();
const client = await connectRedis(url);
const index = await RedisSimHashIndex.open({ client, name, distance: 3 });
try {
  let page = 0;
  for (const text of crawl()) {
    const id = process.pid * 1000 + page++;
    const value = fingerprint(text);
    // A failed add may have stored part of its work; adding again with the same arguments is
    // safe, so retry a few times before giving up on the page.
    for (let attempt = 1; ; attempt++) {
      try {
        await index.add(id, value);
        break;
      } catch (error) {
        if (!(error instanceof RedisIndexError) || attempt === 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
    const { ids, distances } = await index.query(value);
    const original = ids.findIndex((other) => other < id);
    console.log(
      original === -1
        ? `page ${id}: new`
        : `page ${id}: near-duplicate of ${ids[original]} (${distances[original]} bits apart)`,
    );
  }
  console.log(`${await index.size()} pages in index '${name}'`);
} finally {
  index.close();
  client.disconnect();
}
