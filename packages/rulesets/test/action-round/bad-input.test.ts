import { describe, expect, it } from 'vitest';
import { act, endTurn, force, gm, refuse, setup } from './helpers.js';

/** Each refusal is a typed error naming the rule, and leaves the state unchanged (checked inside `refuse`). */
describe('bad input', () => {
  const scene = () =>
    setup([
      {
        id: 'hero',
        side: 'pc',
        at: [0, 0],
        stats: {
          naturalWeapons: true,
          range: 10,
          powers: [
            { id: 'nova', name: 'Nova', action: 'move', range: 'close', area: true, reach: 3 },
            { id: 'storm', name: 'Storm', action: 'standard', range: 'ranged', area: true },
          ],
        },
      },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
      { id: 'gob', side: 'npc', at: [6, 0] },
    ]).s;

  it('a second standard action: BUDGET_EXHAUSTED, action-round.one-standard', () => {
    const s = act(force(scene(), 3), 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state;
    const e = refuse(s, { type: 'attack', by: gm, combatantId: 'hero', kind: 'close', targetId: 'orc' });
    expect(e).toEqual({
      code: 'BUDGET_EXHAUSTED',
      rule: 'action-round.one-standard',
      message: expect.stringContaining('limited to one standard action each round'),
    });
  });

  it('a split move: ILLEGAL_ACTION, action-round.no-split-move', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true } },
      { id: 'orc', side: 'npc', at: [3, 3] },
    ]);
    s = act(s, 'move', 'hero', {
      mode: 'walk',
      path: [
        { x: 1, y: 1 },
        { x: 2, y: 2 },
      ],
    }).state;
    s = act(force(s, 3), 'attack', 'hero', { kind: 'close', targetId: 'orc' }).state;
    expect(refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'walk', path: [{ x: 2, y: 1 }] })).toEqual({
      code: 'ILLEGAL_ACTION',
      rule: 'action-round.no-split-move',
      message: expect.stringContaining('split up your move action'),
    });
  });

  it('two reactions in a turn: raise and smash on one attack, or a surge after an opportunity attack', () => {
    expect(
      refuse(scene(), { type: 'attack', by: gm, combatantId: 'hero', kind: 'close', targetId: 'orc', raises: 1, smash: true }),
    ).toMatchObject({ code: 'BUDGET_EXHAUSTED', rule: 'action-round.one-reaction' });
    let s = act(scene(), 'move', 'hero', {
      mode: 'walk',
      path: [
        { x: 0, y: 1 },
        { x: 0, y: 2 },
      ],
    }).state;
    s = act(force(s, 1), 'opportunity-attack', 'orc').state;
    expect(refuse(s, { type: 'surge', by: gm, combatantId: 'orc', benefit: 'edge' })).toMatchObject({
      code: 'BUDGET_EXHAUSTED',
      rule: 'action-round.one-reaction',
      message: expect.stringContaining('one per Turn'),
    });
  });

  it('two area powers in a round: ILLEGAL_ACTION, action-round.one-area-power', () => {
    let s = act(force(scene()), 'use-power', 'hero', { powerId: 'nova', targetIds: ['orc'] }).state;
    expect(refuse(s, { type: 'use-power', by: gm, combatantId: 'hero', powerId: 'storm', targetIds: ['gob'] })).toMatchObject({
      code: 'ILLEGAL_ACTION',
      rule: 'action-round.one-area-power',
    });
    // a new round, a new area power
    s = endTurn(endTurn(endTurn(s, 'hero'), 'orc'), 'gob');
    expect(act(force(s), 'use-power', 'hero', { powerId: 'storm', targetIds: ['gob'] }).state.rs.areaPowerUsed).toEqual(['hero']);
  });

  it('a reaction while a readied action waits: ILLEGAL_ACTION, action-round.ready-concentration', () => {
    let s = act(scene(), 'ready', 'hero', { action: 'attack', params: { kind: 'close' }, trigger: { event: 'attacks', by: null } }).state;
    s = endTurn(s, 'hero');
    expect(refuse(s, { type: 'surge', by: gm, combatantId: 'hero', benefit: 'burst' })).toMatchObject({
      code: 'ILLEGAL_ACTION',
      rule: 'action-round.ready-concentration',
      message: expect.stringContaining('cannot take any other Reactions'),
    });
    // nor does the readied hero get an opportunity attack
    const moved = act(s, 'move', 'orc', {
      mode: 'walk',
      path: [
        { x: 2, y: 0 },
        { x: 3, y: 0 },
      ],
    }).state;
    expect(moved.reaction).toBeNull();
  });

  it('aim held against a new target: ILLEGAL_ACTION, action-round.aim-target', () => {
    const s = act(scene(), 'aim', 'hero', { targetId: 'gob' }).state;
    expect(s.reaction?.eligible).toEqual(['orc']); // aiming next to the orc provokes
    const after = act(s, 'reaction.pass', 'orc').state;
    expect(refuse(after, { type: 'aim', by: gm, combatantId: 'hero', targetId: 'orc' })).toMatchObject({
      code: 'ILLEGAL_ACTION',
      rule: 'action-round.aim-target',
      message: expect.stringContaining('aiming at Gob'),
    });
  });

  it('malformed and unauthorized commands are refused too', () => {
    const s = scene();
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'hero', kind: 'psychic', targetId: 'orc' }).code).toBe('INVALID_COMMAND');
    expect(
      refuse(s, { type: 'attack', by: { role: 'player', playerId: 'p9' }, combatantId: 'hero', kind: 'close', targetId: 'orc' }).code,
    ).toBe('NOT_AUTHORIZED');
    expect(refuse(s, { type: 'attack', by: gm, combatantId: 'orc', kind: 'close', targetId: 'hero' }).code).toBe('NOT_YOUR_TURN');
    expect(refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'walk', path: [{ x: 5, y: 5 }] }).code).toBe('INVALID_COMMAND');
    expect(refuse(s, { type: 'move', by: gm, combatantId: 'hero', mode: 'walk', path: [{ x: 1, y: 0 }] }).message).toContain('occupied');
  });
});
