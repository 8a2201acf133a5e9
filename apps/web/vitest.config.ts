import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@fray/source'] },
  ssr: { resolve: { conditions: ['@fray/source'] } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
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
