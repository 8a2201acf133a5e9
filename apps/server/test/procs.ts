/**
 * Real server processes for the scale-out tests: child processes running src/main.ts (as
 * bench/load.ts does), one Postgres database they share (fresh per test file), a TCP proxy
 * between the processes and that database (to cut it), and a TCP load balancer in front.
 *
 * Not PGlite: one embedded PGlite served to several processes over pglite-socket is not
 * reliable. pglite-socket feeds PGlite (a single Postgres session) one protocol message at a
 * time from a queue shared by all connections, so the extended-query messages of two
 * connections interleave (Parse of one between Parse and Bind of another); with several
 * processes this happened within a minute ("bind message supplies 1 parameters, but prepared
 * statement "" requires 5"). Several processes need a real Postgres anyway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openStore } from '@fray/store';
import type { ServerStore } from '../src/index.js';

/** Every child started by this file, killed when the test process exits (even on a crash). */
const alive = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of alive) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** A free loopback port (a process must advertise its URL before it listens). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface Proc {
  child: ChildProcess;
  url: string;
  /** its log lines (pino JSON), for assertions and for the failure message */
  lines: Array<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Start `node --conditions=@fray/source --import tsx src/main.ts` with its own port (a free one,
 * or `fixedPort`: a restart at the same address) and FRAY_PUBLIC_URL; resolves once it logs that
 * it listens.
 */
export async function startProc(env: Record<string, string>, timeoutMs = 120_000, fixedPort?: number): Promise<Proc> {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  for (let attempt = 0; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--conditions=@fray/source', '--import', 'tsx', 'src/main.ts'], {
      cwd,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        FRAY_PUBLIC_URL: url,
        LOG_LEVEL: 'info',
        NODE_ENV: 'test',
        FRAY_WEB_BUILD: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    alive.add(child);
    const lines: Array<Record<string, unknown>> = [];
    let err = '';
    let buf = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => {
        alive.delete(child);
        resolve({ code, signal });
      }),
    );
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms: ${err}`)), timeoutMs);
      child.stdout!.on('data', (d: Buffer) => {
        buf += d.toString();
        const parts = buf.split('\n');
        buf = parts.pop()!;
        for (const l of parts) {
          if (!l.trim()) continue;
          try {
            const line = JSON.parse(l) as Record<string, unknown>;
            lines.push(line);
            if (typeof line.msg === 'string' && line.msg.startsWith('Fray listening')) {
              clearTimeout(timer);
              resolve();
            }
          } catch {
            // not JSON (a stray print): ignore
          }
        }
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        const said = lines.filter((l) => (l.level as number) >= 50).map((l) => String(l.msg));
        reject(new Error(`server exited (${code ?? signal}) before listening: ${[...said, err].join('\n')}`));
      });
    });
    try {
      await ready;
      return { child, url, lines, exited, kill: (signal) => void child.kill(signal) };
    } catch (e) {
      if (child.exitCode === null) child.kill('SIGKILL');
      // the port was taken between freePort and listen: another port
      if (attempt < 2 && fixedPort === undefined && /EADDRINUSE/.test(String(e))) continue;
      throw e;
    }
  }
}

export interface SharedDatabase {
  /** the database's own address (the processes reach it through a proxy) */
  host: string;
  port: number;
  /** the database's URL through a given port on 127.0.0.1 (the proxy's) */
  urlVia(port: number): string;
  /** a store of this test process on the same data (direct, not through the proxy) */
  store: ServerStore;
  close(): Promise<void>;
}

/** A fresh database on the server of DATABASE_URL (dropped at close), migrated once here. */
export async function sharedDatabase(base: string): Promise<SharedDatabase> {
  const name = `fray_scale_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5000 });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end().catch(() => {});
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const at = (port?: number) => {
    const u = new URL(base);
    if (port !== undefined) {
      u.hostname = '127.0.0.1';
      u.port = String(port);
    }
    u.pathname = `/${name}`;
    return u.toString();
  };
  let store: ServerStore;
  try {
    store = (await openStore({ databaseUrl: at(), poolSize: 4 })) as unknown as ServerStore;
  } catch (e) {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    throw e;
  }
  const u = new URL(base);
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    urlVia: (port) => at(port),
    store,
    async close() {
      await store.close().catch(() => {});
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

export interface TcpProxy {
  port: number;
  /** the database "goes down": every open connection is reset and new ones are dropped */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP proxy to host:port that can be cut and restored (a database outage, for real). */
export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  let down = false;
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host, port });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      down = true;
      for (const [a, b] of pairs) {
        a.resetAndDestroy();
        b.destroy();
      }
      pairs.clear();
    },
    restore() {
      down = false;
    },
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface LoadBalancer {
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP load balancer (round robin) in front of the processes, as nginx or haproxy would be with
 * the websocket transport: each new connection goes to the next backend that accepts it (a
 * stopped process refuses and is skipped). Nothing sticky.
 */
export async function loadBalancer(backends: () => string[]): Promise<LoadBalancer> {
  let next = 0;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    client.pause();
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    const list = backends().map((u) => new URL(u));
    const start = next++;
    const tryAt = (i: number) => {
      if (i >= list.length || client.destroyed) return client.destroy();
      const b = list[(start + i) % list.length]!;
      const upstream = createConnection({ host: b.hostname, port: Number(b.port) });
      let connected = false;
      upstream.on('error', () => {
        upstream.destroy();
        if (connected) client.destroy();
        else tryAt(i + 1); // refused: the next backend
      });
      upstream.once('connect', () => {
        connected = true;
        open.add(upstream);
        upstream.on('close', () => {
          open.delete(upstream);
          client.destroy();
        });
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    tryAt(0);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Wait for an async condition (no fixed sleeps): polls every `everyMs`. */
export async function untilAsync(cond: () => Promise<boolean> | boolean, ms: number, what: string, everyMs = 50): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    if (await cond()) return;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** An HTTP call returning status and JSON body. */
export async function http(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> & { error?: { code: string; message: string; ownerUrl?: string } } }> {
  const res = await fetch(url + path, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : null) as Record<string, unknown> & { error?: { code: string; message: string; ownerUrl?: string } },
  };
}
