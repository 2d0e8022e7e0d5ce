#!/usr/bin/env node
// The consumer matrix: the packed tarball installed into throwaway projects and used as a user
// would, from TypeScript in every module resolution mode (lib es2022, no DOM, skipLibCheck off,
// @types/node 20 and current), checked by attw and publint, and run by Node 20/22/24, Bun, Deno
// and workerd (an old and a current compatibility date). The runtimes come from the binaries
// npm packages carry, installed once into a cache folder.
//
//   node scripts/test-matrix.mjs [--tarball FILE] [--only SUBSTRING] [--jobs N]
//
// --tarball tests that tarball instead of `npm pack` of this checkout (e.g. a previous release);
// --only runs the cases whose name contains SUBSTRING. The cache is
// ~/.cache/simhash-wasm-matrix (or $SIMHASH_MATRIX_CACHE). Ends with the line
// `N passed, N failed` and exits non-zero when a case failed.

import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'test', 'matrix');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const { values: flags } = parseArgs({
  options: {
    tarball: { type: 'string' },
    only: { type: 'string' },
    jobs: { type: 'string', default: '2' },
  },
});
const jobs = Number(flags.jobs);
if (!Number.isInteger(jobs) || jobs < 1) throw new RangeError(`--jobs must be a positive integer, got ${flags.jobs}`);

// Outside the checkout, so that a fresh clone on the same machine (as CI makes) finds it.
const cache = resolve(process.env.SIMHASH_MATRIX_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'simhash-wasm-matrix'));
const work = mkdtempSync(join(tmpdir(), 'simhash-wasm-matrix-'));
const children = new Set();

function cleanUp() {
  for (const child of children) killGroup(child);
  rmSync(work, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs a command in its own process group, killed whole at the time limit (runtimes start
 * helper processes of their own). Resolves with its exit code and output; never rejects.
 */
function run(command, args, { cwd, timeout = 120_000, env = process.env } = {}) {
  return new Promise((done) => {
    let child;
    try {
      child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      done({ code: -1, out: `cannot start ${command}: ${error.message}` });
      return;
    }
    children.add(child);
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeout);
    child.on('error', (error) => {
      out += `cannot start ${command}: ${error.message}\n`;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (timedOut) out += `\n(killed after ${timeout / 1000} s)`;
      done({ code: code ?? (signal ? 128 : -1), out });
    });
  });
}

/** Runs a command and throws its output unless it exits 0. */
async function must(command, args, options) {
  const { code, out } = await run(command, args, options);
  if (code !== 0) throw new Error(`${[command, ...args].join(' ')} exited ${code}:\n${out.trim()}`);
  return out;
}

// --- What the cases need: the tarball, consumer projects, the runtime binaries -------------

const npmQuiet = ['--no-audit', '--no-fund', '--loglevel=error'];

async function packTarball() {
  if (flags.tarball !== undefined) {
    const source = resolve(flags.tarball);
    if (!existsSync(source)) throw new Error(`--tarball ${source}: no such file`);
    copyFileSync(source, join(work, 'simhash-wasm.tgz'));
  } else {
    const packDir = join(work, 'pack');
    mkdirSync(packDir);
    await must(npm, ['pack', '--silent', '--pack-destination', packDir], { cwd: root, timeout: 600_000 });
    const [name] = readdirSync(packDir).filter((file) => file.endsWith('.tgz'));
    if (name === undefined) throw new Error('npm pack wrote no tarball');
    copyFileSync(join(packDir, name), join(work, 'simhash-wasm.tgz'));
  }
  return join(work, 'simhash-wasm.tgz');
}

/**
 * An empty project with the tarball and `@types/node@typesNode` installed, and the fixtures.
 * npm's own cache keeps the packages; --prefer-offline skips asking the registry again, unless
 * the cache is missing what a tag names.
 */
async function consumer(name, tarball, typesNode) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `matrix-${name}`, private: true, type: 'module' }));
  const install = (...flags) => must(npm, ['install', ...npmQuiet, ...flags, '--no-package-lock', tarball, `@types/node@${typesNode}`], { cwd: dir, timeout: 300_000 });
  // A dist-tag can name a version that the cached metadata does not list yet (a release minutes
  // old): then the registry is asked again.
  await install('--prefer-offline').catch(() => install());
  cpSync(fixtures, dir, { recursive: true });
  writeFileSync(join(dir, 'workerd', 'docs-example.mjs'), docsWorkerdExample());
  return dir;
}

