// Generates the Prisma client into src/generated (never committed) without any download:
// `prisma generate` only checks that a schema-engine binary exists and never runs it, so any
// executable will do (this Node binary). Runs on `npm install` (root postinstall) and before build.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..');
const schemaPath = path.resolve(pkgDir, '../../prisma/schema.prisma');
const clientPath = path.join(pkgDir, 'src/generated/prisma/client.ts');

// --if-missing: skip when the client exists and is newer than the schema (pretest, pretypecheck)
if (process.argv.includes('--if-missing')) {
  const mtime = (p) => {
    try {
      return statSync(p).mtimeMs;
    } catch {
      return -1;
    }
  };
  if (mtime(clientPath) >= mtime(schemaPath)) process.exit(0);
}

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const cli = path.join(path.dirname(fileURLToPath(import.meta.resolve('prisma/package.json'))), 'build', 'index.js');
const result = spawnSync(process.execPath, [cli, 'generate', '--schema', schemaPath], {
  cwd: pkgDir,
  env,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
