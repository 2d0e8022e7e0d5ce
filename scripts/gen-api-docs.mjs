// Writes docs/api.md, the API reference, from the entries' exports and their JSDoc, so that the
// reference cannot drift from the code. `--check` writes nothing and fails when docs/api.md is
// not what this script would write, or when an export has no doc comment.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(root, 'docs', 'api.md');

const ENTRIES = [
  {
    name: 'simhash-wasm',
    file: 'ts/index.ts',
    about:
      'The main entry, computed in WebAssembly. `simhash-wasm/pure` exports the same names, computed in ' +
      'TypeScript with identical results (its `init` and `initSync` resolve at once), and `simhash-wasm/slim` ' +
      'the same without the inlined module (`init(source)` must be given it).',
  },
  {
    name: 'simhash-wasm/parallel',
    file: 'ts/parallel/index.ts',
    about: 'A pool of workers running the batch calls, and indexes sharded over it (ESM only). See [parallel.md](parallel.md).',
  },
  {
    name: 'simhash-wasm/redis',
    file: 'ts/redis/index.ts',
    about: 'Indexes kept in Redis or Redis Cluster through `ioredis` and shared by every process that opens them: `RedisSimHashIndex`, `RedisTextIndex` (the default rule) and `RedisMinHashIndex`. See [redis.md](redis.md).',
  },
];

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram(
  ENTRIES.map((entry) => join(root, entry.file)).concat(join(root, 'ts/pure/index.ts')),
  config.options,
);
const checker = program.getTypeChecker();
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;
const undocumented = [];

const text = (parts) => ts.displayPartsToString(parts).trim();

function exportsOf(file) {
  const source = program.getSourceFile(join(root, file));
  const moduleSymbol = checker.getSymbolAtLocation(source);
  return checker.getExportsOfModule(moduleSymbol).map((symbol) => ({
    name: symbol.name,
    symbol: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
  }));
}

/** The tags of a doc comment, as Markdown lines. */
function tagLines(tags) {
  const lines = [];
  for (const tag of tags) {
    const body = text(tag.text ?? []);
    if (tag.name === 'param') {
      const [name, ...rest] = body.split(/\s+/);
      lines.push(`- \`${name}\`${rest.length > 0 ? ` — ${rest.join(' ').replace(/^-\s*/, '')}` : ''}`);
    } else if (tag.name === 'returns') lines.push(`- Returns: ${body}`);
    else if (tag.name === 'throws') lines.push(`- Throws: ${body}`);
    else if (tag.name === 'defaultValue' || tag.name === 'default') lines.push(`- Default: ${body}`);
    else if (tag.name === 'deprecated') lines.push(`- Deprecated: ${body}`);
  }
  return lines;
}

/** The documentation of a symbol or signature: its text, then its tags. */
function docOf(owner, where) {
  const summary = text(owner.getDocumentationComment(checker));
  if (summary === '' && where !== null) undocumented.push(where);
  const tags = tagLines(owner.getJsDocTags(checker));
  return [summary, ...(tags.length > 0 ? ['', ...tags] : [])].join('\n').trim();
}

const code = (lines) => ['```ts', ...lines, '```'].join('\n');

/** A declaration's own text, without its leading doc comment. */
function declarationText(declaration) {
  const source = declaration.getSourceFile();
  const full = declaration.getText(source);
  return full.replace(/^export\s+(declare\s+)?/, '');
}

