import { registry } from '@fray/rulesets';
import { openStore, restoreFromFile } from '@fray/store';
import { run, UsageError, userPath, whereFromEnv } from './cli.js';
import { resumeAll } from './verify.js';

/**
 * `npm run restore <file>`: the backup into the empty database at DATABASE_URL (or the embedded
 * one in FRAY_DATA_DIR), then every encounter resumed once to prove it (docs/hosting.md).
 */
run(async () => {
  const arg = process.argv[2];
  if (!arg) throw new UsageError('Usage: npm run restore <backup file>');
  const file = userPath(arg);
  const where = whereFromEnv();
  const summary = await restoreFromFile(file, where.databaseUrl ? { databaseUrl: where.databaseUrl } : { dataDir: where.dataDir });
  const rows = Object.entries(summary.rows)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  process.stdout.write(`Restored ${file} (Fray ${summary.header.fray}, ${summary.header.createdAt}) in ${summary.ms} ms: ${rows}.\n`);
  if (summary.upgraded.length > 0) process.stdout.write(`Upgraded the schema: ${summary.upgraded.join(', ')}.\n`);
  const store = await openStore({ ...where, poolSize: 1 });
  try {
    const checks = await resumeAll(store, registry);
    process.stdout.write(`Every encounter resumes: ${checks.length} checked.\n`);
  } finally {
    await store.close();
  }
});
