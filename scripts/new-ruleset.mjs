#!/usr/bin/env node
/**
 * `npm run new-ruleset <id>`: scaffold packages/rulesets/src/<id>/ in the layout of
 * docs/rulesets/authoring.md, with its registry line, a conformance test and a docs stub.
 * `--root <dir>` scaffolds into another copy of the repository (the script's test uses it).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docFile, rulesetFiles, testFile } from './new-ruleset/templates.mjs';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? args.splice(rootAt, 2)[1] : join(dirname(fileURLToPath(import.meta.url)), '..');
const id = args[0];

function fail(message) {
  console.error(`new-ruleset: ${message}`);
  process.exit(1);
}

if (!id) fail('give the new ruleset an id, e.g. `npm run new-ruleset my-game`.');
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(id) || id.length > 32) {
  fail(
    `"${id}" is not a ruleset id: lower-case letters and digits in words joined by single dashes (e.g. "my-game"), at most 32 characters.`,
  );
}
const src = join(root, 'packages/rulesets/src');
const registryPath = join(src, 'registry.ts');
const registry = readFileSync(registryPath, 'utf8');
if (existsSync(join(src, id)) || new RegExp(`['"]?${id}['"]?:`).test(registry))
  fail(`the ruleset id "${id}" is taken (packages/rulesets/src/${id} or a registry line exists).`);

const words = id.split('-');
const Name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
const camel = Name[0].toLowerCase() + Name.slice(1);
for (const [file, text] of Object.entries(rulesetFiles(id, Name, camel))) {
  const path = join(src, id, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
const withImport = registry.replace(/(import [^\n]+\n)(?![\s\S]*import )/, `$1import { ${camel} } from './${id}/index.js';\n`);
const key = /^[a-z][a-zA-Z0-9]*$/.test(id) && id === camel ? id : `'${id}': ${camel}`;
writeFileSync(registryPath, withImport.replace(/\n};\s*$/, `\n  ${key},\n};\n`));
mkdirSync(join(root, 'packages/rulesets/test/conformance'), { recursive: true });
writeFileSync(join(root, 'packages/rulesets/test/conformance', `${id}.test.ts`), testFile(id, camel));
mkdirSync(join(root, 'docs/rulesets'), { recursive: true });
writeFileSync(join(root, 'docs/rulesets', `${id}.md`), docFile(id, Name));
console.log(`new-ruleset: packages/rulesets/src/${id}/ (the layout), its line in registry.ts, test/conformance/${id}.test.ts, docs/rulesets/${id}.md.
Next: npx vitest run test/conformance/${id}.test.ts in packages/rulesets, then write the rules (docs/rulesets/authoring.md).`);
