/**
 * BENCH_TIMELINE=1: where the slow commands of a phase come from. Each accepted Fray command is
 * kept as (sent at, ms to its ack, ms to the last client's patch); at the end of the phase the
 * generator prints how many took over 25 ms (and how many of those were already late at the ack),
 * the 100 ms windows with the most of them, and its own GC pauses over 15 ms, so that a window can
 * be matched with the server's FRAY_DIAG lines (event-loop stalls, slow commits) by wall-clock time.
 */
import { PerformanceObserver } from 'node:perf_hooks';

const log = (...a: unknown[]) => console.error('[loadgen]', ...a);
const TIMELINE: Array<[sentAt: number, ackMs: number, allMs: number]> | null = process.env.BENCH_TIMELINE ? [] : null;
const SLOW_MS = 25;
const generatorGcs: Array<[at: number, ms: number, kind: number]> = [];
if (TIMELINE) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const detail: unknown = 'detail' in e ? e.detail : undefined;
      const kind = detail && typeof detail === 'object' && 'kind' in detail && typeof detail.kind === 'number' ? detail.kind : 0;
      if (e.duration > 15) generatorGcs.push([performance.timeOrigin + e.startTime, e.duration, kind]);
    }
  }).observe({ entryTypes: ['gc'] });
}
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23);

/** One accepted command: sent at t0, acknowledged at tAck, delivered to every client at now (performance.now()). */
export function recordTimeline(now: number, t0: number, tAck: number): void {
  if (TIMELINE) TIMELINE.push([Date.now() - (now - t0), tAck - t0, now - t0]);
}

export function printTimeline(): void {
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
  log(
    `  generator GC pauses over 15 ms: ${gcs.map((g) => `${clock(g[0])} ${g[1].toFixed(0)} ms (${g[2] === 1 ? 'scavenge' : 'mark-compact'})`).join(', ') || 'none'}`,
  );
  TIMELINE.length = 0;
  generatorGcs.length = 0;
}
