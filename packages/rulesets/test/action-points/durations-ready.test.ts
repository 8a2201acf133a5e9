import { describe, expect, it } from 'vitest';
import { act, encounter, end, err, find, legal, ok, types, until, type St } from './helpers.js';

const pair = (pcStats: Record<string, unknown> = {}, foeStats: Record<string, unknown> = {}) =>
  encounter([
    {
      id: 'pc',
      side: 'a',
      stats: { dexterity: 14, hp: 30, weapons: [{ id: 'dg', name: 'Dagger', category: 'light', damage: '1d4' }], ...pcStats },
      at: { x: 0, y: 0 },
    },
    {
      id: 'foe',
      side: 'b',
      stats: { dexterity: 12, hp: 30, weapons: [{ id: 'cl', name: 'Club', category: 'light', damage: '1d6' }], ...foeStats },
      at: { x: 1, y: 0 },
    },
  ]);
const effectNames = (s: St) => s.effects.map((e) => e.name);

describe('durations', () => {
  it('"Effects that last a certain number of rounds end just before the same action phase and initiative that they began on"', () => {
    let s = encounter([
      { id: 'hi', side: 'a', stats: { dexterity: 16 } },
      { id: 'pc', side: 'a', stats: { dexterity: 14 } },
      { id: 'lo', side: 'b', stats: { dexterity: 10 } },
    ]);
    s = until(s, 'pc', 'thrown');
    s = act(s, 'pc', 'cast-swift-spell', { effect: { name: 'Haste', rounds: 1 } }).state;
    const eff = s.effects.find((e) => e.name === 'Haste')!;
    expect(eff.expires).toEqual({ round: 2, phase: 2, init: [14, 2] });
    // round 2, thrown phase: still there at hi's initiative, gone when pc's initiative comes
    s = until(s, 'hi', 'thrown');
    expect(s.clock.round).toBe(2);
    expect(effectNames(s)).toContain('Haste');
    const r = end(s, 'hi');
    expect(r.state.clock.current).toBe('pc');
    expect(types(r.events)).toContain('effect.expired');
    expect(effectNames(r.state)).not.toContain('Haste');
  });

  it('"a full round" also holds when the caster has no place in that phase: the effect ends once the clock passes the moment', () => {
    let s = encounter([
      { id: 'pc', side: 'a', stats: { dexterity: 14 } },
      { id: 'lo', side: 'b', stats: { dexterity: 10 } },
    ]);
    s = until(s, 'pc', 'fast');
    s = act(s, 'pc', 'cast-swift-spell', { effect: { name: 'Glow', rounds: 2 } }).state;
    s = until(s, 'pc', 'declaration');
    s = ok(s, { type: 'stop', combatantId: 'pc' }).state; // round 2: pc has no more places
    s = until(s, 'lo', 'fast');
    expect(s.clock.round).toBe(2);
    expect(effectNames(s)).toContain('Glow');
    s = ok(s, { type: 'stop', combatantId: 'lo' }).state;
    s = until(s, 'pc', 'declaration');
    s = ok(s, { type: 'stop', combatantId: 'pc' }).state; // round 3: no place for pc in the fast phase either
    s = until(s, 'lo', 'fast');
    expect(s.clock.round).toBe(3);
    expect(effectNames(s)).not.toContain('Glow');
  });

  it('durations given by the GM in minutes or combat turns are 10 rounds each', () => {
    let s = pair();
    s = until(s, 'pc', 'ready-missile');
    s = ok(s, { type: 'effect.apply', targetId: 'pc', name: 'Bless', duration: { unit: 'minute', count: 1 } }).state;
    expect(s.effects[0]!.expires).toEqual({ round: 11, phase: 1, init: [14, 2] });
  });

  it('"Total Defense ... Until the start of your next round of actions, you can\'t take actions with the attack subtype, and you gain a +4 dodge bonus"', () => {
    let s = pair({ ac: 12 });
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'total-defense').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    const td = s.effects.find((e) => e.name === 'Total defense')!;
    expect(td.data).toMatchObject({ ac: 4 });
    s = until(s, 'pc', 'fast');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'attack', targetId: 'foe' }).rule).toBe('action-points.total-defense');
    s = until(s, 'foe', 'fast');
    const r = act(s, 'foe', 'attack', { targetId: 'pc' });
    expect(find(r.events, 'action-points.attack-resolved')!.ac).toBe(16);
    s = until(r.state, 'pc', 'declaration');
    expect(s.clock.round).toBe(2);
    expect(effectNames(s)).not.toContain('Total defense');
  });

  it('"If you already took an attack action earlier ... this round, you gain only a +2 dodge bonus"; 3 ranks of Acrobatics: +6 and +3', () => {
    let s = pair({ acrobaticsRanks: 3 });
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'total-defense').state;
    s = until(end(s, 'pc').state, 'pc', 'thrown');
    s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    expect(s.effects.find((e) => e.name === 'Total defense')!.data).toMatchObject({ ac: 6 });
    let t = pair();
    t = until(t, 'pc', 'fast');
    t = act(t, 'pc', 'attack', { targetId: 'foe' }).state;
    t = until(t, 'pc', 'average');
    t = act(t, 'pc', 'total-defense').state;
    t = until(end(t, 'pc').state, 'pc', 'slow');
    t = ok(t, { type: 'continue', combatantId: 'pc' }).state;
    expect(t.effects.find((e) => e.name === 'Total defense')!.data).toMatchObject({ ac: 2 });
  });

  it('"Fight Defensively: At the start of your round of actions ... -4 penalty on all attack rolls, but gain a +2 dodge bonus"', () => {
    let s = pair();
    s = until(s, 'pc', 'declaration');
    s = act(s, 'pc', 'fight-defensively').state;
    s = until(s, 'pc', 'fast');
    expect(find(act(s, 'pc', 'attack', { targetId: 'foe' }).events, 'dice.rolled')!.formula).toBe('1d20-4');
    let late = until(pair(), 'pc', 'ready-missile');
    late = act(late, 'pc', 'light-torch').state;
    expect(err(late, { type: 'act', combatantId: 'pc', action: 'fight-defensively' }).rule).toBe('action-points.fight-defensively');
  });

  it('"Dirty trick ... This condition lasts for 1 round. For every 5 by which your combat maneuver check exceeds the target\'s CMD, 1 additional round"', () => {
    let s = pair({ cmb: 100, feats: ['improved-dirty-trick'] }, { cmd: 10 });
    s = until(s, 'pc', 'fast');
    s = act(s, 'pc', 'dirty-trick', { targetId: 'foe', condition: 'blinded' }).state;
    s = until(end(s, 'pc').state, 'pc', 'average');
    const r = ok(s, { type: 'continue', combatantId: 'pc' });
    const m = find(r.events, 'action-points.maneuver-resolved')!;
    const rounds = 1 + Math.floor((m.margin as number) / 5);
    expect(find(r.events, 'action-points.resolved')!.outcome).toMatchObject({ rounds });
    expect(r.state.effects.find((e) => e.condition === 'blinded')!.expires).toMatchObject({ round: 1 + rounds, phase: 4 });
  });

  it('"At the end of the charge, you gain a +2 bonus on any melee attacks ... against the creature you designated ... until the end of the round"', () => {
    let s = encounter([
      { id: 'pc', side: 'a', stats: { weapons: [{ id: 'dg', name: 'Dagger', category: 'light' }] }, at: { x: 0, y: 0 } },
      { id: 'foe', side: 'b', stats: { hp: 99 }, at: { x: 5, y: 0 } },
    ]);
    s = until(s, 'pc', 'thrown');
    s = act(s, 'pc', 'charge', {
      targetId: 'foe',
      path: [
        { x: 1, y: 0 },
        { x: 2, y: 0 },
        { x: 3, y: 0 },
        { x: 4, y: 0 },
      ],
    }).state;
    s = until(end(s, 'pc').state, 'pc', 'fast');
    s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    expect(s.combatants.pc!.position).toEqual({ x: 4, y: 0 });
    s = until(s, 'pc', 'average');
    expect(find(act(s, 'pc', 'attack', { targetId: 'foe' }).events, 'dice.rolled')!.formula).toBe('1d20+2');
    s = until(s, 'pc', 'declaration');
    expect(effectNames(s).some((n) => n.startsWith('Charging'))).toBe(false);
    // not in a straight line: refused
    let bent = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'foe', side: 'b', at: { x: 5, y: 0 } },
    ]);
    bent = until(bent, 'pc', 'thrown');
    expect(
      err(bent, {
        type: 'act',
        combatantId: 'pc',
        action: 'charge',
        targetId: 'foe',
        path: [
          { x: 1, y: 1 },
          { x: 2, y: 0 },
          { x: 3, y: 0 },
          { x: 4, y: 0 },
        ],
      }).message,
    ).toContain('straight');
  });
});

