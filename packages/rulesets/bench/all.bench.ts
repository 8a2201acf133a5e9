/**
 * Engine figures for every ruleset, in one table.
 *
 * For each ruleset a simple driver plays a 12-combatant encounter and records the legal command
 * stream (at least 10,000 commands after `combat.start`). Then, on that stream:
 *   - validate+apply: the stream is applied again and again through `apply` (commands/s, wall
 *     clock and per CPU-second: the machine is shared, so CPU time is the steadier figure), after
 *     WARM_PASSES unmeasured passes over it (the steady state of a long-running server: see
 *     WARM_PASSES);
 *   - legalActions: calls/s over states sampled along the stream, every combatant (after
 *     LEGAL_WARM_PASSES unmeasured passes);
 *   - replay: `replay(started, first 10,000 commands)` in ms (wall and CPU);
 *   - state: serialized (JSON) bytes of the final state and the largest sampled one;
 *   - floor: CPU µs of the lightest command (a logged `dice.roll`) through `apply` on the started
 *     state: what the engine costs before any ruleset logic.
 *
 * `npm run bench` bundles this file with esbuild (the same transpilation the built packages get)
 * and runs the bundle under NODE_ENV=production, so mutative, zod and pure-rand resolve to their
 * production builds, as on the server. BENCH_ONLY=legends,ocv-phases picks rulesets;
 * BENCH_JSON=1 prints the rows as JSON too.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { apply, legalActions, replay, type Ruleset } from '@fray/engine';
import { actionPoints } from '../src/action-points/index.js';
import { actionRound } from '../src/action-round/index.js';
import { legends } from '../src/legends/index.js';
import { ocvPhases } from '../src/ocv-phases/index.js';
import { digest, gm, type Recorded, type St } from './kit.js';
import { actionPointsRecord } from './record-action-points.js';
import { actionRoundRecord } from './record-action-round.js';
import { legendsRecord } from './record-legends.js';
import { ocvRecord } from './record-ocv-phases.js';

const REPLAY_N = 10_000;
/**
 * Unmeasured passes over the recorded stream before `apply` is timed. V8 keeps optimizing the
 * rulesets' large functions for several passes, and re-optimizes them after a deopt on a shape
 * first met late in the stream (an empty list that later holds strings, say); a TurboFan compile
 * of legends' `evolve` takes 60-160 ms on a background thread, and that CPU counts in the
 * per-CPU-second figure. Measured on legends (12,000 commands a pass): passes 2-8 spent 10-250 ms
 * each on V8's other threads and 220-290 ms on the main one; from pass 9 on, ~0 and ~130 ms.
 * A server plays for hours on the settled code, so the figure is taken there
 * (docs/journal/performance-2026-11.md, "Session 15"). BENCH_WARM_PASSES overrides it (1: the old first window).
 */
const WARM_PASSES = Number(process.env.BENCH_WARM_PASSES ?? 10);
/** the same for legalActions: unmeasured passes over the sampled states and combatants (none with BENCH_WARM_PASSES=1, as before) */
const LEGAL_WARM_PASSES = Number(process.env.BENCH_WARM_PASSES ?? 10) > 1 ? 3 : 0;

// ---------------------------------------------------------------- measurement
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Row {
  ruleset: string;
  commands: number;
  applyPerSec: number;
  applyPerCpuSec: number;
  legalPerSec: number;
  legalPerCpuSec: number;
  replayMs: number;
  replayCpuMs: number;
  stateBytes: number;
  maxStateBytes: number;
  floorUs: number;
}

