/**
 * ocv-phases bench: a 12-combatant encounter on a hex map, played by a simple driver (attack an
 * enemy in reach, else move toward the nearest one, pass reaction windows or take the attack of
 * opportunity). Prints validate+apply commands/s, legalActions calls/s and the serialized state size.
 *
 *   node --conditions=@fray/source --import tsx bench/ocv-phases.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { apply, createEncounter, hexDistance, hexNeighbors, legalActions, type Command, type EncounterState, type Hex } from '@fray/engine';
import { ocvPhases as R } from '../src/ocv-phases/index.js';

const gm = { role: 'gm' } as const;
type St = EncounterState;

function setup(seed: number): St {
  let s = createEncounter(R, { id: 'bench', seed }) as St;
  const must = (c: unknown) => {
    const r = apply(R, s, c);
    if (!r.ok) throw new Error(`${r.error.rule}: ${r.error.message}`);
    s = r.state;
  };
  for (let i = 0; i < 12; i++) {
    const side = i % 2 ? 'villains' : 'heroes';
    must({
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side,
        stats: { combatValue: 4 + (i % 5), lightningReflexes: i % 3, move: 4 + (i % 4), recovery: 4, stun: 30, endurance: 30, combatReflexes: i === 3 },
        position: { q: (i % 4) * 2 - 3, r: Math.floor(i / 4) * 2 - 2 + (i % 2) },
      },
    });
  }
  must({ type: 'setMap', by: gm, blocking: [{ q: 0, r: 0 }], difficult: [{ q: 1, r: 1 }] });
  must({ type: 'setAwareness', by: gm, combatantId: 'c5', aware: false });
  must({ type: 'combat.start', by: gm });
  return s;
}

/** the next command a simple player would send */
function next(s: St, turn: number, refusedLast = false): Command {
  const w = s.reaction;
  if (w) {
    const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
    if (w.kind === 'ocv-phases.attack-of-opportunity' && turn % 2 === 0) return { type: 'opportunityAttack', by: gm, combatantId: who, manoeuvre: 'strike' };
    return { type: 'reaction.pass', by: gm, combatantId: who };
  }
  const id = s.clock.current!;
  if (refusedLast) return { type: 'turn.end', by: gm, combatantId: id };
  const me = s.combatants[id]!;
  const cap = s.clock.phase === 'surprise' ? 1 : 2;
  const d = me.data as { slots: number; attacks: number };
  const p = me.position as Hex;
  const enemies = Object.values(s.combatants).filter((c) => c.side !== me.side && c.position);
  const near = enemies.filter((e) => hexDistance(p, e.position as Hex) === 1);
  if (near.length && d.attacks === 0 && d.slots < cap) return { type: 'attack', by: gm, combatantId: id, manoeuvre: turn % 5 === 0 ? 'haymaker' : 'strike', targetId: near[turn % near.length]!.id };
  if (d.slots === 0 && enemies.length) {
    const goal = enemies.reduce((a, b) => (hexDistance(p, a.position as Hex) <= hexDistance(p, b.position as Hex) ? a : b)).position as Hex;
    const occupied = new Set(Object.values(s.combatants).map((c) => `${(c.position as Hex).q},${(c.position as Hex).r}`));
    const step = hexNeighbors(p)
      .filter((h) => !occupied.has(`${h.q},${h.r}`) && !(h.q === 0 && h.r === 0))
      .sort((a, b) => hexDistance(a, goal) - hexDistance(b, goal))[0];
    if (step && hexDistance(step, goal) < hexDistance(p, goal)) return { type: 'move', by: gm, combatantId: id, mode: 'move-half', path: [step] };
  }
  return { type: 'turn.end', by: gm, combatantId: id };
}

function bench(): void {
  // warm up
  let s = setup(1);
  for (let i = 0; i < 2000; i++) {
    const r = apply(R, s, next(s, i));
    if (r.ok) s = r.state;
    else s = (apply(R, s, next(s, i, true)) as { state: St }).state ?? s;
  }

  s = setup(7);
  const N = 20_000;
  let accepted = 0;
  let refused = 0;
  let last = false;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const r: ReturnType<typeof apply> = apply(R, s, next(s, i, last));
    last = !r.ok;
    if (r.ok) {
      s = r.state;
      accepted++;
    } else {
      refused++;
      if (refused === 1) console.log("  first refusal:", r.error.rule, r.error.message);
    }
  }
  const t1 = performance.now();
  const cps = (N / (t1 - t0)) * 1000;

  const ids = Object.keys(s.combatants);
  const L = 20_000;
  let options = 0;
  const t2 = performance.now();
  for (let i = 0; i < L; i++) options += legalActions(R, s, ids[i % ids.length]!).length;
  const t3 = performance.now();
  const lps = (L / (t3 - t2)) * 1000;
  const bytes = Buffer.byteLength(JSON.stringify(s));

  console.log(`ocv-phases bench (12 combatants, turn ${s.clock.round}, ${s.clock.phase})`);
  console.log(`  validate+apply: ${Math.round(cps).toLocaleString('en')} commands/s (${accepted} accepted, ${refused} refused of ${N})`);
  console.log(`  legalActions:   ${Math.round(lps).toLocaleString('en')} calls/s (${(options / L).toFixed(1)} options per call)`);
  console.log(`  state:          ${bytes.toLocaleString('en')} bytes serialized`);
}

bench();
