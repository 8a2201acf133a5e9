import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type * as EngineModule from '@prisma/schema-engine-wasm';
import { wasmApi } from './wasm.js';

/**
 * Applies prisma/migrations offline through Prisma's official WebAssembly schema engine, over
 * the same `@prisma/adapter-pg` connection the client uses (no native binary, no download). The
 * engine records every migration in `_prisma_migrations`, exactly as `prisma migrate deploy`
 * does, so both tools can be used on the same database.
 */

const require = createRequire(import.meta.url);

/** The repository's prisma/ folder: packages/store/{src,dist}/ → ../../../prisma */
export const defaultPrismaDir = (): string => process.env.FRAY_PRISMA_DIR ?? fileURLToPath(new URL('../../../prisma', import.meta.url));

type Engine = typeof EngineModule;
type WasmExports = Record<string, unknown>;
let enginePromise: Promise<Engine> | undefined;

/** The wasm-bindgen "bundler" build imports the .wasm as an ES module; Node cannot, so bind it by hand. */
export function loadEngine(): Promise<Engine> {
  enginePromise ??= (async () => {
    const bg = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as Engine & {
      __wbg_set_wasm(exports: WasmExports): void;
    };
    const wasmPath = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm')), 'schema_engine_bg.wasm');
    const { instance } = await wasmApi.instantiate(await readFile(wasmPath), { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return enginePromise;
}

export async function readMigrations(migrationsDir: string): Promise<EngineModule.MigrationList> {
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const lockContent = await readFile(lockPath, 'utf8').catch(() => null);
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b));
  const migrationDirectories: EngineModule.MigrationDirectory[] = [];
  for (const name of dirs) {
    const content = await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8').then(
      (value) => ({ tag: 'ok' as const, value }),
      (error: Error) => ({ tag: 'error' as const, value: error.message }),
    );
    migrationDirectories.push({ path: name, migrationFile: { path: 'migration.sql', content } });
  }
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: lockContent },
    migrationDirectories,
    shadowDbInitScript: '',
  };
}

/**
 * adapter-pg's executeScript splits a script on every `;`, which breaks function bodies
 * (our fenced append is a plpgsql function). Send the whole script as one simple query instead,
 * which is what the native engine does (and Postgres runs it as one implicit transaction).
 */
export function wholeScriptAdapter(factory: PrismaPg): SqlMigrationAwareDriverAdapterFactory {
  const patch = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    const pgAdapter = adapter as SqlDriverAdapter & {
      underlyingDriver(): { query(sql: string): Promise<unknown> };
      onError(error: unknown): never;
    };
    adapter.executeScript = async (script: string) => {
      try {
        await pgAdapter.underlyingDriver().query(script);
      } catch (error) {
        pgAdapter.onError(error);
      }
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect()),
    connectToShadowDb: async () => patch(await factory.connectToShadowDb()),
  };
}

export interface MigrateResult {
  applied: string[];
}

/**
 * The engine reports a failure of the adapter (connection refused, timeout...) as
 * "External error id#N"; the error itself waits in the bound factory's registry.
 */
function withAdapterCause(error: unknown, bound: { errorRegistry: { consumeError(id: number): { error: unknown } | undefined } }): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const match = /External error id#(\d+)/.exec(message);
  const registered = match ? bound.errorRegistry.consumeError(Number(match[1])) : undefined;
  if (!registered) return error;
  const cause = registered.error;
  const detail = cause instanceof Error ? cause.message : JSON.stringify(cause);
  return new Error(`Migration failed: ${detail}`, { cause });
}

/**
 * Whether `_prisma_migrations` records every migration of the list as applied (finished, not
 * rolled back) with the checksum of its file as it is now (the SHA-256 Prisma records). False when
 * the table is missing or anything differs: then the schema engine decides, and says what.
 */
export async function allApplied(pool: pg.Pool, list: EngineModule.MigrationList, schema?: string): Promise<boolean> {
  const table = schema ? `"${schema.replaceAll('"', '""')}"._prisma_migrations` : '_prisma_migrations';
  const { rows } = await pool.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM ${table} WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const recorded = new Map(rows.map((r) => [r.migration_name, r.checksum]));
  return list.migrationDirectories.every((d) => {
    const file = d.migrationFile.content;
    return file.tag === 'ok' && recorded.get(d.path) === createHash('sha256').update(file.value).digest('hex');
  });
}

/**
 * Apply every migration of `prismaDir/migrations` not yet recorded in `_prisma_migrations`.
 * Idempotent: a second run applies nothing. `schema` (default: the connection's search_path,
 * normally `public`) is the Postgres schema that receives the tables.
 */
export async function applyMigrations(
  poolConfig: pg.PoolConfig,
  opts: {
    schema?: string;
    prismaDir?: string;
    log?: (line: string) => void;
    /** apply only these (by name): a restore brings the schema to its backup's level first */
    only?: readonly string[];
  } = {},
): Promise<MigrateResult> {
  const prismaDir = opts.prismaDir ?? defaultPrismaDir();
  const migrationsList = await readMigrations(path.join(prismaDir, 'migrations'));
  if (opts.only) {
    const only = new Set(opts.only);
    migrationsList.migrationDirectories = migrationsList.migrationDirectories.filter((m) => only.has(m.path));
  }
  const pool = new pg.Pool({ ...poolConfig, max: 1 });
  pool.on('error', () => {});
  // nothing to do (the usual start): the schema engine, a large WebAssembly module, is not loaded
  if (await allApplied(pool, migrationsList, opts.schema).catch(() => false)) {
    await pool.end();
    return { applied: [] };
  }
  const engineModule = await loadEngine();
  const schema = await readFile(path.join(prismaDir, 'schema.prisma'), 'utf8');
  const factory = new PrismaPg(pool, opts.schema ? { schema: opts.schema } : undefined);
  const bound = bindMigrationAwareSqlAdapterFactory(wholeScriptAdapter(factory));
  try {
    const engine = await engineModule.SchemaEngine.new(
      { datamodels: [['schema.prisma', schema]] },
      (line: string) => opts.log?.(line),
      bound,
    );
    try {
      const out = await engine.applyMigrations({ migrationsList, filters: { externalTables: [], externalEnums: [] } });
      return { applied: out.appliedMigrationNames };
    } finally {
      engine.free();
    }
  } catch (error) {
    throw withAdapterCause(error, bound);
  } finally {
    await pool.end();
  }
}
