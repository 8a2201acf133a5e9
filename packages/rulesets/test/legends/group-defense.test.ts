import { describe, expect, it } from 'vitest';
import { started, type Spec, type Table } from './helpers.js';

const club = { id: 'club', name: 'Club', location: 'right-hand', props: { weapon: 'melee', type: 'club' } };
const specs: Spec[] = [
  { id: 'a1', side: 'h', items: [{ ...club, id: 'club-a1' }] },
  { id: 'a2', side: 'h' },
  { id: 'a3', side: 'h', items: [{ ...club, id: 'club-a3' }] },
  { id: 'b1', side: 'f', SPD: 8, items: [{ ...club, id: 'club-b1' }] },
  { id: 'b2', side: 'f' },
];
const engaged = (t: Table) => {
  t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3'], groupId: 'party' });
  t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'a3', 'b1', 'b2'], engagementId: 'melee' });
};

function declared(protect: string[] = ['a3'], more: Partial<Parameters<typeof started>[1]> = {}) {
  const t = started(specs, { setup: engaged, ...more });
  expect(t.clock.phase).toBe('group-defense');
  t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: protect });
  return t;
}

describe('legends: group defense', () => {
  it('"must be decided at the end of the movement phase" — then the action phase begins', () => {
    const t = declared();
    expect(t.state.rs.defense.party!.protected).toEqual(['a3']);
    expect(t.clock.phase).toBe('action');
    t.refuse({ type: 'declareGroupDefense', combatantId: 'a1', protected: [] }, 'legends.group-defense.timing', 'WRONG_PHASE');
  });

  it('"1 protected character per 2 non-protected characters"', () => {
    const t = started(specs, { setup: engaged });
    t.refuse({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a2', 'a3'] }, 'legends.group-defense.ratio');
    t.refuse({ type: 'declareGroupDefense', combatantId: 'b1', protected: [] }, 'legends.group-defense');
  });

  it('"this ratio may be altered by zone traits related to notably confining or open terrain"', () => {
    const t = started(specs, {
      setup: (t) => {
        t.do({ type: 'defineZone', zone: { id: 'main', traits: { groupDefenseRatio: 1 } } });
        engaged(t);
      },
    });
    // 1:1 — still only one of three (2 protected would leave 1 defender)
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3'] });
    const u = started([...specs, { id: 'a4', side: 'h' }], {
      setup: (t) => {
        t.do({ type: 'defineZone', zone: { id: 'main', traits: { groupDefenseRatio: 1 } } });
        t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3', 'a4'] });
      },
    });
    u.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3', 'a4'] });
  });

  it('"such characters count as only 1/4 a character" (bodies) and "a dropped item generally counts as 1/4 of a character"', () => {
    const t = started([...specs, { id: 'a4', side: 'h' }], {
      setup: (t) => {
        t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3', 'a4'], groupId: 'party' });
        t.do({ type: 'effect.apply', targetId: 'a4', name: 'Down', condition: 'incapacitated' });
      },
    });
    // 3 standing: protect a3 (1) + a4's body (1/4) = 5/4 > 2/2 → refused
    t.refuse({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3', 'a4'] }, 'legends.group-defense.ratio');
    // the body and a dropped item: 1/2 ≤ 3/2
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a4'], objects: [{ id: 'club-a1' }] });
    expect(t.state.rs.defense.party!.objects).toEqual([{ id: 'club-a1', name: 'Club', quarters: 1 }]);
  });

  it('"Characters already in a grapple cannot begin to be defended via group defense"', () => {
    const t = started(specs, {
      setup: (t) => {
        engaged(t);
        t.do({ type: 'effect.apply', targetId: 'a3', name: 'Grappled', condition: 'grappled' });
      },
    });
    t.refuse({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3'] }, 'legends.group-defense.grapple');
  });

  it('"Protected characters cannot perform melee attacks themselves."', () => {
    const t = declared();
    t.endTurnsUntil('a3');
    t.refuse(
      { type: 'act', combatantId: 'a3', action: 'melee-attack', targetId: 'b1', weaponId: 'club-a3' },
      'legends.group-defense.no-melee',
    );
    // ranged attacks and the rest are fine; group defense is about melee
  });

  it('"Characters protected by group defense cannot receive melee attacks unless the enemy follows special rules for bypassing"', () => {
    const t = declared();
    t.endTurnsUntil('b1');
    t.refuse({ type: 'act', combatantId: 'b1', action: 'melee-attack', targetId: 'a3', weaponId: 'club-b1' }, 'legends.group-defense');
    const opt = t.legal('b1').find((o) => o.action === 'melee-attack')!;
    expect(opt.params!.find((p) => p.name === 'targetId')!.options).toEqual(['a1', 'a2']);
    // "you must succeed on a 2d12 roll on SPD; outnumbering dice apply" — 2 against 3: none
    t.forceFaces('2d12', [2, 3]);
    const ev = t.do({ type: 'act', combatantId: 'b1', action: 'bypass' });
    expect(ev.find((e) => e.type === 'dice.rolled')).toMatchObject({ formula: '2d12', purpose: 'bypass group defense (2d12 on SPD)' });
    expect(ev.find((e) => e.type === 'legends.bypassRolled')).toMatchObject({ success: true, margin: 3 });
    // "Though the roll is on SPD, it is not considered a movement roll."
    expect(t.c('b1').data.moveRollRound).toBe(0);
    // "you may make non-grappling melee attacks against protected characters this turn"
    t.refuse({ type: 'act', combatantId: 'b1', action: 'grapple', targetId: 'a3' }, 'legends.group-defense.grapple');
    const hit = t.do({ type: 'act', combatantId: 'b1', action: 'melee-attack', targetId: 'a3', weaponId: 'club-b1' });
    expect(hit.find((e) => e.type === 'legends.attacked')).toMatchObject({ targetId: 'a3', bypassed: true, competent: false });
    // "this turn" only
    t.skipTo('action', 2);
    t.endTurnsUntil('b1');
    expect(t.c('b1').data.turn.bypassed).toBe(false);
  });

  it('"If you fail the SPD roll, you have 1 degree of melee disadvantage against all characters until the beginning of your next turn."', () => {
    const t = declared();
    t.endTurnsUntil('b1');
    t.forceFaces('2d12', [6, 7]);
    t.do({ type: 'act', combatantId: 'b1', action: 'bypass' });
    const dis = t.effectsOn('b1').find((e) => e.condition === 'melee-disadvantage')!;
    expect(dis.data).toEqual({ degrees: 1 });
    const atk = t.do({ type: 'act', combatantId: 'b1', action: 'melee-attack', targetId: 'a1', weaponId: 'club-b1' });
    expect(atk.find((e) => e.type === 'legends.attacked')!.meleeDisadvantage).toBe(1);
    t.do({ type: 'turn.end', combatantId: 'b2' });
    // next round: still there through the movement phase and the turns before b1's
    t.skipTo('action', 2);
    t.endTurnsUntil('a3');
    expect(t.effectsOn('b1').some((e) => e.condition === 'melee-disadvantage')).toBe(true);
    t.do({ type: 'turn.end', combatantId: 'a3' });
    expect(t.clock.current).toBe('b1');
    expect(t.effectsOn('b1').some((e) => e.condition === 'melee-disadvantage')).toBe(false);
  });

  it('"If you are in an engagement, you may attempt to bypass": no bypass outside an engagement or without enemy group defense', () => {
    const t = started(specs, { setup: (t) => t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3'] }) });
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3'] });
    t.endTurnsUntil('b1');
    t.refuse({ type: 'act', combatantId: 'b1', action: 'bypass' }, 'legends.bypass');
    const u = declared([]);
    u.endTurnsUntil('b1');
    u.refuse({ type: 'act', combatantId: 'b1', action: 'bypass' }, 'legends.bypass');
  });

  it('"If a character voluntarily leaves group defense ... they still cannot perform melee attacks until the next round."', () => {
    const t = declared();
    t.endTurnsUntil('a3');
    t.do({ type: 'act', combatantId: 'a3', action: 'leave-group-defense' });
    expect(t.state.rs.defense.party!.protected).toEqual([]);
    t.refuse(
      { type: 'act', combatantId: 'a3', action: 'melee-attack', targetId: 'b1', weaponId: 'club-a3' },
      'legends.group-defense.no-melee',
    );
    t.skipTo('group-defense', 2);
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: [] });
    t.endTurnsUntil('a3');
    t.do({ type: 'act', combatantId: 'a3', action: 'melee-attack', targetId: 'b1', weaponId: 'club-a3' });
  });

  it('"If characters are incapacitated ... resulting in too many characters being defended, the group must immediately choose who to prioritize"', () => {
    const t = declared();
    t.do({ type: 'effect.apply', targetId: 'a2', name: 'Down', condition: 'incapacitated' });
    expect(t.state.rs.overflow).toEqual(['party']);
    t.refuse({ type: 'act', combatantId: 'a1', action: 'speak' }, 'legends.group-defense.fallen-defenders');
    expect(t.legal('a1').find((o) => o.command === 'declareGroupDefense')!.allowed).toBe(true);
    // nobody new may be added when reprioritizing
    t.refuse({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a2'] }, 'legends.group-defense.fallen-defenders');
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: [] });
    expect(t.state.rs.overflow).toEqual([]);
    // a3 became invalid for defense during the action phase: no melee until next round
    expect(t.c('a3').data.noMeleeUntilRound).toBe(2);
    t.do({ type: 'act', combatantId: 'a1', action: 'speak' });
  });

  it('a defended dropped item cannot be picked up by an enemy who has not bypassed', () => {
    const t = started(specs, { setup: engaged });
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: [] });
    t.do({ type: 'act', combatantId: 'a1', action: 'drop', itemId: 'club-a1' });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.skipTo('group-defense', 2);
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: [], objects: [{ id: 'club-a1' }] });
    t.endTurnsUntil('b2');
    t.refuse({ type: 'act', combatantId: 'b2', action: 'inventory', ops: [{ op: 'pickup', itemId: 'club-a1' }] }, 'legends.group-defense');
  });
});

describe('legends: group defense breaking down; bypass ends touching', () => {
  it('"Any lengthy disagreement amongst the group regarding any part of group defense results in group defense breaking down entirely"', () => {
    const t = declared();
    t.do({ type: 'breakGroupDefense', group: 'party' });
    expect(t.state.rs.defense.party).toBeUndefined();
    t.endTurnsUntil('b1');
    t.do({ type: 'act', combatantId: 'b1', action: 'melee-attack', targetId: 'a3', weaponId: 'club-b1' });
  });

  it('"Characters who make a movement roll, bypass ground defense, or are separated from each other by another action are no longer considered touching"', () => {
    const t = started([...specs, { id: 'b3', side: 'f' }], {
      setup: (t) => {
        engaged(t);
        t.do({ type: 'formGroup', combatantIds: ['b1', 'b3'] });
        t.do({ type: 'formEngagement', combatantIds: ['b3'], engagementId: 'melee' });
      },
    });
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3'] });
    t.do({ type: 'declareGroupDefense', combatantId: 'b1', protected: [] });
    t.endTurnsUntil('b1');
    t.do({ type: 'act', combatantId: 'b1', action: 'drop' });
    t.do({ type: 'act', combatantId: 'b1', action: 'touch', targetId: 'b3', until: 'maintained' });
    expect(t.state.rs.touches).toHaveLength(1);
    t.force(24);
    t.do({ type: 'act', combatantId: 'b1', action: 'bypass' });
    expect(t.state.rs.touches).toHaveLength(0);
  });
});

describe('legends: guarding an area', () => {
  const specs5: Spec[] = [
    { id: 'a1', side: 'h' },
    { id: 'a2', side: 'h' },
    { id: 'a3', side: 'h' },
    { id: 'b1', side: 'f', SPD: 9 },
    { id: 'b2', side: 'f' },
  ];
  const setup5 = (t: Table) => {
    t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3'], groupId: 'party' });
    t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'a3', 'b1', 'b2'], engagementId: 'melee' });
  };

  it('"group defense may be used to represent a group ... preventing access to an area" — "bypassing group defense allows you to ... move into the blocked area during the next round\'s movement phase"', () => {
    const t = started(specs5, { setup: setup5 });
    // the party holds the stairs (an area counts as a whole character unless the GM gives quarters)
    t.do({
      type: 'declareGroupDefense',
      combatantId: 'a1',
      protected: [],
      objects: [{ id: 'stairs', name: 'The stairs', area: 'stairs' }],
    });
    t.endTurnsUntil('b1');
    t.forceFaces('2d12', [1, 1]);
    t.do({ type: 'act', combatantId: 'b1', action: 'bypass' });
    t.skipTo('movement', 2);
    // last round's declaration holds through this movement phase
    expect(t.state.rs.defense.party!.objects[0]).toMatchObject({ area: 'stairs', quarters: 4 });
    for (const id of ['a1', 'a2', 'a3']) t.do({ type: 'stay', combatantId: id });
    t.force(1);
    t.do({ type: 'move', combatantId: 'b1', destination: { zone: 'main', area: 'stairs' } });
    t.do({ type: 'finishMove', combatantId: 'b1' });
    // b2 did not bypass: the stairs are closed to it
    t.refuse({ type: 'move', combatantId: 'b2', destination: { zone: 'main', area: 'stairs' } }, 'legends.group-defense.area');
    t.do({ type: 'stay', combatantId: 'b2' });
    // new declarations at the end of the movement phase replace the old ones
    expect(t.clock.phase).toBe('group-defense');
    expect(t.state.rs.defense).toEqual({});
  });
});

