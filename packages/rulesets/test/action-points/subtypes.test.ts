import { describe, expect, it } from 'vitest';
import { act, encounter, end, err, find, legal, ok, types, until, type St } from './helpers.js';

const dagger = { id: 'dg', name: 'Dagger', category: 'light', damage: '1d4' };
const bow = { id: 'bow', name: 'Shortbow', kind: 'bow', category: 'ranged', damage: '1d6' };

function melee(extra: Record<string, unknown> = {}, orcStats: Record<string, unknown> = {}) {
  return encounter([
    { id: 'pc', side: 'heroes', stats: { dexterity: 14, hp: 40, weapons: [dagger, bow], ...extra }, at: { x: 0, y: 0 } },
    {
      id: 'orc',
      side: 'orcs',
      stats: { dexterity: 10, hp: 40, weapons: [{ id: 'axe', name: 'Axe', category: 'light', damage: '1d6' }], ...orcStats },
      at: { x: 1, y: 0 },
    },
    { id: 'orc2', side: 'orcs', stats: { dexterity: 8, hp: 40 }, at: { x: 1, y: 1 } },
  ]);
}
const aoo = (s: St, id: string) => ok(s, { type: 'attackOfOpportunity', combatantId: id });
const pass = (s: St, id: string) => ok(s, { type: 'reaction.pass', combatantId: id });

describe('attack subtype', () => {
  it('"Each subsequent attack action taken during the round imposes a cumulative -5 penalty on the attack roll"', () => {
    let s = melee();
    const penalties: number[] = [];
    const formulas: string[] = [];
    for (const phase of ['fast', 'average', 'slow']) {
      s = until(s, 'pc', phase);
      const r = act(s, 'pc', 'attack', { targetId: 'orc', weaponId: 'dg' });
      penalties.push(find(r.events, 'action-points.attack-resolved')!.penalty as number);
      formulas.push(find(r.events, 'dice.rolled')!.formula as string);
      s = r.state;
    }
    expect(penalties).toEqual([0, -5, -10]);
    expect(formulas).toEqual(['1d20', '1d20-5', '1d20-10']);
    // a new round starts over
    s = until(s, 'pc', 'fast');
    expect(find(act(s, 'pc', 'attack', { targetId: 'orc' }).events, 'action-points.attack-resolved')!.penalty).toBe(0);
  });

  it('the penalty counts every attack-subtype action (a maneuver after an attack takes -5); option attackPenaltyStep', () => {
    let s = melee({ feats: ['improved-trip'] });
    s = until(s, 'pc', 'fast');
    s = act(s, 'pc', 'attack', { targetId: 'orc' }).state;
    s = until(s, 'pc', 'average');
    expect(find(act(s, 'pc', 'trip', { targetId: 'orc' }).events, 'action-points.maneuver-resolved')!.penalty).toBe(-5);
    let t = encounter(
      [
        { id: 'pc', side: 'a', stats: { weapons: [dagger] }, at: { x: 0, y: 0 } },
        { id: 'x', side: 'b', stats: { hp: 99 }, at: { x: 1, y: 0 } },
      ],
      { attackPenaltyStep: 2 },
    );
    t = until(t, 'pc', 'fast');
    t = act(t, 'pc', 'attack', { targetId: 'x' }).state;
    t = until(t, 'pc', 'average');
    expect(find(act(t, 'pc', 'attack', { targetId: 'x' }).events, 'action-points.attack-resolved')!.penalty).toBe(-2);
  });

  it('a melee attack with a weapon does not provoke', () => {
    let s = until(melee(), 'pc', 'fast');
    const r = act(s, 'pc', 'attack', { targetId: 'orc', weaponId: 'dg' });
    expect(r.state.reaction).toBeNull();
    s = r.state;
    expect(legal(s, 'pc').find((o) => o.action === 'attack')!.provokes).toBeNull();
  });

  it('"provoke attacks of opportunity only if the attack is a ranged attack": from every threatening foe, "made before the provoking attack roll"', () => {
    let s = until(melee(), 'pc', 'thrown');
    const r = act(s, 'pc', 'attack', { targetId: 'orc', weaponId: 'bow' });
    expect(r.state.reaction).toMatchObject({ kind: 'action-points.attack-of-opportunity', eligible: ['orc', 'orc2'] });
    expect(types(r.events)).not.toContain('action-points.attack-resolved');
    s = aoo(r.state, 'orc').state;
    const last = pass(s, 'orc2');
    const order = last.events.filter((e) => e.type === 'action-points.attack-resolved').map((e) => e.combatantId);
    expect(order).toEqual(['pc']);
    expect(last.state.reaction).toBeNull();
  });

  it('"you don\'t have the appropriate feat ... the action provokes an attack of opportunity only from the creature you target"', () => {
    let s = until(melee(), 'pc', 'fast');
    const r = act(s, 'pc', 'trip', { targetId: 'orc' });
    expect(r.state.reaction!.eligible).toEqual(['orc']);
    const after = aoo(r.state, 'orc');
    const seq = after.events
      .filter((e) => e.type === 'action-points.attack-resolved' || e.type === 'action-points.maneuver-resolved')
      .map((e) => `${e.type}:${e.combatantId}`);
    expect(seq).toEqual(['action-points.attack-resolved:orc', 'action-points.maneuver-resolved:pc']);
    s = until(melee({ feats: ['improved-trip'] }), 'pc', 'fast');
    expect(act(s, 'pc', 'trip', { targetId: 'orc' }).state.reaction).toBeNull();
  });
});

