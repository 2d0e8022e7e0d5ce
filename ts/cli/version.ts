/** The package's version, for `--version`. */

import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The version in this package's package.json, found by walking up from the running script.
 * The script is always the CLI (an npm bin link resolves to it); walking up rather than a fixed
 * `../..` works from both dist/esm and dist/cjs, whose package.json files carry no version.
 */
export function packageVersion(script: string = process.argv[1] ?? ''): string {
  let directory = dirname(realpathSync(script));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'simhash-wasm' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // No package.json here, or not ours: keep walking up.
    }
    const parent = dirname(directory);
    if (parent === directory) return 'unknown';
    directory = parent;
  }
}