describe('legends: bypass with outnumbering dice and breakout tactics', () => {
  it('"outnumbering dice apply to this roll" (2d12 with 2 Hindrance keeps the worst two) and breakout in the action phase lasts "until the beginning of your next turn"', () => {
    const t = started(
      [
        { id: 'a1', side: 'h' },
        { id: 'a2', side: 'h' },
        { id: 'a3', side: 'h' },
        { id: 'a4', side: 'h', DEX: 2 },
        { id: 'b1', side: 'f', DEX: 5 },
      ],
      {
        setup: (t) => {
          t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3', 'a4'], groupId: 'party' });
          t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'a3', 'a4', 'b1'], engagementId: 'melee' });
        },
      },
    );
    t.do({ type: 'declareGroupDefense', combatantId: 'a1', protected: ['a3'] });
    t.endTurnsUntil('b1');
    // 4 against 1: 4 Hindrance
    const plain = t.try({ type: 'act', combatantId: 'b1', action: 'bypass' });
    expect(plain.ok && plain.events.find((e) => e.type === 'dice.rolled')!.formula).toBe('6d12kh2');
    // breakout: ignore the one enemy with lower DEX (3 against 1: 2 Hindrance) and remove 1 Hindrance → 1 Hindrance, 2 degrees
    const ev = t.do({ type: 'act', combatantId: 'b1', action: 'bypass', breakout: { ignoreLowerDex: true, removeHindrance: true } });
    expect(ev.find((e) => e.type === 'dice.rolled')!.formula).toBe('3d12kh2');
    const dis = t.effectsOn('b1').filter((e) => e.condition === 'melee-disadvantage');
    const breakout = dis.find((e) => (e.data as { degrees: number }).degrees === 2)!;
    expect(breakout.expires).toMatchObject({ at: 'turn-start', anchor: 'b1', round: 2 });
  });
});
