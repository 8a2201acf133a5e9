// Bundle a bench with esbuild (engine and rulesets from their TypeScript sources, transpiled as
// the build does; zod, mutative and pure-rand left to Node's resolution) and run it with
// NODE_ENV=production, so every dependency loads its production build, as on the server.
// Usage: node bench/run.mjs bench/all.bench.ts
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const entry = resolve(process.argv[2] ?? join(here, 'all.bench.ts'));
const outdir = join(here, '..', 'node_modules', '.cache', 'fray-bench');
mkdirSync(outdir, { recursive: true });
const outfile = join(outdir, basename(entry).replace(/\.ts$/, '.mjs'));
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@fray/source'],
  external: ['zod', 'mutative', 'pure-rand', 'immer'],
  sourcemap: true,
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, ['--enable-source-maps', ...process.execArgv, outfile, ...process.argv.slice(3)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(r.status ?? 1);
