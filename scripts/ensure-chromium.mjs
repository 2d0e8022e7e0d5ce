// Makes sure the browser tests have a Chromium to drive: `$CHROMIUM_PATH` if set, else Debian's
// /usr/bin/chromium, installed with apt-get when it is missing and we run as root on Debian.
// Playwright's own browser download is not used: it fetches a binary from outside the package
// registries, which CI cannot reach.
//
// Exits non-zero with what to do when no Chromium can be had, so that the browser tests fail
// loudly instead of being skipped.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function fail(message) {
  console.error(`simhash-wasm: ${message}`);
  process.exit(1);
}

function run(command, args) {
  console.error(`simhash-wasm: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

function hasAptGet() {
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function version(path) {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

const wanted = process.env.CHROMIUM_PATH;
if (wanted !== undefined && wanted !== '') {
  if (!existsSync(wanted)) fail(`CHROMIUM_PATH is ${wanted}, which does not exist`);
  console.error(`simhash-wasm: browser tests use ${wanted}`);
  process.exit(0);
}

if (!existsSync(DEBIAN_CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !hasAptGet()) {
    fail(
      `the browser tests need Chromium at ${DEBIAN_CHROMIUM}, and it is missing. ` +
        'Install it (Debian: `apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  // A stale package list is the usual reason a first install fails; update only then.
  const installed =
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']) ||
    (run('apt-get', ['update']) && run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']));
  if (!installed || !existsSync(DEBIAN_CHROMIUM)) fail('apt-get could not install chromium; the browser tests cannot run');
}

const found = version(DEBIAN_CHROMIUM);
if (found === null) fail(`${DEBIAN_CHROMIUM} is there but does not start (\`${DEBIAN_CHROMIUM} --version\` failed)`);
console.error(`simhash-wasm: browser tests use ${found}`);
