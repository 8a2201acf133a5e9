import { describe, expect, it } from 'vitest';
import { outnumbering, rangeBetween } from '../../src/legends/index.js';
import { started, type Spec, type Table } from './helpers.js';

const base: Spec[] = [
  { id: 'a1', side: 'heroes', SPD: 6 },
  { id: 'a2', side: 'heroes', SPD: 6 },
  { id: 'b1', side: 'foes', SPD: 6 },
  { id: 'b2', side: 'foes', SPD: 6 },
];

function inMovement(specs: Spec[] = base, setup?: (t: Table) => void, options: Record<string, unknown> = {}) {
  const t = started(specs, { setup, options });
  t.skipTo('movement', 2);
  return t;
}

describe('legends: movement rolls', () => {
  it('"To make a movement roll on SPD, use a single d12 ... If successful, you may move any distance considered short range."', () => {
    const t = inMovement();
    t.force(4);
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    const roll = ev.find((e) => e.type === 'dice.rolled')!;
    expect(roll.formula).toBe('1d12');
    expect(roll.purpose).toMatch(/movement roll on SPD/);
    expect(t.c('a1').data.moveRollRound).toBe(2);
    t.do({ type: 'finishMove', combatantId: 'a1' });
    expect(t.pos('a1').engagement).toBeTruthy();
    expect(t.pos('a1').engagement).toBe(t.pos('b1').engagement);
    expect(t.clock.current).toBe('a2');
  });

  it('a failed movement roll leaves the character where it was', () => {
    const t = inMovement();
    t.force(11);
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    expect(t.pos('a1')).toEqual({ zone: 'main', area: null, group: null, engagement: null });
  });

  it('"unless the die size has been changed by a zone trait" / "you must roll the larger die"', () => {
    const t = inMovement(base, (t) => {
      t.do({ type: 'defineZone', zone: { id: 'bog', traits: { movementDie: 20 }, neighbors: ['main'] } });
    });
    t.force(1);
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'bog' } });
    expect(ev.find((e) => e.type === 'dice.rolled')!.formula).toBe('1d20');
  });

  it('"You do not need to roll dice ... for minor movements"', () => {
    const t = inMovement(base, (t) => t.do({ type: 'formGroup', combatantIds: ['a1', 'a2'] }));
    t.refuse({ type: 'move', combatantId: 'a1', destination: { join: 'a2', mode: 'group' } }, 'legends.movement');
  });

  it('"Two movements of short range roughly equate to one movement of medium range" — a short move toward a medium-range target closes half the way', () => {
    const t = inMovement(base, (t) => {
      t.do({ type: 'combatant.place', combatantId: 'b1', position: { zone: 'main', area: 'ridge' } });
    });
    expect(rangeBetween(t.state, t.c('a1'), t.c('b1'))).toBe('medium');
    t.force(3);
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    // "you must still move short range towards them"
    expect(t.pos('a1').engagement).toBeNull();
    expect(t.pos('a1').area).toBe('>ridge');
    expect(rangeBetween(t.state, t.c('a1'), t.c('b1'))).toBe('short');
  });
});

