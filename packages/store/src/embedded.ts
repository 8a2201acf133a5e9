import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { errorCode } from './guards.js';
import { wasmApi } from './wasm.js';

/**
 * The embedded database: PGlite (Postgres compiled to WebAssembly) keeping its files in
 * `dataDir`, served over the Postgres wire protocol on 127.0.0.1 (a free port) by
 * pglite-socket, so the very same `pg` + `@prisma/adapter-pg` code path serves it and a real
 * Postgres. PGlite runs one query at a time; pglite-socket queues the connections' queries and
 * keeps a transaction on the connection that opened it.
 */
export interface EmbeddedPostgres {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  stop(): Promise<void>;
}

const LOCK_FILE = 'fray-embedded.lock';

type WasmModule = object;
let pgliteModule: Promise<WasmModule | undefined> | undefined;

/** Compile PGlite's Postgres once per process (each instance would compile it again). */
function compiledPglite(): Promise<WasmModule | undefined> {
  pgliteModule ??= (async () => {
    try {
      const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
      return await wasmApi.compile(await readFile(path.join(path.dirname(entry), 'pglite.wasm')));
    } catch {
      return undefined; // let PGlite find and compile it itself
    }
  })();
  return pgliteModule;
}

/**
 * PGlite's Postgres settings: its own (single user, no parallel workers…) and a smaller buffer
 * cache. Postgres's default `shared_buffers` of 128 MB lives inside the WebAssembly memory, and an
 * idle server kept about 120 MB more resident with it (docs/performance-restarts.md, "Start and idle
 * memory"); the embedded database of one table of GMs is a few MB, and the files it reads stay in
 * the operating system's page cache anyway.
 */
export function embeddedStartParams(): string[] {
  return [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** One process per data directory: PGlite would corrupt files shared by two processes. */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(`The embedded database in ${dataDir} is in use by process ${pid}.`);
      }
      if (pid === process.pid) {
        throw new Error(`The embedded database in ${dataDir} is already open in this process.`);
      }
      await rm(lockPath, { force: true }); // left over by a process that died
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}.`);
}

export async function startEmbedded(dataDir: string, opts: { maxConnections?: number } = {}): Promise<EmbeddedPostgres> {
  const dir = path.resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const unlock = await lockDataDir(dir);
  let db: PGlite | undefined;
  try {
    const pgliteWasmModule = await compiledPglite();
    db = await PGlite.create(dir, {
      startParams: embeddedStartParams(),
      ...(pgliteWasmModule ? { pgliteWasmModule: pgliteWasmModule as never } : {}),
    });
    const server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port: 0,
      maxConnections: opts.maxConnections ?? 16,
    });
    await server.start();
    const conn = server.getServerConn(); // "127.0.0.1:<port>"
    const port = Number(conn.slice(conn.lastIndexOf(':') + 1));
    const pglite = db;
    let stopped = false;
    return {
      url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      port,
      dataDir: dir,
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          await server.stop();
        } finally {
          try {
            await pglite.close();
          } finally {
            await unlock();
          }
        }
      },
    };
  } catch (error) {
    await db?.close().catch(() => {});
    await unlock();
    throw error;
  }
}