function measure(R: Ruleset, rec: Recorded): Row {
  const { started, log } = rec;
  const run = (samples?: St[]) => {
    let s = started;
    for (let i = 0; i < log.length; i++) {
      const r = apply(R, s, log[i]);
      if (!r.ok) throw new Error(`${R.id} diverged at ${i}: ${r.error.message}`);
      s = r.state;
      if (samples && i % 100 === 99) samples.push(s);
    }
    return s;
  };
  const samples: St[] = [];
  const final = run(samples); // the first warm-up pass, and the states legalActions is measured on
  for (let i = 1; i < WARM_PASSES; i++) run();
  let n = 0;
  const c0 = cpuMs();
  const t0 = performance.now();
  let last = final;
  while (performance.now() - t0 < 2000 || n < 2 * log.length) {
    last = run();
    n += log.length;
  }
  const wall = performance.now() - t0;
  const cpu = cpuMs() - c0;
  if (JSON.stringify(last) !== JSON.stringify(final)) throw new Error(`${R.id}: apply is not deterministic`);

  const ids = Object.keys(final.combatants);
  if (process.env.BENCH_DUMP) writeFileSync(`${process.env.BENCH_DUMP}/${R.id}.json`, JSON.stringify(samples));
  if (process.env.BENCH_DUMP) writeFileSync(`${process.env.BENCH_DUMP}/${R.id}-log.json`, JSON.stringify(rec));
  if (digest) {
    for (const st of samples) for (const id of ids) digest.update(JSON.stringify(legalActions(R, st, id)));
    digests.push(`digest ${R.id} ${digest.copy().digest('hex')}`);
  }
  for (let i = 0; i < LEGAL_WARM_PASSES; i++) for (const st of samples) for (const id of ids) legalActions(R, st, id);
  let calls = 0;
  const c1 = cpuMs();
  const t1 = performance.now();
  while (performance.now() - t1 < 1000) {
    for (const st of samples) {
      for (const id of ids) {
        legalActions(R, st, id);
        calls++;
      }
    }
  }
  const lwall = performance.now() - t1;
  const lcpu = cpuMs() - c1;

  const head = log.slice(0, REPLAY_N);
  replay(R, started, head);
  const c2 = cpuMs();
  const t2 = performance.now();
  const reps = 3;
  for (let i = 0; i < reps; i++) replay(R, started, head);
  const rwall = (performance.now() - t2) / reps;
  const rcpu = (cpuMs() - c2) / reps;

  // the engine's floor on this state: the lightest command (a logged dice roll) through `apply`
  const roll = { type: 'dice.roll', by: gm, formula: '1d12', purpose: 'bench' };
  for (let i = 0; i < 5000; i++) apply(R, started, roll);
  const c3 = cpuMs();
  const FLOOR_N = 30_000;
  for (let i = 0; i < FLOOR_N; i++) apply(R, started, roll);
  const floorUs = ((cpuMs() - c3) * 1000) / FLOOR_N;

  let maxBytes = 0;
  for (const st of samples) maxBytes = Math.max(maxBytes, Buffer.byteLength(JSON.stringify(st)));
  return {
    ruleset: R.id,
    commands: log.length,
    applyPerSec: (n / wall) * 1000,
    applyPerCpuSec: (n / cpu) * 1000,
    legalPerSec: (calls / lwall) * 1000,
    legalPerCpuSec: (calls / lcpu) * 1000,
    replayMs: rwall,
    replayCpuMs: rcpu,
    stateBytes: Buffer.byteLength(JSON.stringify(final)),
    maxStateBytes: maxBytes,
    floorUs,
  };
}

const all: Array<[Ruleset, (n: number) => Recorded]> = [
  [legends, legendsRecord],
  [ocvPhases, ocvRecord],
  [actionRound, actionRoundRecord],
  [actionPoints, actionPointsRecord],
];
const only = process.env.BENCH_ONLY?.split(',');
const COUNT = Number(process.env.BENCH_COUNT ?? 12_000);
const rows: Row[] = [];
const digests: string[] = [];
for (const [R, rec] of all) {
  if (only && !only.includes(R.id)) continue;
  rows.push(measure(R, rec(Math.max(COUNT, REPLAY_N))));
}

const k = (x: number) => Math.round(x).toLocaleString('en');
const table = [
  [
    'ruleset',
    'apply/s wall',
    'apply/s CPU',
    'legalActions/s wall',
    'legalActions/s CPU',
    `replay ${k(REPLAY_N)} ms (CPU)`,
    'state bytes (max)',
    'floor µs CPU',
  ],
  ...rows.map((r) => [
    r.ruleset,
    k(r.applyPerSec),
    k(r.applyPerCpuSec),
    k(r.legalPerSec),
    k(r.legalPerCpuSec),
    `${r.replayMs.toFixed(0)} (${r.replayCpuMs.toFixed(0)})`,
    `${k(r.stateBytes)} (${k(r.maxStateBytes)})`,
    r.floorUs.toFixed(1),
  ]),
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
const line = (row: string[]) => `| ${row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
console.log(
  `Engine bench: 12 combatants, ${k(COUNT)}+ recorded commands per ruleset, node ${process.version}, NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}`,
);
console.log(line(table[0]!));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of table.slice(1)) console.log(line(row));
console.log('targets: >= 100,000 commands/s per CPU-second, state <= 65,536 bytes');
if (process.env.BENCH_JSON) console.log(JSON.stringify(rows, null, 2));
for (const d of digests) console.log(d);