describe('legends: rushing', () => {
  it('"You receive 6 fatigue, revert to Low Stealth, and apply a reactive +TN equal to your SPD" — medium range on a margin of 10+', () => {
    const t = inMovement(base, (t) => t.do({ type: 'combatant.place', combatantId: 'b1', position: { zone: 'main', area: 'ridge' } }));
    t.force(2); // margin 6-2 = 4; rushing: 4 + 6 = 10
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    const ev = t.do({ type: 'finishMove', combatantId: 'a1', rush: 'self' });
    expect(ev.find((e) => e.type === 'legends.rushed')).toMatchObject({ fatigue: 6, plusTn: 6 });
    expect(t.c('a1').data.fatigue).toBe(6);
    expect(t.c('a1').data.stealth).toBe('low');
    expect(t.pos('a1').engagement).toBe(t.pos('b1').engagement);
  });

  it('"if your movement roll succeeded by 10 or more (after applying the reactive +TN)": a margin of 9 stays short', () => {
    const t = inMovement(base, (t) => t.do({ type: 'combatant.place', combatantId: 'b1', position: { zone: 'main', area: 'ridge' } }));
    t.force(3); // 3 + 6 = 9
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    t.do({ type: 'finishMove', combatantId: 'a1', rush: 'self' });
    expect(t.pos('a1').engagement).toBeNull();
    expect(t.pos('a1').area).toBe('>ridge');
  });

  it('rushing turns a failed roll into a success ("apply a reactive +TN ... to the movement roll")', () => {
    const t = inMovement();
    t.force(9); // 6-9 = -3 → +6 = 3
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    t.do({ type: 'finishMove', combatantId: 'a1', rush: 'self' });
    expect(t.pos('a1').engagement).toBeTruthy();
  });

  it('"decreased by Sprinting Focus (Athletics), and increased by 1 degree of encumbrance"', () => {
    const t = inMovement([
      { id: 'a1', side: 'h', stats: { sprintingFocus: 1 } },
      { id: 'a2', side: 'h', stats: { encumbrance: 1 } },
      { id: 'b1', side: 'f' },
    ]);
    t.force(1);
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1' } });
    t.do({ type: 'finishMove', combatantId: 'a1', rush: 'self' });
    expect(t.c('a1').data.fatigue).toBe(3);
    t.force(1);
    t.do({ type: 'move', combatantId: 'a2', destination: { join: 'b1' } });
    t.do({ type: 'finishMove', combatantId: 'a2', rush: 'self' });
    expect(t.c('a2').data.fatigue).toBe(9);
  });

  it('"You cannot rush if you have 2 degrees of encumbrance or any degree of Mobility Injury."', () => {
    const t = inMovement([
      { id: 'a1', side: 'h', stats: { encumbrance: 2 } },
      { id: 'a2', side: 'h', stats: { mobilityInjury: 1, externalSPD: 4 } },
      { id: 'b1', side: 'f' },
    ]);
    t.force(1);
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1' } });
    t.refuse({ type: 'finishMove', combatantId: 'a1', rush: 'self' }, 'legends.rushing');
    t.do({ type: 'finishMove', combatantId: 'a1' });
    t.force(1);
    t.do({ type: 'move', combatantId: 'a2', destination: { join: 'b1' } });
    // "This still counts fully as rushing for the purpose of all other rules"
    t.refuse({ type: 'finishMove', combatantId: 'a2', rush: 'external' }, 'legends.rushing');
  });

  it('"you can attempt to rush using only the external source, without taking fatigue; ... count only the SPD gained from the external source"', () => {
    const t = inMovement([
      { id: 'a1', side: 'h', SPD: 6, stats: { externalSPD: 3 } },
      { id: 'b1', side: 'f' },
    ]);
    t.force(8); // -2 + 3 = 1: success, no fatigue
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1' } });
    const ev = t.do({ type: 'finishMove', combatantId: 'a1', rush: 'external' });
    expect(ev.find((e) => e.type === 'legends.rushed')).toMatchObject({ fatigue: 0, plusTn: 3 });
    expect(t.c('a1').data.stealth).toBe('low');
    expect(t.pos('a1').engagement).toBeTruthy();
  });
});

