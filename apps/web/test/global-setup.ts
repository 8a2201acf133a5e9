import { resolve } from 'node:path';
import { build } from 'vite';

/** The browser tests need the built app (dist/public): build it once before any test file. */
export default async function setup(): Promise<void> {
  const root = resolve(import.meta.dirname, '..');
  const cwd = process.cwd();
  process.chdir(root);
  try {
    await build({ configFile: resolve(root, 'vite.config.ts'), logLevel: 'warn', build: { sourcemap: false } });
  } finally {
    process.chdir(cwd);
  }
}
