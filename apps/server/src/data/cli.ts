import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { BackupError } from '@fray/store';

/**
 * Shared by the data commands (`npm run backup`, `restore`, `move-to-postgres`): where the
 * database is (DATABASE_URL, or the embedded one in FRAY_DATA_DIR, relative to apps/server like
 * `npm start`), and how a file named on the command line is found (relative to the directory npm
 * was run from, INIT_CWD, not the workspace npm switched to).
 */

export interface Where {
  databaseUrl?: string;
  dataDir: string;
}

export function whereFromEnv(env: NodeJS.ProcessEnv = process.env): Where {
  return {
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: path.resolve(env.FRAY_DATA_DIR || '.fray-data'),
  };
}

export function userPath(p: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), p);
}

/** `dir/fray-backup-2026-11-27T07-05-00.123Z.jsonl.gz`, or `file` itself when it is not a directory. */
export function backupPath(arg: string | undefined, now = new Date()): string {
  const name = `fray-backup-${now.toISOString().replaceAll(':', '-')}.jsonl.gz`;
  if (!arg) return userPath(name);
  const p = userPath(arg);
  return existsSync(p) && statSync(p).isDirectory() ? path.join(p, name) : p;
}

/** A mistake in how the command was called or where it points: printed without a stack. */
export class UsageError extends Error {}

/** Runs a command: its own errors print as one clear line (and exit 1), others with their stack. */
export function run(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof BackupError) process.stderr.write(`${error.code}: ${error.message}\n`);
      else if (error instanceof UsageError) process.stderr.write(`${error.message}\n`);
      else if (error instanceof Error && /in use by process/.test(error.message)) {
        process.stderr.write(
          `${error.message}\nStop the server first, or let the running server write its backups itself (FRAY_BACKUP_DIR, docs/hosting.md).\n`,
        );
      } else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