describe('complex subtype', () => {
  it('"A complex action always provokes attacks of opportunity, which are made before the complex action is taken" and "on each phase that action points are spent"', () => {
    let s = melee({}, { extraAttacksOfOpportunity: 1 });
    s = until(s, 'pc', 'ready-missile');
    let r = act(s, 'pc', 'cast-standard-spell', { effect: { name: 'Bless', rounds: 1 } });
    expect(r.state.reaction).toMatchObject({ eligible: ['orc', 'orc2'], trigger: { combatantId: 'pc', action: 'cast-standard-spell' } });
    r = aoo(r.state, 'orc');
    r = pass(r.state, 'orc2');
    s = r.state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    r = ok(s, { type: 'continue', combatantId: 'pc' });
    // the second phase provokes again (orc has Combat Reflexes; orc2 passed and keeps its AoO)
    expect(r.state.reaction!.eligible).toEqual(['orc', 'orc2']);
    expect(types(r.events)).not.toContain('action-points.resolved');
    r = pass(r.state, 'orc');
    r = pass(r.state, 'orc2');
    expect(types(r.events)).toContain('action-points.resolved');
    expect(r.state.effects.some((e) => e.name === 'Bless')).toBe(true);
  });

  it('"that spell loses the complex subtype for that casting" when cast defensively (concentration DC 15 + double the level)', () => {
    let s = melee({ concentration: 30 });
    s = until(s, 'pc', 'ready-missile');
    const r = act(s, 'pc', 'cast-standard-spell', { defensively: true, spellLevel: 1 });
    expect(find(r.events, 'action-points.cast-defensively')).toMatchObject({ success: true, dc: 17 });
    expect(r.state.reaction).toBeNull();
    const failing = act(until(melee({ concentration: -30 }), 'pc', 'ready-missile'), 'pc', 'cast-standard-spell', {
      defensively: true,
      spellLevel: 1,
    });
    expect(find(failing.events, 'action-points.advanced-spoiled')!.reason).toContain('you lose the spell');
  });

  it('a provoker downed by the attack of opportunity loses the action', () => {
    let s = melee({ hp: 1 }, { attackBonus: 50 });
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'drink').state;
    const r = pass(aoo(s, 'orc').state, 'orc2');
    expect(r.state.combatants.pc!.data.hp).toBeLessThanOrEqual(0);
    expect(r.state.combatants.pc!.data.inProgress).toHaveLength(0);
    expect(r.state.clock.current).not.toBe('pc');
  });
});

