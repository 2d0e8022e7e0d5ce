// `dedup --threads N` (the built CLI, which `npm test` builds first): the same output for every
// N, on input large enough that many batches go to the workers out of step with reading.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { SplitMix64 } from './oracle.js';

const cli = fileURLToPath(new URL('../dist/esm/cli/main.js', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'simhash-threads-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

it('prints the same report with 1, 2 and 3 threads and by default, by every method', () => {
  const rng = new SplitMix64(1501n);
  const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
  const bases = Array.from({ length: 300 }, () => Array.from({ length: 60 }, () => vocabulary[rng.below(vocabulary.length)]!));
  const lines: string[] = [];
  for (let d = 0; d < 6000; d++) {
    const words = bases[rng.below(bases.length)]!.slice();
    for (let e = rng.below(4); e > 0; e--) words[rng.below(words.length)] = vocabulary[rng.below(vocabulary.length)]!;
    lines.push(JSON.stringify({ id: `doc${d}`, text: d % 997 === 0 ? '' : words.join(' ') }));
  }
  const file = join(scratch, 'docs.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  // SimHash fingerprints and MinHash signatures are made on the workers; the default sketches here.
  for (const method of ['simhash', 'minhash', 'adaptive']) {
    const outputs = [['--threads', '1'], ['--threads', '2'], ['--threads', '3'], []].map((extra) => {
      const result = run(['dedup', file, '--jsonl', '--id', 'id', '--method', method, '--json', ...extra]);
      expect(result.status, result.stderr).toBe(0);
      return result.stdout;
    });
    const report = JSON.parse(outputs[0]!) as { groups: unknown[] };
    expect(report.groups.length, method).toBeGreaterThan(50);
    for (const output of outputs.slice(1)) expect(output).toBe(outputs[0]);
  }
}, 120_000);

it('refuses a thread count outside 1..256', () => {
  for (const bad of ['0', '257', 'two']) {
    const result = run(['dedup', scratch, '--threads', bad]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--threads/);
  }
});

it('reads awkward JSON Lines as one thread does: byte order mark, CRLF, bad UTF-8, bad records, long lines, binary and standard input', () => {
  const rng = new SplitMix64(1502n);
  const vocabulary = Array.from({ length: 300 }, (_, i) => `v${i.toString(36)}`);
  const sentence = (n: number): string => Array.from({ length: n }, () => vocabulary[rng.below(vocabulary.length)]!).join(' ');
  const parts: (string | Uint8Array)[] = ['\uFEFF'];
  for (let d = 0; d < 4000; d++) {
    const kind = d % 50;
    if (kind === 1) parts.push('\n');
    else if (kind === 2) parts.push('{"text": broken\n');
    else if (kind === 3) parts.push('{"body": "no text"}\r\n');
    else if (kind === 4) parts.push(`{"id": ${d}, "text": "?!"}\n`);
    else if (kind === 5) parts.push(`{"id": ${d}, "text": "caf`, Uint8Array.of(0xc3), ` ${sentence(30)}"}\n`);
    else if (d === 2500) parts.push(`${JSON.stringify({ id: `doc${d}`, text: sentence(250_000) })}\n`);
    else parts.push(`${JSON.stringify({ id: kind === 6 ? d : `doc${d}`, text: sentence(40 + rng.below(80)) })}${kind === 7 ? '\r\n' : '\n'}`);
  }
  parts.push('{"id": "last", "text": "no newline at the end"}');
  const file = join(scratch, 'awkward.jsonl');
  writeFileSync(file, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
  const binary = join(scratch, 'binary.jsonl');
  writeFileSync(binary, Uint8Array.from({ length: 4096 }, (_, i) => i % 7));
  const results = ['1', '2'].map((threads) => {
    const args = ['dedup', file, binary, '-', '--jsonl', '--id', 'id', '--json', '--threads', threads];
    const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 120_000, input: '{"id": "in", "text": "from standard input"}\n\n' });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  });
  expect(results[0]!.status).toBe(1);
  const report = JSON.parse(results[0]!.stdout) as { documents: number; featureless: string[]; skipped: { input: string; reason: string }[] };
  expect(report.documents).toBeGreaterThan(3500);
  expect(report.featureless.length).toBeGreaterThan(50);
  expect(report.skipped).toContainEqual({ input: `${file}:3`, reason: 'not valid JSON' });
  expect(report.skipped).toContainEqual({ input: binary, reason: 'binary file' });
  expect(results[1]).toEqual(results[0]);
});
