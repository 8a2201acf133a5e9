import type { FastifyInstance } from 'fastify';
import { constants, monitorEventLoopDelay, PerformanceObserver, type ELDHistogram } from 'node:perf_hooks';
import type { ServerContext } from './server.js';

/**
 * `GET /metrics`: this process's resource figures for benchmarks and monitoring, as JSON.
 * Read-only, unauthenticated, and without encounter data (counts and byte sizes only).
 */
export function registerMetrics(app: FastifyInstance, ctx: ServerContext): void {
  // event-loop delay over the last completed 10-second window (what a command waits when the
  // loop is busy), from a 10 ms sampling timer: the histogram records the timer's whole interval,
  // so the resolution is taken off; reset every window
  const WINDOW_MS = 10_000;
  const RESOLUTION_MS = 10;
  const current: ELDHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  current.enable();
  let last: { p50: number; p99: number; max: number; windowSeconds: number } | null = null;
  const rotate = setInterval(() => {
    const ms = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
    last = { p50: ms(current.percentile(50)), p99: ms(current.percentile(99)), max: ms(current.max), windowSeconds: WINDOW_MS / 1000 };
    current.reset();
  }, WINDOW_MS);
  rotate.unref();
  // garbage collections since the start, from Node's `gc` performance entries: how many of each
  // kind and their pauses (a full GC's entry is its final pause; the incremental marking before it
  // runs in steps between tasks and is not in it)
  const gc = {
    scavenges: 0,
    scavengeMs: 0,
    scavengeMaxMs: 0,
    fullGcs: 0,
    fullGcMs: 0,
    fullGcMaxMs: 0,
  };
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        gc.scavenges += 1;
        gc.scavengeMs += e.duration;
        gc.scavengeMaxMs = Math.max(gc.scavengeMaxMs, e.duration);
      } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.fullGcs += 1;
        gc.fullGcMs += e.duration;
        gc.fullGcMaxMs = Math.max(gc.fullGcMaxMs, e.duration);
      }
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  app.addHook('onClose', async () => {
    clearInterval(rotate);
    current.disable();
    gcObserver.disconnect();
  });
  app.get('/metrics', { schema: { summary: 'Process figures: memory, CPU, live encounters, command and group-commit counters (no encounter data)' } }, async () => {
    const w = ctx.runtime.writer.stats;
    return {
      pid: process.pid,
      uptimeSeconds: process.uptime(),
      memory: process.memoryUsage(),
      cpu: process.cpuUsage(),
      liveEncounters: ctx.runtime.liveCount,
      sockets: ctx.sinks.size,
      runtime: { ...ctx.runtime.metrics },
      /** the group-commit log writer: one batch is one database commit */
      logWriter: { ...w },
      /** refused socket messages and commands since the start, by error code */
      refusals: { ...ctx.refusals.totals },
      /** ms; null until the first window has passed */
      eventLoopDelayMs: last,
      /** garbage collections since the start: counts, total and longest pauses (ms) */
      gc: Object.fromEntries(Object.entries(gc).map(([k, v]) => [k, Math.round(v * 10) / 10])),
    };
  });
}
