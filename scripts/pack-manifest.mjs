// The manifest users install carries nothing of the development setup: `npm pack` and
// `npm publish` run `prepack`, which sets package.json aside and writes it without `scripts`
// and `devDependencies` (a `prepare` there would ask every git install to build with a
// toolchain the package does not ship), and `postpack`, which puts it back. Both replace the
// file in one rename, so a reader sees one version or the other, never half of one.
//
//   node scripts/pack-manifest.mjs strip | restore

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const aside = join(root, '.package.json.development');

const mode = process.argv[2];
if (mode === 'strip') {
  if (existsSync(aside)) {
    console.error(`simhash-wasm: ${aside} exists: a pack was interrupted; run \`node scripts/pack-manifest.mjs restore\` first`);
    process.exit(1);
  }
  const text = readFileSync(manifest, 'utf8');
  const { scripts: _scripts, devDependencies: _devDependencies, ...published } = JSON.parse(text);
  writeFileSync(aside, text);
  writeFileSync(`${manifest}.tmp`, `${JSON.stringify(published, null, 2)}\n`);
  renameSync(`${manifest}.tmp`, manifest);
} else if (mode === 'restore') {
  if (existsSync(aside)) renameSync(aside, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip | restore');
  process.exit(2);
}
