import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { BackupWriter, BACKUP_FORMAT, BACKUP_FORMAT_VERSION, frayVersion } from './backup-file.js';
import type { BackupTable } from './backup-file.js';
import { poolConfig } from './open.js';
import { PrismaStore } from './prisma-store.js';
import type { Store } from './types.js';

/**
 * `npm run backup`: every row of every Fray table, read in one REPEATABLE READ READ ONLY
 * transaction (one snapshot of the database: every command acknowledged before it began is in,
 * nothing half-committed is), written as JSON lines with a checksum (backup-file.ts). The same
 * code serves Postgres and the embedded PGlite; no pg_dump is needed (docs/adr/0012-backups-as-logical-json-lines.md).
 */

/** Not backed up: the migration history (the header lists it) and who runs what right now. */
export const NOT_BACKED_UP = new Set(['_prisma_migrations', 'leases']);

const FETCH_ROWS = 500;

export interface BackupSummary {
  file: string;
  migrations: string[];
  rows: Record<string, number>;
  ms: number;
}

/** The schema's tables in load order: each after every table its foreign keys reference. */
export async function tablesInLoadOrder(client: pg.ClientBase): Promise<BackupTable[]> {
  const { rows: tables } = await client.query<{ name: string; oid: number }>(
    `SELECT c.relname AS name, c.oid::int AS oid FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  const { rows: fks } = await client.query<{ child: string; parent: string }>(
    `SELECT cl.relname AS child, pr.relname AS parent FROM pg_constraint k
       JOIN pg_class cl ON cl.oid = k.conrelid JOIN pg_class pr ON pr.oid = k.confrelid
      WHERE k.contype = 'f' AND cl.relnamespace = current_schema()::regnamespace AND cl.oid <> pr.oid`,
  );
  const wanted = tables.filter((t) => !NOT_BACKED_UP.has(t.name));
  const ordered: string[] = [];
  const visit = (name: string, path: string[]): void => {
    if (ordered.includes(name) || path.includes(name)) return;
    for (const fk of fks) if (fk.child === name && !NOT_BACKED_UP.has(fk.parent)) visit(fk.parent, [...path, name]);
    ordered.push(name);
  };
  for (const t of wanted) visit(t.name, []);
  const out: BackupTable[] = [];
  for (const name of ordered) {
    const oid = wanted.find((t) => t.name === name)!.oid;
    const { rows } = await client.query<{ attname: string }>(
      `SELECT attname FROM pg_attribute WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [oid],
    );
    out.push({ name, columns: rows.map((r) => r.attname) });
  }
  return out;
}

export async function appliedMigrations(client: pg.ClientBase): Promise<string[] | null> {
  const { rows } = await client.query<{ present: boolean }>(
    `SELECT to_regclass(format('%I.%I', current_schema(), '_prisma_migrations')) IS NOT NULL AS present`,
  );
  if (!rows[0]?.present) return null;
  const res = await client.query<{ migration_name: string }>(
    `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return res.rows.map((r) => r.migration_name);
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

async function primaryKey(client: pg.ClientBase, table: string): Promise<string[]> {
  const { rows } = await client.query<{ attname: string }>(
    `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
      WHERE i.indrelid = to_regclass(format('%I.%I', current_schema(), $1::text)) AND i.indisprimary
      ORDER BY array_position(i.indkey, a.attnum)`,
    [table],
  );
  return rows.map((r) => r.attname);
}

/** Writes every row of `client`'s schema into `writer`, in one snapshot. */
export async function dumpDatabase(client: pg.ClientBase, writer: BackupWriter, source: 'postgres' | 'embedded'): Promise<string[]> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    // the snapshot is taken by the first statement: everything committed before it is in
    const migrations = (await appliedMigrations(client)) ?? [];
    const tables = await tablesInLoadOrder(client);
    await writer.header({
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      fray: frayVersion(),
      createdAt: new Date().toISOString(),
      source,
      migrations,
      tables,
    });
    for (const table of tables) {
      const key = await primaryKey(client, table.name);
      const order = key.length > 0 ? ` ORDER BY ${key.map(quote).join(', ')}` : '';
      await client.query(`DECLARE fray_backup NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${quote(table.name)} t${order}`);
      for (;;) {
        const { rows } = await client.query<{ r: string }>(`FETCH ${FETCH_ROWS} FROM fray_backup`);
        for (const { r } of rows) await writer.row(table.name, r);
        if (rows.length < FETCH_ROWS) break;
      }
      await client.query('CLOSE fray_backup');
    }
    await client.query('COMMIT');
    return migrations;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** A client on the store's own database (and schema), for one backup or restore. */
export async function connectLike(store: Store): Promise<pg.Client> {
  const info = store instanceof PrismaStore ? store.info : undefined;
  if (!info?.url) throw new TypeError('Backups need a database store (Postgres or the embedded PGlite).');
  const client = new pg.Client(
    poolConfig(info.url, { poolSize: 1, connectTimeoutMs: 5_000, queryTimeoutMs: 0, ...(info.schema ? { schema: info.schema } : {}) }),
  );
  await client.connect();
  return client;
}

/**
 * Back the store's database up into `file` (must not exist; `.gz` compresses). A failed backup
 * leaves no file behind.
 */
export async function backupToFile(store: Store, file: string): Promise<BackupSummary> {
  const started = Date.now();
  if (existsSync(file)) throw new Error(`${file} already exists: give the backup a new name (a backup never overwrites a file).`);
  const source = store.kind;
  if (source === 'memory') throw new TypeError('Backups need a database store (Postgres or the embedded PGlite).');
  const client = await connectLike(store);
  const writer = new BackupWriter(file);
  try {
    const migrations = await dumpDatabase(client, writer, source);
    const rows = await writer.finish();
    return { file, migrations, rows, ms: Date.now() - started };
  } catch (error) {
    await writer.abort();
    await rm(file, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}
