/** The load generator's configuration, its results, and its per-encounter state (loadgen.ts). */
import type { Socket } from 'socket.io-client';
import { z } from 'zod';
import type { Summary } from '../stats.js';

const phaseSchema = z.object({
  name: z.string(),
  seconds: z.number(),
  /** pause after each delivered command (ms) */
  thinkMs: z.number().optional(),
  /** commands per second per encounter (rate mode); unset: as fast as delivery allows */
  ratePerEncounter: z.number().optional(),
  /** share of extra bad commands (malformed or unauthorized), e.g. 0.05 */
  bad: z.number().optional(),
});
export type Phase = z.infer<typeof phaseSchema>;

/** The generator's configuration (the JSON in BENCH_LOAD). */
const loadConfigSchema = z.object({
  target: z.enum(['fray', 'bgio', 'floor']),
  urls: z.array(z.string()),
  pids: z.array(z.number()),
  E: z.number().int(),
  P: z.number().int(),
  phases: z.array(phaseSchema),
  /** fray: encounter i plays rulesets[i % n] */
  rulesets: z.array(z.string()).optional(),
  databaseUrl: z.string().optional(),
  /** floor: bytes of the broadcast message */
  payloadBytes: z.number().optional(),
  /** fray: commands per scripted fight */
  scriptLength: z.number().optional(),
  /** parallel encounter setups */
  setupConcurrency: z.number().optional(),
  /**
   * seconds of load shaped like the first phase before the measured phases, not measured: the JIT
   * warms up and the setup's garbage starts to go (not always all of it: a major GC comes when V8's
   * limit is reached, which may still be inside the first phase)
   */
  warmupSeconds: z.number().optional(),
});
export type LoadConfig = z.infer<typeof loadConfigSchema>;

export const readLoadConfig = (json: string): LoadConfig => loadConfigSchema.parse(JSON.parse(json));

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
  bad: BadCounts | null;
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

/** The bad commands of a phase: sent, answered with their typed error, the others by code, ack ms p50 by code. */
export interface BadCounts {
  sent: number;
  typed: number;
  untyped: Record<string, number>;
  ackMsP50: Record<string, number>;
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

// ---------------------------------------------------------------- common per-encounter state
export interface Client {
  socket: Socket;
  /** fray: -1 GM, k player k, -2 spectator */
  role: number;
  redirected: boolean;
}

export interface Enc {
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

export interface Counters {
  frames: number;
  frameBytes: number;
}

/** One command of a target, as the phase counts it. */
export interface Outcome {
  ok: boolean;
  code?: string;
  latency?: number;
  redirected?: boolean;
  exhausted?: boolean;
  undelivered?: boolean;
  /** sent again after a RATE_LIMITED refusal */
  heldBack?: boolean;
}

/** A new encounter's state before its clients join. */
export function newEnc(i: number, fields: Partial<Enc> = {}): Enc {
  return {
    i,
    clients: [],
    pendingTo: -1,
    recv: 0,
    onDelivered: null,
    version: 0,
    idx: 0,
    id: '',
    ruleset: '',
    startVersion: 0,
    matchID: '',
    ...fields,
  };
}