function isPublicMember(symbol) {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (declaration === undefined || symbol.name === 'prototype') return false;
  // What Error and other built-ins declare is documented with them.
  if (declaration.getSourceFile().fileName.includes('/node_modules/')) return false;
  if (symbol.getJsDocTags(checker).some((tag) => tag.name === 'internal')) return false;
  if (symbol.name.startsWith('#') || symbol.name.startsWith('__')) return false;
  const modifiers = ts.getCombinedModifierFlags(declaration);
  return (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0;
}

function memberLines(type, prefix, where) {
  const lines = [];
  const members = [];
  for (const property of checker.getPropertiesOfType(type)) {
    if (!isPublicMember(property)) continue;
    const declaration = property.valueDeclaration ?? property.declarations[0];
    const memberType = checker.getTypeOfSymbolAtLocation(property, declaration);
    const signatures = memberType.getCallSignatures();
    const name = property.name.startsWith('__@') ? `[Symbol.${property.name.slice(3).replace(/@\d+$/, '')}]` : property.name;
    if (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration)) {
      for (const signature of signatures) lines.push(`  ${prefix}${name}${checker.signatureToString(signature, undefined, FLAGS)};`);
    } else {
      const readonly = ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly || (ts.isGetAccessor(declaration) && !property.declarations.some(ts.isSetAccessor));
      lines.push(`  ${prefix}${readonly ? 'readonly ' : ''}${name}: ${checker.typeToString(memberType, undefined, FLAGS)};`);
    }
    const doc = docOf(property, `${where}.${name}`);
    members.push({ name: `${prefix.includes('static') ? '' : '.'}${name}`, doc });
  }
  return { lines, members };
}

/** The doc comment of one declaration (a name that is both a value and a type has two). */
function declarationDoc(declaration, where) {
  const host = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const jsDoc = ts.getJSDocCommentsAndTags(host).filter(ts.isJSDoc).at(-1);
  const summary = jsDoc === undefined ? '' : (ts.getTextOfJSDocComment(jsDoc.comment) ?? '').trim();
  if (summary === '') undocumented.push(where);
  return summary;
}

/** A class, or a constant with construct signatures (a class whose instances are an interface). */
function renderClass(name, symbol) {
  const declaration = symbol.valueDeclaration ?? symbol.declarations[0];
  const staticType = checker.getTypeOfSymbolAtLocation(symbol, declaration);
  // Constructors that are private or internal are not the way to make one: say which is.
  const isPublicConstructor = (signature) =>
    signature.declaration === undefined ||
    ((ts.getCombinedModifierFlags(signature.declaration) & ts.ModifierFlags.Private) === 0 &&
      !signature.getJsDocTags().some((tag) => tag.name === 'internal'));
  const allConstructs = staticType.getConstructSignatures();
  const constructs = allConstructs.filter(isPublicConstructor);
  const instanceType = allConstructs.length > 0 ? allConstructs[0].getReturnType() : checker.getDeclaredTypeOfSymbol(symbol);
  const lines = [`class ${name} {`];
  if (constructs.length === 0) lines.push('  // no public constructor');
  for (const signature of constructs) {
    const params = checker.signatureToString(signature, undefined, FLAGS).replace(/: [^:]+$/, '').replace(/^new /, '');
    lines.push(`  constructor${params};`);
  }
  const statics = memberLines(staticType, 'static ', name);
  const instance = memberLines(instanceType, '', name);
  lines.push(...statics.lines.filter((line) => !line.includes(' prototype:')), ...instance.lines, '}');
  const doc = symbol.flags & ts.SymbolFlags.Class ? docOf(symbol, name) : declarationDoc(declaration, name);
  const parts = [`### ${name}`, '', code(lines), '', doc];
  if (constructs.length > 0) {
    const constructorDoc = text(constructs[0].getDocumentationComment(checker));
    const tags = tagLines(constructs[0].getJsDocTags());
    if (constructorDoc !== '' || tags.length > 0) parts.push('', `#### new ${name}()`, '', [constructorDoc, '', ...tags].join('\n').trim());
  }
  for (const member of [...statics.members.filter((m) => m.name !== 'prototype'), ...instance.members]) {
    if (member.doc !== '') parts.push('', `#### ${name}${member.name.startsWith('.') ? member.name : `.${member.name}`}`, '', member.doc);
  }
  return parts.join('\n');
}

