import type { FastifyInstance } from 'fastify';
import { constants, monitorEventLoopDelay, PerformanceObserver, type ELDHistogram } from 'node:perf_hooks';

/** What GET /metrics/json reports of the process besides its counters: the event loop's delay and the GCs. */

/** The event-loop delay of one window (ms). */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  windowSeconds: number;
}

/**
 * Event-loop delay over the last completed 10-second window (what a command waits when the loop is
 * busy), from a 10 ms sampling timer: the histogram records the timer's whole interval, so the
 * resolution is taken off; reset every window. The reader gives null until the first window ends.
 * Stopped when the app closes.
 */
export function watchEventLoopDelay(app: FastifyInstance): () => LoopDelay | null {
  const WINDOW_MS = 10_000;
  const RESOLUTION_MS = 10;
  const current: ELDHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  current.enable();
  let last: LoopDelay | null = null;
  const rotate = setInterval(() => {
    const ms = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
    last = { p50: ms(current.percentile(50)), p99: ms(current.percentile(99)), max: ms(current.max), windowSeconds: WINDOW_MS / 1000 };
    current.reset();
  }, WINDOW_MS);
  rotate.unref();
  app.addHook('onClose', async () => {
    clearInterval(rotate);
    current.disable();
  });
  return () => last;
}

/**
 * Garbage collections since the start, from Node's `gc` performance entries: how many of each kind
 * and their pauses (a full GC's entry is its final pause; the incremental marking before it runs in
 * steps between tasks and is not in it). The reader gives them rounded to 0.1 ms. Stopped when the
 * app closes.
 */
export function watchGc(app: FastifyInstance): () => Record<string, number> {
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
      const kind = 'detail' in e ? gcKind(e.detail) : undefined;
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
  app.addHook('onClose', async () => gcObserver.disconnect());
  return () => Object.fromEntries(Object.entries(gc).map(([k, v]) => [k, Math.round(v * 10) / 10]));
}

/** The kind of a `gc` performance entry (its `detail`, typed unknown by Node's typings). */
function gcKind(detail: unknown): unknown {
  return typeof detail === 'object' && detail !== null && 'kind' in detail ? detail.kind : undefined;
}
