/**
 * What the key order of a loaded state costs the engine: the same legends commands (players'
 * rolls, the GM ending turns) from a 12-combatant state in the engine's own key order, and from
 * the same state with every object's keys as Postgres `jsonb` gives them back (sorted, shorter
 * keys first), and from that one put back by `inEngineOrder`: each in a process of its own, alternately,
 * the best of two runs after a warm-up, four times. `inEngineOrder` puts a loaded state back in the engine's
 * order (docs/journal/performance-2026-11.md, "Session 11").
 *
 *   node bench/run.mjs bench/order.bench.ts      (from packages/rulesets; BENCH_N commands a run, default 50,000)
 */
import { execFileSync } from 'node:child_process';
import { apply, createEncounter, inEngineOrder, type EncounterState, type Ruleset } from '@fray/engine';
import { registry } from '@fray/rulesets';
import { jsonbOrder } from '../test/jsonb.js';

const N = Number(process.env.BENCH_N ?? 50_000);
const R: Ruleset = registry.legends!;
const gm = { role: 'gm' } as const;

function must(s: EncounterState, c: Record<string, unknown>): EncounterState {
  const r = apply(R, s, { ...c, by: (c.by as object | undefined) ?? gm });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.state;
}

let s = createEncounter(R, { id: 'order', seed: 7 });
for (let i = 0; i < 12; i++) {
  s = must(s, {
    type: 'combatant.add',
    combatant: {
      id: `c${i}`,
      name: `F${i}`,
      side: i < 6 ? 'heroes' : 'raiders',
      controller: i < 6 ? `p${i % 3}` : null,
      stats: { DEX: 10 + (i % 3), SPD: 9 + (i % 4), STR: 8 + (i % 5) },
    },
  });
}
s = must(s, { type: 'combat.start' });
const engineOrder = JSON.parse(JSON.stringify(s)) as EncounterState;
const sorted = jsonbOrder(engineOrder) as EncounterState;
const reordered = inEngineOrder(sorted);

function run(start: EncounterState): number {
  let st = start;
  const t0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const c =
      i % 4 < 3
        ? { type: 'dice.roll', formula: '3d6', purpose: 'check', combatantId: `c${i % 6}`, by: { role: 'player', playerId: `p${i % 3}` } }
        : { type: 'turn.end', combatantId: st.clock.current, by: gm };
    const r = apply(R, st, c);
    if (r.ok) st = r.state;
  }
  const u = process.cpuUsage(t0);
  return Math.round(N / ((u.user + u.system) / 1e6));
}

// Each order in a process of its own, alternately (in one process the objects of both orders would
// meet at the same sites and slow both): a server's loaded encounters all have one order or the other.
const variant = process.env.ORDER_VARIANT;
if (variant) {
  const start = variant === 'engine' ? engineOrder : variant === 'jsonb' ? sorted : reordered;
  run(start); // warm-up
  console.log(JSON.stringify({ variant, perCpuSecond: Math.max(run(start), run(start)) }));
} else {
  const rows: Record<string, number[]> = { engine: [], jsonb: [], inEngineOrder: [] };
  for (let round = 0; round < 4; round++) {
    for (const v of Object.keys(rows)) {
      const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!], {
        env: { ...process.env, ORDER_VARIANT: v },
        encoding: 'utf8',
      });
      rows[v]!.push((JSON.parse(out.trim().split('\n').pop()!) as { perCpuSecond: number }).perCpuSecond);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  console.log(
    JSON.stringify(
      { commandsPerCpuSecond: Object.fromEntries(Object.entries(rows).map(([k, xs]) => [k, { median: median(xs), runs: xs }])) },
      null,
      1,
    ),
  );
}