/** The Cloudflare Workers example of docs/browser.md, the one block labelled `js workerd`. */
function docsWorkerdExample() {
  const blocks = [...readFileSync(join(root, 'docs', 'browser.md'), 'utf8').matchAll(/^```js workerd\n([^]*?)^```/gm)];
  if (blocks.length !== 1) throw new Error(`docs/browser.md: want one \`js workerd\` block, found ${blocks.length}`);
  return blocks[0][1];
}

const platformName = `${process.platform}-${process.arch}`;
/** The npm packages carrying the runtimes, by major version, and where each keeps its binary. */
const RUNTIME_PACKAGES = {
  node22: `npm:node-${platformName}@^22`,
  node24: `npm:node-${platformName}@^24`,
  bun: '^1',
  deno: '^2',
  workerd: '^1',
  // The newest TypeScript (the native compiler from 7 on), beside this checkout's own.
  typescript: 'latest',
};
const RUNTIME_BINARIES = {
  node22: ['node22/bin/node'],
  node24: ['node24/bin/node'],
  // The wrappers' install scripts move the platform binary into place; where scripts did not
  // run, it is still in the platform package.
  bun: ['bun/bin/bun.exe', `@oven/bun-${platformName}/bin/bun`, `@oven/bun-${platformName}-baseline/bin/bun`],
  deno: ['deno/deno', `@deno/${platformName}-glibc/deno`, `@deno/${process.platform}-${process.arch}/deno`],
  workerd: [`@cloudflare/workerd-${process.platform}-${process.arch === 'x64' ? '64' : process.arch}/bin/workerd`],
  typescript: ['typescript/bin/tsc'],
};

/**
 * Installs the runtime packages into the cache once (again only when RUNTIME_PACKAGES
 * changes), and returns each runtime's binary or the reason it has none.
 */
async function runtimes() {
  const dir = join(cache, 'runtimes');
  const manifest = JSON.stringify({ name: 'simhash-wasm-matrix-runtimes', private: true, dependencies: RUNTIME_PACKAGES }, null, 2);
  const stamp = join(dir, 'installed.json');
  let failure;
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== manifest) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), manifest);
    const { code, out } = await run(npm, ['install', ...npmQuiet, '--prefer-offline'], { cwd: dir, timeout: 900_000 });
    if (code === 0) writeFileSync(stamp, manifest);
    else failure = `npm install of ${JSON.stringify(RUNTIME_PACKAGES)} in ${dir} exited ${code}: ${out.trim()}`;
  }
  const found = {};
  const versions = [];
  for (const [name, candidates] of Object.entries(RUNTIME_BINARIES)) {
    const binary = failure === undefined ? candidates.map((path) => join(dir, 'node_modules', path)).find((path) => existsSync(path)) : undefined;
    if (binary !== undefined) {
      found[name] = { binary };
      versions.push(`${name} ${JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version}`);
    } else {
      found[name] = {
        reason: failure ?? `${name}: npm package ${name}@${RUNTIME_PACKAGES[name]} installed in ${dir} has no binary for ${platformName} at ${candidates.join(' or ')}`,
      };
    }
  }
  found.node20 = process.versions.node.startsWith('20.')
    ? { binary: process.execPath }
    : { reason: `Node 20: this script runs on Node ${process.version}; run it with Node 20 (the CI machine's)` };
  console.log(`runtimes: node20 ${process.versions.node}, ${versions.join(', ')}`);
  return found;
}

// --- The cases ------------------------------------------------------------------------------

const TS_COMMON = {
  target: 'es2022',
  lib: ['es2022'],
  types: ['node'],
  strict: true,
  skipLibCheck: false,
  noEmit: true,
};
/**
 * TypeScript consumers, one program per moduleResolution: the ESM fixture (.mts) and the
 * CommonJS one (.cts) share a program where the mode decides their format by extension.
 */
const TS_CASES = [
  { name: 'node16 esm+cjs', files: ['types/esm.mts', 'types/cjs.cts'], options: { module: 'node16', moduleResolution: 'node16' } },
  { name: 'nodenext esm+cjs', files: ['types/esm.mts', 'types/cjs.cts'], options: { module: 'nodenext', moduleResolution: 'nodenext' } },
  // `module: preserve` keeps `import x = require()` a require, resolved with the require condition.
  { name: 'bundler esm+cjs', files: ['types/esm.mts', 'types/cjs.cts'], options: { module: 'preserve', moduleResolution: 'bundler' } },
  {
    name: 'node10 cjs',
    files: ['types/cjs.cts', 'types/wasm-node10.ts'],
    options: { module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true },
  },
];
/** The @types/node versions the TypeScript cases run with: the oldest supported and the newest. */
const TYPES_NODE = { 'types 20': '20', 'types current': 'latest' };

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function typeCase(dir, tsCase, compiler) {
  return async () => {
    if (compiler.binary === undefined) throw new Error(compiler.reason);
    const config = `tsconfig.${compiler.label}.${tsCase.name.replace(/ /g, '-')}.json`;
    writeFileSync(join(dir, config), JSON.stringify({ compilerOptions: { ...TS_COMMON, ...tsCase.options }, files: tsCase.files }, null, 2));
    await must(process.execPath, [compiler.binary, '-p', config], { cwd: dir });
  };
}