describe('legends: escaping engagements and outnumbering dice', () => {
  const engaged = (t: Table) => t.do({ type: 'formEngagement', combatantIds: ['a1', 'b1'] });

  it('"you must add 2 Hindrance to any movement roll that requires you to leave an engagement" (Hindrance = extra dice, worst kept)', () => {
    const t = inMovement(base, engaged);
    t.force(2);
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' } });
    expect(ev.find((e) => e.type === 'dice.rolled')!.formula).toBe('3d12kh1');
    expect(ev.find((e) => e.type === 'legends.moveRolled')).toMatchObject({ hindrance: 2, easing: 0 });
  });

  it('"-2 Hindrance if the enemy side outnumbers you by at least 2 to 1" adds to the escape Hindrance', () => {
    const t = inMovement(base, (t) => t.do({ type: 'formEngagement', combatantIds: ['a1', 'b1', 'b2'] }));
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' } });
    expect(ev.find((e) => e.type === 'legends.moveRolled')).toMatchObject({ hindrance: 4, easing: 0 });
  });

  it('"2 Easing if your side outnumbers the enemy side by 2 to 1" — Hindrance and Easing cancel', () => {
    const t = inMovement(base, (t) => t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'b1'] }));
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' } });
    expect(ev.find((e) => e.type === 'legends.moveRolled')).toMatchObject({ hindrance: 2, easing: 2 });
    expect(ev.find((e) => e.type === 'dice.rolled')!.formula).toBe('1d12');
  });

  it('outnumbering dice: 2:1 → 2 Easing, 2:1–4:1 against → 2 Hindrance, 4:1+ → 4 Hindrance; vehicles and riders do not count, mounts do', () => {
    const specs: Spec[] = [
      { id: 'h', side: 'h', DEX: 5, STR: 5 },
      { id: 'f1', side: 'f', DEX: 3, STR: 9 },
      { id: 'f2', side: 'f', DEX: 9, STR: 3 },
      { id: 'f3', side: 'f', DEX: 9, STR: 9 },
      { id: 'f4', side: 'f', DEX: 9, STR: 9 },
      { id: 'cart', side: 'f', stats: { vehicle: true } },
      { id: 'rider', side: 'f', stats: { mountId: 'steed' } },
      { id: 'steed', side: 'f', stats: { kind: 'animal' } },
    ];
    const t = started(specs, { setup: (t) => t.do({ type: 'formEngagement', combatantIds: ['h', 'f1', 'f2', 'cart', 'rider'] }) });
    // h vs f1, f2 (cart and rider ignored): 2:1 against
    expect(outnumbering(t.state, t.c('h'))).toMatchObject({ hindrance: 2, easing: 0, mine: 1, theirs: 2 });
    // breakout: "Ignore all enemy characters whose DEX is lower than yours" → 1:1
    expect(outnumbering(t.state, t.c('h'), { ignoreLowerDex: true })).toMatchObject({ hindrance: 0, theirs: 1 });
    // "Remove 1 Hindrance" acts on the roll, not on the dice themselves (departures.test.ts)
    expect(outnumbering(t.state, t.c('h'), { removeHindrance: true })).toMatchObject({ hindrance: 2 });
    t.do({ type: 'formEngagement', combatantIds: ['f3', 'f4', 'steed'], engagementId: t.pos('h').engagement });
    // 5 counted enemies (f1-f4 + steed): 4:1 or more
    expect(outnumbering(t.state, t.c('h'))).toMatchObject({ hindrance: 4, theirs: 5 });
    // the enemies' view: 5 against 1 → 2 Easing
    expect(outnumbering(t.state, t.c('f1'))).toMatchObject({ easing: 2, hindrance: 0 });
    // "or if the enemy doesn't wish to interfere"
    expect(outnumbering(t.state, t.c('h'), undefined, true)).toMatchObject({ easing: 2, hindrance: 0 });
  });

  it('"you receive one degree of melee disadvantage for each of the above options ... during the movement phase, the disadvantage continues until the end of the round"', () => {
    const t = inMovement(base, (t) => t.do({ type: 'formEngagement', combatantIds: ['a1', 'b1', 'b2'] }));
    t.force(1);
    t.do({
      type: 'move',
      combatantId: 'a1',
      destination: { zone: 'main', area: 'gate' },
      breakout: { removeHindrance: true, ignoreLowerStr: true },
    });
    const dis = t.effectsOn('a1').filter((e) => e.condition === 'melee-disadvantage');
    expect(dis).toHaveLength(1);
    expect(dis[0]!.data).toEqual({ degrees: 2 });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    t.skipTo('action', 2);
    expect(t.effectsOn('a1').some((e) => e.condition === 'melee-disadvantage')).toBe(true);
    t.skipTo('movement', 3);
    expect(t.effectsOn('a1').some((e) => e.condition === 'melee-disadvantage')).toBe(false);
  });

  it('breakout tactics only where outnumbering dice apply', () => {
    const t = inMovement();
    t.refuse({ type: 'move', combatantId: 'a1', destination: { join: 'b1' }, breakout: { removeHindrance: true } }, 'legends.breakout');
  });

  it('"Successfully escaping an engagement means you are no longer grouped-up with any allies who remain in the engagement"', () => {
    const t = inMovement(base, (t) => {
      t.do({ type: 'formGroup', combatantIds: ['a1', 'a2'] });
      t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'b1', 'b2'] });
    });
    t.force(1);
    t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    // the gate is medium range away: one short step toward it, out of the engagement
    expect(t.pos('a1')).toEqual({ zone: 'main', area: '>gate', group: null, engagement: null });
    expect(t.pos('a2').group).toBeNull(); // a group of one is no group
    expect(t.pos('a2').engagement).toBeTruthy();
  });
});

