import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Giving memory back when the server goes quiet. V8's memory reducer, which would do this, is off
 * (ADR 3: under load it shrank the young generation and its full GCs were the slowest); so the
 * young generation grown during start (about 55 MB of semi-spaces) was kept for good. Instead, once
 * nothing happened for a while, one memory-reducing full GC: V8 shrinks the young generation and
 * gives the freed pages back to the system. It runs only on a quiet process, never under load: the
 * next burst of activity lets the young generation grow again, as V8 does anyway.
 */

type GcFunction = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void;

let gcFunction: GcFunction | null = null;

/** V8's gc() without --expose-gc on the command line: the flag, then a context that has it. */
function gc(): GcFunction {
  if (!gcFunction) {
    setFlagsFromString('--expose-gc');
    const fn: GcFunction = runInNewContext('gc');
    gcFunction = fn;
  }
  return gcFunction;
}

/** One memory-reducing full GC (V8's "last resort" flavour: it also shrinks the young generation). */
export function reduceMemoryNow(): void {
  gc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

export interface IdleTrimOptions {
  /** a counter that moves with activity (commands applied, encounters loaded, messages handled) */
  activity: () => number;
  /** true while the process must not pause (encounters in memory, clients connected): no trim then */
  busy?: () => boolean;
  /** quiet this long after start before the first trim (ms) */
  firstQuietMs: number;
  /** quiet this long after later activity before trimming again (ms) */
  quietMs: number;
  /** how often activity is looked at (ms) */
  checkMs?: number;
  onTrim?: (info: { rssBefore: number; rssAfter: number; ms: number }) => void;
}

/** Trims once the process has been quiet long enough, again after each later spell of activity. Returns a stop. */
export function trimWhenIdle(o: IdleTrimOptions): () => void {
  let last = o.activity();
  let quietSince = Date.now();
  let trimmed = false;
  let first = true;
  const timer = setInterval(() => {
    const now = Date.now();
    const a = o.activity();
    if (a !== last || o.busy?.() === true) {
      last = a;
      quietSince = now;
      trimmed = false;
      return;
    }
    if (trimmed || now - quietSince < (first ? o.firstQuietMs : o.quietMs)) return;
    const rssBefore = process.memoryUsage.rss();
    const t0 = performance.now();
    reduceMemoryNow();
    trimmed = true;
    first = false;
    o.onTrim?.({ rssBefore, rssAfter: process.memoryUsage.rss(), ms: performance.now() - t0 });
  }, o.checkMs ?? 1_000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The server's trims: the young generation grown during start given back once the start is over
 * (2 s without a command or a load), and the same after each spell of play followed by
 * FRAY_IDLE_TRIM_SECONDS of quiet (0: never).
 */
export function trimWhenQuiet(
  config: { idleTrimSeconds: number },
  m: { commands: number; loads: number },
  busy: () => boolean,
  logger: { info(o: object, msg: string): void },
): void {
  if (config.idleTrimSeconds <= 0) return;
  trimWhenIdle({
    activity: () => m.commands + m.loads,
    // a memory-reducing GC of a heap holding 1,000 encounters paused a restarted process 1-2 s
    // while its clients were catching up: only a process with nothing live and nobody connected
    busy,
    firstQuietMs: 2_000,
    quietMs: config.idleTrimSeconds * 1000,
    onTrim: ({ rssBefore, rssAfter, ms }) =>
      logger.info(
        { rssBeforeMB: Math.round(rssBefore / 2 ** 20), rssAfterMB: Math.round(rssAfter / 2 ** 20), ms: Math.round(ms) },
        'idle: memory given back (a memory-reducing GC)',
      ),
  });
}
