import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { startEmbedded } from './embedded.js';
import type { EmbeddedPostgres } from './embedded.js';
import { isUnavailable, mapError } from './errors.js';
import { PrismaClient } from './generated/prisma/client.js';
import { applyMigrations } from './migrate.js';
import { PrismaStore } from './prisma-store.js';
import { StoreUnavailableError } from './types.js';

export interface StoreLogger {
  info(msg: string | object, ...rest: unknown[]): void;
  warn(msg: string | object, ...rest: unknown[]): void;
  error(msg: string | object, ...rest: unknown[]): void;
}

export interface OpenStoreOptions {
  /** postgres://… of a real Postgres; unset → the embedded PGlite */
  databaseUrl?: string;
  /** the embedded database's directory (default: $FRAY_DATA_DIR or ./.fray-data) */
  dataDir?: string;
  logger?: StoreLogger;
  /**
   * connections in the pool (default 10 on Postgres, 1 embedded: PGlite runs one query at a time
   * anyway, and pglite-socket interleaves the protocol messages of concurrent connections outside
   * a transaction, so a query split over several socket reads can meet another connection's)
   */
  poolSize?: number;
  /** give up connecting after this long (default 5000 ms) */
  connectTimeoutMs?: number;
  /** give up on a query after this long (default 30000 ms); a hung database never hangs a caller */
  queryTimeoutMs?: number;
  /** the Postgres schema holding the tables (default: the connection's, i.e. public) */
  schema?: string;
  /** where schema.prisma and migrations/ are (default: the repository's prisma/) */
  prismaDir?: string;
  /** skip applying migrations (default false) */
  skipMigrations?: boolean;
  /** runs after close (internal: test stores drop their schema) */
  onClose?: () => Promise<void>;
}

/** The data directory of the embedded database when none is given. */
export const defaultDataDir = (): string => path.resolve(process.env.FRAY_DATA_DIR || '.fray-data');

/** Describes a database URL without its password or query string (for /health and logs). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${u.protocol}//${user}${u.host}${u.pathname}`;
  } catch {
    return 'postgres (unparsable URL)';
  }
}

export function poolConfig(
  url: string,
  opts: { poolSize: number; connectTimeoutMs: number; queryTimeoutMs: number; schema?: string },
): pg.PoolConfig {
  return {
    connectionString: url,
    max: opts.poolSize,
    connectionTimeoutMillis: opts.connectTimeoutMs,
    query_timeout: opts.queryTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'fray',
    ...(opts.schema ? { options: `-c search_path="${opts.schema.replaceAll('"', '""')}"` } : {}),
  };
}

/**
 * Opens the store: starts the embedded database when there is no `databaseUrl`, applies the
 * pending migrations (idempotent), and connects the Prisma client. Rejects with
 * StoreUnavailableError when the database cannot be reached within the connect timeout.
 */
export async function openStore(opts: OpenStoreOptions = {}): Promise<PrismaStore> {
  const logger = opts.logger;
  const { url, description, where, embedded } = await locate(opts);
  const config = poolConfig(url, {
    poolSize: opts.poolSize ?? (embedded ? 1 : 10),
    connectTimeoutMs: opts.connectTimeoutMs ?? 5_000,
    queryTimeoutMs: opts.queryTimeoutMs ?? 30_000,
    ...(opts.schema ? { schema: opts.schema } : {}),
  });
  const { prisma, pool } = await connect(opts, config, where).catch(async (error: unknown) => {
    await opts.onClose?.().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  });
  logger?.info({ database: where }, 'store open');
  return new PrismaStore(prisma, {
    pool,
    kind: embedded ? 'embedded' : 'postgres',
    description,
    url,
    ...(opts.schema ? { schema: opts.schema } : {}),
    onClose: async () => {
      try {
        await pool.end().catch(() => {});
        await opts.onClose?.();
      } finally {
        await embedded?.stop();
      }
    },
  });
}

/**
 * Where the database is: `databaseUrl`, or the embedded PGlite started on the data directory.
 * `description` is shown to anyone (GET /health): no filesystem path in it; `where` is for the
 * operator (the log, start-up errors) and names the data directory.
 */
async function locate(
  opts: OpenStoreOptions,
): Promise<{ url: string; description: string; where: string; embedded: EmbeddedPostgres | undefined }> {
  if (opts.databaseUrl) {
    const description = `postgres ${redactUrl(opts.databaseUrl)}${opts.schema ? ` (schema ${opts.schema})` : ''}`;
    return { url: opts.databaseUrl, description, where: description, embedded: undefined };
  }
  const dataDir = path.resolve(opts.dataDir ?? defaultDataDir());
  const embedded = await startEmbedded(dataDir);
  return { url: embedded.url, description: 'embedded PGlite', where: `embedded PGlite in ${dataDir}`, embedded };
}

/** The pending migrations applied, then the pool and the Prisma client on it, the database reached; on failure both closed. */
async function connect(opts: OpenStoreOptions, config: pg.PoolConfig, where: string): Promise<{ prisma: PrismaClient; pool: pg.Pool }> {
  const logger = opts.logger;
  let prisma: PrismaClient | undefined;
  let pool: pg.Pool | undefined;
  try {
    if (!opts.skipMigrations) {
      const started = Date.now();
      const { applied } = await applyMigrations(config, {
        ...(opts.schema ? { schema: opts.schema } : {}),
        ...(opts.prismaDir ? { prismaDir: opts.prismaDir } : {}),
      }).catch((error: unknown) => {
        throw isUnavailable(error)
          ? new StoreUnavailableError(`Cannot reach the database (${where}).`, { cause: error })
          : mapError(error, 'migrate');
      });
      if (applied.length > 0) {
        logger?.info({ migrations: applied, ms: Date.now() - started }, 'applied database migrations');
      }
    }
    // One pg pool, shared by Prisma (through its adapter) and the store's hot path (the log
    // append, one function call per group commit, sent as a plain query: see PrismaStore.appendLog).
    pool = new pg.Pool(config);
    pool.on('error', (err) => logger?.warn({ err: err.message }, 'database pool error'));
    const adapter = new PrismaPg(pool, {
      ...(opts.schema ? { schema: opts.schema } : {}),
      onConnectionError: (err) => logger?.warn({ err: err.message }, 'database connection error'),
    });
    prisma = new PrismaClient({ adapter });
    await prisma.$connect();
    // Fail fast (typed) when the database is unreachable, rather than on the first command.
    await prisma.$queryRaw`SELECT 1`.catch((error: unknown) => {
      throw isUnavailable(error) ? new StoreUnavailableError(`Cannot reach the database (${where}).`, { cause: error }) : error;
    });
    return { prisma, pool };
  } catch (error) {
    await prisma?.$disconnect().catch(() => {});
    await pool?.end().catch(() => {});
    throw error;
  }
}
