// Installs datasketch and the redis client from PyPI into a project-local virtual environment
// (.venv-datasketch, ignored by git), for the Redis benchmark's comparison with datasketch's
// Redis-backed MinHashLSH. Prints the environment's python path.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const venv = join(root, '.venv-datasketch');
const python = join(venv, 'bin', 'python');

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 });
  if (result.status !== 0) {
    console.error(`simhash-wasm: ${command} ${args.join(' ')} failed`);
    process.exit(1);
  }
}

if (!existsSync(python)) run('python3', ['-m', 'venv', venv]);
const check = spawnSync(python, ['-c', 'import datasketch, redis; print(datasketch.__version__, redis.__version__)'], { encoding: 'utf8' });
if (check.status !== 0) run(python, ['-m', 'pip', 'install', '--quiet', 'datasketch==1.6.5', 'redis>=5,<6']);
console.log(python);
