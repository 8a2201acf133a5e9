/** Process and database helpers for the bench (Linux /proc, Postgres). */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

export const CLK_TCK = 100;

/** user and system CPU seconds from a /proc stat file (a process's or a thread's); NaN for both when it is gone */
function statTimes(path: string): { user: number; system: number } {
  try {
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    return { user: Number(fields[11]) / CLK_TCK, system: Number(fields[12]) / CLK_TCK };
  } catch {
    return { user: NaN, system: NaN };
  }
}

/** user and system CPU seconds of a process (from /proc/<pid>/stat); NaN for both when it is gone */
export function cpuSplitSeconds(pid: number): { user: number; system: number } {
  return statTimes(`/proc/${pid}/stat`);
}

/** user + system CPU seconds of a process (from /proc/<pid>/stat) */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuSplitSeconds(pid);
  return user + system;
}

/**
 * user + system CPU seconds of a process's main thread alone (its event loop: /proc/<pid>/task/<pid>/stat);
 * the rest of `cpuSeconds` is V8's and libuv's other threads (GC helpers, the optimizing compiler,
 * the thread pool)
 */
export function mainThreadCpuSeconds(pid: number): number {
  const { user, system } = statTimes(`/proc/${pid}/task/${pid}/stat`);
  return user + system;
}

/**
 * user + system CPU seconds of every Postgres process on this machine (backends, WAL writer,
 * checkpointer…: the `postgres` processes in /proc), with the CPU of those that exited (the
 * postmaster reaps its backends: their CPU is in its children's time); NaN when there are none
 * (a remote database).
 */
export function postgresCpuSeconds(): number {
  let sum = 0;
  let found = 0;
  const listed = eachProcess((_pid, name, fields) => {
    if (name !== 'postgres') return;
    // utime, stime, then cutime, cstime (the children that exited: only the postmaster has any)
    sum += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLK_TCK;
    found++;
  });
  return listed && found ? sum : NaN;
}

/**
 * Calls `visit` with every process's pid, name (`comm`) and the fields of /proc/<pid>/stat after
 * the name (state first; utime is fields[11]); false when /proc cannot be listed. A process that
 * ends while it is read is left out.
 */
function eachProcess(visit: (pid: number, name: string, fields: string[]) => void): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return false;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const close = stat.lastIndexOf(')');
    visit(Number(pid), stat.slice(stat.indexOf('(') + 1, close), stat.slice(close + 2).split(' '));
  }
  return true;
}

/**
 * Seconds the process's main thread (its event loop) has spent runnable but waiting for a CPU
 * (`/proc/<pid>/schedstat`, its second field, in ns); NaN where the kernel does not keep it.
 */
export function runQueueWaitSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
    return Number(fields[1]) / 1e9;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds the whole machine has been busy, all cores together (`/proc/stat`: user, nice,
 * system, irq, softirq and steal), processes that have exited included; NaN where it cannot tell.
 */
export function machineBusySeconds(): number {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    return (f[0]! + f[1]! + f[2]! + f[5]! + f[6]! + (f[7] ?? 0)) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** Every process's user + system CPU seconds and name (`comm`) at one moment, kernel threads included. */
export type CpuTable = Map<number, { name: string; seconds: number }>;

export function cpuTable(): CpuTable {
  const out: CpuTable = new Map();
  eachProcess((pid, name, fields) => out.set(pid, { name, seconds: (Number(fields[11]) + Number(fields[12])) / CLK_TCK }));
  return out;
}

/**
 * What the rest of the machine ran between two tables: the CPU of every process alive at both
 * moments other than `exclude` (the bench's own processes) and those named in `excludeNames`
 * (Postgres, measured apart), in % of one core over `seconds`, with the largest by name (summed
 * over processes of the same name). A kernel thread counts like any process: on some VMs the
 * kernel's own memory monitor (`kdamond`, DAMON) takes a core in bursts (docs/performance.md,
 * "Session 16"). Processes that started or ended in between are not named; `restSeconds` (from
 * the machine's total) counts them in the percentage.
 */
export function otherCpu(
  before: CpuTable,
  after: CpuTable,
  seconds: number,
  exclude: readonly number[],
  excludeNames: readonly string[] = ['postgres'],
  /** the machine's busy CPU seconds in between less the bench's and Postgres's: counts processes that came and went too */
  restSeconds?: number,
): { percent: number; largest: Array<{ name: string; percent: number }> } {
  const byName = new Map<string, number>();
  let sum = 0;
  for (const [pid, a] of after) {
    const b = before.get(pid);
    if (!b || b.name !== a.name || exclude.includes(pid) || excludeNames.includes(a.name)) continue;
    const d = a.seconds - b.seconds;
    if (!(d > 0)) continue;
    sum += d;
    // "kworker/1:1H-kblockd" and the like: one name for a kind of kernel thread
    const name = a.name.replace(/\/.*$/, '').replace(/\.\d+$/, '');
    byName.set(name, (byName.get(name) ?? 0) + d);
  }
  const pct = (s: number) => (seconds > 0 ? (s / seconds) * 100 : NaN);
  const largest = [...byName]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 3)
    .map(([name, s]) => ({ name, percent: pct(s) }));
  // the machine's own count also holds the processes that started or ended in between (and any
  // rounding of the per-process counts); never below what the named processes ran
  const rest = restSeconds !== undefined && Number.isFinite(restSeconds) ? Math.max(restSeconds, sum) : sum;
  return { percent: pct(rest), largest };
}

