import { describe, expect, it } from 'vitest';
import { started, type Spec, type Table } from './helpers.js';

/** Where Fray departed from the Legends texts (issue 30): each test quotes the sentence it enforces. */

const club = { id: 'club', name: 'Club', location: 'right-hand', props: { weapon: 'melee', type: 'club' } };
const five: Spec[] = [
  { id: 'a1', side: 'h' },
  { id: 'a2', side: 'h' },
  { id: 'a3', side: 'h', items: [{ ...club, id: 'sword-a3', name: 'Sword' }] },
  { id: 'b1', side: 'f', SPD: 9 },
  { id: 'b2', side: 'f', SPD: 9 },
];
const melee = (t: Table) => {
  t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3'], groupId: 'party' });
  t.do({ type: 'formGroup', combatantIds: ['b1', 'b2'], groupId: 'raiders' });
  t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'a3', 'b1', 'b2'], engagementId: 'melee' });
};
const disadvantage = (t: Table, id: string) => t.effectsOn(id).filter((e) => e.condition === 'melee-disadvantage');

describe('breakout tactics: "Remove 1 Hindrance"', () => {
  const rule =
    '"Whenever you are truly desperate to do something affected by outnumbering dice, you may use breakout tactics to gain one or more of the following benefits: ... -Remove 1 Hindrance. Unfortunately, you receive one degree of melee disadvantage for each of the above options you choose."';
  const twoOnTwo: Spec[] = [
    { id: 'a1', side: 'h' },
    { id: 'a2', side: 'h' },
    { id: 'b1', side: 'f' },
    { id: 'b2', side: 'f' },
  ];
  const even = (options: Record<string, unknown> = {}) => {
    const t = started(twoOnTwo, { options, setup: (t) => t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'b1', 'b2'] }) });
    t.skipTo('movement', 2);
    return t;
  };

  it(`${rule}: two against two, escaping with it removes 1 of the escape's 2 Hindrance, for its degree of disadvantage`, () => {
    const t = even();
    t.force(1);
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' }, breakout: { removeHindrance: true } });
    expect(ev.find((e) => e.type === 'legends.moveRolled')).toMatchObject({ hindrance: 1, easing: 0 });
    expect(ev.find((e) => e.type === 'dice.rolled')!.formula).toBe('2d12kh1');
    expect(disadvantage(t, 'a1').map((e) => e.data)).toEqual([{ degrees: 1 }]);
  });

  it(`${rule}: where the roll has no Hindrance to remove, it is refused with the rule and costs nothing`, () => {
    // three against two: a bypass roll at odds that give no outnumbering dice has no Hindrance at all
    const t = started(five, { setup: melee });
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3'] });
    t.endTurnsUntil('b1');
    const e = t.refuse(
      { type: 'act', combatantId: 'b1', action: 'bypass', breakout: { removeHindrance: true } },
      'legends.breakout.remove-hindrance',
      'ILLEGAL_ACTION',
    );
    expect(e.message).toContain('nothing to remove');
    expect(disadvantage(t, 'b1')).toEqual([]);
  });

  it('option breakoutRemovesHindrance: outnumbering keeps the reading where only an outnumbering Hindrance can go: refused at even odds', () => {
    const t = even({ breakoutRemovesHindrance: 'outnumbering' });
    t.refuse(
      { type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' }, breakout: { removeHindrance: true } },
      'legends.breakout.remove-hindrance',
    );
    expect(disadvantage(t, 'a1')).toEqual([]);
    t.force(1);
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' } });
    expect(ev.find((e) => e.type === 'legends.moveRolled')).toMatchObject({ hindrance: 2 });
  });
});

