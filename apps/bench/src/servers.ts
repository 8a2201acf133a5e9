/** Starting and stopping the servers under test (child processes on 127.0.0.1). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface Running {
  name: string;
  /** epoch ms when the process was spawned */
  startedAt: number;
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

const here = fileURLToPath(new URL('.', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const serverMain = `${repoRoot}apps/server/dist/main.js`;
/** the metrics token the bench gives the Fray servers it starts (GET /metrics/json is behind it) */
export const BENCH_METRICS_TOKEN = 'fray-bench-metrics-token';

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** a free TCP port on 127.0.0.1 (for a process that must know its URL before it listens) */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The node flags of every server in the comparison (Fray's, boardgame.io's, the floor's): one V8
 * background thread and no memory reducer, as Fray's launchers start it (`npm start`, the
 * Dockerfile; see apps/server/src/memory.ts). Not Fray's own settings: any Node server can be
 * started so, and the peers get them too.
 */
export const SERVER_NODE_ARGS = ['--v8-pool-size=1', '--no-memory-reducer'];

function start(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  toUrl: (m: RegExpExecArray) => string,
  nodeArgs: string[] = [],
): Promise<Running> {
  const startedAt = Date.now();
  // BENCH_PEER_NODE_ARGS: extra node flags for boardgame.io's and the floor's servers (e.g. --cpu-prof)
  const extra = (process.env.BENCH_PEER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, ...nodeArgs, ...extra, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out = (out + d.toString()).slice(-20000);
      const m = ready.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        child.stdout!.resume(); // keep draining the log
        const url = toUrl(m);
        resolve({
          name,
          startedAt,
          url,
          pid: child.pid!,
          child,
          stop: () => stopChild(child, 20_000),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (c) => reject(new Error(`${name} exited (${c}): ${out.slice(-2000)} ${err}`)));
  });
}

interface FrayServerOptions {
  databaseUrl: string;
  port?: number;
  redisUrl?: string;
  redisPrefix?: string;
  publicUrl?: string;
  nodeArgs?: string[];
  /** more environment for the server (FRAY_LEASE_SECONDS...) */
  env?: Record<string, string>;
}

/** The Fray server from its build (apps/server/dist), NODE_ENV=production, on real Postgres; ready when /health/ready answers. */
export async function startFray(o: FrayServerOptions): Promise<Running> {
  const port = o.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: o.databaseUrl,
    LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'info',
    FRAY_METRICS_TOKEN: BENCH_METRICS_TOKEN,
    BENCH_LOAD: '',
    ...(o.redisUrl ? { REDIS_URL: o.redisUrl, FRAY_REDIS_PREFIX: o.redisPrefix ?? 'fray-bench' } : {}),
    ...(o.publicUrl ? { FRAY_PUBLIC_URL: o.publicUrl } : {}),
    ...o.env,
  };
  if (!o.redisUrl) delete env.REDIS_URL;
  const startedAt = Date.now();
  // BENCH_SERVER_NODE_ARGS: extra node flags for the Fray server only (e.g. --trace-gc, with BENCH_SERVER_LOG)
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, ...(o.nodeArgs ?? []), ...extra, serverMain], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  // the JSON log: drained, not kept (BENCH_SERVER_LOG=<file> keeps it)
  if (process.env.BENCH_SERVER_LOG) child.stdout!.pipe(createWriteStream(`${process.env.BENCH_SERVER_LOG}.${port}`, { flags: 'a' }));
  else child.stdout!.resume();
  child.stderr!.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`fray server exited (${child.exitCode}): ${err}`);
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - t0 > 60_000) {
      child.kill('SIGKILL'); // not left running after the part fails
      throw new Error(`fray server did not start (not ready within 60 s): ${err}`);
    }
    // 50 ms: the restart part measures from the moment the process is ready
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    name: 'fray',
    startedAt,
    url,
    pid: child.pid!,
    child,
    // the Fray server drains its queues and hands its encounters over first: more time
    stop: () => stopChild(child, 30_000),
  };
}

export function startBgio(): Promise<Running> {
  return start('boardgame.io', [`${here}bgio-server.js`], { NODE_ENV: 'production' }, /LISTENING (\d+)/, (m) => `http://127.0.0.1:${m[1]}`);
}

export function startFloor(payloadBytes: number, nodeArgs: string[] = [], port?: number): Promise<Running> {
  return start(
    'socket.io floor',
    // the compiled script, also when this module runs from its source (the bench's tests)
    [`${repoRoot}apps/bench/dist/floor-server.js`],
    { NODE_ENV: 'production', BENCH_PAYLOAD: String(payloadBytes), ...(port ? { PORT: String(port) } : {}) },
    /LISTENING (\d+)/,
    (m) => `http://127.0.0.1:${m[1]}`,
    nodeArgs,
  );
}
