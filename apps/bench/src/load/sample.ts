/** What the generator reads before and after a phase: the servers' CPU, memory, metrics, the database's checkpoints. */
import type pg from 'pg';
import {
  checkpointsBegun,
  cpuSeconds,
  cpuSplitSeconds,
  cpuTable,
  machineBusySeconds,
  mainThreadCpuSeconds,
  postgresCpuSeconds,
  rssBytes,
  runQueueWaitSeconds,
  type CpuTable,
} from '../proc.js';
import { BENCH_METRICS_TOKEN } from '../servers.js';
import type { LoadConfig, PhaseResult } from './types.js';

interface GcCounts {
  scavenges: number;
  fullGcs: number;
}
type LoopDelay = { p50: number; p99: number; max: number };
export interface Metrics {
  heapUsed: number;
  /** viewers joined to an encounter */
  sockets: number;
  batches: number;
  entries: number;
  loop: LoopDelay | null;
  gc: GcCounts | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
/** a number at `path` in a JSON object, NaN where there is none */
function num(o: unknown, ...path: string[]): number {
  let v = o;
  for (const k of path) v = isRecord(v) ? v[k] : undefined;
  return typeof v === 'number' ? v : NaN;
}

/** The fields of GET /metrics/json the generator uses. */
function readMetrics(m: unknown): Metrics {
  const d = isRecord(m) ? m.eventLoopDelayMs : null;
  const gc = isRecord(m) ? m.gc : null;
  return {
    heapUsed: num(m, 'memory', 'heapUsed'),
    sockets: num(m, 'sockets'),
    batches: num(m, 'logWriter', 'batches'),
    entries: num(m, 'logWriter', 'entries'),
    loop: isRecord(d) ? { p50: num(d, 'p50'), p99: num(d, 'p99'), max: num(d, 'max') } : null,
    gc: isRecord(gc) ? { scavenges: num(gc, 'scavenges'), fullGcs: num(gc, 'fullGcs') } : null,
  };
}

/** GET /metrics/json of the Fray server at `url`, read; null when it does not answer. */
export async function metricsOf(url: string): Promise<Metrics | null> {
  try {
    const res = await fetch(`${url}/metrics/json`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
    if (!res.ok) return null;
    return readMetrics(await res.json());
  } catch {
    return null;
  }
}

/** Fray's database, read for its checkpoint count (set once the generator has connected) */
let database: pg.Client | null = null;
export const setDatabase = (db: pg.Client | null): void => {
  database = db;
};

export interface Sample {
  cpu: number;
  systemCpu: number;
  mainCpu: number;
  db: number;
  rss: number;
  heap: number;
  batches: number;
  entries: number;
  loop: LoopDelay | null;
  gc: GcCounts[] | null;
  checkpoints: number | null;
  waits: number[];
  table: CpuTable;
  machine: number;
  ours: number;
}

/** Fray's servers' own figures (heap, log writer, loop delay, GCs), summed or the worst. */
async function serverMetrics(cfg: LoadConfig): Promise<Pick<Sample, 'heap' | 'batches' | 'entries' | 'loop' | 'gc'>> {
  if (cfg.target !== 'fray') return { heap: NaN, batches: NaN, entries: NaN, loop: null, gc: null };
  let gc: GcCounts[] | null = [];
  let heap = 0;
  let batches = 0;
  let entries = 0;
  let loop: LoopDelay | null = null;
  for (const u of cfg.urls) {
    const m = await metricsOf(u);
    heap += m?.heapUsed ?? NaN;
    batches += m?.batches ?? NaN;
    entries += m?.entries ?? NaN;
    // the worst process's window (one process in every part but `scale`)
    const d = m?.loop;
    if (d && (!loop || d.p99 > loop.p99)) loop = { p50: d.p50, p99: d.p99, max: d.max };
    if (m?.gc && gc) gc.push(m.gc);
    else gc = null; // a process that did not answer: no count rather than a wrong one
  }
  return { heap, batches, entries, loop, gc };
}

export async function sample(cfg: LoadConfig): Promise<Sample> {
  let cpu = 0;
  let systemCpu = 0;
  let mainCpu = 0;
  let rss = 0;
  for (const pid of cfg.pids) {
    const split = cpuSplitSeconds(pid);
    cpu += split.user + split.system;
    systemCpu += split.system;
    mainCpu += mainThreadCpuSeconds(pid);
    rss += rssBytes(pid);
  }
  // the generator's own main thread last
  const waits = [...cfg.pids, process.pid].map(runQueueWaitSeconds);
  const server = await serverMetrics(cfg);
  const checkpoints = cfg.target === 'fray' && database ? await checkpointsBegun(database) : null;
  // the database's CPU only where Fray writes to it (boardgame.io and the floor have none)
  // what the bench itself and Postgres ran (for the rest of the machine: all of it less this)
  const pgAll = postgresCpuSeconds();
  const self = process.cpuUsage();
  const ours = cpu + (self.user + self.system) / 1e6 + cpuSeconds(process.ppid) + (Number.isFinite(pgAll) ? pgAll : 0);
  return {
    cpu,
    systemCpu,
    mainCpu,
    db: cfg.target === 'fray' ? pgAll : NaN,
    rss,
    ...server,
    checkpoints,
    waits,
    table: cpuTable(),
    machine: machineBusySeconds(),
    ours,
  };
}

/** The garbage collections between two samples, summed over the processes. */
export function gcBetween(before: GcCounts[] | null, after: GcCounts[] | null): PhaseResult['serverGc'] {
  if (!before || !after || before.length !== after.length) return null;
  let fullGcs = 0;
  let scavenges = 0;
  after.forEach((a, i) => {
    fullGcs += a.fullGcs - before[i]!.fullGcs;
    scavenges += a.scavenges - before[i]!.scavenges;
  });
  return { fullGcs, scavenges };
}

/** The worst server process's run-queue wait and the generator's, in % of the phase. */
export function runQueueWaits(before: number[], after: number[], seconds: number): PhaseResult['runQueueWaitPercent'] {
  const pct = (i: number) => ((after[i]! - before[i]!) / seconds) * 100;
  const servers = before.slice(0, -1).map((_, i) => pct(i));
  return { server: servers.length ? Math.max(...servers) : NaN, generator: pct(before.length - 1) };
}
