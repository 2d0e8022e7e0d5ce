/** The text of `--help` and the one-line reminder printed after a usage error. */

import { DEFAULT_DISTANCE, DEFAULT_THRESHOLD, DEFAULT_WEIGHTING } from './args.js';

/** The synopsis, also printed after a usage error. */
export const USAGE = `usage: simhash-wasm dedup <files | directories | -> [--method adaptive|simhash|minhash]
           [--keep first|last|longest|shortest|newest|oldest] [--groups decisions|components]
           [--json | --removed [--null]] [--include GLOB] [--exclude GLOB]
           [--jsonl [--field F] [--id F] [--keep-field F] [--output FILE]]
           [--max-bytes N] [--threads N] [--redis URL [--index NAME] [--compact]]
       simhash-wasm dedup ... --method simhash [--distance N] [--unit word|char] [--size N]
           [--weighting binary|tf]
       simhash-wasm dedup ... --method minhash [--threshold J] [--unit word|char] [--size N]`;

/** The full `--help` text. */
export const HELP = `simhash-wasm: find near-duplicate text documents, judged by their length by default,
or by SimHash fingerprints or MinHash signatures.

${USAGE}

Inputs
  FILE                one document; binary files (a NUL byte in the first KB) and files
                      larger than --max-bytes are skipped, after reading at most that much
  DIRECTORY           every file below it, in name order; names starting with '.' are skipped
  A file reached by several paths (symbolic or hard links) is one document, read under
  its first path that is not a symbolic link; the other paths are listed as its aliases.
  -                   standard input: one document, or JSON Lines with --jsonl
  Text is read as UTF-8; invalid bytes become U+FFFD.

Options
  --method adaptive|simhash|minhash
                      adaptive (default): texts below 20 distinct words are near-duplicates
                      when they hold the same words but for a typo, a version number and
                      a few common words, and do not reverse them (English-Czech, JSON to
                      YAML); up to 40 words, when their words weighed by what they say
                      reach a similarity of 0.7; longer ones, when their word pairs reach
                      an estimated Jaccard similarity of 0.62 (docs/adaptive.md).
                      simhash: 64-bit fingerprints, Hamming distance; minhash: 128-value
                      signatures, estimated Jaccard similarity. An option marked simhash or
                      minhash below is refused with any other method, the default included
  --distance N        simhash: most fingerprint bits (of 64) two near-duplicates differ
                      in, 0..64 (default ${DEFAULT_DISTANCE})
  --threshold J       minhash: least estimated Jaccard similarity of two near-duplicates'
                      shingle sets, in (0, 1] (default ${DEFAULT_THRESHOLD}); LSH bands are
                      planned to miss few pairs (false negative weight 0.9)
  --unit word|char    simhash, minhash: shingle units (default word)
  --size N            simhash, minhash: shingle length in units, 1..64 (default 3 for word,
                      4 for char)
  --weighting binary|tf
                      simhash: binary: each distinct shingle counts once; tf: every occurrence
                      counts (default ${DEFAULT_WEIGHTING}, as in the library)
  --keep first|last|longest|shortest|newest|oldest
                      which document of a family is kept: documents are taken in this
                      order (input order, its reverse, most or fewest characters, latest
                      or earliest modification time; default first)
  --groups decisions|components
                      decisions: each group is a kept document and those to remove for it
                      (default); components: documents joined by chains of near pairs,
                      which can reach far beyond the threshold (nothing to delete by)
  --json              print one JSON object instead of a table
  --removed           print only the documents to remove, one a line, each file followed
                      by its other paths (links), so deleting them leaves none dangling
  -0, --null          with --removed: end each with NUL instead of a newline
                      (xargs -0 -r rm --)
  --include GLOB      inside directories, read only files whose path below the directory
                      matches GLOB (* and ? within a name, ** across directories, [a-z],
                      {a,b}; a glob without / matches the file name); repeatable
  --exclude GLOB      inside directories, skip files matching GLOB; repeatable
  --jsonl             inputs are JSON Lines: one JSON object per line
  --field F           the field holding the text (default text); needs --jsonl; a.b is the
                      field b of the object in field a, unless a record has a field "a.b"
  --id F              the field naming each document (default <input>:<line>); needs --jsonl;
                      a repeated id is warned about with both records' <input>:<line>, a
                      number and a string printed alike (7, "7") stop the run, and a record
                      without the field is decided as its <input>:<line>
  --output FILE       with --jsonl: write the inputs' lines to FILE without the records
                      removed, each byte for byte (skipped lines too; an input skipped
                      whole is left out); written beside FILE and renamed over it at the
                      end, so FILE may be an input. The report still goes to standard output
  --keep-field F      with --jsonl and --keep newest or oldest: the field holding each
                      record's time (a number, or a date such as 2024-05-01T12:00:00Z)
  --max-bytes N       largest file read as one document, in bytes, with an optional K, M
                      or G suffix (default 64M, at most 512M); a run's memory peaks at
                      five to eleven times the largest document read (docs/cli.md)
  --threads N         worker threads that fingerprint and group, 1..256 (default: one per
                      available core); the output is the same for every N
  --redis URL         dedup against a shared index in Redis or Redis Cluster
                      (redis://host:port of any node): each document is decided by the
                      method's rule against every document any process decided before
                      it; processes take turns a batch at a time (needs ioredis)
  --index NAME        the shared index (default dedup); processes naming the same index
                      decide against every document any of them kept
  --compact           with --redis and the default method or minhash: once this run has
                      decided, compact the shared index's log to a snapshot, so Redis holds
                      the index, not every decision since it was created (docs/redis.md)
  -h, --help          print this help
  -v, --version       print the version

Output
  Decisions, by one rule: documents are taken in --keep order; a document is removed when a
  document already kept is within the threshold (adaptive: by length, as --method says;
  simhash: --distance bits; minhash: --threshold similarity),
  and names the closest such one (ties to the one taken first); otherwise it is kept. Each
  group shows a kept document and those to remove for it, with their distance in bits
  (minhash: estimated similarity) to it. So every removed document is a near-duplicate of
  a kept one, and no two kept documents are near-duplicates (MinHash: unless LSH misses
  them, at the rate its bands are planned for). Documents with no words (empty,
  punctuation only) are listed apart, kept, and never compared.

Exit status
  0  done, every input read
  1  done, but some inputs were skipped or unreadable (reported on standard error)
  2  usage error, or a failure that stopped the run
  3  no document was read (no inputs found, or every one skipped)
`;
