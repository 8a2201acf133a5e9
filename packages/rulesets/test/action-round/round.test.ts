import { describe, expect, it } from 'vitest';
import { act, conds, data, endTurn, events, force, gm, legal, pos, refuse, run, setup } from './helpers.js';

const sword = { id: 'sword', name: 'Sword', location: 'carried', tags: ['weapon'] };
const dagger = { id: 'dagger', name: 'Dagger', location: 'carried', tags: ['weapon'] };

function duel(options: Record<string, unknown> = {}) {
  return setup(
    [
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true }, items: [sword, dagger] },
      { id: 'orc', side: 'npc', at: [1, 0] },
      { id: 'gob', side: 'npc', at: [8, 8] },
    ],
    options,
  ).s;
}

describe('the round and its budget', () => {
  it('"During a round you can take a standard, a move action ... and a quick action": all three in one turn', () => {
    let s = duel();
    s = force(s, 2, 2);
    s = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state;
    s = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: 0, y: 1 }] }).state;
    s = act(s, 'draw', 'hero', { itemId: 'sword' }).state;
    expect(data(s, 'hero').slots).toEqual({ standard: 0, move: 0, quick: 0 });
    // only the rest of the open walk remains (it began after the standard action, so it is not split)
    expect(
      legal(s, 'hero')
        .filter((o) => o.allowed && ['standard', 'move', 'quick'].includes(o.kind!))
        .map((o) => o.action),
    ).toEqual(['move-walk']);
  });

  it('"You’re limited to one standard action each round": a second standard action is refused', () => {
    let s = duel();
    s = force(s, 2, 2);
    s = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state;
    const e = refuse(s, { type: 'defend', by: gm, combatantId: 'hero' });
    expect(e).toMatchObject({ code: 'BUDGET_EXHAUSTED', rule: 'action-round.one-standard' });
    expect(e.message).toContain('one standard action each round');
  });

  it('"or substitute an additional move action for your standard action": two moves, then no standard', () => {
    let s = duel();
    s = act(s, 'move', 'hero', {
      mode: 'walk',
      path: [
        { x: 0, y: 1 },
        { x: 0, y: 2 },
        { x: 0, y: 3 },
        { x: 0, y: 4 },
        { x: 0, y: 5 },
        { x: 0, y: 6 },
      ],
    }).state;
    const r = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: 0, y: 7 }] });
    expect(events(r, 'action-round.spent')[0]).toMatchObject({ actionType: 'move', slot: 'standard' });
    s = r.state;
    expect(data(s, 'hero').slots).toEqual({ standard: 0, move: 0, quick: 1 });
    expect(refuse(s, { type: 'defend', by: gm, combatantId: 'hero' }).rule).toBe('action-round.one-standard');
  });

  it('"or substitute an additional quick action for your move action": three quick actions use quick, move, standard', () => {
    let s = duel();
    const slots: unknown[] = [];
    for (const [i, id] of ['sword', 'dagger'].entries()) {
      const r = act(s, 'draw', 'hero', { itemId: id });
      slots.push(events(r, 'action-round.spent')[0]!.slot);
      s = r.state;
      expect(data(s, 'hero').slots.quick).toBe(0);
      expect(i).toBeLessThan(2);
    }
    const r = act(s, 'draw', 'hero', { mode: 'sheathe', itemId: 'dagger' });
    slots.push(events(r, 'action-round.spent')[0]!.slot);
    expect(slots).toEqual(['quick', 'move', 'standard']);
  });

  it('"as many free actions in a round as the GM considers reasonable": the freeActionLimit option', () => {
    let s = duel({ freeActionLimit: 2 });
    s = act(s, 'talk', 'hero', { text: 'For the king!' }).state;
    s = act(s, 'talk', 'hero', { text: 'Hold the line!' }).state;
    const e = refuse(s, { type: 'talk', by: gm, combatantId: 'hero', text: 'And another thing' });
    expect(e).toMatchObject({ code: 'BUDGET_EXHAUSTED', rule: 'action-round.free-actions' });
    // the count resets at the start of the character's next turn
    s = endTurn(endTurn(endTurn(s, 'hero'), 'orc'), 'gob');
    expect(data(s, 'hero').free).toBe(0);
  });

  it('the GM sets the free-action limit at the table (set-free-action-limit)', () => {
    let s = duel();
    s = act(s, 'talk', 'hero', { text: 'One' }).state;
    s = act(s, 'talk', 'hero', { text: 'Two' }).state;
    s = run(s, { type: 'set-free-action-limit', by: gm, limit: 1 }).state;
    expect(refuse(s, { type: 'talk', by: gm, combatantId: 'hero', text: 'Three' }).rule).toBe('action-round.free-actions');
    expect(refuse(s, { type: 'set-free-action-limit', by: { role: 'player', playerId: 'p1' }, limit: 9 }).code).toBe('NOT_AUTHORIZED');
    s = run(s, { type: 'set-free-action-limit', by: gm, limit: 9 }).state;
    expect(act(s, 'talk', 'hero', { text: 'Three' }).state.rs.freeActionLimit).toBe(9);
  });

  it('"speaking is a free action that you can perform even when it isn’t your turn"', () => {
    let s = duel();
    s = act(s, 'talk', 'orc', { text: 'Grr' }).state;
    expect(data(s, 'orc').free).toBe(1);
    expect(refuse(s, { type: 'drop', by: gm, combatantId: 'orc', what: 'prone' }).code).toBe('NOT_YOUR_TURN');
  });

  it('"as many reactions as are called for, with a limit of one per Turn": a second reaction in a turn is refused', () => {
    let s = duel();
    s = act(s, 'surge', 'orc', { benefit: 'edge' }).state;
    const e = refuse(s, { type: 'surge', by: gm, combatantId: 'orc', benefit: 'edge' });
    expect(e).toMatchObject({ code: 'BUDGET_EXHAUSTED', rule: 'action-round.one-reaction' });
    // the next turn is a new turn: the orc may react again
    s = endTurn(s, 'hero');
    s = act(s, 'surge', 'hero', { benefit: 'edge' }).state;
    expect(data(s, 'hero').edges).toBe(1);
  });

  it('reactionScope "own-cycle": one reaction between the starts of your own turns', () => {
    let s = duel({ reactionScope: 'own-cycle' });
    s = act(s, 'surge', 'gob', { benefit: 'edge' }).state;
    s = endTurn(s, 'hero');
    expect(refuse(s, { type: 'surge', by: gm, combatantId: 'gob', benefit: 'edge' }).rule).toBe('action-round.one-reaction');
  });

  it('"NO ACTION No Limit": delaying and end-of-turn resistance checks spend nothing', () => {
    let s = duel();
    s = run(s, {
      type: 'effect.apply',
      by: gm,
      targetId: 'hero',
      name: 'dazed',
      condition: 'dazed',
      data: { resist: { save: 'will', dc: 5 } },
    }).state;
    s = force(s, 10);
    const r = run(s, { type: 'turn.end', by: gm, combatantId: 'hero' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ kind: 'resistance', success: true });
    expect(conds(r.state, 'hero')).not.toContain('dazed');
    expect(data(s, 'hero').slots).toEqual({ standard: 1, move: 1, quick: 1 });
  });

  it('"you can only use one Area Power per round, regardless of action type used"', () => {
    const powers = [
      { id: 'blast', name: 'Fire Blast', action: 'standard', range: 'ranged', area: true, rank: 2, rangeSquares: 20, effect: 'damage' },
      { id: 'cloud', name: 'Smoke Cloud', action: 'move', range: 'ranged', area: true, rank: 1, rangeSquares: 20, effect: 'other' },
    ];
    let { s } = setup([
      { id: 'mage', side: 'pc', at: [0, 0], stats: { powers } },
      { id: 'orc', side: 'npc', at: [5, 0] },
    ]);
    s = act(s, 'use-power', 'mage', { powerId: 'cloud', targetIds: ['orc'] }).state;
    const e = refuse(s, { type: 'use-power', by: gm, combatantId: 'mage', powerId: 'blast', targetIds: ['orc'] });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-round.one-area-power' });
    expect(legal(s, 'mage').find((o) => o.template?.['powerId'] === 'blast')?.blocked?.rule).toBe('action-round.one-area-power');
    s = endTurn(endTurn(s, 'mage'), 'orc');
    expect(s.clock.round).toBe(2);
    s = force(s, 10, 10);
    s = act(s, 'use-power', 'mage', { powerId: 'blast', targetIds: ['orc'] }).state;
    expect(s.rs.areaPowerUsed).toEqual(['mage']);
  });

  it('"Combat uses six-second rounds, while Conflicts typically use six-minute rounds. A Challenge can use either."', () => {
    expect(duel().rs.roundSeconds).toBe(6);
    expect(duel().clock.phase).toBe('combat-round');
    const conflict = duel({ encounterType: 'conflict' });
    expect(conflict.rs.roundSeconds).toBe(360);
    expect(conflict.clock.phase).toBe('conflict-round');
    expect(duel({ encounterType: 'challenge', roundLength: 'six-minutes' }).rs.roundSeconds).toBe(360);
    let s = duel({ encounterType: 'conflict' });
    const r = run(endTurn(endTurn(s, 'hero'), 'orc'), { type: 'turn.end', by: gm, combatantId: 'gob' });
    s = r.state;
    expect(events(r, 'action-round.round-started')[0]).toMatchObject({ round: 2, elapsedSeconds: 360 });
  });

  it('keeps the engine clock: round, phase, order (highest initiative first) and current', () => {
    let s = duel();
    expect(s.clock).toMatchObject({ round: 1, order: ['hero', 'orc', 'gob'], current: 'hero' });
    s = endTurn(s, 'hero');
    expect(s.clock.current).toBe('orc');
    s = endTurn(endTurn(s, 'orc'), 'gob');
    expect(s.clock).toMatchObject({ round: 2, current: 'hero' });
    expect(refuse(s, { type: 'turn.end', by: gm, combatantId: 'orc' }).code).toBe('NOT_YOUR_TURN');
  });

  it('"You cannot, however, normally split up your move action before and after your standard action."', () => {
    let s = duel();
    s = act(s, 'move', 'hero', {
      mode: 'walk',
      path: [
        { x: 0, y: 1 },
        { x: 0, y: 2 },
      ],
    }).state;
    // continuing the same move action before the standard action is fine
    s = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: 0, y: 3 }] }).state;
    s = act(s, 'defend', 'hero').state;
    const e = refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'walk', path: [{ x: 0, y: 4 }] });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-round.no-split-move' });
    expect(legal(s, 'hero').find((o) => o.action === 'move-walk')?.blocked?.rule).toBe('action-round.no-split-move');
    // "You can take your move action before or after your standard action": the GM may allow splitting
    let t = duel({ allowSplitMove: true });
    t = act(t, 'move', 'hero', { mode: 'walk', path: [{ x: 0, y: 1 }] }).state;
    t = act(t, 'defend', 'hero').state;
    t = act(t, 'move', 'hero', { mode: 'walk', path: [{ x: 0, y: 2 }] }).state;
    expect(pos(t, 'hero')).toEqual({ x: 0, y: 2 });
  });

  it('"may even use it as part of a reaction, so long as you did not use it during your last turn"', () => {
    // the orc used its quick action on its last turn: no quick action in its reaction
    let { s } = setup([
      { id: 'orc', side: 'npc', at: [0, 0], stats: { naturalWeapons: true }, items: [sword, dagger] },
      { id: 'hero', side: 'pc', at: [1, 0] },
    ]);
    s = act(s, 'draw', 'orc', { itemId: 'sword' }).state;
    s = endTurn(s, 'orc');
    s = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: 2, y: 0 }] }).state;
    expect(s.reaction?.eligible).toEqual(['orc']);
    const e = refuse(s, { type: 'opportunity-attack', by: gm, combatantId: 'orc', quick: { action: 'draw', itemId: 'dagger' } });
    expect(e.rule).toBe('action-round.quick-in-reaction');
    // a hero who kept its quick action may use it inside a reaction
    let t = setup([
      { id: 'orc', side: 'npc', at: [0, 0], stats: { naturalWeapons: true }, items: [sword, dagger] },
      { id: 'hero', side: 'pc', at: [1, 0] },
    ]).s;
    t = endTurn(t, 'orc');
    t = act(t, 'move', 'hero', { mode: 'walk', path: [{ x: 2, y: 0 }] }).state;
    t = force(t, 1);
    const r = act(t, 'opportunity-attack', 'orc', { quick: { action: 'draw', itemId: 'sword' } });
    expect(r.state.combatants['orc']!.items.find((i) => i.id === 'sword')!.location).not.toBe('carried');
    expect(data(r.state, 'orc').quickInReaction).toBe(true);
  });
});

