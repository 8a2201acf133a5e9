import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Ruleset } from '@fray/engine';
import { backupToFile, openStore, restoreFromFile } from '@fray/store';
import type { RestoreSummary } from '@fray/store';
import { compareChecks, resumeAll } from './verify.js';

/**
 * Copies the embedded database in `dataDir` into the empty Postgres database at `url` (through a
 * backup file in a temporary directory), then resumes every encounter on both sides and compares
 * version and state hash. Throws, naming the encounters, when anything differs.
 */
export async function moveToPostgres(
  dataDir: string,
  target: { databaseUrl: string; schema?: string },
  rulesets: Record<string, Ruleset>,
): Promise<{ summary: RestoreSummary; encounters: number }> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'fray-move-'));
  try {
    const file = path.join(tmp, 'embedded.jsonl');
    const source = await openStore({ dataDir, poolSize: 1 });
    let before;
    try {
      before = await resumeAll(source, rulesets);
      await backupToFile(source, file);
    } finally {
      await source.close();
    }
    const summary = await restoreFromFile(file, target);
    const copy = await openStore({ ...target, poolSize: 2 });
    try {
      const problems = compareChecks(before, await resumeAll(copy, rulesets));
      if (problems.length > 0) throw new Error(`The copy differs: ${problems.join('; ')}.`);
    } finally {
      await copy.close();
    }
    return { summary, encounters: before.length };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
