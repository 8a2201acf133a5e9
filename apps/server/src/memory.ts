import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

export interface MemoryTuning {
  /**
   * How far V8 lets the old generation grow past what a full GC left alive before the next one,
   * in percent (400: five times the live heap). 0 keeps V8's own factor (about 1.1 to 4).
   */
  heapGrowthPercent: number;
  /** Node's shared pool for small Buffers (8 KB slabs up to Node 22, 64 KB from Node 24) (false: every Buffer has its own memory). */
  bufferPool: boolean;
}

/** What the server runs with unless FRAY_HEAP_GROWTH_PERCENT / FRAY_BUFFER_POOL say otherwise. */
export const defaultMemoryTuning: MemoryTuning = { heapGrowthPercent: 400, bufferPool: false };

/**
 * Fewer full garbage collections for a server that holds many live encounters (docs/performance.md,
 * "Session 9"). A full GC marks the whole live heap, mostly on the event loop when the other cores
 * are busy, and every command waiting meanwhile is late. At 1,000 encounters × 5 sockets two
 * things started one every ~25 s:
 * - V8's growth factor: the old generation may grow to about 2.7 times what the last full GC left
 *   alive. At 400 % it may grow to five times (a live heap of 200 MB: a full GC near 1 GB
 *   instead of near 550 MB; memory traded for fewer pauses);
 * - the memory behind Node's Buffer pool slabs (8 KB; 64 KB from Node 24). Small Buffers (socket frame headers, the
 *   Postgres driver's messages) are cut from shared slabs. Nothing held the slabs 300 ms later,
 *   yet their memory stayed counted, growing by about 2.6 MB a second, until a full GC freed it.
 *   V8 starts one for "external memory pressure" every 64 MB of it, whatever the growth factor
 *   says. Without the pool each small Buffer has memory of its own, and no full GC started that
 *   way in five runs.
 * Both are process-wide: call once, at start, before the server allocates.
 */