describe('ready', () => {
  it('"You must designate a definite trigger ... and you must have enough AP left to complete the action you ready"', () => {
    let s = pair();
    s = until(s, 'pc', 'ready-missile');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'ready' }).code).toBe('INVALID_COMMAND');
    expect(
      err(s, {
        type: 'act',
        combatantId: 'pc',
        action: 'ready',
        readied: { action: 'cast-round-spell' },
        trigger: { kind: 'acts', description: 'x' },
      }).rule,
    ).toBe('action-points.ready');
    s = act(s, 'pc', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'attacked', description: 'if a foe attacks me' },
    }).state;
    expect(s.combatants.pc!.data.ready).toMatchObject({ action: 'attack', cost: 1, trigger: { kind: 'attacked' } });
  });

  it('"Once you ready an action, you forfeit all other actions this round"', () => {
    let s = pair();
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'attacked', description: 'if a foe attacks me' },
    }).state;
    const e = err(s, { type: 'act', combatantId: 'pc', action: 'drop-prone' });
    expect(e.rule).toBe('action-points.ready-forfeits');
    s = end(s, 'pc').state;
    // no more places this round
    for (let i = 0; i < 10 && s.clock.round === 1; i++) {
      expect(s.clock.current).not.toBe('pc');
      s = end(s, s.clock.current!).state;
    }
  });

  it('"when the trigger you designate occurs, you can take that action" as a reaction, before the triggering attack; "your place in the initiative order does not change"', () => {
    let s = pair({ attackBonus: 50 }, { hp: 30 });
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'attacked', description: 'if a foe attacks me' },
    }).state;
    s = until(s, 'foe', 'fast');
    let r = act(s, 'foe', 'attack', { targetId: 'pc' });
    expect(r.state.reaction).toMatchObject({ kind: 'action-points.ready', eligible: ['pc'] });
    r = ok(r.state, { type: 'completeReady', combatantId: 'pc' });
    const attacks = r.events.filter((e) => e.type === 'action-points.attack-resolved').map((e) => e.combatantId);
    expect(attacks).toEqual(['pc', 'foe']);
    expect(r.state.combatants.pc!.data.ap).toBe(1);
    expect(r.state.combatants.pc!.data.ready).toBeNull();
    expect(r.state.clock.order).toEqual(['pc', 'foe']);
  });

  it('"If you don\'t take the action you readied as a reaction by the start of your round of actions, you lose that reaction"', () => {
    let s = pair();
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'casts', description: 'if the foe casts a spell' },
    }).state;
    for (let i = 0; i < 30 && !(s.clock.round === 2 && s.clock.current === 'foe'); i++) s = end(s, s.clock.current!).state;
    expect(s.combatants.pc!.data.ready).toBeNull();
  });

  it('legalActions offers the readied reaction to the readier only while the window is open', () => {
    let s = pair();
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'moves-adjacent', description: 'if a foe moves adjacent' },
    }).state;
    s = until(s, 'foe', 'ready-missile');
    const r = act(s, 'foe', 'step', { path: [{ x: 1, y: 1 }] });
    expect(r.state.reaction!.kind).toBe('action-points.ready');
    expect(legal(r.state, 'pc').map((o) => o.command)).toEqual(['completeReady', 'reaction.pass']);
    expect(legal(r.state, 'foe')).toEqual([]);
  });
});
