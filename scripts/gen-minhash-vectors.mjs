// Generates test/vectors/minhash_datasketch.json by running datasketch itself: permutation
// parameters, signatures of token lists in both of its schemes, and the bands × rows its LSH
// chooses. datasketch is installed from PyPI into .venv-datasketch (not committed) by
// scripts/setup-datasketch.mjs.
//
//   node scripts/gen-minhash-vectors.mjs

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { datasketchPython } from './setup-datasketch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed with status ${result.status}`);
  return result.stdout;
}

const program = String.raw`
import json, sys
import numpy as np
import datasketch
from datasketch import MinHash
from datasketch.lsh import _optimal_param

token_lists = [
    [],
    ["hello"],
    "the quick brown fox jumps over the lazy dog".split(),
    ["the", "the", "fox", "fox"],
    ["\u00e9t\u00e9", "\u4e2d\u6587", "na\u00efve", "\U0001F600", ""],
    ["x" * 55, "y" * 56, "z" * 64, "w" * 200],
    [str(i) for i in range(300)],
]
cases = []
for scheme in ["legacy", "affine32"]:
    for seed in [1, 0, 42, 4294967295]:
        for num_perm in ([1, 7, 128, 300] if seed == 42 else [1, 7, 128]):
            m = MinHash(num_perm=num_perm, seed=seed, scheme=scheme)
            a, b = m.permutations
            signatures = []
            for tokens in token_lists:
                m = MinHash(num_perm=num_perm, seed=seed, scheme=scheme)
                for t in tokens:
                    m.update(t.encode("utf8"))
                signatures.append([int(v) for v in m.hashvalues])
            cases.append({
                "scheme": scheme, "seed": seed, "numPerm": num_perm,
                "a": [str(int(v)) for v in a], "b": [str(int(v)) for v in b],
                "signatures": signatures,
            })
plans = []
for threshold in [0.5, 0.7, 0.8, 0.9, 0.95]:
    for num_perm in [64, 128, 256]:
        for weights in [(0.5, 0.5), (0.3, 0.7), (0.9, 0.1)]:
            b, r = _optimal_param(threshold, num_perm, weights[0], weights[1])
            plans.append({"threshold": threshold, "numPerm": num_perm, "falsePositiveWeight": weights[0],
                          "falseNegativeWeight": weights[1], "bands": b, "rows": r})
json.dump({"datasketch": datasketch.__version__, "numpy": np.__version__,
           "tokenLists": token_lists, "cases": cases, "plans": plans}, sys.stdout, ensure_ascii=False)
`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = JSON.parse(run(datasketchPython().python, ['-c', program]));
  const target = join(root, 'test', 'vectors', 'minhash_datasketch.json');
  writeFileSync(target, JSON.stringify(out) + '\n');
  console.log(`wrote ${target}: datasketch ${out.datasketch}, numpy ${out.numpy}, ${out.cases.length} cases, ${out.plans.length} plans`);
}
