/**
 * The restart part (`BENCH_ONLY=restart`): one Fray process on real Postgres holding E live
 * encounters × P clients (GM and P-1 players, @fray/client, each sending a command about every
 * P seconds: one a second per encounter), then
 *   1. kill -9 and a restart at the same address (the same default instance id, `<host>:<port>`):
 *      every client sends one command once it has seen the connection drop; the time until each is
 *      acknowledged, from the moment the new process answers /health/ready;
 *   2. a planned restart (SIGTERM, then the same start): every client sends one command at the
 *      signal; the time until each is acknowledged, from the signal and from readiness.
 * Every acknowledged command of the run is then looked up in the log at the version its ack named:
 * a missing one is a lost command. FRAY_LEASE_SECONDS stays at its default (30): a process that did
 * not take its own leases over would show a wait of about 30 s.
 */
import pg from 'pg';
import { FrayClient, type EncounterMirror } from '@fray/client';
import { freshDatabase, sleep } from './proc.js';
import { freePort, startFray, type Running } from './servers.js';
import { fmt, summarize, type Summary } from './stats.js';
import { http as frayHttp, text } from './http.js';
import { Trace, watch } from './restart-trace.js';
import { BENCH_METRICS_TOKEN } from './servers.js';
import { runFloorRestart, type FloorRestart } from './restart-floor.js';

interface RestartOutcome {
  signal: 'SIGKILL' | 'SIGTERM';
  /** signal → the old process exited (the drain, for SIGTERM) */
  exitMs: number;
  /** signal → the new process answers /health/ready */
  readyMs: number;
  /** per client: its command acknowledged, ms after the new process was ready (0 when before) */
  fromReady: Summary;
  /** per client: its command acknowledged, ms after the signal */
  fromSignal: Summary;
  clients: number;
  served: number;
  /** where the time went, per client, ms after ready: its socket connected, its encounter joined again, its command served */
  stages: ReturnType<Trace['stages']>;
  /** every refusal a client was handed from the signal on, retries included, by `event code` */
  refusedOnTheWay: Record<string, number>;
  /** the new process's own count of the refusals it sent (GET /metrics/json), by code */
  serverRefusals: Record<string, number>;
  /** CPU ms the new process used (every thread): from its start to ready, and from ready until every client was served (or the cap) */
  cpu: { toReady: number; readyToServed: number; clients: number };
}

export interface RestartResult {
  encounters: number;
  clientsPerEncounter: number;
  leaseSeconds: number;
  outcomes: RestartOutcome[];
  acked: number;
  lost: number;
  /** refusals the clients were handed back (after their own retries), by code */
  refused: Record<string, number>;
  /** the same kill -9 of a bare socket.io server with as many clients (restart-floor.ts), in the same run */
  floor?: FloorRestart;
}

interface Seat {
  client: FrayClient;
  mirror: EncounterMirror;
  encounterId: string;
  combatantId: string | null;
  n: number;
}

const LEASE_SECONDS = 30;
/** a client not served this long after the new process is ready counts as not served (the part goes on) */
const SERVED_CAP_MS = 120_000;
const CLIENT = { ackTimeoutMs: 10_000, retries: 40 };

/** the setup of thousands of clients meets the rate limit more: up to 40 s of retries */
const http = (url: string, method: string, path: string, body?: unknown, token?: string) =>
  frayHttp(url, method, path, body, token, { tries: 400, waitMs: 100 });

/** Run `fn` over `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (x: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/** One encounter: a GM (one account per ten encounters) and P-1 players, each with a combatant. */
async function setupEncounter(
  url: string,
  gmToken: string,
  i: number,
  P: number,
): Promise<Array<{ token: string; encounterId: string; combatantId: string | null }>> {
  const id = text(await http(url, 'POST', '/encounters', { name: `restart ${i}`, ruleset: 'legends', seed: i + 1 }, gmToken), 'id');
  const seats: Array<{ token: string; encounterId: string; combatantId: string | null }> = [
    { token: gmToken, encounterId: id, combatantId: null },
  ];
  for (let k = 1; k < P; k++) {
    const cid = `pc${k}`;
    await http(
      url,
      'POST',
      `/encounters/${id}/combatants`,
      { id: cid, name: `Hero ${k}`, side: 'heroes', stats: { DEX: 10, SPD: 10, STR: 10 } },
      gmToken,
    );
    const inv = await http(url, 'POST', `/encounters/${id}/invites`, { role: 'player', combatantIds: [cid] }, gmToken);
    seats.push({ token: text(inv, 'token'), encounterId: id, combatantId: cid });
  }
  return seats;
}

