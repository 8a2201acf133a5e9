import { describe, expect, it } from 'vitest';
import { act, endTurn, force, gm, legal, refuse, run, setup } from './helpers.js';

/** The refusal names the most specific rule that forbids the command, and its message says what happened and why. */
describe('most specific refusals', () => {
  const three = () =>
    setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true } },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
      { id: 'gob', side: 'npc', at: [5, 5], stats: { naturalWeapons: true } },
    ]).s;

  it('"Each character has a turn to take actions": off-turn, NOT_YOUR_TURN action-round.turns names whose turn it is', () => {
    const e = refuse(three(), { type: 'attack', by: gm, combatantId: 'orc', kind: 'close', targetId: 'hero' });
    expect(e).toEqual({
      code: 'NOT_YOUR_TURN',
      rule: 'action-round.turns',
      message: expect.stringContaining("It is not Orc's turn but Hero's"),
    });
  });

  it('a delaying character acting before taking its delayed turn: action-round.delay', () => {
    const s = act(three(), 'delay', 'hero').state;
    const e = refuse(s, { type: 'attack', by: gm, combatantId: 'hero', kind: 'close', targetId: 'orc' });
    expect(e).toEqual({ code: 'NOT_YOUR_TURN', rule: 'action-round.delay', message: expect.stringContaining('Hero is delaying') });
  });

  it('"Your initiative moves into the new place in the order where you act": the interrupted character gets action-round.delay-interrupt', () => {
    let s = act(three(), 'delay', 'hero').state;
    s = endTurn(s, 'orc'); // gob's turn; someone has acted since the hero delayed
    s = act(s, 'act-now', 'hero').state;
    expect(s.clock.current).toBe('hero');
    const e = refuse(s, { type: 'defend', by: gm, combatantId: 'gob' });
    expect(e).toEqual({
      code: 'NOT_YOUR_TURN',
      rule: 'action-round.delay-interrupt',
      message: expect.stringContaining("Gob's turn is interrupted: Hero took a delayed turn before it"),
    });
  });

  it('an incapacitated character off its turn: action-round.turn-skipped says its turns are skipped', () => {
    const s = run(three(), { type: 'effect.apply', by: gm, targetId: 'orc', name: 'KO', condition: 'incapacitated' }).state;
    const e = refuse(s, { type: 'defend', by: gm, combatantId: 'orc' });
    expect(e).toEqual({
      code: 'NOT_YOUR_TURN',
      rule: 'action-round.turn-skipped',
      message: expect.stringContaining('its turns are skipped until it recovers'),
    });
  });

  it('"You can make up to two raises on a single check": three raises are INVALID_COMMAND action-round.raise, not a schema message', () => {
    const e = refuse(three(), { type: 'attack', by: gm, combatantId: 'hero', kind: 'close', targetId: 'orc', raises: 3 });
    expect(e).toEqual({
      code: 'INVALID_COMMAND',
      rule: 'action-round.raise',
      message: expect.stringContaining('3 raises on one check: "You can make up to two raises on a single check"'),
    });
  });

  it('"until you take your readied action, you cannot take any other Reactions": a readied character\'s opportunity attack gets action-round.ready-concentration, not engine.reactions', () => {
    let { s } = setup([
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
      { id: 'gob', side: 'npc', at: [0, 1], stats: { naturalWeapons: true } },
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true } },
    ]);
    s = act(s, 'ready', 'orc', {
      action: 'attack',
      params: { kind: 'close', targetId: 'hero' },
      trigger: { event: 'attacks', by: 'hero' },
    }).state;
    s = endTurn(endTurn(s, 'orc'), 'gob');
    // the hero leaves two threatened squares' reach: the window asks the goblin only (the orc waits with its readied attack)
    s = act(s, 'move', 'hero', {
      mode: 'walk',
      path: [
        { x: -1, y: 0 },
        { x: -2, y: 0 },
      ],
    }).state;
    expect(s.reaction?.eligible).toEqual(['gob']);
    const e = refuse(s, { type: 'opportunity-attack', by: gm, combatantId: 'orc' });
    expect(e).toEqual({
      code: 'ILLEGAL_ACTION',
      rule: 'action-round.ready-concentration',
      message: expect.stringContaining('cannot take any other Reactions'),
    });
    expect(legal(s, 'orc').find((o) => o.action === 'opportunity-attack')?.blocked?.rule).toBe('action-round.ready-concentration');
  });

  it('ending a turn while a reaction window is open: the engine refuses it first (REACTION_PENDING, naming the window) and nothing changes', () => {
    let { s } = setup([
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true } },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { naturalWeapons: true } },
    ]);
    s = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: -1, y: 0 }] }).state;
    expect(s.reaction).not.toBeNull();
    const e = refuse(s, { type: 'turn.end', by: gm, combatantId: 'hero' });
    expect(e).toEqual({
      code: 'REACTION_PENDING',
      rule: 'engine.reactions',
      message: expect.stringContaining('Waiting for reactions (action-round.opportunity-attack)'),
    });
  });

  describe('SPEND DESTINY, FATE, OR CORRUPTION: each use names its own rule', () => {
    const rich = () =>
      setup([
        { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true, destiny: 3 } },
        { id: 'orc', side: 'npc', at: [9, 9] },
      ]).s;
    it('"COUP: ... increase the Degree of success on a successful check": no successful check, action-round.destiny-coup', () => {
      expect(refuse(rich(), { type: 'spend', by: gm, combatantId: 'hero', use: 'coup' })).toEqual({
        code: 'ILLEGAL_ACTION',
        rule: 'action-round.destiny-coup',
        message: expect.stringContaining('your last check did not succeed'),
      });
    });
    it('"You cannot spend ... on die rolls made by the GM or other players": no own check, action-round.destiny-improve-roll', () => {
      expect(refuse(rich(), { type: 'spend', by: gm, combatantId: 'hero', use: 'improve-roll' })).toEqual({
        code: 'ILLEGAL_ACTION',
        rule: 'action-round.destiny-improve-roll',
        message: expect.stringContaining('No check of yours to improve'),
      });
    });
    it('"STUNT: ... immediately add a Stunt to a successful Attack": a skill check is no attack, action-round.destiny-stunt', () => {
      const s = act(force(rich(), 20), 'use-skill', 'hero', { skill: 'athletics', dc: 5 }).state;
      expect(refuse(s, { type: 'spend', by: gm, combatantId: 'hero', use: 'stunt', benefit: 'push' })).toEqual({
        code: 'ILLEGAL_ACTION',
        rule: 'action-round.destiny-stunt',
        message: expect.stringContaining('your last check was not a successful attack'),
      });
    });
  });
});
