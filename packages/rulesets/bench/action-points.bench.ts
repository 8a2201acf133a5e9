/**
 * Throughput of the action-points ruleset on a 12-combatant encounter:
 * validate+apply commands/s, legalActions calls/s, serialized state size.
 * Run: node --conditions=@fray/source --import tsx bench/action-points.bench.ts
 */
import { apply, createEncounter, legalActions, type EncounterState } from '@fray/engine';
import { actionPoints } from '../src/action-points/index.js';

const gm = { role: 'gm' } as const;
type Cmd = Record<string, unknown>;

function lcg(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x >>> 8;
  };
}

function setup(): EncounterState {
  let s = createEncounter(actionPoints, { id: 'bench', seed: 42 }) as EncounterState;
  const weapons = [
    { id: 'dg', name: 'Dagger', category: 'light', damage: '1d4' },
    { id: 'sw', name: 'Longsword', category: 'one-handed', damage: '1d8' },
    { id: 'gs', name: 'Greatsword', category: 'two-handed', damage: '2d6' },
  ];
  for (let i = 0; i < 12; i++) {
    const r = apply(actionPoints as never, s as never, {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side: i < 6 ? 'heroes' : 'monsters',
        stats: { dexterity: 8 + ((i * 7) % 11), hp: 1000, ac: 14, attackBonus: 4, weapons: [weapons[i % 3]!, { id: 'bow', name: 'Shortbow', kind: 'bow', category: 'ranged', damage: '1d6' }] },
        position: { x: i < 6 ? i : i - 6, y: i < 6 ? 0 : 1 },
      },
    });
    if (!r.ok) throw new Error(r.error.message);
    s = r.state as EncounterState;
  }
  const r = apply(actionPoints as never, s as never, { type: 'combat.start', by: gm });
  if (!r.ok) throw new Error(r.error.message);
  return r.state as EncounterState;
}

/** A realistic stream: each combatant on its initiative picks a legal action, or ends its place. */
function record(initial: EncounterState, n: number): Cmd[] {
  const rnd = lcg(7);
  let s = initial;
  const log: Cmd[] = [];
  while (log.length < n) {
    let cmd: Cmd;
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      cmd = rnd() % 2 ? { type: w.allowed[0]!, by: gm, combatantId: who } : { type: 'reaction.pass', by: gm, combatantId: who };
    } else {
      const cur = s.clock.current!;
      const opts = legalActions(actionPoints as never, s as never, cur).filter((o) => o.allowed && (o.command === 'act' || o.command === 'continue'));
      const pickAct = opts.length > 0 && rnd() % 3 !== 0;
      if (!pickAct) cmd = { type: 'turn.end', by: gm, combatantId: cur };
      else {
        const o = opts[rnd() % opts.length]!;
        cmd = { type: o.command, by: gm, ...o.template };
        const c = s.combatants[cur]!;
        const pos = c.position as { x: number; y: number };
        const names = (o.params ?? []).map((p) => p.name);
        const foes = Object.values(s.combatants).filter((x) => x.side !== c.side);
        if (names.includes('targetId')) cmd.targetId = foes[rnd() % foes.length]!.id;
        if (names.includes('path')) cmd.path = [{ x: pos.x, y: pos.y - 1 }];
        if (o.action === 'ready') {
          cmd.readied = { action: 'attack' };
          cmd.trigger = { kind: 'moves-adjacent', description: 'if a foe comes close' };
        }
      }
    }
    const r = apply(actionPoints as never, s as never, cmd);
    if (r.ok) {
      s = r.state as EncounterState;
      log.push(cmd);
    }
  }
  return log;
}

const initial = setup();
const log = record(initial, 2000);

// validate + apply
let applied = 0;
let states: EncounterState[] = [];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const c0 = cpu();
const t0 = performance.now();
let elapsed = 0;
while (elapsed < 3000) {
  let s = initial;
  states = [];
  for (const c of log) {
    const r = apply(actionPoints as never, s as never, c);
    if (!r.ok) throw new Error(`diverged: ${r.error.message}`);
    s = r.state as EncounterState;
    applied++;
    if (applied % 50 === 0) states.push(s);
  }
  elapsed = performance.now() - t0;
}
const cps = (applied / elapsed) * 1000;
const cpsCpu = (applied / (cpu() - c0)) * 1000;

// legalActions
let calls = 0;
const c1 = cpu();
const t1 = performance.now();
let e2 = 0;
while (e2 < 2000) {
  for (const s of states) {
    for (const id of Object.keys(s.combatants)) {
      legalActions(actionPoints as never, s as never, id);
      calls++;
    }
  }
  e2 = performance.now() - t1;
}
const lps = (calls / e2) * 1000;
const lpsCpu = (calls / (cpu() - c1)) * 1000;

const sizes = states.map((s) => JSON.stringify(s).length);
const last = JSON.stringify(states[states.length - 1]).length;
const avg = Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);
const rounds = states[states.length - 1]!.clock.round;

console.log(`action-points, 12 combatants, ${log.length} recorded commands over ${rounds} rounds`);
const n = (x: number) => Math.round(x).toLocaleString('en');
console.log(`validate+apply: ${n(cps)} commands/s wall clock, ${n(cpsCpu)} per CPU-second`);
console.log(`legalActions:   ${n(lps)} calls/s wall clock, ${n(lpsCpu)} per CPU-second`);
console.log(`state size:     ${avg.toLocaleString('en')} bytes serialized on average (last ${last.toLocaleString('en')})`);