/** What the run keeps: every acknowledged command (at the version its ack named) and the refusals by code. */
interface Tally {
  acked: Map<string, { encounterId: string; version: number }>;
  refused: Record<string, number>;
}

/** The GMs (one account per ten encounters), the encounters, and every seat's client joined (into `seats`). */
async function setupSeats(url: string, E: number, P: number, seats: Seat[], trace: Trace): Promise<void> {
  const gms: string[] = [];
  for (let a = 0; a < Math.ceil(E / 10); a++) gms.push(text(await http(url, 'POST', '/accounts', { name: `GM ${a}` }), 'token'));
  const plan: Array<{ token: string; encounterId: string; combatantId: string | null }> = [];
  await pool(
    Array.from({ length: E }, (_, i) => i),
    16,
    async (i) => {
      plan.push(...(await setupEncounter(url, gms[Math.floor(i / 10)]!, i, P)));
    },
  );
  await pool(plan, 32, async (p) => {
    const j = await FrayClient.connectAndJoin(url, p.token, p.encounterId, CLIENT);
    watch(j.client, trace);
    seats.push({ client: j.client, mirror: j.mirror, encounterId: p.encounterId, combatantId: p.combatantId, n: 0 });
  });
}

const codeOf = (e: unknown): string => (e && typeof e === 'object' && 'code' in e && e.code != null ? String(e.code) : 'TIMEOUT');

/** One seat's command (a d20 roll); whether it was acknowledged. */
async function send(t: Tally, s: Seat, tag: string): Promise<boolean> {
  const commandId = `${tag}-${s.encounterId}-${s.combatantId ?? 'gm'}-${s.n++}`;
  try {
    const ack = await s.mirror.command(
      { type: 'dice.roll', formula: '1d20', purpose: tag, ...(s.combatantId ? { combatantId: s.combatantId } : {}) },
      { commandId },
    );
    if (ack.ok) t.acked.set(commandId, { encounterId: s.encounterId, version: ack.version });
    else t.refused[ack.error.code] = (t.refused[ack.error.code] ?? 0) + 1;
    return ack.ok;
  } catch (e) {
    t.refused[codeOf(e)] = (t.refused[codeOf(e)] ?? 0) + 1;
    return false;
  }
}

/** each seat: a command about every P seconds (one a second per encounter), until the returned stop */
function background(t: Tally, seats: Seat[], P: number): () => Promise<void> {
  let stop = false;
  const loops = seats.map(async (s) => {
    await sleep(Math.random() * P * 1000);
    while (!stop) {
      await send(t, s, 'play');
      await sleep(P * 1000 * (0.5 + Math.random()));
    }
  });
  return async () => {
    stop = true;
    await Promise.all(loops);
  };
}

/** Under play, `signal` to the server and a start at the same address; how long until each seat was served. */
async function restartOnce(
  t: Tally,
  trace: Trace,
  seats: Seat[],
  P: number,
  sv: Running,
  start: () => Promise<Running>,
  signal: 'SIGKILL' | 'SIGTERM',
): Promise<{ outcome: RestartOutcome; sv: Running }> {
  const stopPlay = background(t, seats, P);
  await sleep(10_000);
  const exited = new Promise<void>((r) => sv.child.once('exit', () => r()));
  trace.begin(seats.map((s) => s.client));
  const at = Date.now();
  sv.child.kill(signal);
  const servedAt: number[] = [];
  const probes = seats.map(async (s) => {
    // after a crash a client acts once it has seen the connection drop; in a planned restart at once
    if (signal === 'SIGKILL') for (let w = 0; w < 100 && s.client.socket.connected; w++) await sleep(50);
    if (await send(t, s, `after-${signal}`)) {
      servedAt.push(Date.now());
      const p = trace.probe(s.client);
      if (p) p.served = Date.now();
    }
  });
  await exited;
  const exitMs = Date.now() - at;
  const next = await start();
  const readyAt = Date.now();
  const cpuAtReady = await cpuOf(next.url);
  const clientsCpu = process.cpuUsage();
  await Promise.race([Promise.all(probes), sleep(SERVED_CAP_MS)]);
  const cpuAtServed = await cpuOf(next.url);
  const clientsCpuUs = process.cpuUsage(clientsCpu);
  const stages = trace.stages(readyAt);
  trace.active = false;
  const refusedOnTheWay = { ...trace.refused };
  await Promise.race([stopPlay(), sleep(30_000)]);
  const serverRefusals = await refusalsOf(next.url);
  const fromReady = summarize(servedAt.map((x) => Math.max(0, x - readyAt)));
  const fromSignal = summarize(servedAt.map((x) => x - at));
  return {
    outcome: {
      signal,
      exitMs,
      readyMs: readyAt - at,
      fromReady,
      fromSignal,
      clients: seats.length,
      served: servedAt.length,
      stages,
      refusedOnTheWay,
      serverRefusals,
      cpu: { toReady: cpuAtReady, readyToServed: cpuAtServed - cpuAtReady, clients: (clientsCpuUs.user + clientsCpuUs.system) / 1000 },
    },
    sv: next,
  };
}

