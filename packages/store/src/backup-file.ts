import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGunzip, createGzip } from 'node:zlib';
import { errorCode, versionOf } from './guards.js';

/**
 * The backup file: JSON lines, one table row a line, written in one snapshot of the database.
 *
 *   {"format":"fray-backup","formatVersion":1,"fray":"0.1.0",...,"tables":[{name,columns}...]}
 *   ["accounts",{...row as Postgres's row_to_json gives it...}]
 *   ...
 *   {"end":"fray-backup","rows":{"accounts":2,...},"sha256":"<hex of every byte above this line>"}
 *
 * Rows travel as Postgres wrote them and are read back by Postgres (json_populate_recordset):
 * the restore never parses a row in JavaScript, so a bigint keeps every digit and a `json`
 * column its key order. A name ending in `.gz` is gzip-compressed.
 */

export const BACKUP_FORMAT = 'fray-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupTable {
  name: string;
  columns: string[];
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** the Fray release that wrote it (the root package.json's version) */
  fray: string;
  createdAt: string;
  source: 'postgres' | 'embedded';
  /** the database's applied migrations, oldest first: its schema */
  migrations: string[];
  /** in load order (a table after the tables it references) */
  tables: BackupTable[];
}

export interface BackupTrailer {
  end: typeof BACKUP_FORMAT;
  rows: Record<string, number>;
  sha256: string;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
/** A header as far as the reader checks it (its format, version, migrations and tables); the writer wrote the rest. */
function isHeader(x: unknown): x is BackupHeader {
  return (
    isRecord(x) &&
    x.format === BACKUP_FORMAT &&
    typeof x.formatVersion === 'number' &&
    Array.isArray(x.migrations) &&
    Array.isArray(x.tables)
  );
}
function isTrailer(x: unknown): x is BackupTrailer {
  return isRecord(x) && x.end === BACKUP_FORMAT && isRecord(x.rows) && typeof x.sha256 === 'string';
}

/** Why a backup (or encounter export) file was refused. Nothing was written to any database. */
export type BackupErrorCode =
  | 'BACKUP_UNREADABLE'
  | 'BACKUP_TRUNCATED'
  | 'BACKUP_TAMPERED'
  | 'BACKUP_FROM_NEWER_FRAY'
  | 'RESTORE_TARGET_NOT_EMPTY'
  | 'RESTORE_TARGET_NEWER';

export class BackupError extends Error {
  constructor(
    readonly code: BackupErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BackupError';
  }
}

let frayVersionCache: string | undefined;
/** This Fray's release: the repository's package.json version. */
export function frayVersion(): string {
  if (frayVersionCache) return frayVersionCache;
  try {
    const file = fileURLToPath(new URL('../../../package.json', import.meta.url));
    frayVersionCache = versionOf(JSON.parse(readFileSync(file, 'utf8'))) ?? '0.0.0';
  } catch {
    frayVersionCache = '0.0.0';
  }
  return frayVersionCache;
}

/** Where the rows' lines go: a file (gzip when it ends in .gz), hashing as it writes. */
export class BackupWriter {
  private readonly hash = createHash('sha256');
  private readonly rows: Record<string, number> = {};
  private readonly out: Writable;
  private readonly done: Promise<void>;

  constructor(file: string) {
    const fileStream = createWriteStream(file, { flags: 'wx' });
    if (file.endsWith('.gz')) {
      const gzip = createGzip();
      this.out = gzip;
      this.done = pipeline(gzip, fileStream);
    } else {
      this.out = fileStream;
      this.done = once(fileStream, 'finish').then(() => {});
      fileStream.on('error', () => {});
    }
    this.done.catch(() => {});
  }

