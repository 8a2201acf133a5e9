/**
 * The capacity part (`BENCH_ONLY=capacity`): one Fray process on real Postgres holding E live
 * encounters × 5 clients (a GM, three players, a spectator), each encounter sending a command every
 * 10 s on average (exponential waits), E stepping up (BENCH_CAPACITY_STEPS, default 1,000, 2,500,
 * 5,000, 10,000) until the p99 command → every client passes 50 ms, connections fail or memory
 * runs short (logic.ts, stopReason). A step adds its encounters, lets the connections settle
 * (BENCH_CAPACITY_SETTLE s, default 10), then measures a fixed phase (BENCH_CAPACITY_SECONDS,
 * default 60), and reads the server once more at rest (3 s without commands, then a full GC through
 * its inspector: the live heap). After the first step's phase, a few clients reconnect in a loop for
 * 30 s; the joined sockets are read every 5 s after they stop, and the server at rest about a minute
 * after. The bare
 * socket.io floor then holds the same connection counts at the same pace, for its RSS per socket.
 * The sockets are lean (lean-socket.ts) and spread over BENCH_CAPACITY_GENERATORS processes
 * (default 2), each reporting its CPU and event-loop delay.
 */
import { freemem, totalmem } from 'node:os';
import pg from 'pg';
import { cpuSeconds, freshDatabase, openFilesLimit, rssBytes, sleep } from '../proc.js';
import { metricsOf } from '../load/sample.js';
import { freePort, startFloor, startFray, type Running } from '../servers.js';
import { fmt as fmtN, summarize, type Summary } from '../stats.js';
import { gcWindow, parseSteps, stopReason, type GcPause, type MalformedCounts } from './logic.js';
import type { GenPhase, SeatPlan, TablePlan } from './messages.js';
import { atRest, collectGarbage, heapSnapshot, heapSnapshotArgs, metrics, watchGc } from './server.js';
import { floorTables, setupTables, startGenerator, type Generator } from './setup.js';

export interface CapacityStep {
  E: number;
  /** viewers joined at the server (its metrics), and the sockets the generators hold */
  sockets: number;
  setupSeconds: number;
  commandsPerSec: number;
  latency: Summary;
  undelivered: number;
  refused: Record<string, number>;
  malformed: MalformedCounts;
  /** the server at the end of the phase, under load (the heap holds the garbage since the last GC) */
  rssBytes: number;
  heapBytes: number;
  /** the server at rest after the phase: 3 s without commands, then a full GC (through its inspector): the heap is what is live */
  rest: { rssBytes: number; heapBytes: number };
  serverCpuPercent: number;
  loopDelayMs: { p99: number; max: number };
  gc: { maxMs: number; over: number; full: number; count: number };
  commitsPerSec: number;
  entriesPerCommit: number;
  /** per generator process */
  generators: Array<{ cpuPercent: number; loopDelayMs: { p99: number; max: number }; rssBytes: number }>;
  stop: string | null;
}

export interface ChurnResult {
  clients: number;
  seconds: number;
  cycles: number;
  failures: number;
  /** the server at rest before the churn (after the step's phase) and at rest about a minute after the churn stopped */
  before: { rssBytes: number; heapBytes: number; sockets: number };
  after: { rssBytes: number; heapBytes: number; sockets: number; afterSeconds: number };
  /** the sockets joined at the server every 5 s after the churn stopped (the load going on) */
  samples: Array<{ afterSeconds: number; sockets: number }>;
}

export interface CapacityResult {
  steps: CapacityStep[];
  base: { rssBytes: number; heapBytes: number };
  churn: ChurnResult | null;
  /** the first step not run, and why (the open-file limits), or null */
  notRun: string | null;
  /** the floor at the same counts: its RSS at rest after the phase (a full GC first), its latency in the phase */
  floor: Array<{ E: number; sockets: number; rssBytes: number; latency: Summary }>;
  floorBaseRssBytes: number;
  generators: number;
  seconds: number;
  settleSeconds: number;
  defaultSteps: boolean;
}

interface Options {
  baseDb: string;
  log: (...a: unknown[]) => void;
  quick: boolean;
}

const MEAN_INTERVAL_MS = 10_000;
const MALFORMED_SHARE = 0.01;
const CHURN_CLIENTS = 10;
const CHURN_SECONDS = 30;
const RECOVERY_SECONDS = 60;

