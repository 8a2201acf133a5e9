import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@fray/source'] },
  ssr: { resolve: { conditions: ['@fray/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // real servers, real sockets and a real database per file: one file at a time on 2 cores
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