describe('delay [No action]', () => {
  it('"When you delay, you choose to take your turn later": the next character acts; "Your initiative moves into the new place"', () => {
    let s = duel();
    s = act(s, 'delay', 'hero').state;
    expect(s.clock.current).toBe('orc');
    expect(data(s, 'hero').delaying).toBe(true);
    s = endTurn(s, 'orc');
    s = act(s, 'act-now', 'hero').state;
    expect(s.clock.order).toEqual(['orc', 'hero', 'gob']);
    expect(s.clock.current).toBe('hero');
    expect(data(s, 'hero').slots).toEqual({ standard: 1, move: 1, quick: 1 });
    s = endTurn(s, 'hero');
    expect(s.clock.current).toBe('gob');
  });

  it('"You cannot delay if you have already taken an action on your turn"', () => {
    let s = duel();
    s = act(s, 'draw', 'hero', { itemId: 'sword' }).state;
    expect(refuse(s, { type: 'delay', by: gm, combatantId: 'hero' })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-round.delay' });
  });

  it('"or if you are unable to take actions"', () => {
    let s = duel();
    s = run(s, { type: 'effect.apply', by: gm, targetId: 'hero', name: 'KO', condition: 'incapacitated' }).state;
    expect(refuse(s, { type: 'delay', by: gm, combatantId: 'hero' }).rule).toBe('action-round.delay');
  });

  it('"At any point after any other character in the conflict has acted": not before anyone has', () => {
    let s = duel();
    s = act(s, 'delay', 'hero').state;
    expect(refuse(s, { type: 'act-now', by: gm, combatantId: 'hero' }).rule).toBe('action-round.delay');
    s = act(s, 'talk', 'orc', { text: 'Ha' }).state;
    // free actions are not "acting" yet, but the orc's turn began after the delay; once it has acted, wait for its end
    s = act(s, 'defend', 'orc').state;
    expect(refuse(s, { type: 'act-now', by: gm, combatantId: 'hero' }).message).toContain('middle of a turn');
  });

  it('"If you do not act before your initiative comes up in the next round, your turn ends, you lose your delayed turn, and your initiative remains where it is."', () => {
    let s = duel();
    s = act(s, 'delay', 'hero').state;
    s = endTurn(endTurn(s, 'orc'), 'gob');
    expect(s.clock.current).toBe('hero');
    expect(data(s, 'hero').delaying).toBe(false);
    expect(s.clock.order).toEqual(['hero', 'orc', 'gob']);
  });

  it('"Beneficial effects lasting until the end of your turn end when you choose to delay, but harmful effects ... last until after you act"', () => {
    let s = duel();
    s = run(s, {
      type: 'effect.apply',
      by: gm,
      targetId: 'hero',
      name: 'blessed',
      duration: { unit: 'turn', count: 1 },
      data: { beneficial: true },
    }).state;
    s = run(s, {
      type: 'effect.apply',
      by: gm,
      targetId: 'hero',
      name: 'dazzled',
      duration: { unit: 'turn', count: 1 },
      data: { beneficial: false },
    }).state;
    s = act(s, 'delay', 'hero').state;
    const names = s.effects.filter((e) => e.targetId === 'hero').map((e) => e.name);
    expect(names).toEqual(['dazzled']);
    s = endTurn(s, 'orc');
    s = act(s, 'act-now', 'hero').state;
    s = endTurn(s, 'hero');
    expect(s.effects.filter((e) => e.targetId === 'hero')).toEqual([]);
  });
});

describe('ready [Standard]', () => {
  function readyScene() {
    let { s } = setup([
      { id: 'archer', side: 'pc', at: [0, 0], stats: { range: 20, attack: { ranged: 5 } } },
      { id: 'orc', side: 'npc', at: [6, 0], stats: { naturalWeapons: true } },
    ]);
    s = act(s, 'ready', 'archer', {
      action: 'attack',
      params: { kind: 'ranged' },
      trigger: { event: 'moves', by: 'orc', description: 'when the orc moves' },
    }).state;
    return s;
  }

  it('"Readying is a standard action, so you can move as well"', () => {
    let s = readyScene();
    expect(data(s, 'archer').slots.standard).toBe(0);
    s = act(s, 'move', 'archer', { mode: 'walk', path: [{ x: 0, y: 1 }] }).state;
    expect(data(s, 'archer').readied).toMatchObject({ action: 'attack', as: 'standard' });
  });

  it('"any time before your next turn, you may take the readied action as a Reaction to that trigger"', () => {
    let s = endTurn(readyScene(), 'archer');
    s = act(s, 'move', 'orc', { mode: 'walk', path: [{ x: 5, y: 0 }] }).state;
    expect(s.reaction).toMatchObject({ kind: 'action-round.readied', eligible: ['archer'] });
    s = force(s, 19, 10);
    const r = act(s, 'readied', 'archer', { targetId: 'orc' });
    expect(events(r, 'action-round.attack-resolved')[0]).toMatchObject({
      combatantId: 'archer',
      targetId: 'orc',
      kind: 'ranged',
      hit: true,
    });
    expect(data(r.state, 'archer').readied).toBeNull();
    expect(r.state.reaction).toBeNull();
    expect(r.state.clock.current).toBe('orc');
  });

  it('"until you take your readied action, you cannot take any other Reactions"', () => {
    const s = endTurn(readyScene(), 'archer');
    const e = refuse(s, { type: 'surge', by: gm, combatantId: 'archer', benefit: 'edge' });
    expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-round.ready-concentration' });
  });

  it('"If you come to your next turn and have not yet performed your readied action ... you just lose that action"', () => {
    let s = endTurn(readyScene(), 'archer');
    s = act(s, 'talk', 'orc', { text: 'Come out!' }).state;
    const r = run(s, { type: 'turn.end', by: gm, combatantId: 'orc' });
    expect(events(r, 'action-round.readied-lost')).toHaveLength(1);
    expect(data(r.state, 'archer').readied).toBeNull();
  });

  it('"You can ready a single standard action, which can be exchanged for a move or quick action"', () => {
    let { s } = setup([
      { id: 'a', side: 'pc', at: [0, 0], items: [sword] },
      { id: 'b', side: 'npc', at: [5, 5] },
    ]);
    s = act(s, 'ready', 'a', { action: 'draw', params: { itemId: 'sword' }, trigger: { event: 'acts', by: null } }).state;
    expect(data(s, 'a').readied?.as).toBe('quick');
  });
});