/** the tables' seats shared out over the generators, round robin */
async function connectAll(
  gens: Generator[],
  target: 'fray' | 'floor',
  url: string,
  plans: TablePlan[],
  churn: Array<SeatPlan & { encounterId: string }>,
): Promise<number> {
  const shares = gens.map((_, g) => plans.filter((_, i) => i % gens.length === g));
  const r = await Promise.all(
    gens.map((gen, g) => gen.connect({ type: 'connect', target, url, tables: shares[g]!, churn: g === 0 ? churn : [] })),
  );
  return r.reduce((a, x) => a + x.failed, 0);
}

/** every generator's phase at once; the server's event-loop delay windows read meanwhile (the worst) */
async function phaseAll(
  gens: Generator[],
  sv: Running | null,
  seconds: number,
  seed: number,
  churn = false,
): Promise<{ replies: GenPhase[]; loop: { p99: number; max: number } }> {
  const loop = { p99: 0, max: 0 };
  let done = false;
  const reading = (async () => {
    while (!done && sv) {
      await sleep(10_000);
      const d = (await metricsOf(sv.url))?.loop;
      if (d && !done) {
        loop.p99 = Math.max(loop.p99, d.p99);
        loop.max = Math.max(loop.max, d.max);
      }
    }
  })();
  const replies = await Promise.all(
    gens.map((g, k) =>
      g.phase({ type: 'phase', seconds, meanIntervalMs: MEAN_INTERVAL_MS, malformed: MALFORMED_SHARE, churn, seed: seed * 16 + k }),
    ),
  );
  done = true;
  void reading;
  // and the last completed window (it ends within 10 s of the phase's end; a phase under 10 s has only this one)
  const d = sv ? (await metricsOf(sv.url))?.loop : undefined;
  if (d) {
    loop.p99 = Math.max(loop.p99, d.p99);
    loop.max = Math.max(loop.max, d.max);
  }
  return { replies, loop };
}

function merged(replies: GenPhase[]): {
  latency: Summary;
  accepted: number;
  undelivered: number;
  refused: Record<string, number>;
  malformed: MalformedCounts;
} {
  const refused: Record<string, number> = {};
  const malformed: MalformedCounts = { sent: 0, typed: 0, other: {} };
  for (const r of replies) {
    for (const [k, v] of Object.entries(r.refused)) refused[k] = (refused[k] ?? 0) + v;
    malformed.sent += r.malformed.sent;
    malformed.typed += r.malformed.typed;
    for (const [k, v] of Object.entries(r.malformed.other)) malformed.other[k] = (malformed.other[k] ?? 0) + v;
  }
  return {
    latency: summarize(replies.flatMap((r) => r.latencies)),
    accepted: replies.reduce((a, r) => a + r.accepted, 0),
    undelivered: replies.reduce((a, r) => a + r.undelivered, 0),
    refused,
    malformed,
  };
}

interface Ctx {
  o: Options;
  sv: Running;
  gens: Generator[];
  gcs: Array<GcPause & { at: number }>;
  seconds: number;
  /** the server's inspector port (--inspect), for a full GC at rest */
  inspectPort: number;
}

/** One step's measured phase on the server as it is (its tables connected and settled). */
async function measure(c: Ctx, E: number, setupSeconds: number, failed: number): Promise<CapacityStep> {
  const m0 = await metrics(c.sv);
  const cpu0 = cpuSeconds(c.sv.pid);
  const t0 = Date.now();
  const { replies, loop } = await phaseAll(c.gens, c.sv, c.seconds, E);
  const seconds = c.seconds;
  const t1 = Date.now();
  const m1 = await metrics(c.sv);
  const rss1 = rssBytes(c.sv.pid);
  const cpu1 = cpuSeconds(c.sv.pid);
  const rest = await atRest(c.sv, c.inspectPort);
  await heapSnapshot(c.sv, E, c.o.log);
  const commits = m1.batches - m0.batches;
  const x = merged(replies);
  const step: CapacityStep = {
    E,
    sockets: m1.sockets,
    setupSeconds,
    commandsPerSec: x.accepted / seconds,
    ...x,
    rssBytes: rss1,
    heapBytes: m1.heapUsed,
    rest: { rssBytes: rest.rssBytes, heapBytes: rest.heapBytes },
    serverCpuPercent: ((cpu1 - cpu0) / ((t1 - t0) / 1000)) * 100,
    loopDelayMs: loop,
    gc: gcWindow(c.gcs.filter((g) => g.at >= t0 && g.at <= t1)),
    commitsPerSec: commits / seconds,
    entriesPerCommit: (m1.entries - m0.entries) / Math.max(1, commits),
    generators: replies.map((r) => ({ cpuPercent: r.cpuPercent, loopDelayMs: r.loopDelayMs, rssBytes: r.rssBytes })),
    stop: null,
  };
  // BENCH_CAPACITY_P99_MS: another bound, for trying the steps on a busy machine (the doc's run uses the issue's 50 ms)
  step.stop = stopReason(
    { p99: step.latency.p99, failedConnections: failed, usedMemoryShare: 1 - freemem() / totalmem() },
    Number(process.env.BENCH_CAPACITY_P99_MS ?? 50),
  );
  return step;
}

