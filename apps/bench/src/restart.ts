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
import { cpuSeconds, freshDatabase, loadAverage, postgresCpuSeconds, sleep } from './proc.js';
import { freePort, startFray, type Running } from './servers.js';
import { fmt, summarize, type Summary } from './stats.js';
import { http as frayHttp } from './http.js';

export interface RestartOutcome {
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
  /** where the time after readiness goes, per client (ms after ready, 0 when before) */
  phases: { connected: Summary; rejoined: Summary };
  /** CPU seconds from the signal until the last client was served: the server, Postgres, the load generator (this process) */
  cpu: { server: number; postgres: number; clients: number; wallSeconds: number };
  /** the load average when the last client was served */
  load: string;
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
const http = (url: string, method: string, path: string, body?: unknown, token?: string) => frayHttp(url, method, path, body, token, { tries: 400, waitMs: 100 });

/** Run `fn` over `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (x: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  }));
}

/** One encounter: a GM (one account per ten encounters) and P-1 players, each with a combatant. */
async function setupEncounter(url: string, gmToken: string, i: number, P: number): Promise<Array<{ token: string; encounterId: string; combatantId: string | null }>> {
  const id = (await http(url, 'POST', '/encounters', { name: `restart ${i}`, ruleset: 'legends', seed: i + 1 }, gmToken)).id as string;
  const seats: Array<{ token: string; encounterId: string; combatantId: string | null }> = [{ token: gmToken, encounterId: id, combatantId: null }];
  for (let k = 1; k < P; k++) {
    const cid = `pc${k}`;
    await http(url, 'POST', `/encounters/${id}/combatants`, { id: cid, name: `Hero ${k}`, side: 'heroes', stats: { DEX: 10, SPD: 10, STR: 10 } }, gmToken);
    const inv = await http(url, 'POST', `/encounters/${id}/invites`, { role: 'player', combatantIds: [cid] }, gmToken);
    seats.push({ token: inv.token as string, encounterId: id, combatantId: cid });
  }
  return seats;
}

export async function runRestart(o: { baseDb: string; E: number; P: number; log: (...a: unknown[]) => void }): Promise<RestartResult> {
  const { E, P, log } = o;
  const db = await freshDatabase(o.baseDb, `fray_bench_restart_${Date.now().toString(36)}`);
  const port = await freePort();
  const start = () => startFray({ databaseUrl: db.url, port, env: { FRAY_LEASE_SECONDS: String(LEASE_SECONDS), FRAY_REACTION_SECONDS: '0' } });
  let sv: Running = await start();
  const acked = new Map<string, { encounterId: string; version: number }>();
  const refused: Record<string, number> = {};
  const seats: Seat[] = [];
  try {
    const t0 = Date.now();
    const gms: string[] = [];
    for (let a = 0; a < Math.ceil(E / 10); a++) gms.push((await http(sv.url, 'POST', '/accounts', { name: `GM ${a}` })).token as string);
    const plan: Array<{ token: string; encounterId: string; combatantId: string | null }> = [];
    await pool(Array.from({ length: E }, (_, i) => i), 16, async (i) => {
      plan.push(...(await setupEncounter(sv.url, gms[Math.floor(i / 10)]!, i, P)));
    });
    await pool(plan, 32, async (p) => {
      const j = await FrayClient.connectAndJoin(sv.url, p.token, p.encounterId, CLIENT);
      seats.push({ client: j.client, mirror: j.mirror, encounterId: p.encounterId, combatantId: p.combatantId, n: 0 });
    });
    log(`restart: ${E} encounters × ${P} clients set up and joined in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

    const send = async (s: Seat, tag: string): Promise<boolean> => {
      const commandId = `${tag}-${s.encounterId}-${s.combatantId ?? 'gm'}-${s.n++}`;
      try {
        const ack = await s.mirror.command({ type: 'dice.roll', formula: '1d20', purpose: tag, ...(s.combatantId ? { combatantId: s.combatantId } : {}) }, { commandId });
        if (ack.ok) acked.set(commandId, { encounterId: s.encounterId, version: ack.version });
        else refused[ack.error.code] = (refused[ack.error.code] ?? 0) + 1;
        return ack.ok;
      } catch (e) {
        refused[String((e as { code?: string }).code ?? 'TIMEOUT')] = (refused[String((e as { code?: string }).code ?? 'TIMEOUT')] ?? 0) + 1;
        return false;
      }
    };
    /** each seat: a command about every P seconds (one a second per encounter), until stopped */
    const background = () => {
      let stop = false;
      const loops = seats.map(async (s) => {
        await sleep(Math.random() * P * 1000);
        while (!stop) {
          await send(s, 'play');
          await sleep(P * 1000 * (0.5 + Math.random()));
        }
      });
      return async () => {
        stop = true;
        await Promise.all(loops);
      };
    };

    const outcomes: RestartOutcome[] = [];
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const stopPlay = background();
      await sleep(10_000);
      const exited = new Promise<void>((r) => sv.child.once('exit', () => r()));
      const at = Date.now();
      sv.child.kill(signal);
      let readyAt = Infinity;
      const servedAt: number[] = [];
      const connectedAt: number[] = [];
      const rejoinedAt: number[] = [];
      const cpu0 = { pg: postgresCpuSeconds(), me: process.cpuUsage() };
      // the old process's CPU from the signal until it is gone (sampled: a dead process has no /proc)
      const oldPid = sv.pid;
      const old0 = cpuSeconds(oldPid);
      let oldLast = old0;
      const sampler = setInterval(() => {
        try {
          oldLast = cpuSeconds(oldPid);
        } catch {
          // gone
        }
      }, 100);
      // when each client's socket is connected again, and when its mirror first changes after that
      // (the rejoin's sync, or a patch that only a joined client receives)
      const unwatch = seats.map((s) => {
        let connected = false;
        let rejoined = false;
        const onConnect = () => {
          if (!connected) connectedAt.push(Date.now());
          connected = true;
        };
        s.client.onSocket((sock) => sock.once('connect', onConnect));
        return s.mirror.onChange(() => {
          if (connected && !rejoined) rejoinedAt.push(Date.now());
          if (connected) rejoined = true;
        });
      });
      const probes = seats.map(async (s) => {
        // after a crash a client acts once it has seen the connection drop; in a planned restart at once
        if (signal === 'SIGKILL') for (let w = 0; w < 100 && s.client.socket.connected; w++) await sleep(50);
        if (await send(s, `after-${signal}`)) servedAt.push(Date.now());
      });
      await exited;
      const exitMs = Date.now() - at;
      clearInterval(sampler);
      const serverCpu = oldLast - old0;
      sv = await start();
      readyAt = Date.now();
      await Promise.race([Promise.all(probes), sleep(SERVED_CAP_MS)]);
      const wallSeconds = (Date.now() - at) / 1000;
      const me = process.cpuUsage(cpu0.me);
      const cpu = { server: serverCpu + cpuSeconds(sv.pid), postgres: postgresCpuSeconds() - cpu0.pg, clients: (me.user + me.system) / 1e6, wallSeconds };
      for (const u of unwatch) u();
      const rel = (ts: number[]) => summarize(ts.map((t) => Math.max(0, t - readyAt)));
      const phases = { connected: rel(connectedAt), rejoined: rel(rejoinedAt) };
      await Promise.race([stopPlay(), sleep(30_000)]);
      const fromReady = summarize(servedAt.map((t) => Math.max(0, t - readyAt)));
      const fromSignal = summarize(servedAt.map((t) => t - at));
      outcomes.push({ signal, exitMs, readyMs: readyAt - at, fromReady, fromSignal, clients: seats.length, served: servedAt.length, phases, cpu, load: loadAverage() });
      log(`restart ${signal}: exited after ${exitMs} ms, ready after ${readyAt - at} ms; ${servedAt.length}/${seats.length} clients served, p50 ${fmt(fromReady.p50)} p99 ${fmt(fromReady.p99)} max ${fmt(fromReady.max)} ms after ready`);
      log(`restart ${signal}: after ready, connected p50 ${fmt(phases.connected.p50)} p99 ${fmt(phases.connected.p99)} (${phases.connected.count}), rejoined p50 ${fmt(phases.rejoined.p50)} p99 ${fmt(phases.rejoined.p99)} (${phases.rejoined.count}); CPU s server ${cpu.server.toFixed(1)}, postgres ${cpu.postgres.toFixed(1)}, clients ${cpu.clients.toFixed(1)} in ${wallSeconds.toFixed(1)} s; load ${loadAverage()}`);
    }

    // every acknowledged command at the version its ack named
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const inLog = new Map<string, number>();
    try {
      const r = await c.query<{ encounter_id: string; command_id: string; seq: number }>('SELECT encounter_id, command_id, seq FROM command_log');
      for (const row of r.rows) inLog.set(`${row.encounter_id} ${row.command_id}`, Number(row.seq));
    } finally {
      await c.end();
    }
    let lost = 0;
    for (const [commandId, a] of acked) if (inLog.get(`${a.encounterId} ${commandId}`) !== a.version) lost += 1;
    return { encounters: E, clientsPerEncounter: P, leaseSeconds: LEASE_SECONDS, outcomes, acked: acked.size, lost, refused };
  } finally {
    for (const s of seats) s.client.close();
    if (sv.child.exitCode === null) await sv.stop().catch(() => {});
    await db.drop().catch(() => {});
  }
}

/** The doc's section (docs/performance.md, between the bench-restart markers). */
export function restartSection(r: RestartResult, when: string): string {
  const row = (x: RestartOutcome) =>
    `| ${x.signal === 'SIGKILL' ? 'kill -9, restart' : 'SIGTERM (planned), restart'} | ${fmt(x.exitMs)} | ${fmt(x.readyMs)} | ${fmt(x.served)} / ${fmt(x.clients)} | ${fmt(x.fromReady.p50)} | ${fmt(x.fromReady.p99)} | ${fmt(x.fromReady.max)} | ${fmt(x.fromSignal.p99)} |`;
  const refusals = Object.entries(r.refused).map(([k, v]) => `${k} ${fmt(v)}`).join(', ') || 'none';
  return [
    `${when}; ${fmt(r.encounters)} live encounters × ${r.clientsPerEncounter} clients on one process, real Postgres, FRAY_LEASE_SECONDS ${r.leaseSeconds}, the default instance id:`,
    '',
    '| restart | old process gone (ms) | new one ready (ms after the signal) | clients served | p50 after ready (ms) | p99 after ready | max after ready | p99 after the signal |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.outcomes.map(row),
    '',
    'Where the time after readiness went (ms after ready: the socket connected again, the encounter joined again; CPU seconds from the signal until the last client was served):',
    '',
    ...r.outcomes.map((x) => `- ${x.signal === 'SIGKILL' ? 'kill -9' : 'SIGTERM'}: connected p50 ${fmt(x.phases.connected.p50)}, p99 ${fmt(x.phases.connected.p99)}; joined again p50 ${fmt(x.phases.rejoined.p50)}, p99 ${fmt(x.phases.rejoined.p99)}; CPU s: server ${x.cpu.server.toFixed(1)}, Postgres ${x.cpu.postgres.toFixed(1)}, the 5,000 clients ${x.cpu.clients.toFixed(1)}, in ${x.cpu.wallSeconds.toFixed(0)} s of 2 cores shared with the rest of the machine (load average ${x.load})`),
    '',
    `A client not served within ${SERVED_CAP_MS / 1000} s of readiness counts as not served. ${fmt(r.acked)} commands acknowledged over the run, **${fmt(r.lost)} lost** (not in the log at the version their ack named). Refusals handed back to a client after its retries: ${refusals}.`,
  ].join('\n');
}
