import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { backupToFile } from '@fray/store';
import type { ServerStore } from '../store.js';
import { backupPath } from './cli.js';

export interface BackupSchedule {
  dir: string;
  /** hours between backups (the first one this long after start) */
  hours: number;
  /** how many of the newest backups in `dir` to keep */
  keep: number;
}

interface Log {
  info(o: object, m: string): void;
  error(o: object, m: string): void;
}

/** Deletes all but the newest `keep` of this schedule's files in `dir` (its own names only). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const ours = (await readdir(dir)).filter((f) => /^fray-backup-.*\.jsonl\.gz$/.test(f)).sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep));
  for (const f of old) await rm(path.join(dir, f), { force: true });
  return old;
}

/**
 * FRAY_BACKUP_DIR: the running server backs its own database up on a schedule. The way to back up
 * the embedded database without stopping the server (no other process may open it).
 */
export function scheduleBackups(store: ServerStore, schedule: BackupSchedule, log: Log): () => void {
  let running = false;
  const once = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      await mkdir(schedule.dir, { recursive: true });
      const s = await backupToFile(store, backupPath(schedule.dir));
      const pruned = await pruneBackups(schedule.dir, schedule.keep);
      log.info({ file: s.file, ms: s.ms, rows: s.rows, pruned }, 'backup written');
    } catch (error) {
      log.error({ err: error instanceof Error ? error.message : String(error), dir: schedule.dir }, 'backup failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void once(), schedule.hours * 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
