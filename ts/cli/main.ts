#!/usr/bin/env node
/**
 * The `simhash-wasm` command: `simhash-wasm dedup <files | directories | -> [options]`.
 * Node only, and reached only through the package's `bin`: the library entry never imports it,
 * so browser bundles never see `node:` modules.
 *
 * @packageDocumentation
 */

import { UsageError, parseCommandLine } from './args.js';
import { runDedup } from './dedup.js';
import { HELP, USAGE } from './usage.js';
import { packageVersion } from './version.js';

async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`simhash-wasm: ${error.message}\n${USAGE}\nRun 'simhash-wasm --help' for the options.\n`);
    return 2;
  }
  switch (command.kind) {
    case 'help':
      process.stdout.write(HELP);
      return 0;
    case 'version':
      process.stdout.write(`simhash-wasm ${packageVersion()}\n`);
      return 0;
    case 'dedup':
      if (command.options.redis !== undefined && !(await canImport('ioredis'))) {
        process.stderr.write('simhash-wasm: --redis needs the ioredis package, an optional peer dependency: npm install ioredis\n');
        return 2;
      }
      return runDedup(command.options, process);
  }
}

/** Whether `name` can be imported from here; errors other than its absence are thrown. */
async function canImport(name: string): Promise<boolean> {
  try {
    await import(name);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(`'${name}'`)) return false;
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`simhash-wasm: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
