/**
 * `npm run bench` (root): every benchmark of issue 8 in one bounded run, one table, and the
 * figures written into docs/performance.md between `<!-- bench:begin -->` and `<!-- bench:end -->`.
 *
 *   BENCH_ONLY=engine,e2e,peers,rate,scale,idle,resume,curve,profile,split,start,restart   parts (default: all but curve,
 *                        profile, split, start and restart, about 6-7 minutes here; `BENCH_ONLY=curve,profile` adds E=50 and
 *                        2,000 and the server profile; `BENCH_ONLY=split` gives Fray's and the floor's CPU by area from Linux
 *                        perf, perf.ts; `BENCH_ONLY=restart`: kill -9 and SIGTERM restarts under 1,000 × 5, restart.ts, about
 *                        10 minutes, writes its own block)
 *   BENCH_ONLY=start     start to ready and idle RSS, embedded and Postgres, `npm start` and node on the build (start.ts;
 *                        writes its own block of docs/performance.md)
 *   BENCH_START_IDLE     seconds the start part waits idle before it reads the RSS (default 10)
 *   BENCH_QUICK=1        a smoke run of about 3 minutes (small E, 5 s phases, no curve)
 *   BENCH_NO_DOC=1       print only, leave docs/performance.md alone
 *   BENCH_WARMUP=s       seconds of unmeasured load before each load run's phases (default 5, quick 2; 0 = none)
 *   BENCH_PROFILE_DIR    keep the profile part's .cpuprofile in this directory
 *   BENCH_PERF_HZ        samples a second of the split part's `perf record` (default 999)
 *   DATABASE_URL         the Postgres to create the run's databases next to (default the local test one)
 *   REDIS_URL            for the 2-process part (default redis://127.0.0.1:6379)
 * For digging into a figure (docs/performance.md, "Session 4"):
 *   BENCH_RATE_ONLY=1    the rate part runs only its 1/s phase (not the no-think and think curve phases)
 *   BENCH_TIMELINE=1     the generator prints where a phase's commands over 25 ms came from (loadgen.ts)
 *   BENCH_SERVER_NODE_ARGS, BENCH_LOADGEN_NODE_ARGS   extra node flags (`--trace-gc`, `--cpu-prof`, ...); set,
 *                        BENCH_LOADGEN_NODE_ARGS replaces the generator's default `--heap-growing-percent=400 --v8-pool-size=1`
 *   BENCH_PEER_NODE_ARGS  extra node flags for boardgame.io's and the floor's servers (`--cpu-prof --cpu-prof-dir=...`)
 *   BENCH_RATE_SECONDS   the length of the 1,000 × 5 rate phase (default 60: it spans two or three of the server's major GCs)
 *   BENCH_RATE_PROCESSES  server processes of the rate part (default 1; 2 runs them behind Redis like the
 *                        scale part: on the 2-core machine it was no better, docs/performance.md Session 14)
 *   BENCH_RATE_PER_ENCOUNTER  commands a second per encounter in that phase (default 1; any other value is for
 *                        comparing builds on a slower machine at the same heap, and the run writes no doc)
 *   BENCH_SERVER_LOG, BENCH_LOADGEN_LOG   file prefixes for the server's and the generator's stdout
 *   FRAY_DIAG=1          (passed on to the server) warn lines for event-loop stalls and slow commits
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync, existsSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { LoadConfig, LoadResult, Phase, PhaseResult } from './loadgen.js';
import type { InprocResult } from './inproc.js';
import { damonMonitors, describeDamon } from '@fray/server/memory';
import { checkpointNow, cpuGeneration, defaultDatabaseUrl, describeOtherCpu, freshDatabase, loadAverage } from './proc.js';
import { monotonicOf, perfAvailable, recordPerf, type PerfSplit } from './perf.js';
import { SCRIPT_COMMANDS } from './fights.js';
import { restartSection, runRestart, type RestartResult } from './restart.js';
import { summarizeProfile, type ProfileSummary } from './profile.js';
import { runStart, startRows, type StartRun } from './start.js';
import { freePort, repoRoot, serverMain, startBgio, startFloor, startFray, type Running } from './servers.js';
import { fmt, fmtRatio, markdownTable, ratio, replaceBetween, scriptShortfall, selectParts } from './stats.js';

const ALL = ['engine', 'e2e', 'peers', 'rate', 'scale', 'idle', 'resume', 'curve', 'profile', 'split', 'start', 'restart'] as const;
const DEFAULT = ALL.filter((p) => p !== 'curve' && p !== 'profile' && p !== 'split' && p !== 'start' && p !== 'restart');
const parts = selectParts(process.env.BENCH_ONLY, ALL, DEFAULT);
const QUICK = process.env.BENCH_QUICK === '1';
const here = new URL('.', import.meta.url).pathname;
const baseDb = process.env.DATABASE_URL ?? defaultDatabaseUrl;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const started = Date.now();
/** server processes of the rate part (BENCH_RATE_PROCESSES, default 1) */
const RATE_PROCESSES = Math.max(1, Math.floor(Number(process.env.BENCH_RATE_PROCESSES ?? 1)) || 1);
const log = (...a: unknown[]) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s]`, ...a);

// sizes and durations (bounded: the default run is about 6-7 minutes on 2 cores)
const S = QUICK
  ? { E: 40, P: 4, phase: 5, rateE: 200, rateP: 5, rate: 1, ratePhase: 8, curve: [] as Array<[number, number]>, curvePhase: 5, script: 5000 }
  : { E: 200, P: 4, phase: 15, rateE: 1000, rateP: 5, rate: Number(process.env.BENCH_RATE_PER_ENCOUNTER ?? 1), ratePhase: Number(process.env.BENCH_RATE_SECONDS ?? 60), curve: [[50, 4], [2000, 5]] as Array<[number, number]>, curvePhase: 10, script: SCRIPT_COMMANDS };

/** unmeasured load before the phases of every load run, Fray's and the peers' alike (loadgen.ts) */
const WARMUP = Number(process.env.BENCH_WARMUP ?? (QUICK ? 2 : 5));
/** seconds the start part leaves each server idle before it reads its RSS (BENCH_START_IDLE) */
const START_IDLE = Number(process.env.BENCH_START_IDLE ?? 10);
/** samples a second of the split part's perf (BENCH_PERF_HZ) */
const PERF_HZ = Number(process.env.BENCH_PERF_HZ ?? 999);
/**
 * The generator is the instrument, not the system under test: its old generation may grow to five
 * times what is live before a major GC (V8's own factor is about 1.3 at its heap size), so that
 * its mark-compacts, whose concurrent marking took 1.5 cores for 100-200 ms and starved the server
 * every 6-26 s, do not fall inside a phase (docs/performance.md, "Session 6"). The same for every
 * target.
 */
const LOADGEN_NODE_ARGS = process.env.BENCH_LOADGEN_NODE_ARGS ?? '--heap-growing-percent=400 --v8-pool-size=1';

// ---------------------------------------------------------------- children
function runLoad(cfg: LoadConfig): Promise<LoadResult> {
  cfg = { warmupSeconds: WARMUP, ...cfg };
  return new Promise((resolve, reject) => {
    const extra = LOADGEN_NODE_ARGS.split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...extra, join(here, 'loadgen.js')], {
      env: { ...process.env, NODE_ENV: 'production', BENCH_LOAD: JSON.stringify(cfg), BENCH_ONLY: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      if (process.env.BENCH_LOADGEN_LOG) writeFileSync(`${process.env.BENCH_LOADGEN_LOG}.${child.pid}`, out);
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)) as LoadResult);
      else reject(new Error(`load generator failed (${code}): ${out.slice(-2000)}`));
    });
  });
}

interface EngineRow {
  ruleset: string;
  applyPerSec: number;
  applyPerCpuSec: number;
  legalPerSec: number;
  legalPerCpuSec: number;
  replayMs: number;
  replayCpuMs: number;
  stateBytes: number;
  maxStateBytes: number;
  floorUs: number;
}

/** The rulesets' engine bench through its production runner (esbuild bundle, NODE_ENV=production). */
function runEngine(): EngineRow[] {
  const cwd = join(repoRoot, 'packages/rulesets');
  const env = { ...process.env, BENCH_JSON: '1' } as NodeJS.ProcessEnv;
  if (QUICK) env.BENCH_ONLY = 'legends,ocv-phases';
  else delete env.BENCH_ONLY; // ours lists parts, not rulesets
  const r = spawnSync(process.execPath, ['bench/run.mjs', 'bench/all.bench.ts'], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`engine bench failed: ${r.stderr}`);
  const lines = r.stdout.split('\n');
  const a = lines.indexOf('[');
  const b = lines.indexOf(']', a);
  if (a < 0 || b < 0) throw new Error(`engine bench printed no JSON rows: ${r.stdout.slice(-2000)}`);
  return JSON.parse(lines.slice(a, b + 1).join('\n')) as EngineRow[];
}

function runInproc(kind: 'idle' | 'resume', databaseUrl: string): InprocResult {
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, 'inproc.js'), kind], {
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: databaseUrl, BENCH_QUICK: QUICK ? '1' : '' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 300_000,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.status !== 0 || !line) throw new Error(`in-process ${kind} bench failed (${r.status}): ${r.stdout.slice(-2000)}`);
  return JSON.parse(line.slice(7)) as InprocResult;
}

// ---------------------------------------------------------------- runs
/** one server's on-CPU split over a 200 × 4 phase (perf.ts) */
interface SplitRun {
  phase: PhaseResult;
  split: PerfSplit;
}

interface Results {
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
async function newDb(): Promise<string> {
  const d = await freshDatabase(baseDb, `fray_bench_${process.pid}_${++dbN}`);
  dbs.push(d);
  return d.url;
}

async function withFray<T>(fn: (servers: Running[], databaseUrl: string) => Promise<T>, opts: { processes?: number; nodeArgs?: string[] } = {}): Promise<T> {
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
const floorPayload = (phase: PhaseResult | undefined): number => (phase && Number.isFinite(phase.bytesPerUpdate) ? Math.round(phase.bytesPerUpdate) : 600);

/** the socket.io floor for the time of `fn`, stopped after it */
async function withFloor<T>(payload: number, nodeArgs: string[], fn: (floor: Running) => Promise<T>): Promise<T> {
  const fl = await startFloor(payload, nodeArgs);
  try {
    return await fn(fl);
  } finally {
    await fl.stop();
  }
}

/** `load` (one phase) with `pid` recorded by perf meanwhile; the split of that phase's window */
async function underPerf(pid: number, file: string, load: () => Promise<LoadResult>): Promise<SplitRun> {
  const rec = recordPerf(pid, file, PERF_HZ);
  const phase = (await load()).phases[0]!;
  return { phase, split: await rec.stop({ from: monotonicOf(phase.startedAt), to: monotonicOf(phase.endedAt) }) };
}

/**
 * A Fray load run. Each encounter plays its ruleset's precomputed script (S.script commands, built
 * in well under a second); an encounter that reaches its end stops sending, which would leave
 * the phases after it with less load and wrong figures, so a run where that happened fails.
 */
async function frayLoad(servers: Running[], databaseUrl: string, E: number, P: number, phases: Phase[], rulesets = ['legends', 'ocv-phases']): Promise<LoadResult> {
  const r = await runLoad({ target: 'fray', urls: servers.map((s) => s.url), pids: servers.map((s) => s.pid), E, P, phases, rulesets, databaseUrl, scriptLength: S.script });
  const short = scriptShortfall(r.phases, S.script);
  if (short) throw new Error(short);
  return r;
}

async function main(): Promise<void> {
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: build first (npm run build, or the root npm run bench does it)`);
  const staleness = readdirSync(join(repoRoot, 'apps/server/src')).some((f) => statSync(join(repoRoot, 'apps/server/src', f)).mtimeMs > statSync(serverMain).mtimeMs);
  if (staleness) log('warning: apps/server/src is newer than its dist build; run `npm run build` for current figures');
  const R: Results = { curve: [], errors: [] };
  const attempt = async (name: string, fn: () => Promise<void>) => {
    if (!parts.has(name)) return;
    const t0 = Date.now();
    log(`${name}: start (load ${loadAverage()})`);
    try {
      await fn();
    } catch (e) {
      R.errors.push(`${name}: ${e instanceof Error ? e.message.slice(0, 500) : String(e)}`);
      log(`${name}: FAILED`, e);
    }
    log(`${name}: done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  };

  await attempt('engine', async () => {
    R.engine = runEngine();
  });
  const think = { name: 'think 100 ms', seconds: S.phase, thinkMs: 100 };
  await attempt('e2e', async () => {
    R.fray = await withFray((sv, db) =>
      frayLoad(sv, db, S.E, S.P, [
        // two bad phases, each between clean ones: the machine drifts and jumps between phases
        // (8-23 % between two clean phases of one run here), and the target compares means
        { name: 'clean', seconds: S.phase },
        { name: 'bad 5%', seconds: S.phase, bad: 0.05 },
        { name: 'clean again', seconds: S.phase },
        { name: 'bad 5% (2)', seconds: S.phase, bad: 0.05 },
        { name: 'clean (3)', seconds: S.phase },
        think,
      ]),
    );
  });
  await attempt('peers', async () => {
    const bg = await startBgio();
    try {
      R.bgio = await runLoad({ target: 'bgio', urls: [bg.url], pids: [bg.pid], E: S.E, P: S.P, phases: [{ name: 'clean', seconds: S.phase }, think] });
    } finally {
      await bg.stop();
    }
    const payload = floorPayload(R.fray?.phases.find((p) => p.name === 'clean'));
    R.floor = await withFloor(payload, [], (fl) => runLoad({ target: 'floor', urls: [fl.url], pids: [fl.pid], E: S.E, P: S.P, phases: [{ name: 'clean', seconds: S.phase }, think], payloadBytes: payload }));
  });
  await attempt('rate', async () => {
    R.rate = await withFray(
      (sv, db) =>
        frayLoad(sv, db, S.rateE, S.rateP, [
          { name: `${S.rate}/s per encounter`, seconds: S.ratePhase, ratePerEncounter: S.rate },
          ...(QUICK || process.env.BENCH_RATE_ONLY ? [] : [{ name: 'clean', seconds: S.curvePhase }, { ...think, seconds: S.curvePhase }]),
        ]),
      { processes: RATE_PROCESSES },
    );
  });
  await attempt('scale', async () => {
    R.scale = await withFray((sv, db) => frayLoad(sv, db, S.E, S.P, [{ name: 'clean', seconds: S.phase }]), { processes: 2 });
  });
  await attempt('curve', async () => {
    for (const [E, P] of S.curve) {
      R.curve.push(await withFray((sv, db) => frayLoad(sv, db, E, P, [{ name: 'clean', seconds: S.curvePhase }, { ...think, seconds: S.curvePhase }])));
    }
  });
  await attempt('idle', async () => {
    R.idle = runInproc('idle', await newDb());
  });
  await attempt('resume', async () => {
    R.resume = runInproc('resume', await newDb());
  });
  await attempt('profile', async () => {
    // BENCH_PROFILE_DIR=<dir> keeps the .cpuprofile there (for a closer look: DevTools, or profile.ts)
    const keep = process.env.BENCH_PROFILE_DIR;
    const dir = keep ?? mkdtempSync(join(tmpdir(), 'fray-bench-prof-'));
    try {
      let spawnedAt = 0;
      const r = await withFray(
        (sv, db) => {
          spawnedAt = sv[0]!.startedAt;
          return frayLoad(sv, db, S.E, S.P, [{ name: 'clean', seconds: S.phase }]);
        },
        { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] },
      );
      const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort().at(-1);
      if (!file) throw new Error('no .cpuprofile written');
      const ph = r.phases[0]!;
      // only the load phase: the process's start, the setup and the shutdown are cut off
      R.profile = summarizeProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')), 20, { fromMs: ph.startedAt - spawnedAt, toMs: ph.endedAt - spawnedAt });
      R.profile.phase = ph;
    } finally {
      if (!keep) rmSync(dir, { recursive: true, force: true });
    }
  });
  await attempt('split', async () => {
    if (!perfAvailable()) throw new Error('Linux perf is not installed (Debian: apt-get install linux-perf)');
    // the JIT's frames named in /tmp/perf-<pid>.map; perf.ts removes the map with the recording
    const perfMap = ['--perf-basic-prof-only-functions'];
    const dir = mkdtempSync(join(tmpdir(), 'fray-bench-perf-'));
    try {
      const fray = await withFray(
        (sv, db) => underPerf(sv[0]!.pid, join(dir, 'fray.data'), () => frayLoad(sv, db, S.E, S.P, [{ name: 'clean', seconds: S.phase }])),
        { nodeArgs: perfMap },
      );
      const payload = floorPayload(fray.phase);
      const floor = await withFloor(payload, perfMap, (fl) =>
        underPerf(fl.pid, join(dir, 'floor.data'), () => runLoad({ target: 'floor', urls: [fl.url], pids: [fl.pid], E: S.E, P: S.P, phases: [{ name: 'clean', seconds: S.phase }], payloadBytes: payload })),
      );
      R.split = { fray, floor };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  await attempt('start', async () => {
    R.start = await runStart({ baseDb, idleSeconds: START_IDLE, log });
  });
  let restart: RestartResult | undefined;
  await attempt('restart', async () => {
    // BENCH_RESTART_E: fewer encounters (the doc's figures are for 1,000)
    restart = await runRestart({ baseDb, E: Number(process.env.BENCH_RESTART_E ?? (QUICK ? 200 : 1000)), P: 5, log });
  });
  for (const d of dbs) await d.drop().catch((e: unknown) => log('drop database failed', e));
  if (restart) {
    const section = restartSection(restart, `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpuGeneration()}`);
    console.log(section);
    if (process.env.BENCH_NO_DOC !== '1' && !QUICK) writeDoc('bench-restart', section);
    parts.delete('restart');
    if (parts.size === 0) return;
  }

  const report = render(R);
  console.log(report);
  // the doc holds full runs only: the default parts (main block), or the curve and profile run
  const isDefault = DEFAULT.every((p) => parts.has(p)) && parts.size === DEFAULT.length;
  const isCurve = [...parts].every((p) => p === 'curve' || p === 'profile');
  const isStart = parts.size === 1 && parts.has('start');
  if (process.env.BENCH_NO_DOC === '1') log('docs/performance.md left alone (BENCH_NO_DOC)');
  else if (QUICK || R.errors.length) log('docs/performance.md not written (BENCH_QUICK, or a part failed)');
  else if (S.rate !== 1) log('docs/performance.md not written (BENCH_RATE_PER_ENCOUNTER is not the target\'s 1/s)');
  else if (isDefault) writeDoc('bench', report);
  else if (isCurve) writeDoc('bench-curve', report);
  else if (isStart) writeDoc('bench-start', report);
  else log('docs/performance.md not written (only the default parts, BENCH_ONLY=curve,profile or BENCH_ONLY=start write it)');
  if (R.errors.length) {
    console.error(`${R.errors.length} part(s) failed:\n${R.errors.join('\n')}`);
    process.exitCode = 1;
  }
}

// ---------------------------------------------------------------- the table
const ms = (x: number | undefined) => fmt(x, x !== undefined && x < 10 ? 2 : 1);
const KB = (x: number) => `${fmt(x / 1024, 1)} KB`;
const phaseOf = (r: LoadResult | undefined, name: string): PhaseResult | undefined => r?.phases.find((p) => p.name === name);
/** the note on a phase's latency when some of its commands waited out the server's rate limit */
const heldBack = (p: PhaseResult): string => (p.heldBack > 0 ? ` (${fmt(p.heldBack)} commands held back by the rate limit, 100 ms each)` : '');
const yes = (b: boolean | undefined) => (b === undefined ? '–' : b ? 'met' : '**missed**');

/** The kernel's DAMON monitor, where it runs: its kdamond thread takes a core in bursts at every sample (Session 16). */
function damonNote(): string {
  const on = damonMonitors();
  if (on.length === 0) return '';
  return `; the kernel's DAMON memory monitor was on (${describeDamon(on)}): see "the rest of the machine's CPU"`;
}