describe('the items of a defended body', () => {
  const rule =
    '"If you are incapacitated or paralyzed, you will technically drop any item(s) in your hands; however, if your body is defended via group defense, these items are included in that defense without additional difficulty"';
  /** a3 falls with its sword in round 1; round 2's declaration defends (or not) its body; then b2's turn. */
  const fallen = (defend: boolean) => {
    const t = started(five, { setup: melee });
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: [] });
    t.do({ type: 'effect.apply', targetId: 'a3', name: 'Down', condition: 'incapacitated' });
    expect(t.c('a3').items.find((i) => i.id === 'sword-a3')!.location).toBe('ground');
    t.skipTo('group-defense', 2);
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: defend ? ['a3'] : [] });
    t.endTurnsUntil('b2');
    return t;
  };
  const pickup = { type: 'act', combatantId: 'b2', action: 'inventory', ops: [{ op: 'pickup', itemId: 'sword-a3' }] };

  it(`${rule}: an enemy who has not bypassed cannot pick up the sword of a defended body`, () => {
    const t = fallen(true);
    const e = t.refuse(pickup, 'legends.group-defense.body-items', 'ILLEGAL_ACTION');
    expect(e.message).toContain('included in that defense');
  });

  it(`${rule}: once bypassed, the pickup is the usual roll ("without additional difficulty"); an undefended body's sword needs no bypass`, () => {
    const t = fallen(true);
    t.forceFaces('2d12', [1, 1]);
    t.do({ type: 'act', combatantId: 'b2', action: 'bypass' });
    t.force(1);
    const ev = t.do(pickup);
    expect(ev.find((e) => e.type === 'legends.pickupRolled')).toMatchObject({ success: true });
    expect(t.c('b2').items.some((i) => i.id === 'sword-a3')).toBe(true);

    const u = fallen(false);
    u.force(1);
    expect(u.do(pickup).find((e) => e.type === 'legends.pickupRolled')).toMatchObject({ success: true });
  });
});

describe('touching an ally who is bypassing group defense', () => {
  const rule = '"You must be grouped-up with any ally you touch, and the ally must not currently be bypassing group defense."';
  /** b1 bypasses the party's defense (guarding the stairs, or protecting a3) in round 1; b2 comes next. */
  const bypassed = (guard: 'area' | 'character', options: Record<string, unknown> = {}) => {
    const t = started(five, { setup: melee, options });
    const decl =
      guard === 'area' ? { protected: [], objects: [{ id: 'stairs', name: 'The stairs', area: 'stairs' }] } : { protected: ['a3'] };
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', ...decl });
    t.do({ type: 'declareGroupDefense', combatantId: 'b1', protected: [] });
    t.endTurnsUntil('b1');
    t.forceFaces('2d12', [1, 1]);
    t.do({ type: 'act', combatantId: 'b1', action: 'bypass' });
    t.do({ type: 'turn.end', combatantId: 'b1' });
    expect(t.clock.current).toBe('b2');
    return t;
  };
  const touch = { type: 'act', combatantId: 'b2', action: 'touch', targetId: 'b1' };

  it(`${rule}: a bypass that opened a guarded area is current until the next round's movement phase ends`, () => {
    const t = bypassed('area');
    const e = t.refuse(touch, 'legends.touch', 'ILLEGAL_ACTION');
    expect(e.message).toContain('bypassing group defense');
    // "allows you to ... move into the blocked area during the next round's movement phase": b1 stays instead, and the chance lapses
    t.skipTo('group-defense', 2);
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: [] });
    t.endTurnsUntil('b2');
    t.do(touch);
    expect(t.state.rs.touches).toMatchObject([{ by: 'b2', target: 'b1' }]);
  });

  it(`${rule}: a bypass to attack protected characters lapses with the bypasser's turn ("this turn")`, () => {
    const t = bypassed('character');
    t.do(touch);
    expect(t.state.rs.touches).toMatchObject([{ by: 'b2', target: 'b1' }]);
  });

  it("option bypassCurrent: until-next-turn keeps the reading where a bypass lasts until the bypasser's next turn", () => {
    const t = bypassed('character', { bypassCurrent: 'until-next-turn' });
    t.refuse(touch, 'legends.touch');
    t.skipTo('group-defense', 2);
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3'] });
    t.endTurnsUntil('b1');
    t.do({ type: 'turn.end', combatantId: 'b1' }); // b1's new turn began: the bypass is over
    t.do(touch);
  });
});
