import type { Logger } from 'pino';
import type { ServerStore } from './store.js';

/**
 * Open `@fray/store`: real Postgres when `databaseUrl` is set, the embedded PGlite under
 * `dataDir` otherwise (migrations applied at start).
 */
export async function openStore(opts: { databaseUrl?: string | undefined; dataDir?: string; logger?: Logger }): Promise<ServerStore> {
  const name = '@fray/store';
  const mod = (await import(name)) as { openStore(o: { databaseUrl?: string; dataDir?: string; logger?: unknown }): Promise<ServerStore> };
  return mod.openStore({
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
  });
}
