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
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { FrayClient } from '@fray/client';
import { wsFragments } from '@fray/server/transport';
import { SCRIPT_COMMANDS, buildScript, fights, replayLog, type Cmd, type Script } from './fights.js';
import { checkpointsBegun, cpuSeconds, cpuSplitSeconds, cpuTable, describeOtherCpu, machineBusySeconds, otherCpu, type CpuTable, loadAverage, mainThreadCpuSeconds, postgresCpuSeconds, rssBytes, runQueueWaitSeconds, sleep } from './proc.js';
import { http } from './http.js';
import { summarize, type Summary } from './stats.js';
import { BENCH_METRICS_TOKEN } from './servers.js';

export interface Phase {
  name: string;
  seconds: number;
  /** pause after each delivered command (ms) */
  thinkMs?: number;
  /** commands per second per encounter (rate mode); unset: as fast as delivery allows */
  ratePerEncounter?: number;
  /** share of extra bad commands (malformed or unauthorized), e.g. 0.05 */
  bad?: number;
}

export interface LoadConfig {
  target: 'fray' | 'bgio' | 'floor';
  urls: string[];
  pids: number[];
  E: number;
  P: number;
  phases: Phase[];
  /** fray: encounter i plays rulesets[i % n] */
  rulesets?: string[];
  databaseUrl?: string;
  /** floor: bytes of the broadcast message */
  payloadBytes?: number;
  /** fray: commands per scripted fight */
  scriptLength?: number;
  /** parallel encounter setups */
  setupConcurrency?: number;
  /**
   * seconds of load shaped like the first phase before the measured phases, not measured: the JIT
   * warms up and the setup's garbage starts to go (not always all of it: a major GC comes when V8's
   * limit is reached, which may still be inside the first phase)
   */
  warmupSeconds?: number;
}

export interface PhaseResult {
  name: string;
  seconds: number;
  /** wall clock (epoch ms) of the phase's start and end, to cut a server profile to it */
  startedAt: number;
  endedAt: number;
  accepted: number;
  acceptedPerSec: number;
  latency: Summary;
  latencyRedirected: Summary | null;
  refused: Record<string, number>;
  rateLimitedRetries: number;
  /**
   * accepted commands the server first refused with RATE_LIMITED (more than its 30 messages a
   * second a socket): the generator waited 100 ms and sent them again, and their latency holds it
   */
  heldBack: number;
  undelivered: number;
  bad: { sent: number; typed: number; untyped: Record<string, number>; ackMsP50: Record<string, number> } | null;
  frames: number;
  bytesPerUpdate: number;
  fullStateBytes: number;
  serverCpuSeconds: number;
  serverCpuUsPerCommand: number;
  /**
   * the part of serverCpuUsPerCommand spent on the servers' main threads (their event loops); the
   * rest is V8's helper threads (parallel scavenges, concurrent marking, the optimizing compiler)
   */
  serverMainThreadCpuUsPerCommand: number;
  /**
   * the part of serverCpuUsPerCommand the kernel spent for the servers (system time: the socket
   * writes and reads, epoll, and the loopback delivery run in the writer's system calls); the
   * socket.io floor's CPU is about half of it, so this tells machines whose system calls cost
   * more (docs/journal/performance-2026-11.md, Session 18)
   */
  serverSystemCpuUsPerCommand: number;
  serverCpuPercent: number;
  /** CPU of the local Postgres processes per accepted command (µs; NaN with a remote database or none) */
  databaseCpuUsPerCommand: number;
  loadgenCpuPercent: number;
  /**
   * how late a 10 ms timer fired in the generator during the phase (p99, max; ms): a busy
   * generator reads patches late, and that lateness is inside the latency it measures
   */
  loadgenLoopDelayMs: { p99: number; max: number };
  /** the server's own event-loop delay over its last 10 s window (from /metrics/json), if it reports it */
  serverLoopDelayMs: { p50: number; p99: number; max: number } | null;
  /** the server's garbage collections during the phase (from /metrics/json): full GCs and scavenges */
  serverGc: { fullGcs: number; scavenges: number } | null;
  /** checkpoints the Postgres server began during the phase (null: not Fray, or not readable) */
  checkpoints: number | null;
  /**
   * share of the phase the server's event loop (the worst process's main thread) and the
   * generator's spent runnable but waiting for a CPU (%): the cores are shared, and that wait is
   * inside the latency
   */
  runQueueWaitPercent: { server: number; generator: number };
  /** CPU of the rest of the machine in the phase (not the servers, the generator, the bench or Postgres), % of one core, and its largest consumers */
  otherCpu: { percent: number; largest: Array<{ name: string; percent: number }> };
  rssBytes: number;
  heapUsedBytes: number;
  commits: number;
  commitsPerSec: number;
  entriesPerCommit: number;
  scriptExhausted: number;
  loadAverage: string;
}

