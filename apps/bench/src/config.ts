/** The bench's configuration from the environment (see main.ts for every variable) and its sizes. */
import { SCRIPT_COMMANDS } from './fights.js';
import { defaultDatabaseUrl } from './proc.js';
import { selectParts } from './stats.js';

const ALL = [
  'engine',
  'e2e',
  'peers',
  'rate',
  'scale',
  'idle',
  'resume',
  'curve',
  'profile',
  'split',
  'start',
  'restart',
  'capacity',
] as const;
export const DEFAULT = ALL.filter(
  (p) => p !== 'curve' && p !== 'profile' && p !== 'split' && p !== 'start' && p !== 'restart' && p !== 'capacity',
);
export const parts = selectParts(process.env.BENCH_ONLY, ALL, DEFAULT);
export const QUICK = process.env.BENCH_QUICK === '1';
/** the built bench's directory (loadgen.js and inproc.js are next to this file) */
export const here = new URL('.', import.meta.url).pathname;
export const baseDb = process.env.DATABASE_URL ?? defaultDatabaseUrl;
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const started = Date.now();
/** server processes of the rate part (BENCH_RATE_PROCESSES, default 1) */
export const RATE_PROCESSES = Math.max(1, Math.floor(Number(process.env.BENCH_RATE_PROCESSES ?? 1)) || 1);
export const log = (...a: unknown[]) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s]`, ...a);

/** (E, P) points of the curve part */
const CURVE: Array<[number, number]> = [
  [50, 4],
  [2000, 5],
];
// sizes and durations (bounded: the default run is about 6-7 minutes on 2 cores)
export const S = QUICK
  ? { E: 40, P: 4, phase: 5, rateE: 200, rateP: 5, rate: 1, ratePhase: 8, curve: [], curvePhase: 5, script: 5000 }
  : {
      E: 200,
      P: 4,
      phase: 15,
      rateE: 1000,
      rateP: 5,
      rate: Number(process.env.BENCH_RATE_PER_ENCOUNTER ?? 1),
      ratePhase: Number(process.env.BENCH_RATE_SECONDS ?? 60),
      curve: CURVE,
      curvePhase: 10,
      script: SCRIPT_COMMANDS,
    };

/** unmeasured load before the phases of every load run, Fray's and the peers' alike (loadgen.ts) */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? (QUICK ? 2 : 5));
/** seconds the start part leaves each server idle before it reads its RSS (BENCH_START_IDLE) */
export const START_IDLE = Number(process.env.BENCH_START_IDLE ?? 10);
/** samples a second of the split part's perf (BENCH_PERF_HZ) */
export const PERF_HZ = Number(process.env.BENCH_PERF_HZ ?? 999);
/**
 * The generator is the instrument, not the system under test: its old generation may grow to five
 * times what is live before a major GC (V8's own factor is about 1.3 at its heap size), so that
 * its mark-compacts, whose concurrent marking took 1.5 cores for 100-200 ms and starved the server
 * every 6-26 s, do not fall inside a phase (docs/journal/performance-2026-11.md, "Session 6"). The same for every
 * target.
 */
export const LOADGEN_NODE_ARGS = process.env.BENCH_LOADGEN_NODE_ARGS ?? '--heap-growing-percent=400 --v8-pool-size=1';