  async line(text: string): Promise<void> {
    const chunk = `${text}\n`;
    this.hash.update(chunk);
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  header(h: BackupHeader): Promise<void> {
    for (const t of h.tables) this.rows[t.name] = 0;
    return this.line(JSON.stringify(h));
  }

  /** `row` is the row's JSON text as Postgres made it */
  row(table: string, row: string): Promise<void> {
    this.rows[table] = (this.rows[table] ?? 0) + 1;
    return this.line(`[${JSON.stringify(table)},${row}]`);
  }

  async finish(): Promise<Record<string, number>> {
    const trailer: BackupTrailer = { end: BACKUP_FORMAT, rows: this.rows, sha256: this.hash.digest('hex') };
    const chunk = `${JSON.stringify(trailer)}\n`;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
    this.out.end();
    await this.done;
    return { ...this.rows };
  }

  async abort(): Promise<void> {
    this.out.destroy();
    await this.done.catch(() => {});
  }
}

function lines(file: string): AsyncIterable<string> {
  const raw: Readable = createReadStream(file);
  const input = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (e) => input.destroy(e));
  return createInterface({ input, crlfDelay: Infinity });
}

function parseHeader(text: string | undefined, file: string): BackupHeader {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '');
  } catch {
    throw new BackupError('BACKUP_UNREADABLE', `${file} is not a Fray backup (its first line is not JSON).`);
  }
  const header: Partial<Record<keyof BackupHeader, unknown>> = typeof parsed === 'object' && parsed !== null ? parsed : {};
  if (header.format !== BACKUP_FORMAT) {
    throw new BackupError('BACKUP_UNREADABLE', `${file} is not a Fray backup (no "format":"${BACKUP_FORMAT}" header).`);
  }
  if (typeof header.formatVersion !== 'number' || header.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      'BACKUP_FROM_NEWER_FRAY',
      `${file} is a backup of format ${String(header.formatVersion)}, written by Fray ${String(header.fray)}; this Fray (${frayVersion()}) reads format ${BACKUP_FORMAT_VERSION} and older. Upgrade Fray, then restore.`,
    );
  }
  if (!isHeader(parsed)) {
    throw new BackupError('BACKUP_TAMPERED', `${file}: its header lacks the migrations or the tables.`);
  }
  return parsed;
}

/** A verified row: table name and the row's JSON text (never parsed here). */
export interface BackupRow {
  table: string;
  row: string;
}

/**
 * Reads the whole file once and checks it: header, every line's table, the trailer's counts and
 * checksum. Throws a BackupError (truncated, tampered, from a newer Fray); `onRow`, when given,
 * sees every row, and should only buffer: a later line may still prove the file bad.
 */
export async function readBackup(
  file: string,
  onRow?: (row: BackupRow) => Promise<void>,
): Promise<{ header: BackupHeader; rows: Record<string, number> }> {
  const hash = createHash('sha256');
  let header: BackupHeader | undefined;
  let trailer: BackupTrailer | undefined;
  const counts: Record<string, number> = {};
  const prefixes = new Map<string, string>();
  let lineNo = 0;
  // a bad line is a truncation when it is the last one (a copy cut mid-line), tampering otherwise
  let badLine: string | undefined;
  try {
    for await (const text of lines(file)) {
      lineNo++;
      if (badLine) throw new BackupError('BACKUP_TAMPERED', badLine);
      if (trailer) throw new BackupError('BACKUP_TAMPERED', `${file}: line ${lineNo} follows the end marker.`);
      if (!header) {
        header = parseHeader(text, file);
        for (const t of header.tables) {
          prefixes.set(t.name, `[${JSON.stringify(t.name)},`);
          counts[t.name] = 0;
        }
        hash.update(`${text}\n`);
        continue;
      }
      if (text.startsWith('{"end"')) {
        try {
          const parsed: unknown = JSON.parse(text);
          if (isTrailer(parsed)) trailer = parsed;
          else badLine = `${file}: its end marker (line ${lineNo}) is damaged.`;
        } catch {
          badLine = `${file}: its end marker (line ${lineNo}) is damaged.`;
        }
        continue;
      }
      hash.update(`${text}\n`);
      const table = /^\["([a-z_][a-z0-9_]*)",/.exec(text)?.[1];
      const prefix = table ? prefixes.get(table) : undefined;
      if (!table || !prefix || !text.endsWith(']')) {
        badLine = `${file}: line ${lineNo} is not a row of a table the header names.`;
        continue;
      }
      counts[table] = (counts[table] ?? 0) + 1;
      if (onRow) await onRow({ table, row: text.slice(prefix.length, -1) });
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const code = errorCode(error);
    if (code === 'ENOENT') throw new BackupError('BACKUP_UNREADABLE', `${file} does not exist.`, { cause: error });
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR') {
      throw new BackupError('BACKUP_TRUNCATED', `${file} is cut short or damaged (its gzip stream ends early).`, { cause: error });
    }
    throw new BackupError('BACKUP_UNREADABLE', `${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (!header) throw new BackupError('BACKUP_TRUNCATED', `${file} is empty.`);
  if (!trailer || badLine) {
    throw new BackupError(
      'BACKUP_TRUNCATED',
      `${file} is cut short: it has no end marker after line ${lineNo} (an interrupted backup or copy).`,
    );
  }
  if (trailer.sha256 !== hash.digest('hex')) {
    throw new BackupError('BACKUP_TAMPERED', `${file} was changed after it was written (its checksum does not match).`);
  }
  for (const t of header.tables) {
    if (trailer.rows[t.name] !== counts[t.name]) {
      throw new BackupError(
        'BACKUP_TAMPERED',
        `${file}: table ${t.name} has ${counts[t.name]} rows, its end marker says ${String(trailer.rows[t.name])}.`,
      );
    }
  }
  return { header, rows: counts };
}