/** Cases the Node-like runtimes run through test/matrix/run.mjs. */
/** Entry points that are ESM only on purpose, or not JavaScript at all. */
const ESM_ONLY = ['./slim', './parallel', './simhash.wasm'];
const NODE_CASES = ['inline', 'pure', 'slim', 'file-url', 'parallel', 'cjs'];
const OTHER_CASES = ['inline', 'pure', 'slim', 'file-url', 'parallel'];

function runtimeCase(runtime, dir, args, expect) {
  return async () => {
    if (runtime.binary === undefined) throw new Error(runtime.reason);
    const out = await must(runtime.binary, args, { cwd: dir, timeout: 90_000, env: runtimeEnv() });
    if (!out.includes(expect)) throw new Error(`printed no "${expect}":\n${out.trim()}`);
  };
}

function runtimeEnv() {
  return {
    ...process.env,
    DENO_DIR: join(cache, 'deno-dir'),
    DENO_NO_UPDATE_CHECK: '1',
    BUN_INSTALL_CACHE_DIR: join(cache, 'bun-cache'),
    NO_COLOR: '1',
  };
}

/**
 * Bundles a workerd fixture as Wrangler would (esbuild, the workerd conditions, .wasm imports
 * kept as CompiledWasm modules) and writes a config that runs its `test` handler.
 */
