import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@fray/source'] },
  ssr: { resolve: { conditions: ['@fray/source'] } },
  // the CLI tests spawn the verifier as a process: 5 s (vitest's default) was not enough on a busy machine
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
