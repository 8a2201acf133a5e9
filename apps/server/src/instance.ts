import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/** What an instance id may hold: it is a lease owner's name, and `@` separates the public URL. */
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
export const INSTANCE_FILE = 'instance-id';

export interface ResolvedInstance {
  id: string;
  /** where it came from: FRAY_INSTANCE_ID, the data directory's file, host:port, or a new one for this run */
  source: 'env' | 'data-dir' | 'host-port' | 'random';
}

/** The id kept in the data directory (made on the first start); null when the directory cannot be written. */
async function fromDataDir(dataDir: string): Promise<string | null> {
  const file = path.join(path.resolve(dataDir), INSTANCE_FILE);
  const kept = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (INSTANCE_ID_PATTERN.test(kept)) return kept;
  const id = `fray-${randomUUID()}`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(`${file}.tmp`, `${id}\n`);
    await rename(`${file}.tmp`, file);
    return id;
  } catch {
    return null;
  }
}

/**
 * This process's instance id (its leases' owner). FRAY_INSTANCE_ID when set. Otherwise, on the
 * embedded database, an id kept in the data directory (one process per directory, so one per
 * database); on Postgres, `<hostname>:<port>`, the same across restarts on one machine or in one
 * container and different for processes on different ports; with port 0 (a random port) a new id
 * each run, as there is nothing stable to name the process by.
 */
export async function resolveInstanceId(opts: {
  explicit?: string | undefined;
  database: 'postgres' | 'embedded' | 'memory';
  dataDir: string;
  port: number;
}): Promise<ResolvedInstance> {
  if (opts.explicit) return { id: opts.explicit, source: 'env' };
  if (opts.database === 'embedded') {
    const kept = await fromDataDir(opts.dataDir);
    if (kept) return { id: kept, source: 'data-dir' };
  } else if (opts.database === 'postgres' && opts.port !== 0) {
    const host =
      hostname()
        .replace(/[^A-Za-z0-9._-]/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '') || 'host';
    return { id: `${host.slice(0, 90)}:${opts.port}`, source: 'host-port' };
  }
  return { id: `fray-${randomUUID()}`, source: 'random' };
}