function render(R: Results): string {
  const rows: string[][] = [];
  const row = (part: string, what: string, fray: string, bgio = '', floor = '', vsBgio = '', vsFloor = '', target = '', met = '') =>
    rows.push([part, what, fray, bgio, floor, vsBgio, vsFloor, target, met]);

  for (const e of R.engine ?? []) {
    row(`engine ${e.ruleset}`, 'validate+apply commands/s (per CPU-s; wall)', `${fmt(e.applyPerCpuSec)} (${fmt(e.applyPerSec)})`, '', '', '', '', '≥ 100,000/CPU-s', yes(e.applyPerCpuSec >= 100_000));
    row(`engine ${e.ruleset}`, 'legalActions calls/s (per CPU-s)', fmt(e.legalPerCpuSec));
    row(`engine ${e.ruleset}`, 'replay of 10,000 commands, ms (CPU)', `${fmt(e.replayMs)} (${fmt(e.replayCpuMs)})`);
    row(`engine ${e.ruleset}`, 'state bytes, 12 combatants (max)', `${fmt(e.stateBytes)} (${fmt(e.maxStateBytes)})`, '', '', '', '', '≤ 65,536', yes(e.maxStateBytes <= 65_536));
  }

  const fc = phaseOf(R.fray, 'clean');
  const bc = phaseOf(R.bgio, 'clean');
  const lc = phaseOf(R.floor, 'clean');
  if (fc || bc || lc) {
    const part = `e2e ${S.E}×${S.P}, no think`;
    row(part, 'accepted commands/s', fmt(fc?.acceptedPerSec), fmt(bc?.acceptedPerSec), fmt(lc?.acceptedPerSec), fmtRatio(ratio(fc?.acceptedPerSec, bc?.acceptedPerSec)), fmtRatio(ratio(fc?.acceptedPerSec, lc?.acceptedPerSec)), '≥ 2× boardgame.io', yes(fc && bc ? fc.acceptedPerSec >= 2 * bc.acceptedPerSec : undefined));
    const lat = (p?: PhaseResult) => (p ? `${ms(p.latency.p50)} / ${ms(p.latency.p95)} / ${ms(p.latency.p99)}${heldBack(p)}` : '–');
    row(part, 'latency send → every client, p50 / p95 / p99 ms', lat(fc), lat(bc), lat(lc), fmtRatio(ratio(fc?.latency.p99, bc?.latency.p99)), fmtRatio(ratio(fc?.latency.p99, lc?.latency.p99)), 'p99 < boardgame.io', yes(fc && bc ? fc.latency.p99 < bc.latency.p99 : undefined));
    row(part, 'server CPU µs per command', fmt(fc?.serverCpuUsPerCommand), fmt(bc?.serverCpuUsPerCommand), fmt(lc?.serverCpuUsPerCommand), fmtRatio(ratio(fc?.serverCpuUsPerCommand, bc?.serverCpuUsPerCommand)), fmtRatio(ratio(fc?.serverCpuUsPerCommand, lc?.serverCpuUsPerCommand)), '≤ 2× floor', yes(fc && lc ? fc.serverCpuUsPerCommand <= 2 * lc.serverCpuUsPerCommand : undefined));
    // the rest is V8's helper threads: GC and the optimizing compiler (docs/performance.md, Session 15)
    row(part, "of which the server's main thread (its event loop), µs", fmt(fc?.serverMainThreadCpuUsPerCommand), fmt(bc?.serverMainThreadCpuUsPerCommand), fmt(lc?.serverMainThreadCpuUsPerCommand), fmtRatio(ratio(fc?.serverMainThreadCpuUsPerCommand, bc?.serverMainThreadCpuUsPerCommand)), fmtRatio(ratio(fc?.serverMainThreadCpuUsPerCommand, lc?.serverMainThreadCpuUsPerCommand)));
    // the kernel's part (socket writes and reads): the same work for Fray and the floor, which is why the floor ratio differs between machines (Session 18)
    row(part, 'of which system time (the kernel: socket writes, reads, epoll), µs', fmt(fc?.serverSystemCpuUsPerCommand), fmt(bc?.serverSystemCpuUsPerCommand), fmt(lc?.serverSystemCpuUsPerCommand), fmtRatio(ratio(fc?.serverSystemCpuUsPerCommand, bc?.serverSystemCpuUsPerCommand)), fmtRatio(ratio(fc?.serverSystemCpuUsPerCommand, lc?.serverSystemCpuUsPerCommand)));
    row(part, 'server CPU % of one core; load generator %', fc ? `${fmt(fc.serverCpuPercent)} %; ${fmt(fc.loadgenCpuPercent)} %` : '–', bc ? `${fmt(bc.serverCpuPercent)} %; ${fmt(bc.loadgenCpuPercent)} %` : '–', lc ? `${fmt(lc.serverCpuPercent)} %; ${fmt(lc.loadgenCpuPercent)} %` : '–');
    if (fc) {
      const share = fc.bytesPerUpdate / fc.fullStateBytes;
      row(part, 'bytes per patch frame / full state (share)', `${fmt(fc.bytesPerUpdate)} / ${fmt(fc.fullStateBytes)} (${fmt(share * 100, 1)} %)`, bc ? `${fmt(bc.bytesPerUpdate)}` : '', lc ? `${fmt(lc.bytesPerUpdate)}` : '', '', '', '≤ 10 %', yes(share <= 0.1));
    }
    const perEnc = (r?: LoadResult, p?: PhaseResult) => (r && p ? `${KB((p.rssBytes - r.baseline.rssBytes) / r.E)} / ${Number.isFinite(p.heapUsedBytes) ? KB((p.heapUsedBytes - r.baseline.heapUsedBytes) / r.E) : '–'}` : '–');
    row(part, 'server RSS / heap per encounter (growth over the empty server)', perEnc(R.fray, fc), perEnc(R.bgio, bc), perEnc(R.floor, lc));
    // the cores are shared with whatever else the machine runs (docs/performance.md, Session 16)
    row(part, "the rest of the machine's CPU in the phase, % of one core (largest)", fc ? describeOtherCpu(fc.otherCpu) : '–', bc ? describeOtherCpu(bc.otherCpu) : '–', lc ? describeOtherCpu(lc.otherCpu) : '–');
    if (fc) row(part, 'database commits/s (log entries per commit); Postgres CPU µs per command; checkpoints in the phase', `${fmt(fc.commitsPerSec)} (${fmt(fc.entriesPerCommit, 1)}); ${fmt(fc.databaseCpuUsPerCommand)}; ${fc.checkpoints ?? '–'}`, 'in memory', '–');
  }
  const fb = phaseOf(R.fray, 'bad 5%');
  const bads = (R.fray?.phases ?? []).filter((p) => p.bad);
  const cleans = (R.fray?.phases ?? []).filter((p) => p.name === 'clean' || p.name === 'clean again' || p.name === 'clean (3)');
  if (fc && fb && fb.bad) {
    const mean = (ps: PhaseResult[]) => ps.reduce((a, p) => a + p.acceptedPerSec, 0) / ps.length;
    const clean = mean(cleans);
    const held = mean(bads) / clean;
    const each = `bad ${bads.map((p) => fmt(p.acceptedPerSec)).join(', ')}; clean ${cleans.map((p) => fmt(p.acceptedPerSec)).join(', ')}`;
    row('bad input 5 %', 'legal commands/s, mean of the bad phases vs the clean phases around them', `${fmt(mean(bads))} vs ${fmt(clean)} (${fmt(held * 100)} %; ${each})`, '', '', '', '', '≥ 90 %', yes(held >= 0.9));
    const typed = bads.reduce((a, p) => a + p.bad!.typed, 0);
    const sent = bads.reduce((a, p) => a + p.bad!.sent, 0);
    const other: Record<string, number> = {};
    for (const p of bads) for (const [k, v] of Object.entries(p.bad!.untyped)) other[k] = (other[k] ?? 0) + v;
    const untyped = Object.entries(other).map(([k, v]) => `${k} ${v}`).join(', ');
    row('bad input 5 %', 'bad commands answered with their typed error', `${fmt(typed)} of ${fmt(sent)}${untyped ? ` (other: ${untyped})` : ''}`, '', '', '', '', 'all', yes(typed === sent));
    row('bad input 5 %', 'p50 / p99 of the legal commands, ms, first bad phase (clean run)', `${ms(fb.latency.p50)} / ${ms(fb.latency.p99)} (${ms(fc.latency.p50)} / ${ms(fc.latency.p99)})`);
    row('bad input 5 %', 'ack ms of the bad commands, p50 by code (first bad phase)', Object.entries(fb.bad.ackMsP50 ?? {}).map(([k, v]) => `${k} ${ms(v)}`).join(', '));
  }
  if (R.fray?.check) {
    const c = R.fray.check;
    const refused = R.fray.phases.reduce((a, p) => a + Object.values(p.refused).reduce((x, y) => x + y, 0), 0);
    row('no loss', 'log entries in Postgres = setup + accepted acks (legal refused)', `${fmt(c.logEntries)} = ${fmt(c.expected)} (${fmt(refused)})`, '', '', '', '', 'equal, 0 refused', yes(c.logEntries === c.expected && refused === 0));
  }
  const ft = phaseOf(R.fray, 'think 100 ms');
  const bt = phaseOf(R.bgio, 'think 100 ms');
  const lt = phaseOf(R.floor, 'think 100 ms');
  if (ft || bt || lt) {
    const part = `e2e ${S.E}×${S.P}, think 100 ms`;
    row(part, 'commands/s; p99 ms', ft ? `${fmt(ft.acceptedPerSec)}; ${ms(ft.latency.p99)}` : '–', bt ? `${fmt(bt.acceptedPerSec)}; ${ms(bt.latency.p99)}` : '–', lt ? `${fmt(lt.acceptedPerSec)}; ${ms(lt.latency.p99)}` : '–', fmtRatio(ratio(ft?.latency.p99, bt?.latency.p99)), fmtRatio(ratio(ft?.latency.p99, lt?.latency.p99)));
    row(part, 'server CPU µs per command', fmt(ft?.serverCpuUsPerCommand), fmt(bt?.serverCpuUsPerCommand), fmt(lt?.serverCpuUsPerCommand), fmtRatio(ratio(ft?.serverCpuUsPerCommand, bt?.serverCpuUsPerCommand)), fmtRatio(ratio(ft?.serverCpuUsPerCommand, lt?.serverCpuUsPerCommand)));
  }
  const rr = R.rate?.phases[0];
  if (R.rate && rr) {
    const part = `e2e ${R.rate.E}×${R.rate.P} at ${fmt(R.rate.E * S.rate)}/s${RATE_PROCESSES > 1 ? `, ${RATE_PROCESSES} processes` : ''}`;
    row(part, `accepted commands/s; p50 / p95 / p99 ms (${fmt(rr.seconds)} s)`, `${fmt(rr.acceptedPerSec)}; ${ms(rr.latency.p50)} / ${ms(rr.latency.p95)} / ${ms(rr.latency.p99)}`, '', '', '', '', 'p99 ≤ 25 ms', yes(rr.latency.p99 <= 25));
    row(part, 'server CPU µs/command (main thread); CPU %; commits/s; Postgres CPU µs/command', `${fmt(rr.serverCpuUsPerCommand)} (${fmt(rr.serverMainThreadCpuUsPerCommand)}); ${fmt(rr.serverCpuPercent)} %; ${fmt(rr.commitsPerSec)}; ${fmt(rr.databaseCpuUsPerCommand)}`);
    row(part, 'server RSS / heap per encounter', `${KB((rr.rssBytes - R.rate.baseline.rssBytes) / R.rate.E)} / ${KB((rr.heapUsedBytes - R.rate.baseline.heapUsedBytes) / R.rate.E)}`);
    const sl = rr.serverLoopDelayMs;
    row(part, 'event-loop delay p99 / max ms: server (last 10 s); generator (phase)', `${sl ? `${ms(sl.p99)} / ${ms(sl.max)}` : '–'}; ${ms(rr.loadgenLoopDelayMs.p99)} / ${ms(rr.loadgenLoopDelayMs.max)}`);
    // the cores are shared: a runnable event loop that waits for one is late (Session 14)
    row(part, 'share of the phase the event loop waited for a core: server; generator', `${fmt(rr.runQueueWaitPercent.server)} %; ${fmt(rr.runQueueWaitPercent.generator)} %`);
    // a kernel thread that takes a core in bursts (DAMON's kdamond on some VMs) sets the tail (Session 16)
    row(part, "the rest of the machine's CPU in the phase, % of one core (largest)", describeOtherCpu(rr.otherCpu));
    // one full GC of the server in the phase makes most of its late commands (docs/performance.md, Session 13)
    if (rr.serverGc) row(part, "the server's garbage collections in the phase: full GCs; scavenges", `${fmt(rr.serverGc.fullGcs)}; ${fmt(rr.serverGc.scavenges)}`);
    // a Postgres checkpoint in the phase slows its commits (docs/performance.md, Session 14)
    if (rr.checkpoints !== null) row(part, 'Postgres checkpoints begun in the phase (one ran just before the server started)', fmt(rr.checkpoints));
  }
  const sc = R.scale?.phases[0];
  if (R.scale && sc) {
    row(`2 processes, ${S.E}×${S.P}`, 'accepted commands/s (ratio to 1 process)', `${fmt(sc.acceptedPerSec)} (${fmtRatio(ratio(sc.acceptedPerSec, fc?.acceptedPerSec))})`);
    row(`2 processes, ${S.E}×${S.P}`, 'p99 ms: all; commands of redirected clients (NOT_OWNER followed)', `${ms(sc.latency.p99)}; ${sc.latencyRedirected ? `${ms(sc.latencyRedirected.p99)} (${fmt(sc.latencyRedirected.count)} commands, ${fmt(R.scale.redirectedClients)} clients)` : '–'}`);
  }
  if (R.idle?.idle) {
    for (const x of R.idle.idle) {
      row(`idle ${x.ruleset}`, `heap per idle live encounter (${x.encounters} loaded, v${x.version}; of which the state)`, `${KB(x.liveBytesPerEncounter)} (${KB(x.stateBytesPerEncounter)})`, '', '', '', '', '≤ 50 KB', yes(x.liveBytesPerEncounter <= 50 * 1024));
      row(`idle ${x.ruleset}`, 'heap per evicted encounter', KB(x.evictedBytesPerEncounter), '', '', '', '', '≤ 2 KB (≈ 0)', yes(x.evictedBytesPerEncounter <= 2048));
    }
    for (const x of R.idle.watched ?? []) {
      row(`idle ${x.ruleset}`, `heap per watched live encounter (5 viewers, v${R.idle.idle.find((y) => y.ruleset === x.ruleset)?.version ?? '?'}, sync history ${x.syncHistory})`, KB(x.bytesPerEncounter), '', '', '', '', '', '');
    }
  }
  if (R.resume?.resume) {
    for (const x of R.resume.resume) {
      row(`resume ${x.ruleset}`, `open with ${fmt(x.logged)} logged commands: snapshot v${x.snapshotAt} + ${x.tail} tail, ms median (max)`, `${ms(x.medianMs)} (${ms(x.maxMs)})`, '', '', '', '', '≤ 200 ms', yes(x.medianMs <= 200));
      row(`resume ${x.ruleset}`, 'the same with no snapshot (all 10,000 replayed), ms', ms(x.noSnapshotMs));
    }
  }
  // one row per curve point; a point whose commands met the server's rate limit (30 messages a
  // second a socket, flood protection) says how many: their latency holds the generator's back-off
  const curveRow = (E: number, P: number, p: PhaseResult, name = p.name === 'clean' ? 'no think' : p.name) =>
    row(
      `curve ${E}×${P}, ${name}`,
      'commands/s; p50 / p99 ms; server CPU % (generator %); µs/cmd; commits/s (entries each)',
      `${fmt(p.acceptedPerSec)}; ${ms(p.latency.p50)} / ${ms(p.latency.p99)}; ${fmt(p.serverCpuPercent)} % (${fmt(p.loadgenCpuPercent)} %); ${fmt(p.serverCpuUsPerCommand)}; ${fmt(p.commitsPerSec)} (${fmt(p.entriesPerCommit, 1)})${heldBack(p)}`,
    );
  for (const c of R.curve) for (const p of c.phases) curveRow(c.E, c.P, p);
  if (R.rate && !QUICK) for (const p of R.rate.phases.slice(1)) curveRow(R.rate.E, R.rate.P, p);
  if (fc && !QUICK) curveRow(S.E, S.P, fc, 'no think');
  if (ft && !QUICK) curveRow(S.E, S.P, ft, 'think 100 ms');

  const header = ['part', 'figure', 'Fray', 'boardgame.io', 'socket.io floor', 'Fray ÷ bgio', 'Fray ÷ floor', 'target', ''];
  const cpu = cpus();
  const generation = cpuGeneration();
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16)}Z${QUICK ? ' (BENCH_QUICK)' : ''}, ${((Date.now() - started) / 1000).toFixed(0)} s; ${cpu.length} × ${cpu[0]?.model ?? '?'}${generation ? ` (${generation})` : ''}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average at the end ${loadAverage()}; Postgres ${baseDb.replace(/\/\/[^@]*@/, '//')} (a fresh database per server run, durable acks), the load generator in its own process on the same 2 cores${damonNote()}.`,
    ...(rows.length ? ['', markdownTable(header, rows)] : []),
  ];
  if (R.start) {
    lines.push('', markdownTable(['part', 'figure', 'Fray', 'target', ''], startRows(R.start, START_IDLE)));
  }
  if (R.profile) {
    const ph = R.profile.phase;
    lines.push('', `Server CPU profile (--cpu-prof, e2e ${S.E}×${S.P} no think, the load phase only: ${ph ? `${fmt(ph.acceptedPerSec)} commands/s, ${fmt(ph.serverCpuUsPerCommand)} µs CPU per command, ` : ''}${fmt(R.profile.totalMs)} ms of CPU sampled): self time by area, then the top functions.`, '');
    lines.push(markdownTable(['area', 'self %'], R.profile.areas.map((a) => [a.name, fmt(a.percent, 1)])));
    lines.push('', markdownTable(['function (file)', 'self %'], R.profile.functions.map((f) => [f.name, fmt(f.percent, 1)])));
  }
  if (R.split) lines.push('', ...renderSplit(R.split));
  if (R.errors.length) lines.push('', `Failed parts: ${R.errors.join('; ')}`);
  return lines.join('\n');
}

const TRANSPORT_AREAS = new Set(['socket.io', 'socket.io-parser', 'socket.io-adapter', 'engine.io', 'engine.io-parser', 'ws', 'debug', 'Node internals (net, streams, timers…)']);
/** subtotals under the split's table: the transport's JavaScript, and Fray's own work with the libraries it calls */
const SPLIT_GROUPS: Array<[string, (area: string) => boolean]> = [
  ["the transport's JavaScript (socket.io, engine.io, ws, their parser and adapter, Node's streams)", (a) => TRANSPORT_AREAS.has(a)],
  ["Fray's own packages and what they call (@fray/*, zod, pg, pino…)", (a) => a.startsWith('@fray/') || ['zod', 'pg', 'pg-pool', 'pg-protocol', 'pg-types', 'pino', 'mutative', 'pure-rand', '@prisma/client', 'fastify'].includes(a)],
];

/** Fray's and the floor's CPU a command by area, side by side (the split part). */
function renderSplit(s: { fray: SplitRun; floor: SplitRun }): string[] {
  const us = (r: SplitRun, area: string) => (r.split.areas.find((a) => a.name === area)?.share ?? 0) * r.phase.serverCpuUsPerCommand;
  const names = [...new Set([...s.fray.split.areas, ...s.floor.split.areas].map((a) => a.name))];
  names.sort((a, b) => us(s.fray, b) - us(s.fray, a) || us(s.floor, b) - us(s.floor, a));
  const cell = (r: SplitRun, area: string) => {
    const share = r.split.areas.find((a) => a.name === area)?.share ?? 0;
    return share ? `${fmt(us(r, area), 1)} (${fmt(share * 100, 1)} %)` : '–';
  };
  const head = (r: SplitRun) => `${fmt(r.phase.acceptedPerSec)} commands/s, ${fmt(r.phase.serverCpuUsPerCommand)} µs a command, ${fmt(r.split.samples)} samples`;
  return [
    `On-CPU split (Linux perf at ${PERF_HZ} Hz over every thread of the server, e2e ${S.E}×${S.P} no think, the load phase only; the sampling itself costs the servers some CPU): Fray ${head(s.fray)}; the socket.io floor ${head(s.floor)}. µs a command by area (share of the samples); an area is the kernel, the garbage collector, V8's compiler, or the package of the nearest JavaScript frame (builtins such as JSON.stringify count to their caller's).`,
    '',
    markdownTable(
      ['area', 'Fray µs a command', 'floor µs a command', 'Fray − floor µs'],
      [
        ...names.map((n) => [n, cell(s.fray, n), cell(s.floor, n), fmt(us(s.fray, n) - us(s.floor, n), 1)]),
        ...SPLIT_GROUPS.map(([name, of]) => {
          const sum = (r: SplitRun) => names.filter(of).reduce((t, n) => t + us(r, n), 0);
          return [name, fmt(sum(s.fray), 1), fmt(sum(s.floor), 1), fmt(sum(s.fray) - sum(s.floor), 1)];
        }),
        ['all', fmt(s.fray.phase.serverCpuUsPerCommand, 1), fmt(s.floor.phase.serverCpuUsPerCommand, 1), fmt(s.fray.phase.serverCpuUsPerCommand - s.floor.phase.serverCpuUsPerCommand, 1)],
      ],
    ),
  ];
}

function writeDoc(marker: string, report: string): void {
  const path = join(repoRoot, 'docs/performance.md');
  const doc = readFileSync(path, 'utf8');
  writeFileSync(path, replaceBetween(doc, `<!-- ${marker}:begin -->`, `<!-- ${marker}:end -->`, report));
  log(`docs/performance.md updated between the ${marker} markers`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
