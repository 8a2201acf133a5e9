/**
 * The capacity run's pure parts (unit tested in test/capacity.test.ts): the step list, the seeded
 * randomness of the arrivals, delivery to every client of a table, the malformed commands, the
 * server's GC pauses read from --trace-gc, the stop rule and the sizing guide.
 */
import { z } from 'zod';

/** the steps: live encounters × 5 clients */
export const DEFAULT_STEPS = [1000, 2500, 5000, 10000];

/** BENCH_CAPACITY_STEPS ("200,500"): ascending positive integers; unset: the default steps. */
export function parseSteps(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return DEFAULT_STEPS;
  const steps = z
    .array(z.coerce.number().int().positive())
    .min(1)
    .parse(value.split(',').map((s) => s.trim()));
  for (let i = 1; i < steps.length; i++) {
    if (steps[i]! <= steps[i - 1]!) throw new Error(`BENCH_CAPACITY_STEPS must ascend: ${value}`);
  }
  return steps;
}

/** A seeded generator of uniform numbers in [0, 1) (mulberry32): the same run sends at the same moments. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The wait before an encounter's next command: exponential with mean `meanMs` (a Poisson stream of commands). */
export function nextArrivalMs(random: () => number, meanMs: number): number {
  return -Math.log(1 - random()) * meanMs;
}

/**
 * One table's commands in flight and how far each client has seen: a command whose version `v` is
 * known (the ack named it; the floor's sender chose it) is delivered once every client has seen an
 * update to `v` or later (an update may arrive before the ack, or cover two commands).
 */
interface Pending {
  v: number | null;
  t0: number;
  done: (ms: number) => void;
}

export class Delivery {
  private readonly seen: number[];
  private readonly pending: Pending[] = [];

  constructor(clients: number) {
    this.seen = new Array<number>(clients).fill(-1);
  }

  /** a command sent at `t0`; `done` gets its latency once every client has it */
  sent(t0: number, done: (ms: number) => void): { versioned: (v: number, now: number) => void; drop: () => void } {
    const p: Pending = { v: null, t0, done };
    this.pending.push(p);
    return {
      versioned: (v, now) => {
        p.v = v;
        this.settle(now);
      },
      drop: () => this.remove(p),
    };
  }

  /** client `k` has seen the table up to version `to` */
  update(k: number, to: number, now: number): void {
    if (to > this.seen[k]!) this.seen[k] = to;
    this.settle(now);
  }

  get inFlight(): number {
    return this.pending.length;
  }

  /** forgets every command in flight (the phase is over); how many there were */
  clear(): number {
    return this.pending.splice(0).length;
  }

  private settle(now: number): void {
    let min = Infinity;
    for (const s of this.seen) min = Math.min(min, s);
    for (const p of [...this.pending]) {
      if (p.v !== null && p.v <= min) {
        this.remove(p);
        p.done(now - p.t0);
      }
    }
  }

  private remove(p: Pending): void {
    const i = this.pending.indexOf(p);
    if (i >= 0) this.pending.splice(i, 1);
  }
}

/** The malformed commands of the run, in turn: what is sent and the typed error it must get. */
export const MALFORMED: Array<{ name: string; code: string; payload: (encounterId: string, commandId: string) => unknown }> = [
  {
    name: 'no commandId',
    code: 'INVALID_MESSAGE',
    payload: (encounterId) => ({ encounterId, command: { type: 'dice.roll', formula: '1d20', purpose: 'x' } }),
  },
  { name: 'not JSON', code: 'INVALID_JSON', payload: () => '{"encounterId":' },
  {
    name: 'unknown type',
    code: 'UNKNOWN_COMMAND',
    payload: (encounterId, commandId) => ({ encounterId, commandId, command: { type: 'fireball' } }),
  },
  {
    name: 'bad fields',
    code: 'INVALID_COMMAND',
    payload: (encounterId, commandId) => ({ encounterId, commandId, command: { type: 'dice.roll', formula: 42, purpose: 'x' } }),
  },
];

