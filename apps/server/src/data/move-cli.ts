import { registry } from '@fray/rulesets';
import { run, UsageError, whereFromEnv } from './cli.js';
import { moveToPostgres } from './move.js';

/**
 * `npm run move-to-postgres -- <postgres URL>`: the embedded database (FRAY_DATA_DIR) into an
 * empty Postgres database, every encounter checked on both sides (docs/hosting.md). The embedded
 * directory is left as it was.
 */
run(async () => {
  const url = process.argv[2] ?? process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url))
    throw new UsageError('Usage: npm run move-to-postgres -- postgresql://user:password@host:5432/database');
  const { dataDir } = whereFromEnv();
  const { summary, encounters } = await moveToPostgres(dataDir, { databaseUrl: url }, registry);
  const rows = Object.entries(summary.rows)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  process.stdout.write(
    `Copied ${dataDir} into Postgres (${rows}); all ${encounters} encounters resume at the same version with the same state.\nStart the server with DATABASE_URL set to that database.\n`,
  );
});
