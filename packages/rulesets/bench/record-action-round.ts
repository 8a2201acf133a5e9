import { createEncounter, type Ruleset } from '@fray/engine';
import { actionRound } from '../src/action-round/index.js';
import { gm, must, play, type Cmd, type Recorded, type St } from './kit.js';

// ---------------------------------------------------------------- action-round
export function actionRoundRecord(count: number): Recorded {
  const R: Ruleset = actionRound;
  let s = createEncounter(R, { id: 'bench', seed: 42 });
  for (let i = 0; i < 12; i++) {
    s = must(R, s, {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `C${i}`,
        side: i < 6 ? 'heroes' : 'foes',
        position: { x: (i % 6) * 2, y: i < 6 ? 0 : 5 },
        // sturdy enough that the fight lasts the whole stream
        stats: {
          naturalWeapons: true,
          initiative: i % 5,
          toughness: 40,
          defense: 2,
          attack: { close: 3 },
          damage: { close: 2 },
          range: 10,
          skills: { athletics: 2 },
        },
        items: [{ id: `w${i}`, name: 'Blade', location: 'carried', tags: ['weapon'] }],
      },
    });
  }
  s = must(R, s, { type: 'combat.start', by: gm });

  // a turn is a script: talk, attack a neighbour or step toward a foe and shoot, defend, draw, end
  const candidates = (s: St, n: number): Cmd[] => {
    const w = s.reaction;
    if (w) {
      const id = w.eligible.find((x) => w.responses[x] === 'pending')!;
      return [
        { type: 'opportunity-attack', by: gm, combatantId: id },
        { type: 'reaction.pass', by: gm, combatantId: id },
      ];
    }
    const me = s.clock.current!;
    const c = s.combatants[me]!;
    const p = c.position as { x: number; y: number };
    const foes = Object.values(s.combatants).filter((x) => x.side !== c.side);
    const near = foes.find((f) => {
      const q = f.position as { x: number; y: number };
      return Math.max(Math.abs(q.x - p.x), Math.abs(q.y - p.y)) <= 1;
    });
    const out: Cmd[] = [];
    if (n % 3 === 0) out.push({ type: 'talk', by: gm, combatantId: me, text: 'Have at you!' });
    if (near) out.push({ type: 'attack', by: gm, combatantId: me, kind: 'close', targetId: near.id });
    else {
      const f = foes[n % foes.length]!;
      const q = f.position as { x: number; y: number };
      out.push({
        type: 'move',
        by: gm,
        combatantId: me,
        mode: 'walk',
        path: [{ x: p.x + Math.sign(q.x - p.x), y: p.y + Math.sign(q.y - p.y) }],
      });
      const r = foes.find((x) => x.id !== f.id);
      if (r) out.push({ type: 'attack', by: gm, combatantId: me, kind: 'ranged', targetId: r.id });
      if (n % 2 === 0) out.push({ type: 'defend', by: gm, combatantId: me });
    }
    if (n % 4 === 1) out.push({ type: 'draw', by: gm, combatantId: me, itemId: `w${me.slice(1)}` });
    out.push({ type: 'turn.end', by: gm, combatantId: me });
    return out;
  };
  return play(R, s, count, candidates, (s) => ({ type: 'turn.end', by: gm, combatantId: s.clock.current }));
}