describe('move subtype', () => {
  it('"provoke attacks of opportunity when you attempt to either leave a square in an enemy\'s threatened area"', () => {
    let s = until(melee(), 'pc', 'thrown');
    let r = act(s, 'pc', 'move', {
      path: [
        { x: -1, y: 0 },
        { x: -2, y: 0 },
      ],
    });
    expect(r.state.reaction!.eligible).toEqual(['orc', 'orc2']);
    expect(r.state.combatants.pc!.position).toEqual({ x: 0, y: 0 });
    r = pass(aoo(r.state, 'orc').state, 'orc2');
    expect(r.state.combatants.pc!.position).toEqual({ x: -2, y: 0 });
    // leaving a square only threatened later in the path provokes there, from that foe only
    s = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'o', side: 'b', at: { x: 3, y: 1 } },
    ]);
    s = until(s, 'pc', 'thrown');
    r = act(s, 'pc', 'move', {
      path: [
        { x: 1, y: 0 },
        { x: 2, y: 0 },
        { x: 3, y: 0 },
        { x: 4, y: 0 },
      ],
    });
    expect(r.state.combatants.pc!.position).toEqual({ x: 2, y: 0 });
    expect(r.state.reaction!.eligible).toEqual(['o']);
    r = pass(r.state, 'o');
    expect(r.state.combatants.pc!.position).toEqual({ x: 4, y: 0 });
    expect(r.state.reaction).toBeNull();
  });

  it('"a step ... doesn\'t provoke attacks of opportunity when you take that action to leave a square in a threatened area"', () => {
    const s = until(melee(), 'pc', 'ready-missile');
    const r = act(s, 'pc', 'step', { path: [{ x: -1, y: 0 }] });
    expect(r.state.reaction).toBeNull();
    expect(r.state.combatants.pc!.position).toEqual({ x: -1, y: 0 });
  });

  it('"stand up from a prone position in a space that has at least 1 square in a foe\'s threatened area" provokes', () => {
    let s = until(melee(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'drop-prone').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    const r = act(s, 'pc', 'stand-up');
    expect(r.state.reaction!.eligible).toEqual(['orc', 'orc2']);
    const done = pass(pass(r.state, 'orc').state, 'orc2');
    expect(done.state.effects.some((e) => e.targetId === 'pc' && e.condition === 'prone')).toBe(false);
  });
});

describe('safe actions and attacks of opportunity', () => {
  it('"Actions without one of the other subtypes ... don\'t provoke attacks of opportunity"', () => {
    const s = until(melee({ baseAttackBonus: 1 }), 'pc', 'ready-missile');
    expect(act(s, 'pc', 'light-torch').state.reaction).toBeNull();
    expect(act(s, 'pc', 'draw-sheathe').state.reaction).toBeNull();
  });

  it('"If your base attack bonus is +0, this action provokes"', () => {
    const s = until(melee(), 'pc', 'ready-missile');
    expect(act(s, 'pc', 'draw-sheathe').state.reaction).not.toBeNull();
  });

  it('one attack of opportunity a round without Combat Reflexes ("you can make additional attacks of opportunity each round with the Combat Reflexes feat")', () => {
    let s = until(melee(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'draw-sheathe').state;
    s = pass(aoo(s, 'orc').state, 'orc2').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    const r = act(s, 'pc', 'move', { path: [{ x: -1, y: 0 }] });
    expect(r.state.reaction!.eligible).toEqual(['orc2']);
    expect(err(r.state, { type: 'attackOfOpportunity', combatantId: 'orc' }).code).toBe('ILLEGAL_ACTION');
  });

  it('unaware creatures make no attacks of opportunity in the surprise round', () => {
    let s = encounter(
      [
        { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
        { id: 'orc', side: 'b', at: { x: 1, y: 0 } },
      ],
      {},
      1,
      { orc: false },
    );
    s = until(s, 'pc', 'ready-missile');
    expect(act(s, 'pc', 'drink').state.reaction).toBeNull();
  });

  it('legalActions says whether an action provokes and from whom', () => {
    const s = until(melee(), 'pc', 'ready-missile');
    const opts = legal(s, 'pc');
    expect(opts.find((o) => o.action === 'drink')!.provokes).toMatchObject({ from: ['orc', 'orc2'] });
    expect(opts.find((o) => o.action === 'step')!.provokes).toBeNull();
    expect(opts.find((o) => o.action === 'move')!.provokes!.reason).toContain('leave a threatened square');
  });
});
