export * from './types.js';
export { openStore, defaultDataDir, redactUrl } from './open.js';
export type { OpenStoreOptions, StoreLogger } from './open.js';
export { PrismaStore, SNAPSHOTS_KEPT } from './prisma-store.js';
export { applyMigrations, defaultPrismaDir } from './migrate.js';
export type { MigrateResult } from './migrate.js';
export { startEmbedded } from './embedded.js';
export type { EmbeddedPostgres } from './embedded.js';
export { isUnavailable } from './errors.js';
