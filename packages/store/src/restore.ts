import path from 'node:path';
import pg from 'pg';
import { appliedMigrations, tablesInLoadOrder } from './backup.js';
import { BackupError, readBackup } from './backup-file.js';
import type { BackupHeader, BackupRow } from './backup-file.js';
import { startEmbedded } from './embedded.js';
import type { EmbeddedPostgres } from './embedded.js';
import { applyMigrations, defaultPrismaDir, readMigrations } from './migrate.js';
import { defaultDataDir, poolConfig } from './open.js';

/**
 * `npm run restore <file>`: loads a backup into an empty database (Postgres at `databaseUrl`, or
 * the embedded PGlite in `dataDir`). The file is checked whole before anything is written; the
 * schema is brought to the backup's migrations, every row goes in one transaction, then the
 * migrations the backup predates run (as at any start). A refusal writes no row.
 */

export interface RestoreTarget {
  databaseUrl?: string;
  dataDir?: string;
  schema?: string;
  prismaDir?: string;
}

export interface RestoreSummary {
  header: BackupHeader;
  rows: Record<string, number>;
  /** migrations applied after the rows went in (the backup was older than this Fray) */
  upgraded: string[];
  ms: number;
}

/** rows per INSERT … SELECT FROM json_populate_recordset(…) */
const ROWS_PER_INSERT = 500;
const BYTES_PER_INSERT = 4 << 20;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

async function knownMigrations(prismaDir: string): Promise<string[]> {
  const list = await readMigrations(path.join(prismaDir, 'migrations'));
  return list.migrationDirectories.map((m) => m.path);
}

/** The backup's schema must be one this Fray can reach: its migrations a prefix of ours. */
function checkMigrations(header: BackupHeader, ours: string[], file: string): void {
  const unknown = header.migrations.filter((m) => !ours.includes(m));
  if (unknown.length > 0) {
    throw new BackupError(
      'BACKUP_FROM_NEWER_FRAY',
      `${file} was written by Fray ${header.fray}, whose database has migrations this Fray does not know (${unknown.join(', ')}). Upgrade Fray, then restore.`,
    );
  }
}

/** Refuses a database that holds any row, or whose schema is ahead of the backup. */
async function checkTargetEmpty(client: pg.ClientBase, header: BackupHeader, where: string): Promise<void> {
  const applied = (await appliedMigrations(client)) ?? [];
  const ahead = applied.filter((m) => !header.migrations.includes(m));
  if (ahead.length > 0) {
    throw new BackupError(
      'RESTORE_TARGET_NEWER',
      `${where} already has migrations the backup predates (${ahead.join(', ')}): restore into a database no Fray has started on yet (a new FRAY_DATA_DIR, or \`createdb\`), and this Fray upgrades it after the rows are in.`,
    );
  }
  for (const table of await tablesInLoadOrder(client)) {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(table.name)}`);
    const n = rows[0]?.n ?? 0;
    if (n > 0) {
      throw new BackupError(
        'RESTORE_TARGET_NOT_EMPTY',
        `${where} is not empty (table ${table.name} has ${n} rows): a restore never merges into or overwrites data. Restore into a new, empty database.`,
      );
    }
  }
}

/** After the load: every serial/identity sequence continues after the restored rows. */
async function resetSequences(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ tbl: string; col: string; seq: string }>(
    `SELECT c.relname AS tbl, a.attname AS col, pg_get_serial_sequence(format('%I.%I', current_schema(), c.relname), a.attname) AS seq
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
        AND pg_get_serial_sequence(format('%I.%I', current_schema(), c.relname), a.attname) IS NOT NULL`,
  );
  for (const r of rows) {
    await client.query(
      `SELECT setval($1, COALESCE((SELECT max(${quote(r.col)}) FROM ${quote(r.tbl)}), 1), (SELECT max(${quote(r.col)}) FROM ${quote(r.tbl)}) IS NOT NULL)`,
      [r.seq],
    );
  }
}

async function loadRows(client: pg.ClientBase, header: BackupHeader, file: string): Promise<void> {
  const columns = new Map(header.tables.map((t) => [t.name, t.columns.map(quote).join(', ')]));
  let batch: string[] = [];
  let batchTable = '';
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const cols = columns.get(batchTable)!;
    await client.query(
      `INSERT INTO ${quote(batchTable)} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${quote(batchTable)}, $1::json)`,
      [`[${batch.join(',')}]`],
    );
    batch = [];
    bytes = 0;
  };
  // checked once before (readBackup throws on a bad file); read again to load, so a file changed
  // in between fails its checksum here and the transaction rolls back
  await readBackup(file, async ({ table, row }: BackupRow) => {
    if (table !== batchTable || batch.length >= ROWS_PER_INSERT || bytes >= BYTES_PER_INSERT) {
      await flush();
      batchTable = table;
    }
    batch.push(row);
    bytes += row.length;
  });
  await flush();
}

/** Restore `file` into the empty database `target`. Throws BackupError (typed) on a refusal. */
export async function restoreFromFile(file: string, target: RestoreTarget): Promise<RestoreSummary> {
  const started = Date.now();
  const prismaDir = target.prismaDir ?? defaultPrismaDir();
  const { header, rows } = await readBackup(file);
  checkMigrations(header, await knownMigrations(prismaDir), file);

  let embedded: EmbeddedPostgres | undefined;
  let url: string;
  let where: string;
  if (target.databaseUrl) {
    url = target.databaseUrl;
    where = target.schema ? `The database's schema ${target.schema}` : 'The database';
  } else {
    const dir = path.resolve(target.dataDir ?? defaultDataDir());
    embedded = await startEmbedded(dir);
    url = embedded.url;
    where = `The embedded database in ${dir}`;
  }
  const config = poolConfig(url, {
    poolSize: 1,
    connectTimeoutMs: 5_000,
    queryTimeoutMs: 0,
    ...(target.schema ? { schema: target.schema } : {}),
  });
  const client = new pg.Client(config);
  try {
    await client.connect();
    await checkTargetEmpty(client, header, where);
    const migrateOpts = { prismaDir, ...(target.schema ? { schema: target.schema } : {}) };
    await applyMigrations(config, { ...migrateOpts, only: header.migrations });
    await client.query('BEGIN');
    try {
      await checkTargetEmpty(client, header, where);
      await loadRows(client, header, file);
      await resetSequences(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
    const { applied } = await applyMigrations(config, migrateOpts);
    return { header, rows, upgraded: applied, ms: Date.now() - started };
  } finally {
    await client.end().catch(() => {});
    await embedded?.stop();
  }
}
