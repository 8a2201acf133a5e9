import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@fray/source'] },
  ssr: { resolve: { conditions: ['@fray/source'] } },
  // fast unit tests only: the benchmarks themselves run with `npm run bench`, never under `npm test`
  test: { include: ['test/**/*.test.ts'] },
});