/** The CPU time (user + system, ms, every thread) a server process has used since it started (its /metrics/json). */
async function cpuOf(url: string): Promise<number> {
  const m = await frayHttp(url, 'GET', '/metrics/json', undefined, BENCH_METRICS_TOKEN).catch(() => ({}));
  const cpu: unknown = Reflect.get(m, 'cpu');
  const us = (k: string) => (cpu && typeof cpu === 'object' ? Number(Reflect.get(cpu, k)) : NaN);
  return (us('user') + us('system')) / 1000;
}

/** The refusals a server process sent since it started, by code (its /metrics/json). */
async function refusalsOf(url: string): Promise<Record<string, number>> {
  const m = await frayHttp(url, 'GET', '/metrics/json', undefined, BENCH_METRICS_TOKEN).catch(() => ({}));
  const r: unknown = Reflect.get(m, 'refusals');
  return r && typeof r === 'object'
    ? Object.fromEntries(Object.entries(r).filter((e): e is [string, number] => typeof e[1] === 'number'))
    : {};
}

/** The acknowledged commands not in the log at the version their ack named. */
async function lostCommands(databaseUrl: string, acked: Tally['acked']): Promise<number> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const inLog = new Map<string, number>();
  try {
    const r = await c.query<{ encounter_id: string; command_id: string; seq: number }>(
      'SELECT encounter_id, command_id, seq FROM command_log',
    );
    for (const row of r.rows) inLog.set(`${row.encounter_id} ${row.command_id}`, Number(row.seq));
  } finally {
    await c.end();
  }
  let lost = 0;
  for (const [commandId, a] of acked) if (inLog.get(`${a.encounterId} ${commandId}`) !== a.version) lost += 1;
  return lost;
}

export async function runRestart(o: { baseDb: string; E: number; P: number; log: (...a: unknown[]) => void }): Promise<RestartResult> {
  const { E, P, log } = o;
  const floor = process.env.BENCH_RESTART_FLOOR === '0' ? undefined : await runFloorRestart(E, P, log);
  if (floor)
    log(
      `restart floor (bare socket.io) kill -9: listening after ${floor.readyMs} ms; ${floor.servedCount}/${floor.clients} served, ms after listening: connected p50 ${fmt(floor.connected.p50)} p99 ${fmt(floor.connected.p99)}; served p50 ${fmt(floor.served.p50)} p99 ${fmt(floor.served.p99)}; CPU ${fmt(floor.cpu.server)} ms (clients ${fmt(floor.cpu.clients)})`,
    );
  const db = await freshDatabase(o.baseDb, `fray_bench_restart_${Date.now().toString(36)}`);
  const port = await freePort();
  const start = () =>
    startFray({ databaseUrl: db.url, port, env: { FRAY_LEASE_SECONDS: String(LEASE_SECONDS), FRAY_REACTION_SECONDS: '0' } });
  let sv: Running = await start();
  const t: Tally = { acked: new Map(), refused: {} };
  const trace = new Trace();
  const seats: Seat[] = [];
  try {
    const t0 = Date.now();
    await setupSeats(sv.url, E, P, seats, trace);
    log(`restart: ${E} encounters × ${P} clients set up and joined in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const outcomes: RestartOutcome[] = [];
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const r = await restartOnce(t, trace, seats, P, sv, start, signal);
      sv = r.sv;
      const x = r.outcome;
      outcomes.push(x);
      log(
        `restart ${signal}: exited after ${x.exitMs} ms, ready after ${x.readyMs} ms; ${x.served}/${x.clients} clients served, p50 ${fmt(x.fromReady.p50)} p99 ${fmt(x.fromReady.p99)} max ${fmt(x.fromReady.max)} ms after ready`,
      );
      const st = x.stages;
      const stage = (k: keyof typeof st) => `${k} ${st[k].count} p50 ${fmt(st[k].p50)} p99 ${fmt(st[k].p99)} max ${fmt(st[k].max)}`;
      log(`restart ${signal}: ms after ready: ${stage('connected')}; ${stage('joined')}; ${stage('served')}`);
      log(
        `restart ${signal}: the new process's CPU: ${fmt(x.cpu.toReady)} ms to ready, ${fmt(x.cpu.readyToServed)} ms from ready until the last client was served`,
      );
      log(
        `restart ${signal}: refused on the way (clients): ${codes(x.refusedOnTheWay)}; the new process's refusals: ${codes(x.serverRefusals)}`,
      );
    }
    const lost = await lostCommands(db.url, t.acked);
    return {
      encounters: E,
      clientsPerEncounter: P,
      leaseSeconds: LEASE_SECONDS,
      outcomes,
      acked: t.acked.size,
      lost,
      refused: t.refused,
      ...(floor ? { floor } : {}),
    };
  } finally {
    for (const s of seats) s.client.close();
    if (sv.child.exitCode === null) await sv.stop().catch(() => {});
    await db.drop().catch(() => {});
  }
}

