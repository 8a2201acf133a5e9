#!/usr/bin/env node
// The `fray-verify` command: runs the built CLI (src/cli.ts). Kept as plain JS so that npm links
// it on install, before the workspace is built (`npm run build`, or `npm run verify-dice` at the root).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'fray-verify: not built yet. Run `npm run build` (or `npm run verify-dice -- <log.json>`) at the repository root.\n',
  );
  process.exit(2);
}
await import(cli.href);