describe('legends: reactive movement', () => {
  it('"The other character must be below you in turn order" / "you cannot react to reactive movement"', () => {
    const t = inMovement();
    t.do({ type: 'stay', combatantId: 'a1' });
    t.refuse({ type: 'prepareReaction', combatantId: 'a2', watch: 'a1', anticipate: 'x' }, 'legends.reactive-movement');
    t.do({ type: 'prepareReaction', combatantId: 'a2', watch: 'b2', anticipate: 'chase b2 if it runs' });
    expect(t.clock.current).toBe('b1');
  });

  it("the later character's movement opens a reaction window; the reaction is a movement roll and opens no window of its own", () => {
    const t = inMovement();
    t.do({ type: 'prepareReaction', combatantId: 'a1', watch: 'b1', anticipate: 'follow b1' });
    t.do({ type: 'stay', combatantId: 'a2' });
    t.force(1);
    t.do({ type: 'move', combatantId: 'b1', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'b1' });
    expect(t.state.reaction?.kind).toBe('legends.reactive-movement');
    expect(t.state.reaction?.eligible).toEqual(['a1']);
    // only the reaction (or a pass) is legal now
    t.refuse({ type: 'stay', combatantId: 'b2' }, 'engine.reactions', 'REACTION_PENDING');
    t.force(2);
    t.do({ type: 'react', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    expect(t.state.reaction).toBeNull();
    expect(t.clock.current).toBe('a1');
    t.do({ type: 'finishMove', combatantId: 'a1' });
    expect(t.state.reaction).toBeNull();
    expect(t.pos('a1').engagement).toBe(t.pos('b1').engagement);
    expect(t.clock.current).toBe('b2');
  });

  it('"You may always decline to use a reaction you\'ve prepared"', () => {
    const t = inMovement();
    t.do({ type: 'prepareReaction', combatantId: 'a1', watch: 'b1', anticipate: 'follow b1' });
    t.do({ type: 'stay', combatantId: 'a2' });
    t.force(1);
    t.do({ type: 'move', combatantId: 'b1', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'b1' });
    t.do({ type: 'reaction.pass', combatantId: 'a1' });
    expect(t.state.reaction).toBeNull();
    expect(t.state.rs.reactions).toEqual([]);
    expect(t.clock.current).toBe('b2');
    expect(t.pos('a1')).toBeNull(); // never moved
  });

  it('"you may prepare a rush as reactive movement even though you have already moved ... You do not suffer the effects and cost of a rush until you actually use it"', () => {
    const t = inMovement(base, (t) => t.do({ type: 'combatant.place', combatantId: 'b1', position: { zone: 'main', area: null } }));
    t.force(1); // margin 5; +6 would be 11 ≥ 10
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    t.do({ type: 'finishMove', combatantId: 'a1', prepareRush: { watch: 'b1', anticipate: 'chase b1 if it escapes' } });
    expect(t.c('a1').data.fatigue).toBe(0);
    t.do({ type: 'stay', combatantId: 'a2' });
    t.force(1);
    t.do({ type: 'move', combatantId: 'b1', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'b1' });
    expect(t.state.reaction?.eligible).toEqual(['a1']);
    t.do({ type: 'react', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    expect(t.c('a1').data.fatigue).toBe(6);
    // b1 ended a short step toward the gate; the prepared rush closes that short range
    expect(t.pos('b1').area).toBe('>gate');
    expect(t.pos('a1').area).toBe('>gate');
    expect(t.pos('a1').engagement).toBe(t.pos('b1').engagement);
  });

  it('"If your roll result ... is such that you would be able to rush for increased distance": otherwise no prepared rush', () => {
    const t = inMovement();
    t.force(5); // margin 1: 1 + 6 < 10
    t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    t.refuse({ type: 'finishMove', combatantId: 'a1', prepareRush: { watch: 'b1', anticipate: 'x' } }, 'legends.reactive-movement');
  });
});

describe('legends: grouped-up movement', () => {
  const grouped: Spec[] = [
    { id: 'a1', side: 'h' },
    { id: 'a2', side: 'h' },
    { id: 'a3', side: 'h' },
    { id: 'b1', side: 'f' },
  ];
  const setup = (t: Table) => t.do({ type: 'formGroup', combatantIds: ['a1', 'a2', 'a3'] });

  it('"all characters\' movement rolls are delayed to happen simultaneously with that of the last character" and slower members hold the group', () => {
    const t = inMovement(grouped, setup);
    t.do({ type: 'groupMove', combatantId: 'a1', destination: { zone: 'main', area: 'hill' } });
    t.do({ type: 'groupMove', combatantId: 'a2', destination: { zone: 'main', area: 'hill' } });
    expect(t.state.rs.pending).toHaveLength(0);
    t.force(1, 12, 2);
    const ev = t.do({ type: 'groupMove', combatantId: 'a3', destination: { zone: 'main', area: 'hill' } });
    expect(ev.filter((e) => e.type === 'dice.rolled')).toHaveLength(3);
    expect(t.state.rs.pending.map((p) => p.success)).toEqual([true, false, true]);
    t.do({ type: 'finishMove', combatantId: 'a1' });
    t.do({ type: 'finishMove', combatantId: 'a2' });
    t.do({ type: 'finishMove', combatantId: 'a3' });
    // "the more successful characters may decide to slow down and remain grouped-up"
    for (const id of ['a1', 'a2', 'a3']) expect(t.pos(id).area).toBeNull();
    expect(t.pos('a1').group).toBe(t.pos('a2').group);
    // "No character in the group may do slowing actions that round even if the move was ultimately unsuccessful"
    for (const id of ['a1', 'a2', 'a3']) expect(t.c(id).data.moveRollRound).toBe(2);
  });

  it('members who do not keep together move on their own; the group goes with the fastest', () => {
    const t = inMovement(grouped, setup);
    t.do({ type: 'groupMove', combatantId: 'a1', destination: { zone: 'main', area: 'hill' } });
    t.do({ type: 'groupMove', combatantId: 'a2', destination: { zone: 'main', area: 'hill' } });
    t.force(1, 12, 2);
    t.do({ type: 'groupMove', combatantId: 'a3', destination: { zone: 'main', area: 'hill' } });
    t.do({ type: 'finishMove', combatantId: 'a1', keepTogether: false });
    t.do({ type: 'finishMove', combatantId: 'a2', keepTogether: false });
    t.do({ type: 'finishMove', combatantId: 'a3', keepTogether: false });
    expect(t.pos('a1').area).toBe('>hill');
    expect(t.pos('a3').area).toBe('>hill');
    expect(t.pos('a2').area).toBeNull();
    expect(t.pos('a2').group).toBeNull();
    expect(t.pos('a1').group).toBe(t.pos('a3').group);
  });

  it('"If there is any lengthy disagreement about the group\'s movement choices, the entire group fails to move."', () => {
    const t = inMovement(grouped, setup);
    t.do({ type: 'groupMove', combatantId: 'a1', destination: { zone: 'main', area: 'hill' } });
    t.refuse({ type: 'move', combatantId: 'a2', destination: { zone: 'main', area: 'gate' } }, 'legends.grouped-movement');
    const ev = t.do({ type: 'groupMove', combatantId: 'a2', destination: { zone: 'main', area: 'gate' } });
    expect(ev.some((e) => e.type === 'legends.groupMoveFailed')).toBe(true);
    expect(t.clock.current).toBe('b1');
    expect(t.pos('a1').area).toBeNull();
  });

  it('"Groups may prepare reactive movement in relation to characters later than their last character in turn order"', () => {
    const t = inMovement(
      [
        { id: 'a1', side: 'h' },
        { id: 'b1', side: 'f' },
        { id: 'a2', side: 'h' },
        { id: 'b2', side: 'f' },
      ],
      (t) => t.do({ type: 'formGroup', combatantIds: ['a1', 'a2'] }),
    );
    t.refuse({ type: 'prepareReaction', combatantId: 'a1', watch: 'b1', anticipate: 'x', asGroup: true }, 'legends.reactive-movement');
    t.do({ type: 'prepareReaction', combatantId: 'a1', watch: 'b2', anticipate: 'x', asGroup: true });
    expect(t.state.rs.reactions[0]!.by).toEqual(['a1', 'a2']);
    expect(t.state.rs.queue).toEqual(['b1', 'b2']);
  });
});

describe('legends: zones, groups, engagements, ranges', () => {
  it('"A group can be as small as 2 characters, but cannot usually be larger than 10"', () => {
    const specs: Spec[] = Array.from({ length: 11 }, (_, i) => ({ id: `h${i}`, side: 'h' }));
    specs.push({ id: 'f', side: 'f' });
    const t = started(specs);
    t.refuse({ type: 'formGroup', combatantIds: ['h0'] }, 'legends.grouping');
    t.refuse({ type: 'formGroup', combatantIds: specs.slice(0, 11).map((s) => s.id) }, 'legends.grouping');
    t.do({ type: 'formGroup', combatantIds: specs.slice(0, 10).map((s) => s.id), groupId: 'g' });
    t.refuse({ type: 'combatant.place', combatantId: 'h10', position: { zone: 'main', group: 'g' } }, 'legends.grouping');
    t.refuse({ type: 'formGroup', combatantIds: ['h0', 'f'] }, 'legends.grouping');
  });

  it('"Very large engagements of more than 20 characters should be split up"', () => {
    const specs: Spec[] = Array.from({ length: 21 }, (_, i) => ({ id: `c${String(i).padStart(2, '0')}`, side: i % 2 ? 'h' : 'f' }));
    const t = started(specs);
    t.refuse({ type: 'formEngagement', combatantIds: specs.map((s) => s.id) }, 'legends.engagement');
    t.do({ type: 'formEngagement', combatantIds: specs.slice(0, 20).map((s) => s.id) });
  });

  it('"There are three ranges": short within a group or engagement, medium within a zone, long between zones', () => {
    const t = started(base, {
      setup: (t) => {
        t.do({
          type: 'defineZone',
          zone: {
            id: 'keep',
            features: [{ id: 'tower', name: 'Watchtower', description: 'tall' }],
            traits: { groupDefenseRatio: 1, notes: ['confining'] },
          },
        });
        t.do({ type: 'combatant.place', combatantId: 'a2', position: { zone: 'main', area: 'gate' } });
        t.do({ type: 'combatant.place', combatantId: 'b2', position: { zone: 'keep' } });
      },
    });
    expect(t.state.rs.zones.keep!.features[0]!.name).toBe('Watchtower');
    expect(rangeBetween(t.state, t.c('a1'), t.c('b1'))).toBe('short');
    expect(rangeBetween(t.state, t.c('a1'), t.c('a2'))).toBe('medium');
    expect(rangeBetween(t.state, t.c('a1'), t.c('b2'))).toBe('long');
  });

  it('neighbours are mutual; a non-neighbouring zone is out of reach in one movement', () => {
    const t = inMovement(base, (t) => {
      t.do({ type: 'defineZone', zone: { id: 'yard', neighbors: ['main'] } });
      t.do({ type: 'defineZone', zone: { id: 'far' } });
    });
    expect(t.state.rs.zones.main!.neighbors).toEqual(['yard']);
    t.refuse({ type: 'move', combatantId: 'a1', destination: { zone: 'far' } }, 'legends.movement.range');
    t.force(1);
    t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'yard' } });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    // a medium-range crossing: one short step takes you to the border
    expect(t.pos('a1')).toMatchObject({ zone: 'main', area: '>zone:yard' });
  });
});

describe('legends: carrying characters', () => {
  it('"they obviously move along with the carrying character ... You may not ... make any SPD rolls while being carried"', () => {
    const t = started([
      { id: 'a1', side: 'h', STR: 9 },
      { id: 'a2', side: 'h' },
      { id: 'b1', side: 'f' },
    ]);
    // "To begin carrying someone, a character must follow the rules for inventory actions - specifically, picking up one item from the ground."
    t.do({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', carryId: 'a2' }] });
    expect(t.c('a2').data.carriedBy).toBe('a1');
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.refuse({ type: 'act', combatantId: 'a2', action: 'inventory', as: 'major', ops: [{ op: 'stow', itemId: 'x' }] }, 'legends.carrying');
    t.skipTo('movement', 2);
    expect(t.state.rs.movers).not.toContain('a2');
    t.force(1);
    t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    expect(t.pos('a2').area).toBe('>gate');
    expect(t.pos('a2')).toEqual(t.pos('a1'));
  });

  it('"You suffer a knockdown if the character carrying you drops you involuntarily" / "you may also stop being carried as a free action on your own turn"', () => {
    const t = started([
      { id: 'a1', side: 'h' },
      { id: 'a2', side: 'h' },
      { id: 'a3', side: 'h' },
      { id: 'b1', side: 'f' },
    ]);
    t.do({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', carryId: 'a2' }] });
    t.do({ type: 'turn.end', combatantId: 'a1' });
    t.do({ type: 'act', combatantId: 'a2', action: 'stop-being-carried' });
    expect(t.c('a2').data.carriedBy).toBeNull();
    expect(t.effectsOn('a2').some((e) => e.condition === 'knocked-down')).toBe(false);
    t.do({ type: 'turn.end', combatantId: 'a2' });
    t.do({ type: 'act', combatantId: 'a3', action: 'inventory', ops: [{ op: 'pickup', carryId: 'a2' }] });
    t.do({ type: 'effect.apply', targetId: 'a3', name: 'Down', condition: 'incapacitated' });
    expect(t.c('a2').data.carriedBy).toBeNull();
    expect(t.effectsOn('a2').some((e) => e.condition === 'knocked-down')).toBe(true);
  });
});

describe('legends: more movement rules', () => {
  it('"Engagements are created instantly during the movement phase; ... you must add the Hindrance even if the enemy only closed to engagement range in the current round"', () => {
    const t = started([
      { id: 'b1', side: 'f' },
      { id: 'a1', side: 'h' },
      { id: 'b2', side: 'f' },
    ]);
    t.skipTo('movement', 2);
    t.force(1);
    t.do({ type: 'move', combatantId: 'b1', destination: { join: 'a1', mode: 'engage' } });
    t.do({ type: 'finishMove', combatantId: 'b1' });
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { zone: 'main', area: 'gate' } });
    expect(ev.find((e) => e.type === 'legends.moveRolled')).toMatchObject({ hindrance: 2 });
  });

  it('"Grouped-up movement may be used simultaneously with escaping an engagement"', () => {
    const t = started(
      [
        { id: 'a1', side: 'h' },
        { id: 'a2', side: 'h' },
        { id: 'b1', side: 'f' },
      ],
      {
        setup: (t) => {
          t.do({ type: 'formGroup', combatantIds: ['a1', 'a2'] });
          t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'b1'] });
        },
      },
    );
    t.skipTo('movement', 2);
    t.do({ type: 'groupMove', combatantId: 'a1', destination: { zone: 'main', area: 'gate' } });
    const ev = t.do({ type: 'groupMove', combatantId: 'a2', destination: { zone: 'main', area: 'gate' } });
    // 2 against 1: 2 Easing against the escape's 2 Hindrance
    expect(ev.filter((e) => e.type === 'legends.moveRolled').map((e) => [e.hindrance, e.easing])).toEqual([
      [2, 2],
      [2, 2],
    ]);
  });

  it('"Reactive movement does not change your actual position in the turn order list"', () => {
    const t = inMovement();
    const order = [...t.clock.order];
    t.do({ type: 'prepareReaction', combatantId: 'a1', watch: 'b2', anticipate: 'follow b2' });
    t.do({ type: 'stay', combatantId: 'a2' });
    t.do({ type: 'stay', combatantId: 'b1' });
    t.force(1);
    t.do({ type: 'move', combatantId: 'b2', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'b2' });
    t.force(1);
    t.do({ type: 'react', combatantId: 'a1', destination: { join: 'b2', mode: 'near' } });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    expect(t.clock.order).toEqual(order);
  });

  it('"Rushing applies only to movement rolls; it cannot be used for other rolls on SPD."', () => {
    const t = started(base);
    t.refuse({ type: 'act', combatantId: 'a1', action: 'bypass', rush: 'self' }, 'legends.act', 'INVALID_COMMAND');
  });

  it('"You do not count for group defense nor for outnumbering dice" while carried; "The carrying character may drop you as a free inventory action"', () => {
    const t = started(
      [
        { id: 'a1', side: 'h' },
        { id: 'a2', side: 'h' },
        { id: 'b1', side: 'f' },
        { id: 'b2', side: 'f' },
      ],
      {
        setup: (t) => t.do({ type: 'formEngagement', combatantIds: ['a1', 'a2', 'b1', 'b2'] }),
        options: { firstRoundGroupDefense: false },
      },
    );
    expect(outnumbering(t.state, t.c('b1'))).toMatchObject({ mine: 2, theirs: 2 });
    t.do({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup', carryId: 'a2' }] });
    expect(outnumbering(t.state, t.c('b1'))).toMatchObject({ mine: 2, theirs: 1, easing: 2 });
    t.skipTo('action', 2);
    t.do({ type: 'act', combatantId: 'a1', action: 'drop-carried', targetId: 'a2' });
    expect(t.c('a2').data.carriedBy).toBeNull();
    expect(t.effectsOn('a2').some((e) => e.condition === 'knocked-down')).toBe(false);
  });
});

describe('legends: reacting to a group', () => {
  it('a group moving together triggers the reactive movement prepared against any of its members, once', () => {
    const t = started(
      [
        { id: 'a1', side: 'h' },
        { id: 'b1', side: 'f' },
        { id: 'b2', side: 'f' },
      ],
      {
        setup: (t) => t.do({ type: 'formGroup', combatantIds: ['b1', 'b2'] }),
        options: { firstRoundGroupDefense: false },
      },
    );
    t.skipTo('movement', 2);
    t.do({ type: 'prepareReaction', combatantId: 'a1', watch: 'b2', anticipate: 'chase them' });
    t.do({ type: 'groupMove', combatantId: 'b1', destination: { zone: 'main', area: 'gate' } });
    t.force(1, 1);
    t.do({ type: 'groupMove', combatantId: 'b2', destination: { zone: 'main', area: 'gate' } });
    t.do({ type: 'finishMove', combatantId: 'b1' });
    expect(t.state.reaction).toBeNull();
    t.do({ type: 'finishMove', combatantId: 'b2' });
    expect(t.state.reaction).toMatchObject({ kind: 'legends.reactive-movement', eligible: ['a1'] });
    t.force(1);
    t.do({ type: 'react', combatantId: 'a1', destination: { join: 'b1', mode: 'near' } });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    expect(t.pos('a1').area).toBe(t.pos('b1').area);
    expect(t.state.rs.reactions).toEqual([]);
    expect(t.clock.phase).toBe('group-defense'); // the movement phase is over
  });
});

describe('legends: the GM overrides a roll', () => {
  it('an overridden movement roll changes the margin the mover finishes with', () => {
    const t = inMovement();
    t.force(11); // a failure
    const ev = t.do({ type: 'move', combatantId: 'a1', destination: { join: 'b1', mode: 'engage' } });
    const rollId = ev.find((e) => e.type === 'dice.rolled')!.rollId as string;
    expect(t.state.rs.pending[0]!.success).toBe(false);
    t.do({ type: 'dice.override', rollId, total: 2, reason: 'the GM rules the floor was dry' });
    expect(t.state.rs.pending[0]).toMatchObject({ success: true, margin: 4 });
    t.do({ type: 'finishMove', combatantId: 'a1' });
    expect(t.pos('a1').engagement).toBeTruthy();
  });
});