/**
 * A few clients reconnect in a loop for CHURN_SECONDS under the step's load; then the load goes on
 * (the joined sockets read every 5 s) until the server is left quiet to be read at rest, about a
 * minute after the churn stopped, against its rest before the churn.
 */
async function churnWindow(c: Ctx, E: number, before: ChurnResult['before']): Promise<ChurnResult> {
  const seconds = c.o.quick ? 10 : CHURN_SECONDS;
  const churned = await phaseAll(c.gens, null, seconds, E + 1, true);
  const stoppedAt = Date.now();
  const cycles = churned.replies.reduce((a, r) => a + r.churn.cycles, 0);
  const failures = churned.replies.reduce((a, r) => a + r.churn.failures, 0);
  const samples: ChurnResult['samples'] = [];
  const loadSeconds = RECOVERY_SECONDS - 5;
  const load = phaseAll(c.gens, null, loadSeconds, E + 2);
  for (let s = 0; s <= loadSeconds; s += 5) {
    await sleep(Math.max(0, stoppedAt + s * 1000 - Date.now()));
    samples.push({ afterSeconds: s, sockets: (await metrics(c.sv)).sockets });
  }
  await load;
  const after = { ...(await atRest(c.sv, c.inspectPort)), afterSeconds: Math.round((Date.now() - stoppedAt) / 1000) };
  return { clients: CHURN_CLIENTS, seconds, cycles, failures, before, after, samples };
}

/** The Fray steps: tables added, settled, measured, until a step stops the run. */
async function frayRun(
  c: Ctx,
  steps: number[],
  db: pg.Client,
  settle: number,
): Promise<Pick<CapacityResult, 'steps' | 'churn' | 'notRun'>> {
  const out: CapacityStep[] = [];
  let churn: ChurnResult | null = null;
  let have = 0;
  for (const E of steps) {
    const fits = socketsFit(c, E);
    if (fits) {
      c.o.log(`capacity: ${fits}`);
      return { steps: out, churn, notRun: fits };
    }
    const t0 = Date.now();
    const plans = await setupTables(c.sv.url, db, have, E);
    // the churn clients: spectators of the first tables, on invites of their own
    const churners =
      have === 0 ? (await setupTables(c.sv.url, db, E, E + CHURN_CLIENTS)).map((t) => ({ ...t.seats[4]!, encounterId: t.id })) : [];
    const failed = await connectAll(c.gens, 'fray', c.sv.url, plans, churners);
    have = E;
    const setupSeconds = (Date.now() - t0) / 1000;
    c.o.log(`capacity: ${E} encounters set up and connected in ${setupSeconds.toFixed(0)} s (${failed} connections failed)`);
    await sleep(settle * 1000);
    const step = await measure(c, E, setupSeconds, failed);
    out.push(step);
    c.o.log(
      `capacity ${E} × 5: ${step.commandsPerSec.toFixed(0)}/s p50 ${step.latency.p50.toFixed(1)} p99 ${step.latency.p99.toFixed(1)} ms, RSS ${(step.rssBytes / 2 ** 20).toFixed(0)} MB, heap ${(step.heapBytes / 2 ** 20).toFixed(0)} MB (at rest ${(step.rest.rssBytes / 2 ** 20).toFixed(0)} / ${(step.rest.heapBytes / 2 ** 20).toFixed(0)} MB), loop p99/max ${step.loopDelayMs.p99}/${step.loopDelayMs.max} ms, GC max ${step.gc.maxMs} ms (${step.gc.over} over 50 ms), generators CPU ${step.generators.map((g) => g.cpuPercent.toFixed(0)).join('/')} %${step.stop ? `; stop: ${step.stop}` : ''}`,
    );
    if (!churn) churn = await churnWindow(c, E, { ...step.rest, sockets: step.sockets });
    if (step.stop) break;
  }
  return { steps: out, churn, notRun: null };
}