export interface LoadResult {
  target: string;
  E: number;
  P: number;
  sockets: number;
  servers: number;
  setupSeconds: number;
  redirectedClients: number;
  baseline: { rssBytes: number; heapUsedBytes: number };
  afterSetup: { rssBytes: number; heapUsedBytes: number };
  phases: PhaseResult[];
  check: { logEntries: number; expected: number; accepted: number } | null;
}

const log = (...a: unknown[]) => console.error('[loadgen]', ...a);

// The instrument reads on 5,000 connections: with ws's own dataMessage every message's buffer was
// promoted and its memory stayed counted until a full GC, which came every 13–15 s for that
// reason and paused the reads (the same fix as the server's; transport.ts, docs/performance.md)
{
  const req = createRequire(import.meta.url);
  const engineClient = createRequire(req.resolve('socket.io-client')).resolve('engine.io-client');
  if (!wsFragments.install(createRequire(engineClient)('ws').Receiver)) log("warning: ws's dataMessage is not the one expected; the generator reads with ws's own");
}

// ---------------------------------------------------------------- common per-encounter state
interface Client {
  socket: Socket;
  /** fray: -1 GM, k player k, -2 spectator */
  role: number;
  redirected: boolean;
}

interface Enc {
  i: number;
  clients: Client[];
  /** what a delivered update is recognised by (fray: version, bgio: stateID, floor: seq) */
  pendingTo: number;
  recv: number;
  onDelivered: (() => void) | null;
  version: number;
  idx: number;
  // fray
  id: string;
  ruleset: string;
  startVersion: number;
  // bgio
  matchID: string;
}

interface Counters {
  frames: number;
  frameBytes: number;
}

function countFrames(socket: Socket, counters: Counters, marker: RegExp): void {
  // the raw frame as it came off the websocket (socket.io packet text, before JSON.parse)
  socket.io.engine.on('data', (d: unknown) => {
    if (typeof d === 'string' && marker.test(d.slice(0, 48))) {
      counters.frames += 1;
      counters.frameBytes += Buffer.byteLength(d);
    }
  });
}

function waitDelivered(enc: Enc, P: number, timeoutMs = 30_000): Promise<boolean> {
  if (enc.recv >= P) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      enc.onDelivered = null;
      resolve(false);
    }, timeoutMs);
    enc.onDelivered = () => {
      clearTimeout(t);
      enc.onDelivered = null;
      resolve(true);
    };
  });
}

function delivered(enc: Enc, to: number, P: number): void {
  if (to !== enc.pendingTo) return;
  enc.recv += 1;
  if (enc.recv >= P && enc.onDelivered) enc.onDelivered();
}

function emitAck<T>(socket: Socket, event: string, payload: unknown, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    socket.timeout(timeoutMs).emit(event, payload, (err: Error | null, ack: T) => (err ? reject(err) : resolve(ack)));
  });
}

// ---------------------------------------------------------------- fray setup

interface FrayShared {
  scripts: Map<string, Script>;
  counters: Counters;
}

async function frayCommand(socket: Socket, encounterId: string, commandId: string, command: Cmd): Promise<{ ok: boolean; version?: number; error?: { code: string }; heldBack: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const ack = await emitAck<{ ok: boolean; version?: number; error?: { code: string } }>(socket, 'command', { encounterId, commandId, command });
    if (!ack.ok && ack.error?.code === 'RATE_LIMITED' && attempt < 100) {
      await sleep(100);
      continue;
    }
    return { ...ack, heldBack: attempt > 0 };
  }
}

