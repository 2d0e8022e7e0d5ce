// Runs the Rust core's unit tests natively with the same toolchain (and crate source) the
// wasm build uses.

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveToolchain } from './toolchain.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolchain = resolveToolchain();
const result = spawnSync(toolchain.cargo, ['test', '--release', '-p', 'simhash-core', ...toolchain.config], {
  cwd: root,
  stdio: 'inherit',
  env: toolchain.env,
});
process.exit(result.status ?? 1);
