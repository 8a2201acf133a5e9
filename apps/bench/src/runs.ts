/** The servers a part runs against (a fresh database each), and the load runs on them. */
import { baseDb, log, redisUrl, PERF_HZ, S } from './config.js';
import { runLoad, type EngineRow } from './children.js';
import type { InprocResult } from './inproc.js';
import type { LoadResult, Phase, PhaseResult } from './load/types.js';
import { monotonicOf, recordPerf, type PerfSplit } from './perf.js';
import { checkpointNow, freshDatabase } from './proc.js';
import type { ProfileSummary } from './profile.js';
import { freePort, startFloor, startFray, type Running } from './servers.js';
import type { StartRun } from './start.js';
import { scriptShortfall } from './stats.js';

/** one server's on-CPU split over a 200 × 4 phase (perf.ts) */
export interface SplitRun {
  phase: PhaseResult;
  split: PerfSplit;
}

export interface Results {
  engine?: EngineRow[];
  fray?: LoadResult;
  rate?: LoadResult;
  bgio?: LoadResult;
  floor?: LoadResult;
  scale?: LoadResult;
  curve: LoadResult[];
  idle?: InprocResult;
  resume?: InprocResult;
  profile?: ProfileSummary & { phase?: PhaseResult };
  split?: { fray: SplitRun; floor: SplitRun };
  start?: StartRun[];
  errors: string[];
}

const dbs: Array<{ drop: () => Promise<void> }> = [];
let dbN = 0;
export async function newDb(): Promise<string> {
  const d = await freshDatabase(baseDb, `fray_bench_${process.pid}_${++dbN}`);
  dbs.push(d);
  return d.url;
}

export async function withFray<T>(
  fn: (servers: Running[], databaseUrl: string) => Promise<T>,
  opts: { processes?: number; nodeArgs?: string[] } = {},
): Promise<T> {
  const databaseUrl = await newDb();
  // every part starts right after a checkpoint: none of an earlier part's writes falls in it (the
  // next timed one comes checkpoint_timeout later, 5 minutes by default; each phase counts its own)
  if (!(await checkpointNow(baseDb))) log('CHECKPOINT refused (needs a superuser or pg_checkpoint): a checkpoint may fall inside a phase');
  const servers: Running[] = [];
  try {
    const n = opts.processes ?? 1;
    const prefix = `fray-bench-${process.pid}-${dbN}`;
    for (let k = 0; k < n; k++) {
      const port = await freePort();
      servers.push(
        await startFray({
          databaseUrl,
          port,
          ...(opts.nodeArgs ? { nodeArgs: opts.nodeArgs } : {}),
          ...(n > 1 ? { redisUrl, redisPrefix: prefix, publicUrl: `http://127.0.0.1:${port}` } : {}),
        }),
      );
    }
    return await fn(servers, databaseUrl);
  } finally {
    for (const s of servers) await s.stop();
  }
}

/** the floor's message size: Fray's average patch frame in `phase` (600 bytes without one) */
export const floorPayload = (phase: PhaseResult | undefined): number =>
  phase && Number.isFinite(phase.bytesPerUpdate) ? Math.round(phase.bytesPerUpdate) : 600;

/** the socket.io floor for the time of `fn`, stopped after it */
export async function withFloor<T>(payload: number, nodeArgs: string[], fn: (floor: Running) => Promise<T>): Promise<T> {
  const fl = await startFloor(payload, nodeArgs);
  try {
    return await fn(fl);
  } finally {
    await fl.stop();
  }
}

/** `load` (one phase) with `pid` recorded by perf meanwhile; the split of that phase's window */
export async function underPerf(pid: number, file: string, load: () => Promise<LoadResult>): Promise<SplitRun> {
  const rec = recordPerf(pid, file, PERF_HZ);
  const phase = (await load()).phases[0]!;
  return { phase, split: await rec.stop({ from: monotonicOf(phase.startedAt), to: monotonicOf(phase.endedAt) }) };
}

/**
 * A Fray load run. Each encounter plays its ruleset's precomputed script (S.script commands, built
 * in well under a second); an encounter that reaches its end stops sending, which would leave
 * the phases after it with less load and wrong figures, so a run where that happened fails.
 */
export async function frayLoad(
  servers: Running[],
  databaseUrl: string,
  E: number,
  P: number,
  phases: Phase[],
  rulesets = ['legends', 'ocv-phases'],
): Promise<LoadResult> {
  const r = await runLoad({
    target: 'fray',
    urls: servers.map((s) => s.url),
    pids: servers.map((s) => s.pid),
    E,
    P,
    phases,
    rulesets,
    databaseUrl,
    scriptLength: S.script,
  });
  const short = scriptShortfall(r.phases, S.script);
  if (short) throw new Error(short);
  return r;
}

/** Drop every database the run made. */
export async function dropDatabases(): Promise<void> {
  for (const d of dbs) await d.drop().catch((e: unknown) => log('drop database failed', e));
}