async function setupFray(cfg: LoadConfig, i: number, gmToken: string, shared: FrayShared, build: boolean): Promise<Enc> {
  const rulesetIds = cfg.rulesets ?? ['legends'];
  const ruleset = rulesetIds[i % rulesetIds.length]!;
  const fight = fights[ruleset]!;
  const home = cfg.urls[i % cfg.urls.length]!;
  const name = `bench ${ruleset}`;
  const seed = 1;
  const id = (await http(home, 'POST', '/encounters', { name, ruleset, seed, options: fight.options }, gmToken)).id as string;
  const opts = { ackTimeoutMs: 30_000, retries: 0 };
  const gm = await FrayClient.connectAndJoin(home, gmToken, id, opts);
  gm.client.mirrors.delete(id); // the bench counts patches itself; no mirror to patch
  const owner = gm.url;
  let n = 0;
  for (const c of fight.setup) {
    const ack = await frayCommand(gm.client.socket as unknown as Socket, id, `setup-${n++}`, c);
    if (!ack.ok) throw new Error(`setup ${String(c.type)}: ${JSON.stringify(ack)}`);
  }
  const players = cfg.P - 2;
  const tokens: Array<{ token: string; role: number; playerId: string | null }> = [];
  for (let k = 0; k < players; k++) {
    const combatantIds = fight.heroes.filter((_, j) => j % players === k);
    const inv = await http(owner, 'POST', `/encounters/${id}/invites`, { role: 'player', combatantIds }, gmToken);
    tokens.push({ token: inv.token as string, role: k, playerId: inv.playerId as string });
  }
  tokens.push({ token: (await http(owner, 'POST', `/encounters/${id}/invites`, { role: 'spectator' }, gmToken)).token as string, role: -2, playerId: null });
  const start = await frayCommand(gm.client.socket as unknown as Socket, id, `setup-${n++}`, { type: 'combat.start' });
  if (!start.ok) throw new Error(`combat.start: ${JSON.stringify(start)}`);
  const enc: Enc = { i, clients: [], pendingTo: -1, recv: 0, onDelivered: null, version: start.version!, idx: 0, id, ruleset, startVersion: start.version!, matchID: '' };
  const add = (c: FrayClient, role: number, redirected: boolean) => {
    const socket = c.socket as unknown as Socket;
    socket.on('patch', (msg: { to: number }) => delivered(enc, msg.to, cfg.P));
    countFrames(socket, shared.counters, /^2\["patch"/);
    enc.clients.push({ socket, role, redirected });
  };
  add(gm.client, -1, gm.url !== home);
  for (const [k, t] of tokens.entries()) {
    // round robin over the processes; NOT_OWNER is followed to the owner (connectAndJoin)
    const first = cfg.urls[(i + k + 1) % cfg.urls.length]!;
    const c = await FrayClient.connectAndJoin(first, t.token, id, opts);
    c.client.mirrors.delete(id);
    add(c.client, t.role, c.url !== first);
  }
  if (build && !shared.scripts.has(ruleset)) {
    // replay this encounter's own log locally and play the fight ahead (same seed, same setup:
    // every encounter of this ruleset plays the same legal fight)
    const entries = (await http(owner, 'GET', `/encounters/${id}/log`, undefined, gmToken)).entries as Array<{ command: Cmd }>;
    const state = replayLog(ruleset, { id, name, seed, options: fight.options }, entries.map((e) => e.command));
    const index = new Map(tokens.filter((t) => t.playerId).map((t) => [t.playerId!, t.role]));
    const t0 = performance.now();
    const script = buildScript(ruleset, state, (p) => index.get(p) ?? -1, cfg.scriptLength ?? SCRIPT_COMMANDS);
    log(`${ruleset}: script of ${script.steps.length} commands in ${(performance.now() - t0).toFixed(0)} ms (from version ${state.version})`);
    shared.scripts.set(ruleset, script);
  }
  return enc;
}

// ---------------------------------------------------------------- bgio and floor setup
const BGIO_GAME = 'bench-combat';

async function connect(url: string, path = ''): Promise<Socket> {
  const s = io(url + path, { transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', (e) => reject(e));
  });
  return s;
}

async function setupBgio(cfg: LoadConfig, i: number, counters: Counters): Promise<Enc> {
  const url = cfg.urls[i % cfg.urls.length]!;
  const enc: Enc = { i, clients: [], pendingTo: -1, recv: 0, onDelivered: null, version: 0, idx: 0, id: '', ruleset: 'bgio', startVersion: 0, matchID: `m${i}` };
  const numPlayers = cfg.P - 1;
  for (let k = 0; k < cfg.P; k++) {
    const socket = await connect(url, `/${BGIO_GAME}`);
    const playerID = k < numPlayers ? String(k) : null;
    countFrames(socket, counters, /\["(update|patch)"/);
    socket.on('patch', (_m: string, _prev: number, stateID: number) => delivered(enc, stateID, cfg.P));
    socket.on('update', (_m: string, state: { _stateID: number }) => delivered(enc, state._stateID, cfg.P));
    const synced = new Promise<number>((resolve) => socket.once('sync', (_m: string, info: { state: { _stateID: number } }) => resolve(info.state._stateID)));
    socket.emit('sync', enc.matchID, playerID, undefined, numPlayers);
    enc.version = await synced;
    enc.clients.push({ socket, role: k < numPlayers ? k : -2, redirected: false });
  }
  return enc;
}

async function setupFloor(cfg: LoadConfig, i: number, counters: Counters): Promise<Enc> {
  const url = cfg.urls[i % cfg.urls.length]!;
  const enc: Enc = { i, clients: [], pendingTo: -1, recv: 0, onDelivered: null, version: 0, idx: 0, id: `r${i}`, ruleset: 'floor', startVersion: 0, matchID: '' };
  for (let k = 0; k < cfg.P; k++) {
    const socket = await connect(url);
    countFrames(socket, counters, /^2\["msg"/);
    socket.on('msg', (_room: string, seq: number) => delivered(enc, seq, cfg.P));
    await emitAck(socket, 'join', enc.id);
    enc.clients.push({ socket, role: k < cfg.P - 1 ? k : -2, redirected: false });
  }
  return enc;
}

// ---------------------------------------------------------------- one command of each target
interface Outcome {
  ok: boolean;
  code?: string;
  latency?: number;
  redirected?: boolean;
  exhausted?: boolean;
  undelivered?: boolean;
  /** sent again after a RATE_LIMITED refusal */
  heldBack?: boolean;
}

let seqCounter = 0;
/**
 * BENCH_TIMELINE=1: where the slow commands of a phase come from. Each accepted Fray command is
 * kept as (sent at, ms to its ack, ms to the last client's patch); at the end of the phase the
 * generator prints how many took over 25 ms (and how many of those were already late at the ack),
 * the 100 ms windows with the most of them, and its own GC pauses over 15 ms, so that a window can
 * be matched with the server's FRAY_DIAG lines (event-loop stalls, slow commits) by wall-clock time.
 */
const TIMELINE: Array<[sentAt: number, ackMs: number, allMs: number]> | null = process.env.BENCH_TIMELINE ? [] : null;
const SLOW_MS = 25;
const generatorGcs: Array<[at: number, ms: number, kind: number]> = [];
if (TIMELINE) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
      if (e.duration > 15) generatorGcs.push([performance.timeOrigin + e.startTime, e.duration, kind]);
    }
  }).observe({ entryTypes: ['gc'] });
}
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23);

