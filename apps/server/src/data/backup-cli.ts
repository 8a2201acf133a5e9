import { existsSync } from 'node:fs';
import { backupToFile, openStore } from '@fray/store';
import { backupPath, run, UsageError, whereFromEnv } from './cli.js';

/** `npm run backup [file or directory]`: a consistent backup of the database (docs/hosting.md). */
run(async () => {
  const where = whereFromEnv();
  const file = backupPath(process.argv[2]);
  if (!where.databaseUrl && !existsSync(where.dataDir)) {
    throw new UsageError(`There is no embedded database in ${where.dataDir} (set FRAY_DATA_DIR, or DATABASE_URL for Postgres).`);
  }
  const store = await openStore({ ...where, skipMigrations: true, poolSize: 1 });
  try {
    const summary = await backupToFile(store, file);
    const rows = Object.entries(summary.rows)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    process.stdout.write(`Backed up ${store.description} to ${file} in ${summary.ms} ms (${rows}).\n`);
  } finally {
    await store.close();
  }
});
