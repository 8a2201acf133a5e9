import { describe, expect, it } from 'vitest';
import { act, data, endTurn, events, force, gm, legal, refuse, run, setup } from './helpers.js';

/** Where Fray departed from the text of THE ACTION ROUND (issue 30): each test quotes the sentence it enforces. */

const far = (id: string, side: string, x: number, y = 0, stats: Record<string, unknown> = {}) => ({
  id,
  side,
  at: [x, y] as [number, number],
  stats,
});
const knockOut = <S>(s: S, id: string): S =>
  run(s as never, { type: 'effect.apply', by: gm, targetId: id, name: 'KO', condition: 'incapacitated' }).state as S;

describe('SPEND DESTINY while unable to take free actions', () => {
  const rule =
    '"If unconscious, or unable to take free actions for some other reason, you can still spend Destiny, Fate, or Corruption to attempt to use the Recover action, but must roll a 6."';

  it(`${rule}: an unconscious character may spend only on that Recover attempt`, () => {
    let { s } = setup([far('hero', 'pc', 0, 0, { destiny: 3 }), far('orc', 'npc', 9, 9)]);
    s = knockOut(s, 'hero');
    for (const use of ['inspiration', 'edit-scene', 'coup', 'improve-roll', 'stunt']) {
      const e = refuse(s, { type: 'spend', by: gm, combatantId: 'hero', use, benefit: 'push' });
      expect(e).toMatchObject({ code: 'ILLEGAL_ACTION', rule: 'action-round.destiny-unconscious' });
      expect(e.message).toContain('Recover');
    }
    expect(data(s, 'hero').destiny).toBe(3);
    const offered = legal(s, 'hero');
    expect(offered.find((o) => o.action === 'spend-inspiration')?.blocked?.rule).toBe('action-round.destiny-unconscious');
    expect(offered.find((o) => o.action === 'spend-recover')?.allowed).toBe(true);
    // the Recover attempt itself is open to them: a 5 is wasted, a 6 recovers
    s = act(force(s, 5), 'spend', 'hero', { use: 'recover' }).state;
    expect(data(s, 'hero').destiny).toBe(2);
    expect(s.effects.some((e) => e.targetId === 'hero' && e.condition === 'incapacitated')).toBe(true);
    s = act(force(s, 6), 'spend', 'hero', { use: 'recover', choice: 'damage' }).state;
    expect(data(s, 'hero').destiny).toBe(1);
  });

  it(`${rule}: a conscious character spends on inspiration as before`, () => {
    const { s } = setup([far('hero', 'pc', 0, 0, { destiny: 1 }), far('orc', 'npc', 9, 9)]);
    const r = act(force(s, 4), 'spend', 'hero', { use: 'inspiration' });
    expect(events(r, 'action-round.inspired')[0]).toMatchObject({ die: 4 });
  });
});

describe('DELAY after a free action', () => {
  const rule = '"You cannot delay if you have already taken an action on your turn"';

  it(`${rule}: a free action taken on your turn is an action`, () => {
    const { s } = setup([far('hero', 'pc', 0, 0, { destiny: 1 }), far('orc', 'npc', 9, 9)]);
    const talked = act(s, 'talk', 'hero', { text: 'Hold the line!' }).state;
    expect(refuse(talked, { type: 'delay', by: gm, combatantId: 'hero' })).toMatchObject({
      code: 'ILLEGAL_ACTION',
      rule: 'action-round.delay',
    });
    expect(legal(talked, 'hero').find((o) => o.action === 'delay')?.blocked?.rule).toBe('action-round.delay');
    const dropped = act(s, 'drop', 'hero', { what: 'prone' }).state;
    expect(refuse(dropped, { type: 'delay', by: gm, combatantId: 'hero' }).rule).toBe('action-round.delay');
    // spending Destiny is a free action too ("spending Destiny, Fate, or Corruption is a free action")
    const spent = act(force(s, 3), 'spend', 'hero', { use: 'inspiration' }).state;
    expect(refuse(spent, { type: 'delay', by: gm, combatantId: 'hero' }).rule).toBe('action-round.delay');
    // nothing taken yet: the delay is open
    expect(act(s, 'delay', 'hero').state.combatants['hero']!.data.delaying).toBe(true);
  });

  it(`${rule}: talking off-turn is not an action on your turn`, () => {
    let { s } = setup([far('orc', 'npc', 9, 9), far('hero', 'pc', 0, 0)]);
    s = act(s, 'talk', 'hero', { text: 'Over here!' }).state; // on the orc's turn
    s = endTurn(s, 'orc');
    expect(act(s, 'delay', 'hero').state.combatants['hero']!.data.delaying).toBe(true);
  });

  it('option delayAfterFreeAction: true keeps the reading where only standard, move and quick actions count', () => {
    const { s } = setup([far('hero', 'pc', 0, 0), far('orc', 'npc', 9, 9)], { delayAfterFreeAction: true });
    const talked = act(s, 'talk', 'hero', { text: 'Wait for it.' }).state;
    expect(act(talked, 'delay', 'hero').state.combatants['hero']!.data.delaying).toBe(true);
    const moved = act(s, 'move', 'hero', { mode: 'walk', path: [{ x: 1, y: 0 }] }).state;
    expect(refuse(moved, { type: 'delay', by: gm, combatantId: 'hero' }).rule).toBe('action-round.delay');
  });
});

