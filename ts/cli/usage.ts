/** The text of `--help` and the one-line reminder printed after a usage error. */

import { DEFAULT_DISTANCE, DEFAULT_THRESHOLD, DEFAULT_WEIGHTING } from './args.js';

/** The synopsis, also printed after a usage error. */
export const USAGE = `usage: simhash-wasm dedup <files | directories | -> [--distance N] [--unit word|char]
           [--size N] [--weighting binary|tf] [--json] [--jsonl [--field F] [--id F]]
           [--max-bytes N] [--threads N] [--redis URL [--index NAME]]
       simhash-wasm dedup <files | directories | -> --method minhash [--threshold J] ...`;

/** The full `--help` text. */
export const HELP = `simhash-wasm: find near-duplicate text documents with SimHash fingerprints or MinHash.

${USAGE}

Inputs
  FILE                one document; binary files (a NUL byte in the first KB) and files
                      larger than --max-bytes are skipped, after reading at most that much
  DIRECTORY           every file below it, in name order; names starting with '.' are skipped
  -                   standard input: one document, or JSON Lines with --jsonl
  Text is read as UTF-8; invalid bytes become U+FFFD.

Options
  --method simhash|minhash
                      simhash: 64-bit fingerprints, Hamming distance (default);
                      minhash: 128-value signatures, estimated Jaccard similarity
  --distance N        simhash: most fingerprint bits (of 64) two near-duplicates differ
                      in, 0..64 (default ${DEFAULT_DISTANCE})
  --threshold J       minhash: least estimated Jaccard similarity of two near-duplicates'
                      shingle sets, in (0, 1] (default ${DEFAULT_THRESHOLD}); LSH bands are
                      planned to miss few pairs (false negative weight 0.9)
  --unit word|char    shingle units (default word)
  --size N            shingle length in units, 1..64 (default 3 for word, 4 for char)
  --weighting binary|tf
                      simhash: binary: each distinct shingle counts once; tf: every occurrence
                      counts (default ${DEFAULT_WEIGHTING}, as in the library)
  --json              print one JSON object instead of a table
  --jsonl             inputs are JSON Lines: one JSON object per line
  --field F           the field holding the text (default text); needs --jsonl
  --id F              the field naming each document (default <input>:<line>); needs --jsonl
  --max-bytes N       largest file read as one document, in bytes, with an optional K, M
                      or G suffix (default 64M, at most 512M); a run's memory peaks at
                      six to seven times the largest document read
  --threads N         worker threads that fingerprint and group, 1..256 (default: one per
                      available core); the output is the same for every N
  --redis URL         dedup against a shared index in Redis or Redis Cluster
                      (redis://host:port of any node): add these documents to it and
                      group them with every document any process added (needs ioredis)
  --index NAME        the shared index (default dedup); processes naming the same index
                      get the groups one process would get over all their inputs
  -h, --help          print this help
  -v, --version       print the version

Output
  Groups of near-duplicates: documents linked by chains of pairs at most N bits apart
  (minhash: at least J similar, sharing an LSH band), each listed with its distance in bits
  (minhash: its estimated similarity) from the group's first document. Documents
  with no words (empty, punctuation only) are listed apart and never grouped.

Exit status
  0  done, every input read
  1  done, but some inputs were skipped or unreadable (reported on standard error)
  2  usage error, or a failure that stopped the run
`;
