/**
 * The load generator: its own process, socket.io-client over 127.0.0.1, websocket transport only.
 * Drives E encounters (matches, rooms) × P clients against one target and prints one JSON line
 * `RESULT {...}` at the end. Configuration: the JSON in BENCH_LOAD (see LoadConfig).
 *
 * Every target gets the same workload shape: one command in flight per encounter, sent by one of
 * its clients; the next one leaves when the ack (if any) has come back and the resulting update
 * has reached every client of the encounter (the latency sample: send → last client), then after
 * the think time, or on the encounter's schedule in rate mode. Bytes are counted on the raw
 * incoming frames (socket.io's engine `data` event), nothing is re-serialized.
 *
 *  - fray: GM + (P-2) players + 1 spectator per encounter; a scripted legal fight (fights.ts).
 *  - bgio: boardgame.io, (P-1) players + 1 spectator per match; attack, end turn, next player.
 *  - floor: bare socket.io; (P-1) senders + 1 watcher per room; the server broadcasts a fixed-size
 *    message to the room and acks.
 *
 * The parts: load/types.ts (configuration and results), load/wire.ts (sockets), load/fray.ts and
 * load/peers.ts (the targets), load/sample.ts (what is read around a phase), load/phase.ts (a phase).
 */
import { createRequire } from 'node:module';
import pg from 'pg';
import { wsFragments } from '@fray/server/transport';
import type { Script } from './fights.js';
import { gmTokens } from './load/accounts.js';
import { setupFray, frayStep, type FrayShared } from './load/fray.js';
import { bgioStep, floorStep, setupBgio, setupFloor } from './load/peers.js';
import { runPhase } from './load/phase.js';
import { sample, setDatabase } from './load/sample.js';
import { readLoadConfig, type Counters, type Enc, type LoadConfig, type LoadResult, type Outcome, type PhaseResult } from './load/types.js';
import { describeOtherCpu, sleep } from './proc.js';

const log = (...a: unknown[]) => console.error('[loadgen]', ...a);

// The instrument reads on 5,000 connections: with ws's own dataMessage every message's buffer was
// promoted and its memory stayed counted until a full GC, which came every 13–15 s for that
// reason and paused the reads (the same fix as the server's; transport.ts, docs/performance.md)
{
  const req = createRequire(import.meta.url);
  const engineClient = createRequire(req.resolve('socket.io-client')).resolve('engine.io-client');
  if (!wsFragments.install(createRequire(engineClient)('ws').Receiver))
    log("warning: ws's dataMessage is not the one expected; the generator reads with ws's own");
}

interface Target {
  encs: Enc[];
  scripts: Map<string, Script>;
  step: (enc: Enc) => Promise<Outcome>;
  db: pg.Client | null;
}

/** `setupOne` for encounters from..E-1, `conc` at a time */
async function setupRest(
  cfg: LoadConfig,
  encs: Enc[],
  from: number,
  setupOne: (i: number) => Promise<Enc>,
  progress: boolean,
): Promise<void> {
  const conc = cfg.setupConcurrency ?? 25;
  for (let i = from; i < cfg.E; i += conc) {
    encs.push(...(await Promise.all(Array.from({ length: Math.min(conc, cfg.E - i) }, (_, k) => setupOne(i + k)))));
    if (progress && i % 500 < conc) log(`setup ${encs.length}/${cfg.E}`);
  }
}

async function setupTarget(cfg: LoadConfig, counters: Counters): Promise<Target> {
  const encs: Enc[] = [];
  const scripts = new Map<string, Script>();
  if (cfg.target !== 'fray') {
    const setupOne = cfg.target === 'bgio' ? (i: number) => setupBgio(cfg, i, counters) : (i: number) => setupFloor(cfg, i, counters);
    await setupRest(cfg, encs, 0, setupOne, false);
    return { encs, scripts, step: cfg.target === 'bgio' ? (enc) => bgioStep(cfg, enc) : (enc) => floorStep(cfg, enc), db: null };
  }
  const db = new pg.Client({ connectionString: cfg.databaseUrl });
  await db.connect();
  setDatabase(db);
  const tokens = await gmTokens(db, cfg.E);
  const shared: FrayShared = { scripts, counters };
  // the first encounter of each ruleset alone (its log gives the script), then the rest
  const first = Math.min(cfg.E, (cfg.rulesets ?? ['legends']).length);
  for (let i = 0; i < first; i++) encs.push(await setupFray(cfg, i, tokens[i]!, shared, true));
  await setupRest(cfg, encs, first, (i) => setupFray(cfg, i, tokens[i]!, shared, false), true);
  return { encs, scripts, step: (enc) => frayStep(cfg, enc, scripts), db };
}

/** Fray's mean full-state size where the encounters are in their scripts (NaN for the peers). */
function fullStateOf(cfg: LoadConfig, t: Target): () => number {
  return () => {
    if (cfg.target !== 'fray') return NaN;
    let sum = 0;
    let n = 0;
    for (const e of t.encs) {
      const s = t.scripts.get(e.ruleset)!;
      const b = s.stateBytes[Math.min(s.stateBytes.length - 1, Math.floor(e.idx / s.every))];
      if (b !== undefined) {
        sum += b;
        n++;
      }
    }
    return n ? sum / n : NaN;
  };
}

