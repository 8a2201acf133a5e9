/** One measured phase: every encounter driven for `phase.seconds`, then its figures (PhaseResult). */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadAverage, otherCpu, sleep } from '../proc.js';
import { summarize } from '../stats.js';
import { frayBad } from './fray.js';
import { gcBetween, runQueueWaits, sample, type Sample } from './sample.js';
import { printTimeline } from './timeline.js';
import type { BadCounts, Counters, Enc, LoadConfig, Outcome, Phase, PhaseResult } from './types.js';

/** What the phase's drivers count. */
interface Tally {
  lat: number[];
  latRedirected: number[];
  refused: Record<string, number>;
  accepted: number;
  undelivered: number;
  exhausted: number;
  rateLimited: number;
  heldBack: number;
  bad: BadCounts | null;
  badMs: Map<string, number[]>;
  badN: number;
}

function newTally(phase: Phase): Tally {
  const bad: BadCounts | null = phase.bad ? { sent: 0, typed: 0, untyped: {}, ackMsP50: {} } : null;
  return {
    lat: [],
    latRedirected: [],
    refused: {},
    accepted: 0,
    undelivered: 0,
    exhausted: 0,
    rateLimited: 0,
    heldBack: 0,
    bad,
    badMs: new Map(),
    badN: 0,
  };
}

/** a fixed-seed generator: the bad commands fall at the same places in every run */
function seeded(): () => number {
  let rnd = 12345;
  return () => {
    rnd = (Math.imul(rnd, 1664525) + 1013904223) >>> 0;
    return rnd / 2 ** 32;
  };
}

async function sendBad(t: Tally, bad: BadCounts, enc: Enc): Promise<void> {
  const r = await frayBad(enc, t.badN++);
  bad.sent += 1;
  if (r.code !== null && r.expected.includes(r.code)) bad.typed += 1;
  else bad.untyped[r.code ?? 'ACCEPTED'] = (bad.untyped[r.code ?? 'ACCEPTED'] ?? 0) + 1;
  if (r.code === 'RATE_LIMITED') t.rateLimited += 1;
  const k = r.code ?? 'ACCEPTED';
  if (!t.badMs.has(k)) t.badMs.set(k, []);
  t.badMs.get(k)!.push(r.ms);
}

function count(t: Tally, out: Outcome): void {
  if (out.ok) {
    t.accepted += 1;
    if (out.heldBack) t.heldBack += 1;
    if (out.undelivered) t.undelivered += 1;
    else {
      t.lat.push(out.latency!);
      if (out.redirected) t.latRedirected.push(out.latency!);
    }
  } else {
    t.refused[out.code ?? 'UNKNOWN'] = (t.refused[out.code ?? 'UNKNOWN'] ?? 0) + 1;
    if (out.undelivered) t.undelivered += 1;
  }
}

