// Finds (and, as root on Debian, installs) a Rust toolchain that can build for
// wasm32-unknown-unknown, and says how to call its cargo.
//
// Candidates, in order: $CARGO/$RUSTC when both are set; the rustc on PATH (rustup or
// otherwise) when its sysroot has the wasm32 standard library; Debian's /usr/bin/rustc with
// libstd-rust-dev-wasm32. Crates come from Debian's packaged crate sources when they are
// present, which cargo then reads as a directory source (no network needed), else crates.io.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const WASM_TARGET = 'wasm32-unknown-unknown';
const DEBIAN_PACKAGES = ['rustc', 'cargo', 'libstd-rust-dev-wasm32', 'lld', 'librust-xxhash-rust-dev'];
const DEBIAN_REGISTRY = '/usr/share/cargo/registry';

function run(command, args, env) {
  const result = spawnSync(command, args, { encoding: 'utf8', env: env ?? process.env });
  return result.status === 0 ? result.stdout.trim() : null;
}

function hasWasmStd(rustc) {
  const sysroot = run(rustc, ['--print', 'sysroot']);
  return sysroot !== null && existsSync(join(sysroot, 'lib', 'rustlib', WASM_TARGET, 'lib'));
}

function candidates() {
  const list = [];
  if (process.env.CARGO && process.env.RUSTC) {
    list.push({ name: '$CARGO/$RUSTC', cargo: process.env.CARGO, rustc: process.env.RUSTC });
  }
  // Under rustup, `rustc` on PATH is a proxy for the default toolchain; `cargo` goes with it.
  list.push({ name: 'rustc on PATH', cargo: 'cargo', rustc: 'rustc' });
  list.push({ name: "Debian's rustc", cargo: '/usr/bin/cargo', rustc: '/usr/bin/rustc', rustdoc: '/usr/bin/rustdoc' });
  return list;
}

function hasDebianCrates() {
  return existsSync(DEBIAN_REGISTRY) && readdirSync(DEBIAN_REGISTRY).some((name) => name.startsWith('xxhash-rust-'));
}

function findToolchain() {
  for (const candidate of candidates()) {
    if (run(candidate.cargo, ['--version']) === null) continue;
    if (!hasWasmStd(candidate.rustc)) continue;
    return candidate;
  }
  return null;
}

function installDebianToolchain() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) return false;
  console.error(`simhash-wasm: installing Debian's Rust toolchain for ${WASM_TARGET}: ${DEBIAN_PACKAGES.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...DEBIAN_PACKAGES], { stdio: 'inherit', env }).status === 0;
  if (install()) return true;
  // A fresh machine's package lists may be missing or stale.
  spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
  return install();
}

const HELP = `simhash-wasm: no Rust toolchain that can build for ${WASM_TARGET} was found.
Install one of:
  - with rustup:  rustup target add ${WASM_TARGET}
  - on Debian/Ubuntu (as root):  apt-get install ${DEBIAN_PACKAGES.join(' ')}
or set CARGO and RUSTC to a cargo and rustc that have the ${WASM_TARGET} standard library.`;

/**
 * The toolchain to build with, installing Debian's when none is found and this process may.
 * Exits with instructions when there is none.
 */
export function resolveToolchain() {
  let toolchain = findToolchain();
  if (toolchain === null && installDebianToolchain()) toolchain = findToolchain();
  if (toolchain === null) {
    console.error(HELP);
    process.exit(1);
  }
  const env = { ...process.env, RUSTC: toolchain.rustc, CARGO: toolchain.cargo };
  // Doc tests must be compiled by the rustdoc of the same toolchain as the crates they use.
  if (toolchain.rustdoc !== undefined && existsSync(toolchain.rustdoc)) env.RUSTDOC = toolchain.rustdoc;
  const config = [];
  // Debian's packaged crate sources serve any toolchain, and need no network: use them whenever
  // they hold what the crates depend on.
  if (hasDebianCrates()) {
    config.push(
      '--config', 'source.crates-io.replace-with="debian-packages"',
      '--config', `source.debian-packages.directory="${DEBIAN_REGISTRY}"`,
    );
  }
  const version = execFileSync(toolchain.rustc, ['--version'], { encoding: 'utf8' }).trim();
  return { ...toolchain, env, config, version };
}