async function workerdProject(dir, fixture, compatibilityDate) {
  const { build } = await import('esbuild');
  const out = join(dir, `workerd-${fixture}-${compatibilityDate}`);
  mkdirSync(out);
  const wasmModules = [];
  await build({
    entryPoints: [join(dir, 'workerd', `${fixture}.mjs`)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    outfile: join(out, 'worker.js'),
    // What the fixture checks of the runtime, so that a workerd that changed cannot make the
    // old date's case test nothing.
    define: { MATRIX_HAS_FINALIZATION_REGISTRY: String(compatibilityDate >= FINALIZATION_REGISTRY_SINCE) },
    logLevel: 'silent',
    plugins: [
      {
        name: 'compiled-wasm',
        setup(b) {
          b.onResolve({ filter: /\.wasm$/ }, async (args) => {
            if (args.pluginData === 'inner') return undefined;
            const resolved = await b.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir, pluginData: 'inner' });
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            const name = `module-${wasmModules.length}.wasm`;
            copyFileSync(resolved.path, join(out, name));
            wasmModules.push(name);
            return { path: `./${name}`, external: true };
          });
        },
      },
    ],
  });
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    ...wasmModules.map((name) => `(name = "${name}", wasm = embed "${name}")`),
  ];
  writeFileSync(
    join(out, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const unitTests :Workerd.Config = (
  services = [ (name = "smoke", worker = (
    modules = [ ${modules.join(', ')} ],
    compatibilityDate = "${compatibilityDate}",
  )) ],
);
`,
  );
  return out;
}

function workerdCase(runtime, dir, fixture, compatibilityDate) {
  return async () => {
    if (runtime.binary === undefined) throw new Error(runtime.reason);
    const project = await workerdProject(dir, fixture, compatibilityDate);
    const { code, out } = await run(runtime.binary, ['test', 'config.capnp'], { cwd: project, timeout: 90_000 });
    if (code !== 0 || !out.includes('[ PASS ] smoke')) {
      // workerd's log lines around the failure; the uncaught exception says what went wrong.
      const lines = out.split('\n').filter((line) => /exception|Error|FAIL|error/.test(line));
      throw new Error(`workerd test exited ${code}:\n${(lines.length > 0 ? lines : out.split('\n')).slice(0, 12).join('\n')}`);
    }
  };
}

/** The compatibility date a workerd release supports last: its version is 1.YYYYMMDD.n. */
function currentCompatibilityDate(workerdBinaryPath) {
  const pkg = JSON.parse(readFileSync(join(dirname(workerdBinaryPath), '..', '..', '..', 'workerd', 'package.json'), 'utf8'));
  const [, date] = /^1\.(\d{8})\./.exec(pkg.version) ?? [];
  if (date === undefined) throw new Error(`workerd ${pkg.version}: cannot read its release date`);
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
}
/** Before this compatibility date workerd has no FinalizationRegistry (issue #11). */
const FINALIZATION_REGISTRY_SINCE = '2025-05-05';
const OLD_COMPATIBILITY_DATE = '2024-01-01';

const attw = join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
const publint = join(root, 'node_modules', 'publint', 'src', 'cli.js');

// --- Running them ---------------------------------------------------------------------------

const results = [];

async function pool(cases) {
  const queue = cases.filter(([name]) => flags.only === undefined || name.includes(flags.only));
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [name, body] = next;
      const started = performance.now();
      let error;
      try {
        await body();
      } catch (e) {
        error = e;
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      results.push({ name, error });
      if (error === undefined) console.log(`ok   ${name} (${seconds} s)`);
      else console.log(`FAIL ${name} (${seconds} s)\n${String(error.message ?? error).replace(/^/gm, '     ')}`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
}

async function main() {
  const started = performance.now();
  const [tarball, found] = await Promise.all([packTarball(), runtimes()]);
  const projects = Object.fromEntries(
    await Promise.all(Object.entries(TYPES_NODE).map(async ([label, version]) => [label, await consumer(label.replace(/ /g, '-'), tarball, version)])),
  );
  console.log(`set up: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const app = projects['types 20'];

  const cases = [];
  cases.push(['attw', () => must(process.execPath, [attw, tarball, '--no-color', '--exclude-entrypoints', ...ESM_ONLY], { cwd: work })]);
  // simhash-wasm/slim and simhash-wasm/parallel are ESM only by design (for bundlers and
  // workers; the pool finds its worker script through import.meta.url), and
  // simhash-wasm/simhash.wasm is no JavaScript module: attw's warning that `require` finds ESM
  // there is expected, and only that rule is ignored for those.
  cases.push([
    'attw esm-only entries',
    () => must(process.execPath, [attw, tarball, '--no-color', '--entrypoints', ...ESM_ONLY, '--ignore-rules', 'cjs-resolves-to-esm'], { cwd: work }),
  ]);
  cases.push(['publint', () => must(process.execPath, [publint, 'run', tarball, '--strict'], { cwd: work })]);
  const ownTsc = { binary: tsc, label: 'own' };
  for (const [label, dir] of Object.entries(projects)) {
    for (const tsCase of TS_CASES) cases.push([`tsc ${tsCase.name} ${label}`, typeCase(dir, tsCase, ownTsc)]);
  }
  // The newest TypeScript has no node10 resolution any more (removed in 7.0).
  const latestTsc = { ...found.typescript, label: 'latest' };
  const latestVersion = latestTsc.binary === undefined ? 'latest' : JSON.parse(readFileSync(join(dirname(latestTsc.binary), '..', 'package.json'), 'utf8')).version;
  for (const tsCase of TS_CASES.filter((c) => !c.name.startsWith('node10'))) {
    cases.push([`tsc@${latestVersion} ${tsCase.name} types current`, typeCase(projects['types current'], tsCase, latestTsc)]);
  }
  for (const name of ['node20', 'node22', 'node24']) {
    for (const c of NODE_CASES) cases.push([`${name} ${c}`, runtimeCase(found[name], app, ['run.mjs', c], `ok ${c}`)]);
  }
  for (const c of OTHER_CASES) cases.push([`bun ${c}`, runtimeCase(found.bun, app, ['run.mjs', c], `ok ${c}`)]);
  for (const c of OTHER_CASES) {
    cases.push([`deno ${c}`, runtimeCase(found.deno, app, ['run', '--allow-read', '--allow-env', 'run.mjs', c], `ok ${c}`)]);
  }
  const dates = [OLD_COMPATIBILITY_DATE];
  if (found.workerd.binary !== undefined) dates.push(currentCompatibilityDate(found.workerd.binary));
  for (const date of dates) {
    for (const fixture of ['inline', 'slim', 'pure', 'docs']) {
      cases.push([`workerd ${date} ${fixture}`, workerdCase(found.workerd, app, fixture, date)]);
    }
  }
  if (found.workerd.binary === undefined) cases.push(['workerd current compatibility date', () => Promise.reject(new Error(found.workerd.reason))]);

  await pool(cases);
  const failed = results.filter((r) => r.error !== undefined).length;
  console.log(`matrix: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

let status = 1;
try {
  status = await main();
} catch (error) {
  console.error(`test-matrix: ${error.stack ?? error}`);
  console.log(`${results.filter((r) => r.error === undefined).length} passed, ${results.filter((r) => r.error !== undefined).length + 1} failed`);
} finally {
  cleanUp();
}
process.exit(status);