export function tuneMemory(t: MemoryTuning): void {
  if (t.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${Math.floor(t.heapGrowthPercent)}`);
  if (!t.bufferPool) Buffer.poolSize = 0;
}

/** Node's default for `--v8-pool-size`: the threads V8 runs its background work on (GC marking among it). */
const NODE_DEFAULT_V8_POOL = 4;

/**
 * The V8 thread pool this process was started with: `--v8-pool-size` from its own flags or from
 * NODE_OPTIONS (the last one given wins, as with Node), else Node's default of 4.
 */
export function v8PoolSize(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): number {
  let size = NODE_DEFAULT_V8_POOL;
  for (const arg of [...(nodeOptions ?? '').split(/\s+/), ...execArgv]) {
    const m = /^--v8-pool-size=(\d+)$/.exec(arg);
    if (m) size = Number(m[1]);
  }
  return size;
}

/**
 * The pool size for a server on `cores` cores: one core for the event loop, the rest (at most
 * Node's 4) for V8's background threads. The pool is fixed when the process starts, so the
 * launchers pass it (`npm start`, the Dockerfile: `--v8-pool-size=1`, sized for the 2-core hosts
 * Fray is measured on); the server only says when it runs with more threads than that.
 *
 * Why it matters (docs/journal/performance-2026-11.md, "Session 10"): V8 marks the old generation concurrently on
 * as many threads as the pool has. On 2 cores shared with Postgres, four marking threads took the
 * cores from the event loop for the ~300 ms of each full GC, and every command in that time was
 * late; with one, the event loop kept its core.
 */
export function advisedV8PoolSize(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(NODE_DEFAULT_V8_POOL, cores - 1));
}

/**
 * Whether V8's memory reducer runs in this process: on unless node was started with
 * `--no-memory-reducer` (the last of `--memory-reducer` / `--no-memory-reducer` wins, as with V8;
 * Node refuses the flag in NODE_OPTIONS, and V8 reads it only at start: the launchers pass it).
 *
 * Why it is off for the server (docs/journal/performance-2026-11.md, "Session 17"): the memory reducer is meant
 * for a process that goes quiet, but its watchdog also starts a full GC 100 s after the last one
 * whatever the load, flagged to reduce memory: ArrayBuffers are then swept in the final pause
 * instead of beside the event loop (64 of a 90.6 ms pause at 1,000 encounters, where the full GCs
 * the heap's limit starts paused 7–14 ms), and the young generation is shrunk to its minimum, so
 * scavenges come more often until it has grown back. Under steady load the server ran one 104–108 s
 * after each full GC. Without it the full GCs come when the heap reaches its limit
 * (FRAY_HEAP_GROWTH_PERCENT); an idle server keeps its heap until then instead of giving it back.
 */
export function memoryReducerOn(execArgv: readonly string[] = process.execArgv): boolean {
  let on = true;
  for (const arg of execArgv) {
    if (/^--no[-_]memory[-_]reducer$/.test(arg)) on = false;
    else if (/^--memory[-_]reducer$/.test(arg)) on = true;
  }
  return on;
}

/** A DAMON monitor of the kernel that is on: its sampling interval and the address space it watches. */
export interface DamonMonitor {
  id: string;
  /** ms between two samples (NaN where the kernel does not say) */
  sampleMs: number;
  /** `paddr` (all physical memory), `vaddr`/`fvaddr` (some processes), or '' where the kernel does not say */
  operations: string;
}

/**
 * The kernel's DAMON memory monitors that are on (`/sys/kernel/mm/damon/admin/kdamonds/<n>/state`).
 * Some VMs run one over all physical memory so that their host can reclaim what the guest does
 * not touch; its `kdamond` thread then takes a core for 50 to 100 ms at every sample (every 500 ms
 * on the 2-core EPYC VMs Fray was measured on), and on a small host every table's commands wait
 * for the cores left (docs/journal/performance-2026-11.md, "Session 16").
 */
export function damonMonitors(root = '/sys/kernel/mm/damon/admin/kdamonds'): DamonMonitor[] {
  const out: DamonMonitor[] = [];
  let ids: string[];
  try {
    ids = readdirSync(root).filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const id of ids) {
    try {
      if (readFileSync(`${root}/${id}/state`, 'utf8').trim() !== 'on') continue;
    } catch {
      continue;
    }
    let sampleMs = NaN;
    let operations = '';
    try {
      sampleMs = Number(readFileSync(`${root}/${id}/contexts/0/monitoring_attrs/intervals/sample_us`, 'utf8')) / 1000;
      operations = readFileSync(`${root}/${id}/contexts/0/operations`, 'utf8').trim();
    } catch {
      // an older layout: on, without the details
    }
    out.push({ id, sampleMs, operations });
  }
  return out;
}

/** "paddr, sampling every 500 ms": what each monitor watches and how often, for a log line or a bench's header */
export function describeDamon(monitors: readonly DamonMonitor[]): string {
  return monitors
    .map((m) => `${m.operations || 'kdamond'}${Number.isFinite(m.sampleMs) ? `, sampling every ${m.sampleMs} ms` : ''}`)
    .join('; ');
}

/** Up to this many cores a DAMON monitor's bursts (one core at a time) are worth a warning at start. */
export const DAMON_WARN_MAX_CORES = 4;

/**
 * What the server says at start about the DAMON monitors that are on (null: none, or a host with
 * more than DAMON_WARN_MAX_CORES cores, where one core in bursts matters less). Turning the monitor
 * off is the host's choice (`echo off > /sys/kernel/mm/damon/admin/kdamonds/<n>/state`, as root):
 * it is how a VM gives memory back to its host.
 */
export function damonWarning(monitors: readonly DamonMonitor[], cores: number): string | null {
  if (monitors.length === 0 || cores > DAMON_WARN_MAX_CORES) return null;
  return `the kernel's DAMON memory monitor is on (${describeDamon(monitors)}): on ${cores} cores its kdamond thread takes one of them for tens of ms at every sample, and commands wait meanwhile (docs/journal/performance-2026-11.md, Session 16)`;
}
