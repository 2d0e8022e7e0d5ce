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

it('prints the same report with 1, 2 and 3 threads and by default', () => {
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
  const outputs = [['--threads', '1'], ['--threads', '2'], ['--threads', '3'], []].map((extra) => {
    const result = run(['dedup', file, '--jsonl', '--id', 'id', '--json', ...extra]);
    expect(result.status).toBe(0);
    return result.stdout;
  });
  const report = JSON.parse(outputs[0]!) as { groups: unknown[] };
  expect(report.groups.length).toBeGreaterThan(50);
  for (const output of outputs.slice(1)) expect(output).toBe(outputs[0]);
});

it('refuses a thread count outside 1..256', () => {
  for (const bad of ['0', '257', 'two']) {
    const result = run(['dedup', scratch, '--threads', bad]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--threads/);
  }
});
