import { ensureBuilt } from '../plugin/index.js';

/** The browser tests need the built app (dist/public): build it (when stale) before any test file. */
export default async function setup(): Promise<void> {
  await ensureBuilt({ force: true });
}
