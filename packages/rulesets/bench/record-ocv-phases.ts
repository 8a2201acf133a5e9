import { createEncounter, hexDistance, hexNeighbors, type Hex, type Ruleset } from '@fray/engine';
import { ocvPhases } from '../src/ocv-phases/index.js';
import { gm, must, play, type Cmd, type Recorded, type St } from './kit.js';

// ---------------------------------------------------------------- ocv-phases
export function ocvRecord(count: number): Recorded {
  const R: Ruleset = ocvPhases;
  let s = createEncounter(R, { id: 'bench', seed: 7 });
  for (let i = 0; i < 12; i++) {
    s = must(R, s, {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side: i % 2 ? 'villains' : 'heroes',
        stats: {
          combatValue: 4 + (i % 5),
          lightningReflexes: i % 3,
          move: 4 + (i % 4),
          recovery: 4,
          stun: 30,
          endurance: 30,
          combatReflexes: i === 3,
        },
        position: { q: (i % 4) * 2 - 3, r: Math.floor(i / 4) * 2 - 2 + (i % 2) },
      },
    });
  }
  s = must(R, s, { type: 'setMap', by: gm, blocking: [{ q: 0, r: 0 }], difficult: [{ q: 1, r: 1 }] });
  s = must(R, s, { type: 'setAwareness', by: gm, combatantId: 'c5', aware: false });
  s = must(R, s, { type: 'combat.start', by: gm });

  const candidates = (s: St, turn: number): Cmd[] => {
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      const pass = { type: 'reaction.pass', by: gm, combatantId: who };
      return w.kind === 'ocv-phases.attack-of-opportunity' && turn % 2 === 0
        ? [{ type: 'opportunityAttack', by: gm, combatantId: who, manoeuvre: 'strike' }, pass]
        : [pass];
    }
    const id = s.clock.current!;
    const me = s.combatants[id]!;
    const cap = s.clock.phase === 'surprise' ? 1 : 2;
    const d = me.data as { slots: number; attacks: number };
    const p = me.position as Hex;
    const enemies = Object.values(s.combatants).filter((c) => c.side !== me.side && c.position);
    const near = enemies.filter((e) => hexDistance(p, e.position as Hex) === 1);
    const out: Cmd[] = [];
    if (near.length && d.attacks === 0 && d.slots < cap)
      out.push({
        type: 'attack',
        by: gm,
        combatantId: id,
        manoeuvre: turn % 5 === 0 ? 'haymaker' : 'strike',
        targetId: near[turn % near.length]!.id,
      });
    if (d.slots === 0 && enemies.length) {
      const goal = enemies.reduce((a, b) => (hexDistance(p, a.position as Hex) <= hexDistance(p, b.position as Hex) ? a : b))
        .position as Hex;
      const occupied = new Set(Object.values(s.combatants).map((c) => `${(c.position as Hex).q},${(c.position as Hex).r}`));
      const step = hexNeighbors(p)
        .filter((h) => !occupied.has(`${h.q},${h.r}`) && !(h.q === 0 && h.r === 0))
        .sort((a, b) => hexDistance(a, goal) - hexDistance(b, goal))[0];
      if (step && hexDistance(step, goal) < hexDistance(p, goal))
        out.push({ type: 'move', by: gm, combatantId: id, mode: 'move-half', path: [step] });
    }
    out.push({ type: 'turn.end', by: gm, combatantId: id });
    return out;
  };
  return play(R, s, count, candidates, (s) => ({ type: 'turn.end', by: gm, combatantId: s.clock.current }));
}
