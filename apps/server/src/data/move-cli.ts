import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { registry } from '@fray/rulesets';
import { backupToFile, openStore, restoreFromFile } from '@fray/store';
import { run, UsageError, whereFromEnv } from './cli.js';
import { compareChecks, resumeAll } from './verify.js';

/**
 * `npm run move-to-postgres -- <postgres URL>`: copies the embedded database (FRAY_DATA_DIR) into
 * an empty Postgres database, then resumes every encounter on both sides and compares version
 * and state hash (docs/hosting.md). The embedded directory is left as it was.
 */
run(async () => {
  const url = process.argv[2] ?? process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) throw new UsageError('Usage: npm run move-to-postgres -- postgresql://user:password@host:5432/database');
  const { dataDir } = whereFromEnv();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'fray-move-'));
  try {
    const file = path.join(tmp, 'embedded.jsonl');
    const source = await openStore({ dataDir, poolSize: 1 });
    let before;
    try {
      before = await resumeAll(source, registry);
      await backupToFile(source, file);
    } finally {
      await source.close();
    }
    const summary = await restoreFromFile(file, { databaseUrl: url });
    const target = await openStore({ databaseUrl: url, poolSize: 2 });
    try {
      const problems = compareChecks(before, await resumeAll(target, registry));
      if (problems.length > 0) throw new Error(`The copy differs: ${problems.join('; ')}.`);
    } finally {
      await target.close();
    }
    const rows = Object.entries(summary.rows).map(([t, n]) => `${t} ${n}`).join(', ');
    process.stdout.write(
      `Copied ${dataDir} into Postgres (${rows}); all ${before.length} encounters resume at the same version with the same state.\nStart the server with DATABASE_URL set to that database.\n`,
    );
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});
