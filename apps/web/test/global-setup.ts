import { ensureBuilt } from '../plugin/index.js';

/**
 * The browser tests need the built app (dist/public): build it (when stale) before any test file.
 * As production builds it: vitest sets NODE_ENV=test, which would give React's development build
 * (half again as big, and slower) and make the size and first-paint tests measure the wrong app.
 */
/** @public vitest loads it (vitest.config.ts globalSetup) */
export default async function setup(): Promise<void> {
  const prev = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await ensureBuilt({ force: true });
  } finally {
    process.env.NODE_ENV = prev;
  }
}
