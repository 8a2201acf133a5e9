import { openStore as open } from '@fray/store';
import type { Logger } from 'pino';
import type { ServerStore } from './store.js';

/**
 * Open `@fray/store`: real Postgres when `databaseUrl` is set, the embedded PGlite under
 * `dataDir` otherwise (migrations applied at start).
 */
export async function openStore(opts: { databaseUrl?: string | undefined; dataDir?: string; logger?: Logger }): Promise<ServerStore> {
  return open({
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
  });
}
