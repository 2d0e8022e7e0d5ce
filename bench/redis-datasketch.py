"""datasketch's Redis-backed MinHashLSH on the server the Redis benchmark started: inserts one at
a time, inserts through an insertion session, and queries, each for a bounded time. Prints one
JSON object. MinHash signatures are built from random hash values beforehand, so only the LSH
index's work (and its Redis round trips) is timed, as only the index's work is timed for ours.

python bench/redis-datasketch.py <port> <max items> <seconds per phase>
"""

import json
import sys
import time

import numpy as np
from datasketch import MinHash, MinHashLSH

port, limit, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
rng = np.random.default_rng(1)
signatures = [MinHash(num_perm=128, hashvalues=rng.integers(0, 2**32 - 1, 128, dtype=np.uint64), scheme="affine32") for _ in range(limit)]


def lsh(name):
    return MinHashLSH(threshold=0.8, num_perm=128, storage_config={"type": "redis", "basename": name.encode(), "redis": {"host": "127.0.0.1", "port": port}})


def timed(step, items):
    done, start = 0, time.perf_counter()
    latencies = []
    for item in items:
        t = time.perf_counter()
        step(item)
        latencies.append((time.perf_counter() - t) * 1000)
        done += 1
        if time.perf_counter() - start > seconds:
            break
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {"items": done, "perSecond": done / elapsed, "medianMs": latencies[len(latencies) // 2] if latencies else None, "p99Ms": latencies[int(len(latencies) * 0.99)] if latencies else None}


single = lsh("ds-single")
inserts = timed(lambda i: single.insert(f"k{i}", signatures[i]), range(limit))
queries = timed(lambda i: single.query(signatures[i % inserts["items"]]), range(limit))

batched = lsh("ds-session")
start, done = time.perf_counter(), 0
with batched.insertion_session(buffer_size=50000) as session:
    for i in range(limit):
        session.insert(f"k{i}", signatures[i])
        done += 1
        if time.perf_counter() - start > seconds:
            break
session_rate = done / (time.perf_counter() - start)

print(json.dumps({"insert": inserts, "query": queries, "sessionInsert": {"items": done, "perSecond": session_rate}}))