/** The malformed answers of a phase: sent, answered with their own typed code, the others by code. */
export interface MalformedCounts {
  sent: number;
  typed: number;
  other: Record<string, number>;
}

export function countMalformed(m: MalformedCounts, expected: string, ack: unknown): void {
  m.sent += 1;
  const code =
    typeof ack === 'object' && ack !== null && 'error' in ack && typeof ack.error === 'object' && ack.error !== null && 'code' in ack.error
      ? String(ack.error.code)
      : typeof ack === 'object' && ack !== null && 'ok' in ack && ack.ok === true
        ? 'ACCEPTED'
        : 'NO_ACK';
  if (code === expected) m.typed += 1;
  else m.other[code] = (m.other[code] ?? 0) + 1;
}

/** A garbage collection as --trace-gc prints it: its kind and its pause (ms). */
export interface GcPause {
  kind: 'scavenge' | 'full';
  ms: number;
}

/**
 * One line of V8's --trace-gc, e.g.
 * `[123:0x5e0]   4021 ms: Scavenge (interleaved) 61.2 (70.1) -> 60.3 (71.1) MB, pooled: 0 MB, 2.41 / 0.00 ms  (average mu = …`
 * or `… Mark-Compact 120.5 (130.0) -> 100.2 (125.0) MB, 45.67 / 0.00 ms  (+ 30.1 ms in 200 steps …`; null for any other line.
 */
export function parseTraceGc(line: string): GcPause | null {
  const m = /\d+ ms: (Scavenge|Minor Mark-Sweep|Mark-Compact|Mark-Sweep)\b[^,]*MB,(?: pooled: [\d.]+ MB,)? ([\d.]+) \/ [\d.]+ ms/.exec(
    line,
  );
  if (!m) return null;
  return { kind: m[1] === 'Scavenge' || m[1] === 'Minor Mark-Sweep' ? 'scavenge' : 'full', ms: Number(m[2]) };
}

/** The pauses of a window: the longest, how many over `limitMs`, the full GCs. */
export function gcWindow(pauses: GcPause[], limitMs = 50): { maxMs: number; over: number; full: number; count: number } {
  let maxMs = 0;
  let over = 0;
  let full = 0;
  for (const p of pauses) {
    maxMs = Math.max(maxMs, p.ms);
    if (p.ms > limitMs) over += 1;
    if (p.kind === 'full') full += 1;
  }
  return { maxMs, over, full, count: pauses.length };
}

/** Why the run stops after a step (null: go on): the p99 over its bound, failed connections, memory. */
export function stopReason(
  step: { p99: number; failedConnections: number; usedMemoryShare: number },
  p99LimitMs = 50,
  memoryShare = 0.85,
): string | null {
  if (step.failedConnections > 0) return `${step.failedConnections} connections failed`;
  if (!(step.p99 <= p99LimitMs)) return `p99 ${step.p99.toFixed(1)} ms > ${p99LimitMs} ms`;
  if (step.usedMemoryShare > memoryShare) return `memory ${Math.round(step.usedMemoryShare * 100)} % used`;
  return null;
}

/**
 * The sizing guide: tables a host carries at this pace, the lower of what the latency allowed
 * (the largest step within the p99 bound; capped there, since no larger one was measured) and
 * what its memory holds (the server's RSS at rest plus the RSS per encounter, in `useShare` of it).
 */
export function sizing(o: {
  passedE: number;
  baseRssBytes: number;
  rssPerEncounterBytes: number;
  memoryBytes: number;
  useShare?: number;
}): { tables: number; by: 'latency' | 'memory' } {
  const byMemory = Math.floor((o.memoryBytes * (o.useShare ?? 0.75) - o.baseRssBytes) / o.rssPerEncounterBytes);
  return byMemory < o.passedE ? { tables: Math.max(0, byMemory), by: 'memory' } : { tables: o.passedE, by: 'latency' };
}
