import { defineConfig } from 'vitest/config';

// One test file at a time: each opens its own database (a PGlite instance or a Postgres schema),
// and the machine is shared. Generous timeouts: PGlite starts in seconds on a loaded machine.
export default defineConfig({
  resolve: { conditions: ['@fray/source'] },
  ssr: { resolve: { conditions: ['@fray/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