function printTimeline(): void {
  if (!TIMELINE || TIMELINE.length === 0) return;
  const from = TIMELINE[0]![0];
  const gcs = generatorGcs.filter((g) => g[0] >= from);
  const windows = new Map<number, { n: number; slow: number; max: number; maxAck: number }>();
  for (const [at, ack, all] of TIMELINE) {
    const k = Math.floor(at / 100) * 100;
    const w = windows.get(k) ?? { n: 0, slow: 0, max: 0, maxAck: 0 };
    w.n += 1;
    if (all > SLOW_MS) w.slow += 1;
    w.max = Math.max(w.max, all);
    w.maxAck = Math.max(w.maxAck, ack);
    windows.set(k, w);
  }
  const slow = TIMELINE.filter((t) => t[2] > SLOW_MS).length;
  const slowAck = TIMELINE.filter((t) => t[1] > SLOW_MS).length;
  log(`timeline: ${TIMELINE.length} commands, ${slow} over ${SLOW_MS} ms (${slowAck} of them late at the ack)`);
  for (const [k, w] of [...windows].sort((a, b) => b[1].slow - a[1].slow).slice(0, 10)) {
    if (w.slow > 0) log(`  ${clock(k)} +100 ms: ${w.slow} of ${w.n} slow, max ${w.max.toFixed(0)} ms (ack ${w.maxAck.toFixed(0)} ms)`);
  }
  log(`  generator GC pauses over 15 ms: ${gcs.map((g) => `${clock(g[0])} ${g[1].toFixed(0)} ms (${g[2] === 1 ? 'scavenge' : 'mark-compact'})`).join(', ') || 'none'}`);
  TIMELINE.length = 0;
  generatorGcs.length = 0;
}
const debugged = new Set<string>();

async function frayStep(cfg: LoadConfig, enc: Enc, scripts: Map<string, Script>): Promise<Outcome> {
  const script = scripts.get(enc.ruleset)!;
  const step = script.steps[enc.idx];
  if (!step) return { ok: false, exhausted: true };
  const sender = step.sender === -1 ? enc.clients[0]! : enc.clients.find((c) => c.role === step.sender)!;
  enc.pendingTo = enc.version + 1;
  enc.recv = 0;
  const t0 = performance.now();
  const ack = await frayCommand(sender.socket, enc.id, `b${enc.i}-${enc.idx}-${++seqCounter}`, step.command);
  if (!ack.ok) {
    if (process.env.BENCH_DEBUG && !debugged.has(enc.ruleset + ack.error?.code)) {
      debugged.add(enc.ruleset + ack.error?.code);
      log(`refused ${enc.ruleset} #${enc.i} step ${enc.idx} sender ${step.sender}: ${JSON.stringify(step.command)} -> ${JSON.stringify(ack)}`);
    }
    enc.idx += 1; // the script diverged (should not happen): counted as refused
    return { ok: false, code: ack.error?.code ?? 'UNKNOWN' };
  }
  const tAck = performance.now();
  const got = await waitDelivered(enc, cfg.P);
  enc.version = ack.version!;
  enc.idx += 1;
  const now = performance.now();
  if (TIMELINE) TIMELINE.push([Date.now() - (now - t0), tAck - t0, now - t0]);
  return { ok: true, latency: now - t0, redirected: sender.redirected, undelivered: !got, heldBack: ack.heldBack };
}

