import { createEncounter, legalActions, type Ruleset } from '@fray/engine';
import { actionPoints } from '../src/action-points/index.js';
import { gm, must, play, type Cmd, type Recorded, type St } from './kit.js';

// ---------------------------------------------------------------- action-points
export function actionPointsRecord(count: number): Recorded {
  const R: Ruleset = actionPoints;
  let s = createEncounter(R, { id: 'bench', seed: 42 });
  const weapons = [
    { id: 'dg', name: 'Dagger', category: 'light', damage: '1d4' },
    { id: 'sw', name: 'Longsword', category: 'one-handed', damage: '1d8' },
    { id: 'gs', name: 'Greatsword', category: 'two-handed', damage: '2d6' },
  ];
  for (let i = 0; i < 12; i++) {
    s = must(R, s, {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side: i < 6 ? 'heroes' : 'monsters',
        stats: {
          dexterity: 8 + ((i * 7) % 11),
          hp: 100_000,
          ac: 14,
          attackBonus: 4,
          weapons: [weapons[i % 3]!, { id: 'bow', name: 'Shortbow', kind: 'bow', category: 'ranged', damage: '1d6' }],
        },
        position: { x: i < 6 ? i : i - 6, y: i < 6 ? 0 : 1 },
      },
    });
  }
  s = must(R, s, { type: 'combat.start', by: gm });
  let x = 7;
  const rnd = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x >>> 8;
  };
  const candidates = (s: St): Cmd[] => {
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      const pass = { type: 'reaction.pass', by: gm, combatantId: who };
      return rnd() % 2 ? [{ type: w.allowed[0]!, by: gm, combatantId: who }, pass] : [pass];
    }
    const cur = s.clock.current!;
    const end = { type: 'turn.end', by: gm, combatantId: cur };
    const opts = legalActions(R, s, cur).filter((o) => o.allowed && (o.command === 'act' || o.command === 'continue'));
    if (opts.length === 0 || rnd() % 3 === 0) return [end];
    const o = opts[rnd() % opts.length]!;
    const cmd: Cmd = { type: o.command, by: gm, ...o.template };
    const c = s.combatants[cur]!;
    const pos = c.position as { x: number; y: number };
    const names = (o.params ?? []).map((p) => p.name);
    const foes = Object.values(s.combatants).filter((y) => y.side !== c.side);
    if (names.includes('targetId')) cmd.targetId = foes[rnd() % foes.length]!.id;
    if (names.includes('path')) cmd.path = [{ x: pos.x, y: pos.y - 1 }];
    if (o.action === 'ready') {
      cmd.readied = { action: 'attack' };
      cmd.trigger = { kind: 'moves-adjacent', description: 'if a foe comes close' };
    }
    return [cmd, end];
  };
  return play(R, s, count, candidates, (s) => ({ type: 'turn.end', by: gm, combatantId: s.clock.current }));
}