/** "14 % of a core (kdamond 12 %, beam 1 %)": the consumers of half a percent or more named */
export function describeOtherCpu(o: { percent: number; largest: Array<{ name: string; percent: number }> }): string {
  const named = o.largest.filter((l) => l.percent >= 0.5).map((l) => `${l.name} ${l.percent.toFixed(0)} %`);
  return `${o.percent.toFixed(0)} % of a core${named.length ? ` (${named.join(', ')})` : ''}`;
}

/** resident set size in bytes */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The soft limit of open files of process `pid` (its `ulimit -n`; every socket is one), Infinity when unlimited or unreadable. */
export function openFilesLimit(pid: number): number {
  try {
    const m = /Max open files\s+(\d+|unlimited)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
    return m && m[1] !== 'unlimited' ? Number(m[1]) : Infinity;
  } catch {
    return Infinity;
  }
}

/**
 * The CPU's family and model as /proc/cpuinfo gives them for its first processor, e.g. "family 25
 * model 17": VMs of one vendor name ("AMD EPYC") have run these benchmarks at speeds 2–3× apart,
 * and the model tells their generations apart. '' when the file has neither line.
 */
export function cpuGeneration(cpuinfo: string = readCpuinfo()): string {
  const first = cpuinfo.split(/\n\s*\n/)[0] ?? '';
  const family = /^cpu family\s*:\s*(\S+)/m.exec(first)?.[1];
  const model = /^model\s*:\s*(\S+)/m.exec(first)?.[1];
  return family && model ? `family ${family} model ${model}` : '';
}

function readCpuinfo(): string {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
}

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

export const defaultDatabaseUrl = 'postgresql://postgres@127.0.0.1:5432/test';

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** A fresh database next to DATABASE_URL's for one run; `drop()` removes it. */
export async function freshDatabase(baseUrl: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database name ${name}`);
  const admin = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(baseUrl, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5000 });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * How many checkpoints the Postgres server has begun, timed and requested (`pg_stat_checkpointer`
 * from Postgres 17, `pg_stat_bgwriter` before it); null when it cannot tell.
 */
export async function checkpointsBegun(client: pg.Client): Promise<number | null> {
  for (const sql of [
    'SELECT num_timed + num_requested AS n FROM pg_stat_checkpointer',
    'SELECT checkpoints_timed + checkpoints_req AS n FROM pg_stat_bgwriter',
  ]) {
    try {
      const { rows } = await client.query<{ n: string | number }>(sql);
      return rows[0] ? Number(rows[0].n) : null;
    } catch {
      // the other version's view
    }
  }
  return null;
}

/**
 * A checkpoint now, so that the part about to start does not meet one that the earlier parts'
 * writes would bring (Postgres checkpoints every `checkpoint_timeout`, 5 minutes by default, and
 * after each one the first change of every page writes the whole page to the WAL). It needs a
 * superuser or the `pg_checkpoint` role; without either the run goes on and says so.
 */
export async function checkpointNow(baseUrl: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5000 });
  try {
    await c.connect();
    await c.query('CHECKPOINT');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