function describePhase(cfg: LoadConfig, name: string, r: PhaseResult): string {
  return `${cfg.target} ${name}: ${r.acceptedPerSec.toFixed(0)}/s p50 ${r.latency.p50.toFixed(1)} p99 ${r.latency.p99.toFixed(1)} ms, server CPU ${r.serverCpuUsPerCommand.toFixed(0)} µs/cmd (main thread ${r.serverMainThreadCpuUsPerCommand.toFixed(0)}, system ${r.serverSystemCpuUsPerCommand.toFixed(0)})${Number.isFinite(r.databaseCpuUsPerCommand) ? `, Postgres ${r.databaseCpuUsPerCommand.toFixed(0)} µs/cmd` : ''}; loop delay p99/max ms: server ${r.serverLoopDelayMs ? `${r.serverLoopDelayMs.p99}/${r.serverLoopDelayMs.max}` : '-'}, generator ${r.loadgenLoopDelayMs.p99}/${r.loadgenLoopDelayMs.max}${r.serverGc ? `; server GCs in the phase: ${r.serverGc.fullGcs} full, ${r.serverGc.scavenges} scavenges` : ''}${r.checkpoints !== null ? `; Postgres checkpoints: ${r.checkpoints}` : ''}; waiting for a core: server ${r.runQueueWaitPercent.server.toFixed(0)} %, generator ${r.runQueueWaitPercent.generator.toFixed(0)} %; the rest of the machine ${describeOtherCpu(r.otherCpu)}${r.scriptExhausted ? `; ${r.scriptExhausted} encounters ran out of script` : ''}${r.heldBack ? `; ${r.heldBack} commands held back by the rate limit` : ''}`;
}

/** The warm-up (if any) and the measured phases; the warm-up's accepted commands. */
async function runPhases(cfg: LoadConfig, t: Target, counters: Counters): Promise<{ phases: PhaseResult[]; warmupAccepted: number }> {
  const fullState = fullStateOf(cfg, t);
  let warmupAccepted = 0;
  if (cfg.warmupSeconds && cfg.warmupSeconds > 0 && cfg.phases[0]) {
    const { bad: _bad, ...shape } = cfg.phases[0];
    const w = await runPhase(cfg, t.encs, { ...shape, name: 'warm-up', seconds: cfg.warmupSeconds }, t.step, counters, fullState);
    warmupAccepted = w.accepted;
    log(
      `${cfg.target} warm-up (not measured, ${cfg.warmupSeconds} s like "${shape.name}"): ${w.acceptedPerSec.toFixed(0)}/s p50 ${w.latency.p50.toFixed(1)} p99 ${w.latency.p99.toFixed(1)} ms`,
    );
  }
  const phases: PhaseResult[] = [];
  for (const ph of cfg.phases) {
    const r = await runPhase(cfg, t.encs, ph, t.step, counters, fullState);
    log(describePhase(cfg, ph.name, r));
    phases.push(r);
  }
  return { phases, warmupAccepted };
}

/** Every accepted command is in Fray's log: the entries against the setup's versions and the acks. */
async function checkLog(t: Target, db: pg.Client, accepted: number): Promise<LoadResult['check']> {
  await sleep(200);
  const expected = t.encs.reduce((a, e) => a + e.startVersion, 0) + accepted;
  const rows = await db.query<{ n: string }>('SELECT count(*) AS n FROM command_log');
  setDatabase(null);
  await db.end();
  return { logEntries: Number(rows.rows[0]!.n), expected, accepted };
}

async function main(): Promise<void> {
  const cfg = readLoadConfig(process.env.BENCH_LOAD ?? '{}');
  const t0 = performance.now();
  const counters: Counters = { frames: 0, frameBytes: 0 };
  const base = await sample(cfg);
  const target = await setupTarget(cfg, counters);
  const setupSeconds = (performance.now() - t0) / 1000;
  const afterSetup = await sample(cfg);
  log(`${cfg.target}: ${cfg.E} × ${cfg.P} set up in ${setupSeconds.toFixed(1)} s`);
  const { phases, warmupAccepted } = await runPhases(cfg, target, counters);
  const check = target.db
    ? await checkLog(
        target,
        target.db,
        phases.reduce((a, p) => a + p.accepted, warmupAccepted),
      )
    : null;
  const { encs } = target;
  for (const e of encs) for (const c of e.clients) c.socket.disconnect();
  const result: LoadResult = {
    target: cfg.target,
    E: cfg.E,
    P: cfg.P,
    sockets: encs.reduce((a, e) => a + e.clients.length, 0),
    servers: cfg.urls.length,
    setupSeconds,
    redirectedClients: encs.reduce((a, e) => a + e.clients.filter((c) => c.redirected).length, 0),
    baseline: { rssBytes: base.rss, heapUsedBytes: base.heap },
    afterSetup: { rssBytes: afterSetup.rss, heapUsedBytes: afterSetup.heap },
    phases,
    check,
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
