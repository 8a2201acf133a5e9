import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@fray/source'] },
  ssr: { resolve: { conditions: ['@fray/source'] } },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