const codes = (r: Record<string, number>) =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ') || 'none';

const stageRow = (x: RestartOutcome) => {
  const pair = (s: Summary) => `${fmt(s.p50)} / ${fmt(s.p99)}`;
  const st = x.stages;
  return `| ${x.signal === 'SIGKILL' ? 'kill -9' : 'SIGTERM'} | ${pair(st.connected)} | ${pair(st.joined)} | ${pair(st.served)} | ${fmt(x.cpu.readyToServed)} (${fmt(x.cpu.clients)}) | ${codes(x.refusedOnTheWay)} | ${codes(x.serverRefusals)} |`;
};

const floorRow = (f: FloorRestart) =>
  `| the floor: bare socket.io, kill -9, restart | — | ${fmt(f.readyMs)} | ${fmt(f.servedCount)} / ${fmt(f.clients)} | ${fmt(f.served.p50)} | ${fmt(f.served.p99)} | ${fmt(f.served.max)} | — |`;
const floorStageRow = (f: FloorRestart) =>
  `| the floor, kill -9 | ${fmt(f.connected.p50)} / ${fmt(f.connected.p99)} | ${fmt(f.joined.p50)} / ${fmt(f.joined.p99)} | ${fmt(f.served.p50)} / ${fmt(f.served.p99)} | ${fmt(f.cpu.server)} (${fmt(f.cpu.clients)}) | — | — |`;

/** The doc's section (docs/performance-restarts.md, between the bench-restart markers). */
export function restartSection(r: RestartResult, when: string): string {
  const row = (x: RestartOutcome) =>
    `| ${x.signal === 'SIGKILL' ? 'kill -9, restart' : 'SIGTERM (planned), restart'} | ${fmt(x.exitMs)} | ${fmt(x.readyMs)} | ${fmt(x.served)} / ${fmt(x.clients)} | ${fmt(x.fromReady.p50)} | ${fmt(x.fromReady.p99)} | ${fmt(x.fromReady.max)} | ${fmt(x.fromSignal.p99)} |`;
  const refusals =
    Object.entries(r.refused)
      .map(([k, v]) => `${k} ${fmt(v)}`)
      .join(', ') || 'none';
  return [
    `${when}; ${fmt(r.encounters)} live encounters × ${r.clientsPerEncounter} clients on one process, real Postgres, FRAY_LEASE_SECONDS ${r.leaseSeconds}, the default instance id:`,
    '',
    '| restart | old process gone (ms) | new one ready (ms after the signal) | clients served | p50 after ready (ms) | p99 after ready | max after ready | p99 after the signal |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.outcomes.map(row),
    ...(r.floor ? [floorRow(r.floor)] : []),
    '',
    `A client not served within ${SERVED_CAP_MS / 1000} s of readiness counts as not served. ${fmt(r.acked)} commands acknowledged over the run, **${fmt(r.lost)} lost** (not in the log at the version their ack named). Refusals handed back to a client after its retries: ${refusals}.`,
    '',
    "Where the time goes, per client, in ms after the new process answered readiness (negative: before it): its socket connected again, its encounter joined again (the first sync answered), its command served; then every refusal the clients were handed on the way (their retries included) and the new process's own count:",
    '',
    '| restart | connected p50 / p99 | joined again p50 / p99 | served p50 / p99 | CPU ms from ready to the last served: new process (clients) | refused on the way (clients) | refusals sent by the new process |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...r.outcomes.map(stageRow),
    ...(r.floor ? [floorStageRow(r.floor)] : []),
    '',
    'The floor: the same kill -9 and restart of a bare socket.io server (apps/bench/src/restart-floor.ts: no database, no authentication, no state) with as many socket.io clients, reconnecting with the settings of @fray/client; each joins its room again and sends one command, which is broadcast to its room and acknowledged; times from the new process listening.',
  ].join('\n');
}
