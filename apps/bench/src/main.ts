/**
 * `npm run bench` (root): every benchmark of issue 8 in one bounded run, one table, and the
 * figures written into docs/performance.md between `<!-- bench:begin -->` and `<!-- bench:end -->`.
 *
 *   BENCH_ONLY=engine,e2e,peers,rate,scale,idle,resume,curve,profile,split,start,restart   parts (default: all but curve,
 *                        profile, split, start and restart, about 6-7 minutes here; `BENCH_ONLY=curve,profile` adds E=50 and
 *                        2,000 and the server profile; `BENCH_ONLY=split` gives Fray's and the floor's CPU by area from Linux
 *                        perf, perf.ts; `BENCH_ONLY=restart`: kill -9 and SIGTERM restarts under 1,000 × 5, restart.ts, about
 *                        10 minutes, writes its own block)
 *   BENCH_ONLY=capacity  E live encounters × 5 clients at a command every 10 s each, E stepping 1,000 → 10,000 until p99 > 50 ms
 *                        (capacity/run.ts; writes its own block). BENCH_CAPACITY_STEPS=200,500 other steps (no doc written),
 *                        BENCH_CAPACITY_SECONDS (measured phase, default 60), BENCH_CAPACITY_SETTLE (default 10),
 *                        BENCH_CAPACITY_GENERATORS (generator processes, default 2), BENCH_CAPACITY_P99_MS (the stop bound, default 50),
 *                        BENCH_CAPACITY_HEAP_DIR (a heap snapshot of the server at rest after each step, into that directory;
 *                        it raises the server's RSS: no doc is written then)
 *   BENCH_ONLY=start     start to ready and idle RSS, embedded and Postgres, `npm start` and node on the build (start.ts;
 *                        writes its own block of docs/performance-restarts.md or docs/performance-capacity.md)
 *   BENCH_START_IDLE     seconds the start part waits idle before it reads the RSS (default 10)
 *   BENCH_QUICK=1        a smoke run of about 3 minutes (small E, 5 s phases, no curve)
 *   BENCH_NO_DOC=1       print only, leave docs/performance.md alone
 *   BENCH_WARMUP=s       seconds of unmeasured load before each load run's phases (default 5, quick 2; 0 = none)
 *   BENCH_PROFILE_DIR    keep the profile part's .cpuprofile in this directory
 *   BENCH_PERF_HZ        samples a second of the split part's `perf record` (default 999)
 *   DATABASE_URL         the Postgres to create the run's databases next to (default the local test one)
 *   REDIS_URL            for the 2-process part (default redis://127.0.0.1:6379)
 * For digging into a figure (docs/journal/performance-2026-11.md, "Session 4"):
 *   BENCH_RATE_ONLY=1    the rate part runs only its 1/s phase (not the no-think and think curve phases)
 *   BENCH_TIMELINE=1     the generator prints where a phase's commands over 25 ms came from (loadgen.ts)
 *   BENCH_SERVER_NODE_ARGS, BENCH_LOADGEN_NODE_ARGS   extra node flags (`--trace-gc`, `--cpu-prof`, ...); set,
 *                        BENCH_LOADGEN_NODE_ARGS replaces the generator's default `--heap-growing-percent=400 --v8-pool-size=1`
 *   BENCH_PEER_NODE_ARGS  extra node flags for boardgame.io's and the floor's servers (`--cpu-prof --cpu-prof-dir=...`)
 *   BENCH_RATE_SECONDS   the length of the 1,000 × 5 rate phase (default 60: it spans two or three of the server's major GCs)
 *   BENCH_RATE_PROCESSES  server processes of the rate part (default 1; 2 runs them behind Redis like the
 *                        scale part: on the 2-core machine it was no better, docs/journal/performance-2026-11.md Session 14)
 *   BENCH_RATE_PER_ENCOUNTER  commands a second per encounter in that phase (default 1; any other value is for
 *                        comparing builds on a slower machine at the same heap, and the run writes no doc)
 *   BENCH_SERVER_LOG, BENCH_LOADGEN_LOG   file prefixes for the server's and the generator's stdout
 *   FRAY_DIAG=1          (passed on to the server) warn lines for event-loop stalls and slow commits
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT, QUICK, S, baseDb, log, parts } from './config.js';
import { partRuns } from './parts.js';
import { cpuGeneration, loadAverage } from './proc.js';
import { render } from './report.js';
import { capacitySection } from './report-capacity.js';
import { runCapacity, type CapacityResult } from './capacity/run.js';
import { restartSection, runRestart, type RestartResult } from './restart.js';
import { dropDatabases, type Results } from './runs.js';
import { repoRoot, serverMain } from './servers.js';
import { replaceBetween } from './stats.js';

/** Runs part `name` if selected; a failure is kept in `errors` and the bench goes on. */
async function attempt(errors: string[], name: string, fn: () => Promise<void>): Promise<void> {
  if (!parts.has(name)) return;
  const t0 = Date.now();
  log(`${name}: start (load ${loadAverage()})`);
  try {
    await fn();
  } catch (e) {
    errors.push(`${name}: ${e instanceof Error ? e.message.slice(0, 500) : String(e)}`);
    log(`${name}: FAILED`, e);
  }
  log(`${name}: done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

/** The pages of docs/ the bench writes its blocks into: each block goes where its markers are. */
const DOC_PAGES = ['docs/performance.md', 'docs/performance-restarts.md', 'docs/performance-capacity.md'];

function writeDoc(marker: string, report: string): void {
  const begin = `<!-- ${marker}:begin -->`;
  const page = DOC_PAGES.find((p) => readFileSync(join(repoRoot, p), 'utf8').includes(begin));
  if (!page) throw new Error(`no page of ${DOC_PAGES.join(', ')} has the ${marker} markers`);
  const path = join(repoRoot, page);
  writeFileSync(path, replaceBetween(readFileSync(path, 'utf8'), begin, `<!-- ${marker}:end -->`, report));
  log(`${page} updated between the ${marker} markers`);
}

/** The table printed, and written into the doc when the run is one the doc holds. */
function report(R: Results): void {
  const report = render(R);
  console.log(report);
  // the doc holds full runs only: the default parts (main block), or the curve and profile run
  const isDefault = DEFAULT.every((p) => parts.has(p)) && parts.size === DEFAULT.length;
  const isCurve = [...parts].every((p) => p === 'curve' || p === 'profile');
  const isStart = parts.size === 1 && parts.has('start');
  if (process.env.BENCH_NO_DOC === '1') log('docs/performance.md left alone (BENCH_NO_DOC)');
  else if (QUICK || R.errors.length) log('docs/performance.md not written (BENCH_QUICK, or a part failed)');
  else if (S.rate !== 1) log("docs/performance.md not written (BENCH_RATE_PER_ENCOUNTER is not the target's 1/s)");
  else if (isDefault) writeDoc('bench', report);
  else if (isCurve) writeDoc('bench-curve', report);
  else if (isStart) writeDoc('bench-start', report);
  else log('docs/performance.md not written (only the default parts, BENCH_ONLY=curve,profile or BENCH_ONLY=start write it)');
}

/** The parts that write their own block of the doc (restart, capacity): run, printed, written; each done is taken out of `parts`. */
async function ownBlockParts(errors: string[]): Promise<void> {
  let restart: RestartResult | undefined;
  await attempt(errors, 'restart', async () => {
    // BENCH_RESTART_E: fewer encounters (the doc's figures are for 1,000)
    restart = await runRestart({ baseDb, E: Number(process.env.BENCH_RESTART_E ?? (QUICK ? 200 : 1000)), P: 5, log });
  });
  let capacity: CapacityResult | undefined;
  await attempt(errors, 'capacity', async () => {
    capacity = await runCapacity({ baseDb, log, quick: QUICK });
  });
  const when = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpuGeneration()}`;
  const write = process.env.BENCH_NO_DOC !== '1' && !QUICK;
  if (restart) {
    const section = restartSection(restart, when);
    console.log(section);
    if (write) writeDoc('bench-restart', section);
    parts.delete('restart');
  }
  if (capacity) {
    const section = capacitySection(capacity, when);
    console.log(section);
    // the doc holds the steps only (BENCH_CAPACITY_STEPS unset), without heap snapshots
    if (write && capacity.defaultSteps && !process.env.BENCH_CAPACITY_HEAP_DIR) writeDoc('bench-capacity', section);
    else
      log(
        'docs/performance-capacity.md: the capacity block not written (BENCH_NO_DOC, BENCH_QUICK, BENCH_CAPACITY_STEPS or BENCH_CAPACITY_HEAP_DIR)',
      );
    parts.delete('capacity');
  }
}

async function main(): Promise<void> {
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: build first (npm run build, or the root npm run bench does it)`);
  const staleness = readdirSync(join(repoRoot, 'apps/server/src')).some(
    (f) => statSync(join(repoRoot, 'apps/server/src', f)).mtimeMs > statSync(serverMain).mtimeMs,
  );
  if (staleness) log('warning: apps/server/src is newer than its dist build; run `npm run build` for current figures');
  const R: Results = { curve: [], errors: [] };
  // in the order of partRuns (the curve before idle and resume)
  for (const [name, run] of Object.entries(partRuns)) await attempt(R.errors, name, () => run(R));
  await ownBlockParts(R.errors);
  await dropDatabases();
  if (parts.size === 0) return;
  report(R);
  if (R.errors.length) {
    console.error(`${R.errors.length} part(s) failed:\n${R.errors.join('\n')}`);
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
