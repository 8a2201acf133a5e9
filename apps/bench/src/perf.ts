/**
 * Where a server's CPU goes, as Linux `perf` sees it: on-CPU samples of every thread of the
 * process, each given to one area (the kernel, the garbage collector, V8's compiler, or the package
 * of the nearest JavaScript frame), so that two servers can be compared area by area in µs a
 * command. A `--cpu-prof` profile (profile.ts) samples the main thread's wall time and counts the
 * time a `writev` spends off the CPU as the write's; perf counts only what ran (docs/performance.md,
 * "Session 12").
 *
 * The server runs with `--perf-basic-prof-only-functions` (node writes /tmp/perf-<pid>.map, which
 * names the JIT's frames `JS:*name file:///…/file.js:line:col`); `perf record -k mono` stamps the
 * samples with CLOCK_MONOTONIC, the clock of `process.hrtime`, so a phase's window can be cut from
 * them. Needs `perf` (Debian: linux-perf) and the right to profile the process (root, or
 * kernel.perf_event_paranoid ≤ 1 for one's own processes).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { areaOf } from './profile.js';

export interface PerfSplit {
  /** samples in the window */
  samples: number;
  /** share of the samples (0–1) by area, largest first */
  areas: Array<{ name: string; share: number }>;
}

/** V8's garbage collector, on the main thread (a scavenge started by an allocation) or its own threads */
const GC_FRAME =
  /v8::internal::(Heap|HeapAllocator|Scavenger|ScavengerCollector|ScavengeJob|MinorGCJob|MarkCompactCollector|MinorMarkCompactCollector|MinorMarkSweepCollector|Sweeper|ConcurrentMarking|IncrementalMarking|MarkingBarrier|ArrayBufferSweeper|GCTracer|MemoryReducer|ConcurrentMarkingVisitor|MainMarkingVisitor|Evacuator|FullEvacuator|PointersUpdatingJob)\b/;
/** V8's optimizing compiler (TurboFan and its job queue), mostly on V8's background thread */
const COMPILER_FRAME = /v8::internal::(compiler::|OptimizingCompileDispatcher|OptimizedCompilationJob|maglev::|baseline::|Compiler::)/;

export const KERNEL = 'kernel (system calls, interrupts)';
export const GC = 'garbage collection';
export const COMPILER = "V8's compiler (JIT)";
export const NATIVE = 'native (V8, libuv, no JavaScript frame)';

/** One frame of `perf script -F time,ip,sym,dso`: `<address> <symbol> (<dso>)`. */
function frameOf(line: string): { sym: string; dso: string } {
  const t = line.trim();
  const sp = t.indexOf(' ');
  const rest = sp < 0 ? '' : t.slice(sp + 1);
  const m = / \(([^()]*)\)$/.exec(rest);
  return m ? { sym: rest.slice(0, m.index), dso: m[1]! } : { sym: rest, dso: '' };
}

/** `JS:*name file:///x/y.js:12:3` (also LazyCompile:/Function: of older nodes): the function's name and script URL. */
export function jsFrame(sym: string): { name: string; url: string } | null {
  const m = /^(?:JS|LazyCompile|Function|Script):[*~^+-]?(.*)$/.exec(sym);
  if (!m) return null;
  const body = m[1]!;
  const withoutPosition = (url: string) => url.replace(/:\d+(:\d+)?$/, '');
  const sp = body.lastIndexOf(' ');
  // one word: a script's URL (an anonymous function) or a name (a builtin without a script)
  if (sp < 0) return /^(file:|node:|\/)/.test(body) ? { name: '', url: withoutPosition(body) } : { name: body, url: '' };
  return { name: body.slice(0, sp), url: withoutPosition(body.slice(sp + 1)) };
}

/** The area of one sample, its frames leaf first. */
export function areaOfSample(frames: ReadonlyArray<{ sym: string; dso: string }>): string {
  if (frames.length === 0) return NATIVE;
  if (frames[0]!.dso === '[kernel.kallsyms]') return KERNEL;
  for (const f of frames) {
    const js = jsFrame(f.sym);
    if (js) return areaOf(js.url, js.name);
    if (GC_FRAME.test(f.sym)) return GC;
    if (COMPILER_FRAME.test(f.sym)) return COMPILER;
  }
  return NATIVE;
}

/**
 * The split of `perf script -F time,ip,sym,dso` output (samples separated by blank lines, each a
 * `<seconds>:` line and its frames, leaf first), keeping the samples whose time (CLOCK_MONOTONIC
 * seconds) falls in `window`.
 */
export function splitPerfScript(text: string, window?: { from: number; to: number }): PerfSplit {
  const counts = new Map<string, number>();
  let samples = 0;
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    const head = /^\s*(?:\S+\s+)*?(\d+\.\d+):\s*$/.exec(lines[0]!);
    if (!head) continue;
    const t = Number(head[1]);
    if (window && (t < window.from || t > window.to)) continue;
    const area = areaOfSample(lines.slice(1).map(frameOf));
    counts.set(area, (counts.get(area) ?? 0) + 1);
    samples += 1;
  }
  const areas = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, share: samples ? n / samples : 0 }));
  return { samples, areas };
}

/** Whether `perf record` can run here (the binary is there and answers). */
export function perfAvailable(): boolean {
  const r = spawnSync('perf', ['--version'], { encoding: 'utf8' });
  return r.status === 0 && /perf version/.test(r.stdout);
}

/** CLOCK_MONOTONIC seconds for an epoch-ms instant of this process's clock (perf -k mono's timestamps). */
export function monotonicOf(epochMs: number): number {
  const nowMono = Number(process.hrtime.bigint()) / 1e9;
  return nowMono - (Date.now() - epochMs) / 1000;
}

interface PerfRecording {
  /** stop recording and return the split of the window (CLOCK_MONOTONIC seconds) */
  stop(window: { from: number; to: number }): Promise<PerfSplit>;
}

/** `perf record` of every thread of `pid` at `hz` samples a second with call chains, into `file` (removed after the split, with the process's JIT map). */
export function recordPerf(pid: number, file: string, hz = 999): PerfRecording {
  const child: ChildProcess = spawn('perf', ['record', '-k', 'mono', '-F', String(hz), '-g', '-p', String(pid), '-o', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    async stop(window) {
      if (child.exitCode === null) child.kill('SIGINT');
      const code = await exited;
      if (code !== 0 && code !== null) throw new Error(`perf record failed (${code}): ${err}`);
      const r = spawnSync('perf', ['script', '-i', file, '-F', 'time,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
      rmSync(file, { force: true });
      rmSync(`/tmp/perf-${pid}.map`, { force: true });
      if (r.status !== 0) throw new Error(`perf script failed (${r.status}): ${r.stderr.slice(-2000)}`);
      return splitPerfScript(r.stdout, window);
    },
  };
}
