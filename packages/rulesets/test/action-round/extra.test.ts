import { describe, expect, it } from 'vitest';
import { act, data, endTurn, events, force, gm, run, setup } from './helpers.js';

describe('more rules of the text', () => {
  it('"Reactions don’t count against your normal allotment of actions": an opportunity attack leaves the budget whole', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
    ]);
    s = endTurn(s, 'hero');
    s = act(s, 'defend', 'orc').state;
    s = endTurn(s, 'orc');
    s = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: -1, y: 0 }] }).state;
    s = act(force(s, 1), 'opportunity-attack', 'orc').state;
    expect(data(s, 'orc').slots).toEqual({ standard: 0, move: 1, quick: 1 });
    expect(data(s, 'orc').free).toBe(0);
  });

  it('"you can react as often as the circumstances dictate, up to one per turn": one reaction in each of two turns', () => {
    let { s } = setup([
      { id: 'a', side: 'pc', at: [0, 0] },
      { id: 'b', side: 'pc', at: [0, 3] },
      { id: 'orc', side: 'npc', at: [9, 9] },
    ]);
    s = act(s, 'surge', 'orc', { benefit: 'edge' }).state;
    s = endTurn(s, 'a');
    s = act(s, 'surge', 'orc', { benefit: 'edge' }).state;
    expect(data(s, 'orc').edges).toBe(2);
  });

  it('RECOVER: "remove your highest level of damage"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true, damage: { close: 3 } } },
    ]);
    s = endTurn(s, 'hero');
    s = act(force(s, 19, 1), 'attack', 'orc', { kind: 'close', targetId: 'hero' }).state;
    const hurt = data(s, 'hero').damage;
    expect(hurt).toBeGreaterThan(0);
    s = endTurn(s, 'orc');
    s = act(s, 'recover', 'hero', { choice: 'damage' }).state;
    expect(data(s, 'hero')).toMatchObject({ damage: hurt - 1, stress: 1 });
  });

  it('INFLUENCE: "shift the conversation to a different topic ... with three degrees ... ignore the subjects negative attitude"', () => {
    let { s } = setup(
      [
        { id: 'hero', side: 'pc', at: [0, 0], stats: { skills: { persuasion: 8 } } },
        { id: 'duke', side: 'npc', at: [3, 0] },
      ],
      { encounterType: 'conflict' },
    );
    s = force(s, 2, 5);
    const r = act(s, 'influence', 'hero', { targetId: 'duke', skill: 'persuasion', goal: 'shift', subject: 'the war' });
    expect(events(r, 'action-round.conversation-shifted')[0]).toMatchObject({ shifted: true, ignoreNegative: true, usePositive: false });
  });

  it('RETRIEVE: "picking up or moving heavy objects ... requires a move action"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      {
        id: 'orc',
        side: 'npc',
        at: [9, 9],
        items: [{ id: 'chest', name: 'Chest', location: 'ground', tags: ['heavy'], props: { square: { x: 1, y: 0 } } }],
      },
    ]);
    const r = act(s, 'retrieve', 'hero', { itemId: 'chest', to: 'hand' });
    expect(events(r, 'action-round.spent')[0]).toMatchObject({ actionType: 'move' });
    expect(r.state.combatants['hero']!.items.map((i) => i.id)).toEqual(['chest']);
    s = r.state;
    expect(s.combatants['orc']!.items).toEqual([]);
  });

  it('SPEND ... RECOVER: "immediately use the Recover action without taking an action, but it does still add Stress"', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { destiny: 1 } },
      { id: 'orc', side: 'npc', at: [9, 9] },
    ]);
    s = run(s, { type: 'combatant.setStat', by: gm, combatantId: 'hero', stat: 'fate', value: 0 }).state;
    s = act(s, 'surge', 'hero', { benefit: 'edge' }).state;
    s = endTurn(endTurn(s, 'hero'), 'orc');
    expect(data(s, 'hero').fatigue).toBe(1);
    s = act(force(s, 4), 'spend', 'hero', { use: 'recover', choice: 'fatigue' }).state;
    expect(data(s, 'hero')).toMatchObject({ fatigue: 0, stress: 1, destiny: 0 });
    expect(data(s, 'hero').slots).toEqual({ standard: 1, move: 1, quick: 1 });
  });
});

describe('legalActions and the open move action', () => {
  it('a move action with squares left stays available after the slots are spent, and says how far', async () => {
    const { legal } = await import('./helpers.js');
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0] },
      { id: 'orc', side: 'npc', at: [9, 9] },
    ]);
    s = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: 1, y: 0 }] }).state;
    s = act(s, 'move', 'hero', { mode: 'squeeze', path: [{ x: 2, y: 0 }] }).state; // a second move action (standard slot)
    s = act(s, 'move', 'hero', { mode: 'squeeze', path: [{ x: 3, y: 0 }] }).state; // continues it
    const sq = legal(s, 'hero').find((o) => o.action === 'move-squeeze')!;
    expect(sq.allowed).toBe(true);
    expect(sq.params?.[0]?.label).toContain('1 more squares');
    expect(legal(s, 'hero').find((o) => o.action === 'move-walk')!.allowed).toBe(false);
  });
});
