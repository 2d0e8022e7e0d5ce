// Makes sure the Redis tests have servers to start: Debian's redis-server and redis-cli,
// installed with apt-get when they are missing and we run as root on Debian (as
// scripts/ensure-chromium.mjs does for Chromium). Exits non-zero with what to install otherwise,
// so that the Redis tests fail loudly instead of being skipped.

import { spawnSync } from 'node:child_process';

function fail(message) {
  console.error(`simhash-wasm: ${message}`);
  process.exit(1);
}

function works(command) {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

function run(command, args) {
  console.error(`simhash-wasm: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

if (!works('redis-server') || !works('redis-cli')) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !works('apt-get')) {
    fail('the Redis tests need redis-server and redis-cli (7.0 or later) on the PATH. Install them (Debian: `apt-get install redis-server`).');
  }
  // --no-install-recommends and policy-rc.d are not needed: the tests start their own servers on
  // free ports and stop them; a service the package starts on 6379 is left to the system.
  const installed =
    run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server', 'redis-tools']) ||
    (run('apt-get', ['update']) && run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server', 'redis-tools']));
  if (!installed || !works('redis-server')) fail('apt-get could not install redis-server; the Redis tests cannot run');
}

const version = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.trim();
const major = Number(/v=(\d+)/.exec(version)?.[1] ?? 0);
if (major < 7) fail(`the Redis tests need redis-server 7.0 or later, found: ${version}`);
console.error(`simhash-wasm: Redis tests use ${version}`);
