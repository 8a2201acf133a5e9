import { describe, expect, it } from 'vitest';
import { projectState } from '@fray/engine';
import { actionRound } from '../../src/action-round/index.js';
import type { State } from '../../src/action-round/state/index.js';
import { act, endTurn, force, gm, run, setup } from './helpers.js';

describe('combatants joining and leaving, projection', () => {
  it('a combatant added mid-combat joins the end of the order; removing the acting one passes the turn on', () => {
    let { s } = setup([
      { id: 'a', side: 'pc', at: [0, 0] },
      { id: 'b', side: 'npc', at: [5, 0] },
      { id: 'c', side: 'npc', at: [9, 0] },
    ]);
    s = run(s, { type: 'combatant.add', by: gm, combatant: { id: 'd', name: 'D', side: 'pc', stats: {}, position: { x: 0, y: 5 } } }).state;
    expect(s.clock.order).toEqual(['a', 'b', 'c', 'd']);
    s = endTurn(s, 'a');
    s = run(s, { type: 'combatant.remove', by: gm, combatantId: 'b' }).state;
    expect(s.clock).toMatchObject({ current: 'c', order: ['a', 'c', 'd'], round: 1 });
    s = endTurn(endTurn(s, 'c'), 'd');
    expect(s.clock).toMatchObject({ current: 'a', round: 2 });
  });

  it("a hidden character's last check is not shown to players", () => {
    let { s } = setup([
      { id: 'spy', side: 'npc', at: [0, 0], stats: { skills: { lore: 1 } } },
      { id: 'hero', side: 'pc', at: [5, 0], controller: 'p1' },
    ]);
    s = run(s, { type: 'combatant.update', by: gm, combatantId: 'spy', changes: { hidden: true } }).state;
    s = act(force(s, 10), 'use-skill', 'spy', { skill: 'lore', dc: 'easy' }).state;
    expect(s.rs.lastCheck['spy']).toBeDefined();
    const seen = projectState(actionRound as never, s as never, { role: 'player', playerId: 'p1' }) as unknown as State;
    expect(seen.rs.lastCheck['spy']).toBeUndefined();
    expect((projectState(actionRound as never, s as never, { role: 'gm' }) as unknown as State).rs.lastCheck['spy']).toBeDefined();
  });
});
