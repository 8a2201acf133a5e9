import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { applyMigrations, defaultPrismaDir } from '../src/index.js';
import { allApplied, readMigrations } from '../src/migrate.js';
import type { PrismaStore } from '../src/index.js';
import { poolConfig } from '../src/open.js';
import { openTestStore } from '../src/testing.js';
import type { TestStore } from '../src/testing.js';
import { backend } from './helpers.js';

let store: TestStore;

beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

describe(`migrations on ${backend}`, () => {
  it('every migration of prisma/migrations is recorded in _prisma_migrations with its checksum', async () => {
    const dir = path.join(defaultPrismaDir(), 'migrations');
    const names = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(names.length).toBeGreaterThan(0);
    const rows = await (store as unknown as PrismaStore).prisma.$queryRawUnsafe<MigrationRow[]>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const row of rows) {
      const sql = await readFile(path.join(dir, row.migration_name, 'migration.sql'));
      // the same checksum `prisma migrate deploy` computes, so both tools agree on the history
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(Number(row.applied_steps_count)).toBe(1);
    }
  });

  it('a start with every migration applied sees so without the schema engine; a new or changed migration is not missed', async () => {
    const { info } = store as unknown as PrismaStore;
    const pool = new pg.Pool({
      ...poolConfig(info.url!, {
        poolSize: 1,
        connectTimeoutMs: 5_000,
        queryTimeoutMs: 30_000,
        ...(info.schema ? { schema: info.schema } : {}),
      }),
    });
    try {
      const list = await readMigrations(path.join(defaultPrismaDir(), 'migrations'));
      expect(await allApplied(pool, list, info.schema)).toBe(true);
      const [first, ...rest] = list.migrationDirectories;
      const changed = { ...first!, migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: '-- edited\n' } } };
      expect(await allApplied(pool, { ...list, migrationDirectories: [changed, ...rest] }, info.schema)).toBe(false);
      const added = {
        path: '29990101000000_new',
        migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: 'SELECT 1;' } },
      };
      expect(await allApplied(pool, { ...list, migrationDirectories: [...list.migrationDirectories, added] }, info.schema)).toBe(false);
    } finally {
      await pool.end();
    }
  });

  it('applying the migrations again is a no-op', async () => {
    const { info, prisma } = store as unknown as PrismaStore;
    const before = await prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM _prisma_migrations');
    const config = poolConfig(info.url!, {
      poolSize: 1,
      connectTimeoutMs: 5_000,
      queryTimeoutMs: 30_000,
      ...(info.schema ? { schema: info.schema } : {}),
    });
    const first = await applyMigrations(config, info.schema ? { schema: info.schema } : {});
    const second = await applyMigrations(config, info.schema ? { schema: info.schema } : {});
    expect(first.applied).toEqual([]);
    expect(second.applied).toEqual([]);
    const after = await prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM _prisma_migrations');
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));
    // and the store still works
    await store.createAccount({ id: 'after-migrate', tokenHash: 'after-migrate' });
    expect(await store.findAccountByTokenHash('after-migrate')).not.toBeNull();
  });

  it('the tables and the fenced append function exist', async () => {
    const { prisma } = store as unknown as PrismaStore;
    const tables = await prisma.$queryRawUnsafe<{ t: string }[]>(
      'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1',
    );
    expect(tables.map((r) => r.t)).toEqual([
      '_prisma_migrations',
      'accounts',
      'api_tokens',
      'auth_backoff',
      'command_log',
      'deleted_encounters',
      'deleted_invites',
      'device_codes',
      'encounters',
      'invites',
      'leases',
      'passkeys',
      'replay_links',
      'sessions',
      'snapshots',
      'webauthn_challenges',
    ]);
    const fn = await prisma.$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*) AS n FROM pg_proc WHERE proname = 'fray_append_log'");
    expect(Number(fn[0]!.n)).toBeGreaterThan(0);
  });
});