/** Every encounter sends its commands until `endAt`: one in flight each, after the think time or on the rate's schedule. */
async function driveAll(encs: Enc[], phase: Phase, step: (enc: Enc) => Promise<Outcome>, t: Tally, endAt: number): Promise<void> {
  const random = seeded();
  const drive = async (enc: Enc, k: number) => {
    const interval = phase.ratePerEncounter ? 1000 / phase.ratePerEncounter : 0;
    if (interval) await sleep((k / encs.length) * interval);
    let due = performance.now();
    while (performance.now() < endAt) {
      if (t.bad && phase.bad && random() < phase.bad / (1 - phase.bad)) await sendBad(t, t.bad, enc);
      const out = await step(enc);
      if (out.exhausted) {
        t.exhausted += 1;
        return;
      }
      count(t, out);
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
}

interface Window {
  cfg: LoadConfig;
  phase: Phase;
  seconds: number;
  startedAt: number;
  endedAt: number;
  before: Sample;
  after: Sample;
  /** the generator's CPU in the phase (process.cpuUsage) */
  lg: NodeJS.CpuUsage;
  loopDelay: { p99: number; max: number };
}

function result(w: Window, t: Tally, counters: Counters, fullStateBytes: number): PhaseResult {
  const { cfg, before, after, seconds } = w;
  const cpu = after.cpu - before.cpu;
  const commits = after.batches - before.batches;
  const perCommand = (x: number) => (x * 1e6) / Math.max(1, t.accepted);
  return {
    name: w.phase.name,
    seconds,
    startedAt: w.startedAt,
    endedAt: w.endedAt,
    accepted: t.accepted,
    acceptedPerSec: t.accepted / seconds,
    latency: summarize(t.lat),
    latencyRedirected: t.latRedirected.length ? summarize(t.latRedirected) : null,
    refused: t.refused,
    rateLimitedRetries: t.rateLimited,
    heldBack: t.heldBack,
    undelivered: t.undelivered,
    bad: t.bad,
    frames: counters.frames,
    bytesPerUpdate: counters.frames ? counters.frameBytes / counters.frames : NaN,
    fullStateBytes,
    serverCpuSeconds: cpu,
    serverCpuUsPerCommand: perCommand(cpu),
    serverMainThreadCpuUsPerCommand: perCommand(after.mainCpu - before.mainCpu),
    serverSystemCpuUsPerCommand: perCommand(after.systemCpu - before.systemCpu),
    serverCpuPercent: (cpu / seconds) * 100,
    databaseCpuUsPerCommand: perCommand(after.db - before.db),
    loadgenCpuPercent: ((w.lg.user + w.lg.system) / 1e6 / seconds) * 100,
    loadgenLoopDelayMs: w.loopDelay,
    serverLoopDelayMs: after.loop,
    serverGc: gcBetween(before.gc, after.gc),
    checkpoints: before.checkpoints !== null && after.checkpoints !== null ? after.checkpoints - before.checkpoints : null,
    runQueueWaitPercent: runQueueWaits(before.waits, after.waits, seconds),
    // the bench's own processes (servers, this generator, the bench that started it) left out
    otherCpu: otherCpu(
      before.table,
      after.table,
      seconds,
      [...cfg.pids, process.pid, process.ppid],
      ['postgres'],
      after.machine - before.machine - (after.ours - before.ours),
    ),
    rssBytes: after.rss,
    heapUsedBytes: after.heap,
    commits,
    commitsPerSec: commits / seconds,
    entriesPerCommit: (after.entries - before.entries) / Math.max(1, commits),
    scriptExhausted: t.exhausted,
    loadAverage: loadAverage(),
  };
}

export async function runPhase(
  cfg: LoadConfig,
  encs: Enc[],
  phase: Phase,
  step: (enc: Enc) => Promise<Outcome>,
  counters: Counters,
  fullStateBytes: () => number,
): Promise<PhaseResult> {
  const t = newTally(phase);
  counters.frames = 0;
  counters.frameBytes = 0;
  const before = await sample(cfg);
  const lg0 = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const startedAt = Date.now();
  const t0 = performance.now();
  await driveAll(encs, phase, step, t, t0 + phase.seconds * 1000);
  printTimeline();
  const seconds = (performance.now() - t0) / 1000;
  const endedAt = Date.now();
  if (t.bad) for (const [k, v] of t.badMs) t.bad.ackMsP50[k] = summarize(v).p50;
  loopDelay.disable();
  const after = await sample(cfg);
  const lg = process.cpuUsage(lg0);
  const late = (ns: number) => Math.max(0, Math.round(ns / 1e4 - 1000) / 100); // minus the 10 ms resolution
  const w: Window = {
    cfg,
    phase,
    seconds,
    startedAt,
    endedAt,
    before,
    after,
    lg,
    loopDelay: { p99: late(loopDelay.percentile(99)), max: late(loopDelay.max) },
  };
  return result(w, t, counters, fullStateBytes());
}