describe('ASSIST: COMBINE', () => {
  const rule =
    '"COMBINE: You can make a Lore check of the appropriate power source against a Hard DC (DC 10 + Power level x 2) to grant an ally a bonus to the effect rank of a power, as long as you have a power with the same effect."';
  const bolt = { id: 'bolt', name: 'Bolt', range: 'ranged', rank: 4, effect: 'damage', rangeSquares: 20 };
  const blast = { ...bolt, id: 'blast', name: 'Blast', rank: 2 };
  const daze = { id: 'daze', name: 'Daze', range: 'ranged', rank: 3, effect: 'affliction', condition: 'dazed' };

  it(`${rule}: a character with no power of the same effect cannot combine`, () => {
    const none = setup([
      far('helper', 'pc', 0, 0, { skills: { lore: 10 } }),
      far('ally', 'pc', 0, 1, { powers: [bolt] }),
      far('orc', 'npc', 9, 0),
    ]).s;
    expect(refuse(none, { type: 'assist', by: gm, combatantId: 'helper', mode: 'combine', allyId: 'ally' })).toMatchObject({
      code: 'ILLEGAL_ACTION',
      rule: 'action-round.assist-combine',
    });
    expect(legal(none, 'helper').find((o) => o.action === 'assist-combine')?.blocked?.rule).toBe('action-round.assist-combine');
    const other = setup([
      far('helper', 'pc', 0, 0, { skills: { lore: 10 }, powers: [daze] }),
      far('ally', 'pc', 0, 1, { powers: [bolt] }),
      far('orc', 'npc', 9, 0),
    ]).s;
    expect(refuse(other, { type: 'assist', by: gm, combatantId: 'helper', mode: 'combine', allyId: 'ally' }).rule).toBe(
      'action-round.assist-combine',
    );
    expect(refuse(other, { type: 'assist', by: gm, combatantId: 'helper', mode: 'combine', allyId: 'ally', powerId: 'nope' }).rule).toBe(
      'action-round.assist-combine',
    );
  });

  it(`${rule}: the bonus reaches the ally's power (a rank-4 Bolt after a 2-degree combine is resisted at DC 16)`, () => {
    let { s } = setup([
      far('helper', 'pc', 0, 0, { skills: { lore: 10 }, powers: [blast] }),
      far('ally', 'pc', 0, 1, { powers: [bolt] }),
      far('orc', 'npc', 9, 0),
    ]);
    s = force(s, 15); // 15 + 10 = 25 against DC 20: two degrees
    const r = act(s, 'assist', 'helper', { mode: 'combine', allyId: 'ally' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 20, success: true, degrees: 2 });
    s = endTurn(r.state, 'helper');
    s = force(s, 19, 1); // the Bolt's attack check hits; the orc's Toughness resistance fails
    const used = act(s, 'use-power', 'ally', { powerId: 'bolt', targetIds: ['orc'] });
    const resist = events(used, 'action-round.check').find((e) => e['kind'] === 'resistance');
    expect(resist).toMatchObject({ dc: 16 });
    // the same Bolt without the combine: DC 14
    const plain = setup([far('helper', 'pc', 0, 0), far('ally', 'pc', 0, 1, { powers: [bolt] }), far('orc', 'npc', 9, 0)]).s;
    const p2 = act(force(endTurn(plain, 'helper'), 19, 1), 'use-power', 'ally', { powerId: 'bolt', targetIds: ['orc'] });
    expect(events(p2, 'action-round.check').find((e) => e['kind'] === 'resistance')).toMatchObject({ dc: 14 });
  });
});

describe('SURGE: BURST against Advantages', () => {
  const rule = '"BURST: Negate Disadvantages or opponents Advantages until the end of the character’s next turn."';

  it(`${rule}: an opponent's aimed attack on the bursting character loses its Advantage`, () => {
    const scene = (negate: string) => {
      let { s } = setup([far('hero', 'pc', 0, 0), far('orc', 'npc', 1, 0, { naturalWeapons: true })]);
      s = act(s, 'surge', 'hero', { benefit: 'burst', negate }).state;
      s = endTurn(s, 'hero');
      s = act(s, 'aim', 'orc', { targetId: 'hero' }).state;
      return act(force(s, 10), 'attack', 'orc', { kind: 'close', targetId: 'hero' });
    };
    expect(events(scene('advantages'), 'dice.rolled')[0]!.formula).toBe('1d20');
    // a burst that negates Disadvantages leaves the opponent's aim alone
    expect(events(scene('disadvantages'), 'dice.rolled')[0]!.formula).toBe('1d20+1');
  });

  it(`${rule}: an opponent's Advantage on its defense against the bursting character is negated too`, () => {
    const scene = (negate: string) => {
      let { s } = setup([far('hero', 'pc', 0, 0, { naturalWeapons: true }), far('orc', 'npc', 1, 0)]);
      s = run(s, { type: 'effect.apply', by: gm, targetId: 'orc', name: 'gambit +2', data: { kind: 'advantage', n: 2 } }).state;
      s = act(s, 'surge', 'hero', { benefit: 'burst', negate }).state;
      return act(force(s, 10), 'attack', 'hero', { kind: 'close', targetId: 'orc' });
    };
    expect(events(scene('advantages'), 'action-round.check')[0]).toMatchObject({ dc: 10 });
    expect(events(scene('disadvantages'), 'action-round.check')[0]).toMatchObject({ dc: 12 });
  });
});
