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
      return runDedup(command.options, process);
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
