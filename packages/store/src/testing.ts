import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { cp, mkdtemp, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from './embedded.js';
import { errorCode, versionOf } from './guards.js';
import { defaultPrismaDir, applyMigrations } from './migrate.js';
import { openStore, poolConfig } from './open.js';
import type { PrismaStore } from './prisma-store.js';
import type { OpenStoreOptions } from './open.js';
import type { RestoreTarget } from './restore.js';
import type { Store } from './types.js';

/**
 * Throw-away stores for tests (this package's and others'). With DATABASE_URL set, each store
 * lives in a fresh Postgres schema of that database, dropped at close; otherwise in a fresh
 * PGlite data directory (copied from an initialised template kept in the OS temp dir, so a store
 * opens in a few hundred ms instead of the seconds an initdb takes), removed at close. Either
 * way the migrations run exactly as in production.
 */

export type TestStore = Store & {
  /** empties every table (the schema and the migration history stay) */
  dropAll(): Promise<void>;
  /** where the data lives: a Postgres schema or a PGlite directory */
  readonly location: string;
  /**
   * Another Store on the same data, with its own connections, as a second server process would
   * have (for ownership and failover tests). Closing it leaves the data alone; close peers
   * before the test store.
   */
  openPeer(opts?: Pick<OpenStoreOptions, 'logger' | 'queryTimeoutMs' | 'connectTimeoutMs'>): Promise<Store>;
};

const require = createRequire(import.meta.url);
const SCHEMA_PREFIX = 'fray_test_';
let counter = 0;
let sweptOldSchemas = false;

function pgliteVersion(): string {
  try {
    const entry = require.resolve('@electric-sql/pglite');
    const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
    return versionOf(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))) ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

/** The prisma/ folder's content hash: a template is valid for one set of migrations. */
async function prismaHash(): Promise<string> {
  const dir = defaultPrismaDir();
  const hash = createHash('sha256');
  hash.update(await readFile(path.join(dir, 'schema.prisma')));
  const migrations = path.join(dir, 'migrations');
  for (const name of (await readdir(migrations)).sort()) {
    hash.update(name);
    const sql = path.join(migrations, name, 'migration.sql');
    if (await exists(sql)) hash.update(await readFile(sql));
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * A PGlite data directory, initialised and migrated, shared by the test runs of this machine
 * (keyed by the PGlite version and the migrations, so a new migration makes a new template).
 */
async function pgliteTemplate(): Promise<string> {
  const dir = path.join(os.tmpdir(), `fray-pglite-template-${pgliteVersion()}-${await prismaHash()}`);
  if (await exists(path.join(dir, 'PG_VERSION'))) return dir;
  const staging = await mkdtemp(path.join(os.tmpdir(), 'fray-pglite-staging-'));
  try {
    const embedded = await startEmbedded(staging);
    try {
      await applyMigrations(poolConfig(embedded.url, { poolSize: 1, connectTimeoutMs: 10_000, queryTimeoutMs: 60_000 }));
    } finally {
      await embedded.stop();
    }
    await rename(staging, dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (!(await exists(path.join(dir, 'PG_VERSION')))) throw error;
    // another process won the race: use theirs
  }
  return dir;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

const STORE_DIR_PREFIX = 'fray-test-store-';
const openDirs = new Set<string>();
let sweptOldDirs = false;

/** Test-store directories of processes that died without closing their store. */
async function sweepDeadStoreDirs(): Promise<void> {
  if (sweptOldDirs) return;
  sweptOldDirs = true;
  // and ours, if this process exits without closing (a vitest worker torn down)
  process.once('exit', () => {
    for (const dir of openDirs) rmSync(dir, { recursive: true, force: true });
  });
  const tmp = os.tmpdir();
  for (const name of await readdir(tmp).catch((): string[] => [])) {
    if (!name.startsWith(STORE_DIR_PREFIX)) continue;
    const dir = path.join(tmp, name);
    const pid = Number((await readFile(path.join(dir, 'fray-embedded.lock'), 'utf8').catch(() => '')).trim());
    let dead: boolean;
    if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 0);
        dead = false;
      } catch (error) {
        dead = errorCode(error) === 'ESRCH';
      }
    } else {
      const info = await stat(dir).catch(() => undefined);
      dead = info !== undefined && Date.now() - info.mtimeMs > 3_600_000;
    }
    if (dead) await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

const TABLES = ['command_log', 'snapshots', 'leases', 'invites', 'encounters', 'accounts'];

export async function openTestStore(
  opts: Pick<OpenStoreOptions, 'logger' | 'queryTimeoutMs' | 'connectTimeoutMs' | 'poolSize'> & {
    /** the embedded database even when DATABASE_URL is set (for what only the embedded one has: a data directory) */
    embedded?: boolean;
  } = {},
): Promise<TestStore> {
  const { embedded, ...storeOpts } = opts;
  const url = embedded ? undefined : process.env.DATABASE_URL;
  let store: PrismaStore;
  let location: string;
  if (url) {
    const schema = `${SCHEMA_PREFIX}${Date.now().toString(36)}_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
    await withClient(url, async (c) => {
      if (!sweptOldSchemas) {
        sweptOldSchemas = true;
        // schemas left by test processes that died more than an hour ago
        const { rows } = await c.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE '${SCHEMA_PREFIX}%'`);
        const cutoff = Date.now() - 3_600_000;
        for (const { nspname } of rows) {
          const born = parseInt(nspname.slice(SCHEMA_PREFIX.length).split('_')[0] ?? '', 36);
          if (Number.isFinite(born) && born < cutoff) await c.query(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`).catch(() => {});
        }
      }
      await c.query(`CREATE SCHEMA "${schema}"`);
    });
    location = `schema ${schema}`;
    store = await openStore({
      ...storeOpts,
      databaseUrl: url,
      schema,
      poolSize: storeOpts.poolSize ?? 4,
      onClose: () => withClient(url, (c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => {}),
    });
  } else {
    await sweepDeadStoreDirs();
    const template = await pgliteTemplate();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), STORE_DIR_PREFIX));
    openDirs.add(dataDir);
    await cp(template, dataDir, { recursive: true });
    location = dataDir;
    try {
      store = await openStore({
        ...storeOpts,
        dataDir,
        onClose: () => Promise.resolve(),
      });
    } catch (error) {
      openDirs.delete(dataDir);
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
    const close = store.close.bind(store);
    store.close = async () => {
      try {
        await close();
      } finally {
        openDirs.delete(dataDir);
        await rm(dataDir, { recursive: true, force: true });
      }
    };
  }
  const { prisma, info } = store;
  return Object.assign(store, {
    location,
    openPeer(peerOpts: Pick<OpenStoreOptions, 'logger' | 'queryTimeoutMs' | 'connectTimeoutMs'> = {}) {
      return openStore({
        ...peerOpts,
        databaseUrl: info.url,
        ...(info.schema ? { schema: info.schema } : {}),
        skipMigrations: true,
        poolSize: 4,
      });
    },
    async dropAll() {
      await prisma.$executeRawUnsafe(`TRUNCATE ${TABLES.map((t) => `"${t}"`).join(', ')} CASCADE`);
    },
  });
}

/**
 * A database no Fray has started on, for restores: a new PGlite directory, or (with
 * DATABASE_URL) a new Postgres schema. `open()` opens a store on it once something is in it.
 */
export async function freshRestoreTarget(): Promise<{ target: RestoreTarget; open(): Promise<Store>; dispose(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `${SCHEMA_PREFIX}${Date.now().toString(36)}_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
    await withClient(url, (c) => c.query(`CREATE SCHEMA "${schema}"`));
    return {
      target: { databaseUrl: url, schema },
      open: () => openStore({ databaseUrl: url, schema, poolSize: 4 }),
      dispose: () => withClient(url, (c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => {}),
    };
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), STORE_DIR_PREFIX));
  openDirs.add(dataDir);
  return {
    target: { dataDir },
    open: () => openStore({ dataDir }),
    dispose: async () => {
      openDirs.delete(dataDir);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