/** Why E × 5 sockets (and the few churning ones) cannot be opened here: the server's or a generator's open-file limit; null when they fit. */
function socketsFit(c: Ctx, E: number): string | null {
  const server = openFilesLimit(c.sv.pid);
  const perGenerator = Math.ceil((E * 5) / c.gens.length) + CHURN_CLIENTS;
  const gen = Math.min(...c.gens.map((g) => openFilesLimit(g.pid)));
  if (E * 5 + 500 > server)
    return `${fmtN(E)} encounters not run: ${fmtN(E * 5)} sockets do not fit the server's open-file limit of ${fmtN(server)} (ulimit -n)`;
  if (perGenerator + 200 > gen)
    return `${fmtN(E)} encounters not run: ${fmtN(perGenerator)} sockets per generator do not fit its open-file limit of ${fmtN(gen)} (more BENCH_CAPACITY_GENERATORS)`;
  return null;
}

/** The floor at the same connection counts and pace: its RSS per socket. */
async function floorRun(
  gens: Generator[],
  counts: number[],
  seconds: number,
  settle: number,
  log: Options['log'],
): Promise<Pick<CapacityResult, 'floor' | 'floorBaseRssBytes'>> {
  // read at rest like Fray's server: a full GC through its inspector first
  const inspectPort = await freePort();
  const fl = await startFloor(600, [`--inspect=127.0.0.1:${inspectPort}`]);
  const out: CapacityResult['floor'] = [];
  const restRss = async () => {
    await sleep(3000);
    await collectGarbage(inspectPort);
    return rssBytes(fl.pid);
  };
  try {
    const floorBaseRssBytes = await restRss();
    let have = 0;
    for (const E of counts) {
      await connectAll(gens, 'floor', fl.url, floorTables(have, E), []);
      have = E;
      await sleep(settle * 1000);
      const { replies } = await phaseAll(gens, null, seconds, E + 3);
      out.push({ E, sockets: E * 5, rssBytes: await restRss(), latency: merged(replies).latency });
      log(`capacity floor ${E} × 5: RSS ${(out.at(-1)!.rssBytes / 2 ** 20).toFixed(0)} MB, p99 ${out.at(-1)!.latency.p99.toFixed(1)} ms`);
    }
    return { floor: out, floorBaseRssBytes };
  } finally {
    await Promise.all(gens.map((g) => g.close()));
    await fl.stop();
  }
}

export async function runCapacity(o: Options): Promise<CapacityResult> {
  const steps = parseSteps(process.env.BENCH_CAPACITY_STEPS);
  const seconds = Number(process.env.BENCH_CAPACITY_SECONDS ?? (o.quick ? 10 : 60));
  const settle = Number(process.env.BENCH_CAPACITY_SETTLE ?? (o.quick ? 3 : 10));
  // enough generators that each holds at most 15,000 sockets (open files per process are limited)
  const G = Math.max(1, Number(process.env.BENCH_CAPACITY_GENERATORS ?? Math.max(2, Math.ceil((5 * Math.max(...steps)) / 15_000))));
  const database = await freshDatabase(o.baseDb, `fray_bench_capacity_${Date.now().toString(36)}`);
  // --trace-gc: the GC pauses; --inspect: a full GC before each reading at rest (collectGarbage)
  const inspectPort = await freePort();
  const sv = await startFray({
    databaseUrl: database.url,
    port: await freePort(),
    nodeArgs: ['--trace-gc', `--inspect=127.0.0.1:${inspectPort}`, ...heapSnapshotArgs()],
  });
  const gens = Array.from({ length: G }, () => startGenerator());
  const db = new pg.Client({ connectionString: database.url });
  try {
    await db.connect();
    const gcs = watchGc(sv);
    const base = await atRest(sv, inspectPort);
    const fray = await frayRun({ o, sv, gens, gcs, seconds, inspectPort }, steps, db, settle);
    await Promise.all(gens.map((g) => g.close()));
    await sv.stop();
    const floor = await floorRun(
      gens,
      fray.steps.map((s) => s.E),
      Math.min(seconds, 20),
      settle,
      o.log,
    );
    return {
      ...fray,
      ...floor,
      base,
      generators: G,
      seconds,
      settleSeconds: settle,
      defaultSteps: process.env.BENCH_CAPACITY_STEPS === undefined,
    };
  } finally {
    await db.end().catch(() => {});
    for (const g of gens) g.stop();
    if (sv.child.exitCode === null) await sv.stop().catch(() => {});
    await database.drop().catch(() => {});
  }
}
