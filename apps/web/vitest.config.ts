import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// The browser tests drive Debian's Chromium (`apt-get install -y chromium`; `.ci/setup` installs
// it in CI). Without it, on a developer machine, they are left out with a warning; in CI a
// missing browser is an error.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveBrowser = existsSync(chromium);
if (!haveBrowser) {
  if (process.env.CI) throw new Error(`No Chromium at ${chromium}: the browser tests cannot run (apt-get install -y chromium).`);
  console.warn(`No Chromium at ${chromium}: the browser tests in test/e2e are skipped. Install it with: apt-get install -y chromium`);
}

export default defineConfig({
  resolve: { conditions: ['@fray/source'] },
  ssr: { resolve: { conditions: ['@fray/source'] } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: haveBrowser ? ['**/node_modules/**'] : ['**/node_modules/**', 'test/e2e/**'],
    // The browser tests share one server and one Chromium per file; run files one at a time
    // (the machine has two cores).
    globalSetup: ['test/global-setup.ts'],
    fileParallelism: false,
    // one worker for every file: the server, store and browser modules load once
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