/** one bad command: malformed or unauthorized; returns its error code (null: accepted!) */
async function frayBad(enc: Enc, n: number): Promise<{ code: string | null; expected: string[]; ms: number }> {
  const gm = enc.clients[0]!;
  const player = enc.clients.find((c) => c.role === 0)!;
  const spectator = enc.clients.find((c) => c.role === -2)!;
  const foe = enc.ruleset === 'legends' ? 'c11' : 'c11';
  const commandId = `bad-${enc.i}-${n}-${++seqCounter}`;
  const kinds: Array<() => Promise<[unknown, string[]]>> = [
    // malformed: no commandId
    async () => [await emitAck(gm.socket, 'command', { encounterId: enc.id, command: { type: 'turn.end' } }), ['INVALID_MESSAGE']],
    // malformed JSON text
    async () => [await emitAck(player.socket, 'command', '{"encounterId":'), ['INVALID_JSON']],
    // unknown command type
    async () => [await emitAck(player.socket, 'command', { encounterId: enc.id, commandId, command: { type: 'fireball', combatantId: foe } }), ['UNKNOWN_COMMAND']],
    // bad fields
    async () => [await emitAck(gm.socket, 'command', { encounterId: enc.id, commandId, command: { type: 'turn.end', combatantId: 42 } }), ['INVALID_COMMAND']],
    // unauthorized: a player commands a combatant it does not control
    async () => [await emitAck(player.socket, 'command', { encounterId: enc.id, commandId, command: { type: 'turn.end', combatantId: foe } }), ['NOT_AUTHORIZED']],
    // unauthorized: a spectator sends a command
    async () => [await emitAck(spectator.socket, 'command', { encounterId: enc.id, commandId, command: { type: 'turn.end', combatantId: foe } }), ['FORBIDDEN']],
  ];
  const t0 = performance.now();
  const [ack, expected] = await kinds[n % kinds.length]!();
  const ms = performance.now() - t0;
  const a = ack as { ok: boolean; error?: { code: string } };
  if (process.env.BENCH_DEBUG && !debugged.has(`bad${n % kinds.length}`)) {
    debugged.add(`bad${n % kinds.length}`);
    log(`bad kind ${n % kinds.length}: ${JSON.stringify(ack)}`);
  }
  return { code: a.ok ? null : (a.error?.code ?? 'NO_CODE'), expected, ms };
}

async function bgioStep(cfg: LoadConfig, enc: Enc): Promise<Outcome> {
  const numPlayers = cfg.P - 1;
  const turn = Math.floor(enc.idx / 2);
  const playerID = String(turn % numPlayers);
  const sender = enc.clients[turn % numPlayers]!;
  const action =
    enc.idx % 2 === 0
      ? { type: 'MAKE_MOVE', payload: { type: 'attack', args: [(turn * 7) % 12], playerID, credentials: undefined } }
      : { type: 'GAME_EVENT', payload: { type: 'endTurn', args: [], playerID, credentials: undefined } };
  enc.pendingTo = enc.version + 1;
  enc.recv = 0;
  const t0 = performance.now();
  sender.socket.emit('update', action, enc.version, enc.matchID, playerID);
  const got = await waitDelivered(enc, cfg.P);
  if (!got) return { ok: false, code: 'NO_UPDATE', undelivered: true };
  enc.version += 1;
  enc.idx += 1;
  return { ok: true, latency: performance.now() - t0 };
}

async function floorStep(cfg: LoadConfig, enc: Enc): Promise<Outcome> {
  const sender = enc.clients[enc.idx % (cfg.P - 1)]!;
  const seq = enc.version + 1;
  enc.pendingTo = seq;
  enc.recv = 0;
  const t0 = performance.now();
  await emitAck(sender.socket, 'cmd', { room: enc.id, seq });
  const got = await waitDelivered(enc, cfg.P);
  enc.version = seq;
  enc.idx += 1;
  return { ok: true, latency: performance.now() - t0, undelivered: !got };
}

