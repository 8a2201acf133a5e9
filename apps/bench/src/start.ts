/**
 * The `start` part (`BENCH_ONLY=start`): how long Fray takes from the command to a ready answer, and
 * what it holds in memory once idle, on the embedded database and on Postgres, started the way a
 * user starts it (`npm start` from the repository root) and the way the Dockerfile does (node on
 * the compiled server). Each is started twice: on a fresh database (the first start creates it),
 * then again with nothing changed (the figure the target is about).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLK_TCK, freshDatabase, rssBytes, sleep } from './proc.js';
import { BENCH_METRICS_TOKEN, freePort, repoRoot, SERVER_NODE_ARGS, serverMain } from './servers.js';

export interface StartRun {
  database: 'embedded' | 'postgres';
  how: 'npm start' | 'node dist';
  /** 'fresh' (the database is created) or 'again' (nothing changed since the last start) */
  when: 'fresh' | 'again';
  /** ms from the spawn to the first 200 from the readiness endpoint */
  readyMs: number;
  /**
   * CPU seconds the command's processes used until then (npm, turbo's check, the server): on a
   * machine shared with others the wall time waits for cores, this does not
   */
  readyCpuSeconds: number;
  /** the server process's resident set after `idleSeconds` with no client, bytes */
  serverRss: number;
  /** the same summed over every process the command left running (npm's own processes too), bytes */
  treeRss: number;
}

/** every process under `pid` (its children, theirs…), from /proc */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const after = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      parent.set(Number(name), Number(after[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp === p) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** user + system CPU seconds of a process and of its children that have exited (and were waited for) */
function cpuWithChildren(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** the Fray server among a command's processes: the node process running apps/server's main */
function serverPid(root: number): number | null {
  for (const pid of [root, ...descendants(root)]) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (cmd.some((a) => /apps\/server\/(dist|src)\/main\.(js|ts)$/.test(a) || /^(dist|src)\/main\.(js|ts)$/.test(a))) return pid;
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

async function waitReady(url: string, child: ChildProcess, t0: number, path: string): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready`);
    try {
      const res = await fetch(`${url}${path}`);
      if (res.ok) return performance.now() - t0;
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > 180_000) throw new Error('the server was not ready within 180 s');
    await sleep(20);
  }
}

async function stopTree(child: ChildProcess, server: number | null): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  // the server itself: npm passes no signal on reliably, and the server drains on SIGTERM
  try {
    process.kill(server ?? child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  await Promise.race([exited, sleep(30_000)]);
  for (const pid of [child.pid!, ...descendants(child.pid!)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/** One start: spawn, time to ready, idle, measure, stop. */
async function once(o: {
  database: StartRun['database'];
  how: StartRun['how'];
  when: StartRun['when'];
  env: NodeJS.ProcessEnv;
  idleSeconds: number;
  readyPath: string;
}): Promise<StartRun> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...o.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    FRAY_METRICS_TOKEN: BENCH_METRICS_TOKEN,
  };
  for (const k of ['NODE_ENV', 'BENCH_ONLY', 'npm_lifecycle_event', 'npm_lifecycle_script', 'INIT_CWD']) delete env[k];
  if (o.database === 'embedded') delete env.DATABASE_URL;
  const [cmd, args] = o.how === 'npm start' ? ['npm', ['start', '--silent']] : [process.execPath, [...SERVER_NODE_ARGS, serverMain]];
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  try {
    const readyMs = await waitReady(`http://127.0.0.1:${port}`, child, t0, o.readyPath).catch((e: unknown) => {
      throw new Error(`${o.how} on ${o.database}: ${String(e)}: ${err}`);
    });
    const readyCpuSeconds = [child.pid!, ...descendants(child.pid!)].reduce((a, pid) => a + cpuWithChildren(pid), 0);
    await sleep(o.idleSeconds * 1000);
    const server = serverPid(child.pid!);
    const tree = [child.pid!, ...descendants(child.pid!)];
    const result: StartRun = {
      database: o.database,
      how: o.how,
      when: o.when,
      readyMs,
      readyCpuSeconds,
      serverRss: server ? rssBytes(server) : NaN,
      treeRss: tree
        .map(rssBytes)
        .filter(Number.isFinite)
        .reduce((a, b) => a + b, 0),
    };
    await stopTree(child, server);
    return result;
  } catch (e) {
    await stopTree(child, serverPid(child.pid!));
    throw e;
  }
}

/**
 * The start part: for each database and each way of starting, a first start on a fresh database,
 * then a start with nothing changed. `readyPath` is the readiness endpoint (answers 200 once the
 * database is reached and the routes are up).
 */
export async function runStart(o: {
  baseDb: string;
  idleSeconds: number;
  readyPath?: string;
  log: (...a: unknown[]) => void;
}): Promise<StartRun[]> {
  const runs: StartRun[] = [];
  const readyPath = o.readyPath ?? '/health';
  for (const how of ['npm start', 'node dist'] as const) {
    for (const database of ['embedded', 'postgres'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'fray-bench-start-'));
      const db = database === 'postgres' ? await freshDatabase(o.baseDb, `fray_bench_start_${process.pid}`) : null;
      const env: NodeJS.ProcessEnv = db ? { DATABASE_URL: db.url } : { FRAY_DATA_DIR: join(dir, 'data') };
      try {
        for (const when of ['fresh', 'again'] as const) {
          const r = await once({ database, how, when, env, idleSeconds: o.idleSeconds, readyPath });
          o.log(
            `start: ${how} on ${database} (${when}): ready in ${r.readyMs.toFixed(0)} ms (${r.readyCpuSeconds.toFixed(2)} CPU s), server RSS ${(r.serverRss / 2 ** 20).toFixed(0)} MB (every process ${(r.treeRss / 2 ** 20).toFixed(0)} MB)`,
          );
          runs.push(r);
        }
      } finally {
        await db?.drop().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  return runs;
}

/** The table rows of the start part: [part, figure, Fray, target, met]. */
export function startRows(runs: StartRun[], idleSeconds: number): string[][] {
  const MB = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
  const rows: string[][] = [];
  for (const r of runs) {
    const part = `start ${r.how}, ${r.database}, ${r.when === 'fresh' ? 'fresh database' : 'nothing changed'}`;
    const again = r.when === 'again';
    const rssTarget = r.database === 'embedded' ? 350 * 2 ** 20 : 150 * 2 ** 20;
    rows.push([
      part,
      'ms from the command to ready (CPU seconds used meanwhile)',
      `${r.readyMs.toFixed(0)} (${r.readyCpuSeconds.toFixed(2)})`,
      again ? '≤ 2,000 ms' : '',
      again ? (r.readyMs <= 2000 ? 'met' : '**missed**') : '',
    ]);
    rows.push([
      part,
      `RSS after ${idleSeconds} s idle: the server (every process of the command)`,
      `${MB(r.serverRss)} (${MB(r.treeRss)})`,
      again ? `≤ ${MB(rssTarget)}` : '',
      again ? (r.serverRss <= rssTarget ? 'met' : '**missed**') : '',
    ]);
  }
  return rows;
}