function render(name, symbol) {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (symbol.flags & ts.SymbolFlags.Class) return renderClass(name, symbol);
  if (symbol.flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    const signatures = type.getCallSignatures();
    const blocks = signatures.map((signature) => `function ${name}${checker.signatureToString(signature, undefined, FLAGS)};`);
    // Overloads share the first one's comment unless they have their own.
    const docs = [...new Set(signatures.map((signature, k) => (k === 0 ? docOf(signature, name) : docOf(signature, null))))].filter((d) => d !== '');
    return [`### ${name}`, '', code(blocks), '', docs.join('\n\n')].join('\n');
  }
  if (symbol.flags & ts.SymbolFlags.Variable) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    if (type.getConstructSignatures().length > 0) return renderClass(name, symbol);
    const signatures = type.getCallSignatures();
    const blocks = signatures.length > 0
      ? signatures.map((signature) => `function ${name}${checker.signatureToString(signature, undefined, FLAGS)};`)
      : [`const ${name}: ${checker.typeToString(type, undefined, FLAGS)};`];
    return [`### ${name}`, '', code(blocks), '', docOf(symbol, name)].join('\n');
  }
  // Types: their declarations as written, member comments included (they state the defaults).
  const declarations = (symbol.declarations ?? []).filter((d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d));
  return [`### ${name}`, '', code(declarations.map(declarationText)), '', docOf(symbol, name)].join('\n');
}

const isValue = (symbol) => (symbol.flags & (ts.SymbolFlags.Value)) !== 0;

function entrySection(entry) {
  const exported = exportsOf(entry.file);
  const values = exported.filter((e) => isValue(e.symbol));
  const types = exported.filter((e) => !isValue(e.symbol));
  const contents = (list) => list.map((e) => `[${e.name}](#${e.name.toLowerCase()})`).join(', ');
  return [
    `## ${entry.name}`,
    '',
    entry.about,
    '',
    `Values: ${contents(values)}.`,
    '',
    `Types: ${contents(types)}.`,
    '',
    ...values.flatMap((e) => [render(e.name, e.symbol), '']),
    ...types.flatMap((e) => [render(e.name, e.symbol), '']),
  ].join('\n');
}

// The pure entry must offer what the main entry offers: code written against one runs on the other.
const main = new Set(exportsOf('ts/index.ts').map((e) => e.name));
const pure = new Set(exportsOf('ts/pure/index.ts').map((e) => e.name));
const missing = [...main].filter((name) => !pure.has(name));
const extra = [...pure].filter((name) => !main.has(name));
if (missing.length > 0 || extra.length > 0) {
  console.error(`simhash-wasm/pure differs from simhash-wasm: missing ${missing.join(', ') || 'nothing'}, extra ${extra.join(', ') || 'nothing'}`);
  process.exit(1);
}

const markdown = [
  '# API reference',
  '',
  '<!-- Generated by scripts/gen-api-docs.mjs from the JSDoc of the entries; do not edit. -->',
  '',
  'Every function checks its arguments and throws a `TypeError` (wrong kind) or a `RangeError` (right kind,',
  'broken rule) naming the argument; nothing is changed by a call that throws. An option a call does not know',
  "is a `TypeError` naming it and the option meant (`unknown option 'treshold' of MinHashLSH (did you mean",
  "'threshold'?)`), datasketch's spellings (`num_perm`) among them. 64-bit values are `bigint`s in",
  '`0 .. 2^64-1`. Where a parameter takes fingerprints or hashes (`U64Input`), a `BigUint64Array`, a',
  '`bigint[]` or a `HashArray` will do. Guides by topic are listed in the [README](../README.md#documentation).',
  '',
  ...ENTRIES.map(entrySection),
].join('\n')
  .replace(/<ArrayBufferLike>/g, '')
  .replace(/\{@link ([\w.]+)\}/g, (_, target) => `\`${target}\``)
  .replace(/- Throws: \{([\w |]+)\}/g, (_, types) => `- Throws: ${types.split(/\s*\|\s*/).map((t) => `\`${t}\``).join(' or ')}`)
  .replace(/\n{3,}/g, '\n\n')
  .trimEnd() + '\n';

if (process.argv.includes('--check')) {
  let failed = false;
  if (undocumented.length > 0) {
    console.error(`exports without a doc comment: ${[...new Set(undocumented)].join(', ')}`);
    failed = true;
  }
  if (readFileSync(output, 'utf8') !== markdown) {
    console.error('docs/api.md is not what scripts/gen-api-docs.mjs writes: run `node scripts/gen-api-docs.mjs`');
    failed = true;
  }
  process.exit(failed ? 1 : 0);
}
writeFileSync(output, markdown);
if (undocumented.length > 0) console.error(`exports without a doc comment: ${[...new Set(undocumented)].join(', ')}`);