// ---------------------------------------------------------------- measurement
type GcCounts = { scavenges: number; fullGcs: number };
type Metrics = { memory: { heapUsed: number }; logWriter: { batches: number; entries: number }; eventLoopDelayMs?: { p50: number; p99: number; max: number } | null; gc?: GcCounts };
async function metricsOf(url: string): Promise<Metrics | null> {
  try {
    const res = await fetch(`${url}/metrics/json`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
    if (!res.ok) return null;
    return (await res.json()) as Metrics;
  } catch {
    return null;
  }
}

/** Fray's database, read for its checkpoint count (set once the generator has connected) */
let database: pg.Client | null = null;

async function sample(cfg: LoadConfig): Promise<{ cpu: number; systemCpu: number; mainCpu: number; db: number; rss: number; heap: number; batches: number; entries: number; loop: { p50: number; p99: number; max: number } | null; gc: GcCounts[] | null; checkpoints: number | null; waits: number[]; table: CpuTable; machine: number; ours: number }> {
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
  let heap = NaN;
  let batches = NaN;
  let entries = NaN;
  let loop: { p50: number; p99: number; max: number } | null = null;
  let gc: GcCounts[] | null = null;
  if (cfg.target === 'fray') {
    gc = [];
    heap = 0;
    batches = 0;
    entries = 0;
    for (const u of cfg.urls) {
      const m = await metricsOf(u);
      heap += m?.memory.heapUsed ?? NaN;
      batches += m?.logWriter.batches ?? NaN;
      entries += m?.logWriter.entries ?? NaN;
      // the worst process's window (one process in every part but `scale`)
      const d = m?.eventLoopDelayMs;
      if (d && (!loop || d.p99 > loop.p99)) loop = { p50: d.p50, p99: d.p99, max: d.max };
      if (m?.gc && gc) gc.push(m.gc);
      else gc = null; // a process that did not answer: no count rather than a wrong one
    }
  }
  const checkpoints = cfg.target === 'fray' && database ? await checkpointsBegun(database) : null;
  // the database's CPU only where Fray writes to it (boardgame.io and the floor have none)
  // what the bench itself and Postgres ran (for the rest of the machine: all of it less this)
  const pgAll = postgresCpuSeconds();
  const self = process.cpuUsage();
  const ours = cpu + (self.user + self.system) / 1e6 + cpuSeconds(process.ppid) + (Number.isFinite(pgAll) ? pgAll : 0);
  return { cpu, systemCpu, mainCpu, db: cfg.target === 'fray' ? pgAll : NaN, rss, heap, batches, entries, loop, gc, checkpoints, waits, table: cpuTable(), machine: machineBusySeconds(), ours };
}

/** The garbage collections between two samples, summed over the processes. */
function gcBetween(before: GcCounts[] | null, after: GcCounts[] | null): PhaseResult['serverGc'] {
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
function runQueueWaits(before: number[], after: number[], seconds: number): PhaseResult['runQueueWaitPercent'] {
  const pct = (i: number) => ((after[i]! - before[i]!) / seconds) * 100;
  const servers = before.slice(0, -1).map((_, i) => pct(i));
  return { server: servers.length ? Math.max(...servers) : NaN, generator: pct(before.length - 1) };
}

async function runPhase(cfg: LoadConfig, encs: Enc[], phase: Phase, step: (enc: Enc) => Promise<Outcome>, counters: Counters, fullStateBytes: () => number): Promise<PhaseResult> {
  const lat: number[] = [];
  const latRedirected: number[] = [];
  const refused: Record<string, number> = {};
  let accepted = 0;
  let undelivered = 0;
  let exhausted = 0;
  let rateLimited = 0;
  let heldBack = 0;
  const bad = phase.bad ? { sent: 0, typed: 0, untyped: {} as Record<string, number>, ackMsP50: {} as Record<string, number> } : null;
  const badMs = new Map<string, number[]>();
  counters.frames = 0;
  counters.frameBytes = 0;
  const before = await sample(cfg);
  const lg0 = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const startedAt = Date.now();
  const t0 = performance.now();
  const endAt = t0 + phase.seconds * 1000;
  let badN = 0;
  let rnd = 12345;
  const random = () => {
    rnd = (Math.imul(rnd, 1664525) + 1013904223) >>> 0;
    return rnd / 2 ** 32;
  };
  const drive = async (enc: Enc, k: number) => {
    const interval = phase.ratePerEncounter ? 1000 / phase.ratePerEncounter : 0;
    if (interval) await sleep((k / encs.length) * interval);
    let due = performance.now();
    while (performance.now() < endAt) {
      if (bad && random() < phase.bad! / (1 - phase.bad!)) {
        const r = await frayBad(enc, badN++);
        bad.sent += 1;
        if (r.code !== null && r.expected.includes(r.code)) bad.typed += 1;
        else bad.untyped[r.code ?? 'ACCEPTED'] = (bad.untyped[r.code ?? 'ACCEPTED'] ?? 0) + 1;
        if (r.code === 'RATE_LIMITED') rateLimited += 1;
        const k = r.code ?? 'ACCEPTED';
        if (!badMs.has(k)) badMs.set(k, []);
        badMs.get(k)!.push(r.ms);
      }
      const out = await step(enc);
      if (out.exhausted) {
        exhausted += 1;
        return;
      }
      if (out.ok) {
        accepted += 1;
        if (out.heldBack) heldBack += 1;
        if (out.undelivered) undelivered += 1;
        else {
          lat.push(out.latency!);
          if (out.redirected) latRedirected.push(out.latency!);
        }
      } else {
        refused[out.code ?? 'UNKNOWN'] = (refused[out.code ?? 'UNKNOWN'] ?? 0) + 1;
        if (out.undelivered) undelivered += 1;
      }
      if (phase.thinkMs) await sleep(phase.thinkMs);
      if (interval) {
        due += interval;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        else due = performance.now();
      }
    }
  };
  await Promise.all(encs.map((e, k) => drive(e, k)));
  printTimeline();
  const seconds = (performance.now() - t0) / 1000;
  const endedAt = Date.now();
  if (bad) for (const [k, v] of badMs) bad.ackMsP50[k] = summarize(v).p50;
  loopDelay.disable();
  const after = await sample(cfg);
  const lg = process.cpuUsage(lg0);
  const late = (ns: number) => Math.max(0, Math.round(ns / 1e4 - 1000) / 100); // minus the 10 ms resolution
  const cpu = after.cpu - before.cpu;
  const commits = after.batches - before.batches;
  return {
    name: phase.name,
    seconds,
    startedAt,
    endedAt,
    accepted,
    acceptedPerSec: accepted / seconds,
    latency: summarize(lat),
    latencyRedirected: latRedirected.length ? summarize(latRedirected) : null,
    refused,
    rateLimitedRetries: rateLimited,
    heldBack,
    undelivered,
    bad,
    frames: counters.frames,
    bytesPerUpdate: counters.frames ? counters.frameBytes / counters.frames : NaN,
    fullStateBytes: fullStateBytes(),
    serverCpuSeconds: cpu,
    serverCpuUsPerCommand: (cpu * 1e6) / Math.max(1, accepted),
    serverMainThreadCpuUsPerCommand: ((after.mainCpu - before.mainCpu) * 1e6) / Math.max(1, accepted),
    serverSystemCpuUsPerCommand: ((after.systemCpu - before.systemCpu) * 1e6) / Math.max(1, accepted),
    serverCpuPercent: (cpu / seconds) * 100,
    databaseCpuUsPerCommand: ((after.db - before.db) * 1e6) / Math.max(1, accepted),
    loadgenCpuPercent: ((lg.user + lg.system) / 1e6 / seconds) * 100,
    loadgenLoopDelayMs: { p99: late(loopDelay.percentile(99)), max: late(loopDelay.max) },
    serverLoopDelayMs: after.loop,
    serverGc: gcBetween(before.gc, after.gc),
    checkpoints: before.checkpoints !== null && after.checkpoints !== null ? after.checkpoints - before.checkpoints : null,
    runQueueWaitPercent: runQueueWaits(before.waits, after.waits, seconds),
    // the bench's own processes (servers, this generator, the bench that started it) left out
    otherCpu: otherCpu(before.table, after.table, seconds, [...cfg.pids, process.pid, process.ppid], ['postgres'], after.machine - before.machine - (after.ours - before.ours)),
    rssBytes: after.rss,
    heapUsedBytes: after.heap,
    commits,
    commitsPerSec: commits / seconds,
    entriesPerCommit: (after.entries - before.entries) / Math.max(1, commits),
    scriptExhausted: exhausted,
    loadAverage: loadAverage(),
  };
}

// ---------------------------------------------------------------- main
async function main(): Promise<void> {
  const cfg = JSON.parse(process.env.BENCH_LOAD ?? '{}') as LoadConfig;
  const t0 = performance.now();
  const counters: Counters = { frames: 0, frameBytes: 0 };
  const base = await sample(cfg);
  const encs: Enc[] = [];
  const scripts = new Map<string, Script>();
  const conc = cfg.setupConcurrency ?? 25;
  let setupOne: (i: number) => Promise<Enc>;
  let step: (enc: Enc) => Promise<Outcome>;
  let db: pg.Client | null = null;
  if (cfg.target === 'fray') {
    // one GM account per encounter (as a table has its GM), written straight into the database:
    // setup, not measured, and POST /accounts is rate limited per address
    db = new pg.Client({ connectionString: cfg.databaseUrl });
    await db.connect();
    database = db;
    const tokens: string[] = [];
    const run = randomBytes(4).toString('hex');
    for (let i = 0; i < cfg.E; i += 500) {
      const ids: string[] = [];
      const hashes: string[] = [];
      for (let k = i; k < Math.min(cfg.E, i + 500); k++) {
        const token = `fray_gm_bench${run}x${k}${randomBytes(12).toString('base64url')}`;
        tokens.push(token);
        ids.push(`acc_bench_${run}_${k}`);
        hashes.push(createHash('sha256').update(token).digest('hex'));
      }
      await db.query('INSERT INTO accounts (id, token_hash, name) SELECT * FROM unnest($1::text[], $2::text[], $1::text[])', [ids, hashes]);
    }
    const shared: FrayShared = { scripts, counters };
    // the first encounter of each ruleset alone (its log gives the script), then the rest
    const first = Math.min(cfg.E, (cfg.rulesets ?? ['legends']).length);
    for (let i = 0; i < first; i++) encs.push(await setupFray(cfg, i, tokens[i]!, shared, true));
    setupOne = (i) => setupFray(cfg, i, tokens[i]!, shared, false);
    step = (enc) => frayStep(cfg, enc, scripts);
    for (let i = first; i < cfg.E; i += conc) {
      encs.push(...(await Promise.all(Array.from({ length: Math.min(conc, cfg.E - i) }, (_, k) => setupOne(i + k)))));
      if (i % 500 < conc) log(`setup ${encs.length}/${cfg.E}`);
    }
  } else {
    setupOne = cfg.target === 'bgio' ? (i) => setupBgio(cfg, i, counters) : (i) => setupFloor(cfg, i, counters);
    step = cfg.target === 'bgio' ? (enc) => bgioStep(cfg, enc) : (enc) => floorStep(cfg, enc);
    for (let i = 0; i < cfg.E; i += conc) encs.push(...(await Promise.all(Array.from({ length: Math.min(conc, cfg.E - i) }, (_, k) => setupOne(i + k)))));
  }
  const setupSeconds = (performance.now() - t0) / 1000;
  const afterSetup = await sample(cfg);
  log(`${cfg.target}: ${cfg.E} × ${cfg.P} set up in ${setupSeconds.toFixed(1)} s`);
  const fullState = () => {
    if (cfg.target !== 'fray') return NaN;
    let sum = 0;
    let n = 0;
    for (const e of encs) {
      const s = scripts.get(e.ruleset)!;
      const b = s.stateBytes[Math.min(s.stateBytes.length - 1, Math.floor(e.idx / s.every))];
      if (b !== undefined) {
        sum += b;
        n++;
      }
    }
    return n ? sum / n : NaN;
  };
  let warmupAccepted = 0;
  if (cfg.warmupSeconds && cfg.warmupSeconds > 0 && cfg.phases[0]) {
    const { bad: _bad, ...shape } = cfg.phases[0];
    const w = await runPhase(cfg, encs, { ...shape, name: 'warm-up', seconds: cfg.warmupSeconds }, step, counters, fullState);
    warmupAccepted = w.accepted;
    log(`${cfg.target} warm-up (not measured, ${cfg.warmupSeconds} s like "${shape.name}"): ${w.acceptedPerSec.toFixed(0)}/s p50 ${w.latency.p50.toFixed(1)} p99 ${w.latency.p99.toFixed(1)} ms`);
  }
  const phases: PhaseResult[] = [];
  for (const ph of cfg.phases) {
    const r = await runPhase(cfg, encs, ph, step, counters, fullState);
    log(`${cfg.target} ${ph.name}: ${r.acceptedPerSec.toFixed(0)}/s p50 ${r.latency.p50.toFixed(1)} p99 ${r.latency.p99.toFixed(1)} ms, server CPU ${r.serverCpuUsPerCommand.toFixed(0)} µs/cmd (main thread ${r.serverMainThreadCpuUsPerCommand.toFixed(0)}, system ${r.serverSystemCpuUsPerCommand.toFixed(0)})${Number.isFinite(r.databaseCpuUsPerCommand) ? `, Postgres ${r.databaseCpuUsPerCommand.toFixed(0)} µs/cmd` : ''}; loop delay p99/max ms: server ${r.serverLoopDelayMs ? `${r.serverLoopDelayMs.p99}/${r.serverLoopDelayMs.max}` : '-'}, generator ${r.loadgenLoopDelayMs.p99}/${r.loadgenLoopDelayMs.max}${r.serverGc ? `; server GCs in the phase: ${r.serverGc.fullGcs} full, ${r.serverGc.scavenges} scavenges` : ''}${r.checkpoints !== null ? `; Postgres checkpoints: ${r.checkpoints}` : ''}; waiting for a core: server ${r.runQueueWaitPercent.server.toFixed(0)} %, generator ${r.runQueueWaitPercent.generator.toFixed(0)} %; the rest of the machine ${describeOtherCpu(r.otherCpu)}${r.scriptExhausted ? `; ${r.scriptExhausted} encounters ran out of script` : ''}${r.heldBack ? `; ${r.heldBack} commands held back by the rate limit` : ''}`);
    phases.push(r);
  }
  let check: LoadResult['check'] = null;
  if (db) {
    await sleep(200);
    const accepted = phases.reduce((a, p) => a + p.accepted, warmupAccepted);
    const expected = encs.reduce((a, e) => a + e.startVersion, 0) + accepted;
    const rows = await db.query<{ n: string }>('SELECT count(*) AS n FROM command_log');
    check = { logEntries: Number(rows.rows[0]!.n), expected, accepted };
    database = null;
    await db.end();
  }
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
