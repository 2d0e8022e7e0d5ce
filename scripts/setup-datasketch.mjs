// Installs datasketch and the redis client from PyPI into a project-local virtual environment
// (.venv-datasketch, ignored by git): the Python reference the MinHash vectors are generated
// with, and the peer the MinHash and Redis benchmarks compare against in the same run.
// Run directly it prints the environment's python path.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const venv = join(root, '.venv-datasketch');
const python = join(venv, 'bin', 'python');
/** The versions the committed vectors were made with; a different datasketch may permute differently. */
const REQUIREMENTS = ['datasketch==2.0.0', 'redis>=5,<6'];

/** @param {string} command @param {string[]} args */
function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 600_000 });
  if (result.status !== 0) {
    const why = result.error?.message ?? result.stderr.trim().split('\n').slice(-3).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed: ${why}`);
  }
}

/**
 * The environment's python, after creating it and installing datasketch when needed.
 *
 * @returns {{ python: string, version: string }}
 * @throws {Error} when python3 is missing or PyPI cannot be reached; the message says which
 */
export function datasketchPython() {
  const probe = () => spawnSync(python, ['-c', 'import datasketch, redis; print(datasketch.__version__)'], { encoding: 'utf8' });
  let found = existsSync(python) ? probe() : undefined;
  if (found?.status !== 0 || found.stdout.trim() !== '2.0.0') {
    if (!existsSync(python)) run('python3', ['-m', 'venv', venv]);
    run(python, ['-m', 'pip', 'install', '--quiet', ...REQUIREMENTS]);
    found = probe();
    if (found.status !== 0) throw new Error(`datasketch installed but does not import: ${found.stderr.trim()}`);
  }
  return { python, version: found.stdout.trim() };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(datasketchPython().python);
  } catch (error) {
    console.error(`simhash-wasm: ${/** @type {Error} */ (error).message}`);
    process.exit(1);
  }
}
