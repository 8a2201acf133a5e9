import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir, openStore } from '../src/index.js';
import type { PrismaStore, Store } from '../src/index.js';
import { entry, seedEncounter } from './helpers.js';

// The embedded database is what `DATABASE_URL` unset means, so this file runs in both CI passes.

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'fray-embedded-test-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function recordingLogger() {
  const lines: { level: string; args: unknown[] }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push({ level, args });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('the embedded PGlite store', () => {
  it('starts on a fresh directory (migrating it), keeps data across close and reopen, and migrates only once', async () => {
    const first = recordingLogger();
    let store: Store = await openStore({ dataDir, logger: first.logger });
    let encounterId: string;
    try {
      expect(store.kind).toBe('embedded');
      expect(store.description).toBe('embedded PGlite'); // no path: it is shown by GET /health
      expect(JSON.stringify(first.lines)).toContain('20261121233000_init');
      const enc = await seedEncounter(store, {}, { hp: 12 });
      encounterId = enc.id;
      const lease = (await store.acquireLease(enc.id, 'proc-1', 60_000))!;
      await store.appendLog([entry(enc.id, 1), entry(enc.id, 2)], [{ encounterId: enc.id, token: lease.token }]);
      await store.saveSnapshot(enc.id, 2, { hp: 7 });
    } finally {
      await store.close();
    }

    const second = recordingLogger();
    store = await openStore({ dataDir, logger: second.logger });
    try {
      expect(JSON.stringify(second.lines)).not.toContain('applied database migrations');
      const enc = await store.getEncounter(encounterId);
      expect(enc?.name).toBe('Ambush at the ford');
      expect((await store.readLog(encounterId, 0)).map((e) => e.commandId)).toEqual(['cmd-1', 'cmd-2']);
      expect(await store.latestSnapshot(encounterId)).toMatchObject({ version: 2, state: { hp: 7 } });
      // the lease survived too: a new process id must wait for it or take it after expiry
      expect(await store.acquireLease(encounterId, 'proc-2', 60_000)).toBeNull();
    } finally {
      await store.close();
    }
  });

  it("runs with a 16 MB buffer cache, not Postgres's 128 MB (an idle server's memory)", async () => {
    const store = await openStore({ dataDir });
    try {
      const rows = await (store as unknown as PrismaStore).prisma.$queryRawUnsafe<{ shared_buffers: string }[]>('SHOW shared_buffers');
      expect(rows[0]!.shared_buffers).toBe('16MB');
    } finally {
      await store.close();
    }
  });

  it('refuses a second store on a directory that is in use', async () => {
    const store = await openStore({ dataDir });
    try {
      await expect(openStore({ dataDir })).rejects.toThrow(/in use|already open/);
    } finally {
      await store.close();
    }
    // and the lock is gone once closed
    const again = await openStore({ dataDir });
    await again.close();
  });

  it('every acknowledged append survives kill -9 of the process (and its stale lock is taken over)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fray-kill-test-'));
    try {
      const child = spawn(
        process.execPath,
        [
          '--conditions=@fray/source',
          '--import',
          'tsx',
          fileURLToPath(new URL('./fixtures/append-then-hang.ts', import.meta.url)),
          dir,
          '15',
        ],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let acked = 0;
      await new Promise<void>((resolve, reject) => {
        child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          for (const m of chunk.matchAll(/acked (\d+)/g)) acked = Math.max(acked, Number(m[1]));
          if (acked === 15) resolve();
        });
      });
      child.removeAllListeners('exit');
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const store = await openStore({ dataDir: dir });
      try {
        expect((await store.readLog('kill-enc', 0)).map((e) => e.seq)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('defaults its directory to FRAY_DATA_DIR, else .fray-data in the working directory', () => {
    const saved = process.env.FRAY_DATA_DIR;
    try {
      process.env.FRAY_DATA_DIR = '/var/lib/fray';
      expect(defaultDataDir()).toBe('/var/lib/fray');
      delete process.env.FRAY_DATA_DIR;
      expect(defaultDataDir()).toBe(path.resolve('.fray-data'));
    } finally {
      if (saved === undefined) delete process.env.FRAY_DATA_DIR;
      else process.env.FRAY_DATA_DIR = saved;
    }
  });
});
