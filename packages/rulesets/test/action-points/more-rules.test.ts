import { describe, expect, it } from 'vitest';
import { act, encounter, end, err, find, legal, ok, types, until, type St } from './helpers.js';

const dagger = { id: 'dg', name: 'Dagger', category: 'light', damage: '1d4' };
const duo = (a: Record<string, unknown> = {}, b: Record<string, unknown> = {}) =>
  encounter([
    { id: 'pc', side: 'a', stats: { dexterity: 14, hp: 40, weapons: [dagger], ...a }, at: { x: 0, y: 0 } },
    { id: 'foe', side: 'b', stats: { dexterity: 10, hp: 40, weapons: [dagger], ...b }, at: { x: 1, y: 0 } },
  ]);
const grappled = (s: St, id: string) => s.effects.some((e) => e.targetId === id && e.condition === 'grappled');

describe('maneuvers and special actions', () => {
  it('"Trip ... If you succeed, you knock the target prone"', () => {
    let s = until(duo({ cmb: 100, feats: ['improved-trip'] }), 'pc', 'fast');
    s = act(s, 'pc', 'trip', { targetId: 'foe' }).state;
    expect(s.effects.some((e) => e.targetId === 'foe' && e.condition === 'prone')).toBe(true);
  });

  it('"Initiate a Grapple (Attack; 2 AP)"; "Escape a Grapple ... The second time in a round ... -5 penalty ... The third time, -10"', () => {
    let s = until(duo({ cmb: 100, feats: ['improved-grapple'] }, { cmb: -100 }), 'pc', 'fast');
    s = act(s, 'pc', 'initiate-grapple', { targetId: 'foe' }).state;
    s = until(end(s, 'pc').state, 'pc', 'average');
    s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    expect(grappled(s, 'foe') && grappled(s, 'pc')).toBe(true);
    s = until(s, 'foe', 'average');
    const penalties: number[] = [];
    for (const phase of ['average', 'slow', 'very-slow']) {
      s = until(s, 'foe', phase);
      const r = act(s, 'foe', 'escape-grapple');
      penalties.push((find(r.events, 'action-points.resolved')!.outcome as { penalty: number }).penalty);
      s = r.state;
    }
    expect(penalties).toEqual([0, -5, -10]);
    expect(grappled(s, 'foe')).toBe(true);
  });

  it('"you must either take this action ... or end the grapple as a free action"', () => {
    let s = until(duo({ cmb: 100, feats: ['improved-grapple'] }), 'pc', 'fast');
    s = act(s, 'pc', 'initiate-grapple', { targetId: 'foe' }).state;
    s = until(end(s, 'pc').state, 'pc', 'average');
    s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    s = act(s, 'pc', 'end-grapple').state;
    expect(grappled(s, 'foe') || grappled(s, 'pc')).toBe(false);
  });

  it('"Deliver a Coup de Grace ... you automatically hit and confirm a critical hit ... Fortitude save (DC = 10 + the damage dealt) or die"', () => {
    let s = duo({}, { fortitude: -100 });
    s = ok(s, { type: 'setHp', combatantId: 'foe', hp: 0 }).state;
    s = until(s, 'pc', 'ready-missile');
    s = act(s, 'pc', 'coup-de-grace', { targetId: 'foe' }).state;
    for (const phase of ['thrown', 'fast']) {
      s = until(end(s, 'pc').state, 'pc', phase);
      s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    }
    expect(s.effects.some((e) => e.targetId === 'foe' && e.condition === 'dead')).toBe(true);
    expect(s.rolls.filter((r) => r.purpose.startsWith('coup de grace damage'))).toHaveLength(2);
    const up = until(duo(), 'pc', 'ready-missile');
    expect(err(up, { type: 'act', combatantId: 'pc', action: 'coup-de-grace', targetId: 'foe' }).message).toContain('helpless');
  });

  it('"Make All Natural Attacks (Attack; 3 AP)" needs natural attacks', () => {
    const s = until(duo(), 'pc', 'fast');
    expect(legal(s, 'pc').find((o) => o.action === 'natural-attacks')!.blocked!.rule).toBe('action-points.natural-attacks');
  });

  it('"Spell Combat ... can take this action only once per round ... can\'t also ... cast a standard-action spell"', () => {
    let s = until(duo({ feats: ['spell-combat'], attackBonus: 0 }), 'pc', 'fast');
    const r = act(s, 'pc', 'spell-combat', { targetId: 'foe' });
    s = r.state;
    if (s.reaction) s = ok(s, { type: 'reaction.pass', combatantId: 'foe' }).state;
    expect(s.rolls.some((x) => x.purpose.includes('Spell combat'))).toBe(true);
    s = until(s, 'pc', 'average');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'spell-combat', targetId: 'foe' }).message).toContain('once per round');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'cast-standard-spell' }).rule).toBe('action-points.spell-combat');
    const no = until(duo(), 'pc', 'fast');
    expect(err(no, { type: 'act', combatantId: 'pc', action: 'spell-combat', targetId: 'foe' }).rule).toBe('action-points.requires');
  });

  it('"Run (Move; 3 AP) ... you lose your Dexterity bonus to AC until the start of your next round of actions"', () => {
    let s = encounter([
      { id: 'pc', side: 'a', stats: { dexterity: 18, ac: 14 }, at: { x: 0, y: 0 } },
      { id: 'foe', side: 'b', stats: { dexterity: 10, weapons: [dagger] }, at: { x: 1, y: 9 } },
    ]);
    s = until(s, 'pc', 'thrown');
    s = act(s, 'pc', 'run', {
      path: [
        { x: 0, y: 1 },
        { x: 0, y: 2 },
        { x: 0, y: 3 },
        { x: 0, y: 4 },
        { x: 0, y: 5 },
        { x: 0, y: 6 },
        { x: 0, y: 7 },
        { x: 0, y: 8 },
      ],
    }).state;
    for (const phase of ['fast', 'average']) {
      s = until(end(s, 'pc').state, 'pc', phase);
      s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    }
    expect(s.combatants.pc!.position).toEqual({ x: 0, y: 8 });
    s = until(s, 'foe', 'slow');
    expect(find(act(s, 'foe', 'attack', { targetId: 'pc' }).events, 'action-points.attack-resolved')!.ac).toBe(10);
    s = until(s, 'pc', 'declaration');
    expect(s.effects.find((e) => e.targetId === 'pc' && e.data?.['denyDex'])).toBeUndefined();
  });

  it('"Cast a 1-Round-Action Spell ... You can split the AP over 2 rounds" and the effect lands when the last AP is spent', () => {
    let s = encounter([{ id: 'pc', side: 'a', at: { x: 0, y: 0 } }]);
    s = until(s, 'pc', 'slow');
    s = act(s, 'pc', 'cast-round-spell', { effect: { name: 'Wall of fire', rounds: 3 } }).state;
    s = until(end(s, 'pc').state, 'pc', 'very-slow');
    s = ok(s, { type: 'continue', combatantId: 'pc' }).state;
    s = until(end(s, 'pc').state, 'pc', 'ready-missile');
    expect(s.clock.round).toBe(2);
    const r = ok(s, { type: 'continue', combatantId: 'pc' });
    expect(r.state.effects.map((e) => e.name)).toEqual(['Wall of fire']);
  });
});

describe('turn tools', () => {
  it('"it may perform another action now or delay until the next phase": delay skips places until that phase', () => {
    let s = duo();
    s = until(s, 'pc', 'ready-missile');
    s = ok(s, { type: 'delay', combatantId: 'pc', untilPhase: 'slow' }).state;
    const seen: string[] = [];
    while (s.clock.phase !== 'slow') {
      seen.push(`${s.clock.phase}:${s.clock.current}`);
      s = end(s, s.clock.current!).state;
    }
    expect(seen).toEqual(['ready-missile:foe', 'thrown:foe', 'fast:foe', 'average:foe']);
    expect(s.clock.current).toBe('pc');
  });

  it('GM rulings: advancePhase, spoil, provoke, triggerReady', () => {
    let s = until(duo(), 'pc', 'ready-missile');
    s = act(s, 'pc', 'concentrate').state;
    let r = ok(s, { type: 'spoil', combatantId: 'pc', reason: 'failed concentration check' });
    expect(find(r.events, 'action-points.advanced-spoiled')!.reason).toBe('failed concentration check');
    r = ok(r.state, { type: 'advancePhase' });
    expect(r.state.clock.phase).toBe('thrown');
    r = ok(r.state, { type: 'provoke', combatantId: 'pc', reason: 'failed a DC 20 Ride check' });
    expect(r.state.reaction!.eligible).toEqual(['foe']);
    r = ok(r.state, { type: 'spendAoo', combatantId: 'foe', text: 'Disrupt' });
    expect(r.state.combatants.foe!.data.aooThisRound).toBe(1);
    s = until(r.state, 'pc', 'thrown');
    s = act(s, 'pc', 'ready', {
      readied: { action: 'attack', targetId: 'foe' },
      trigger: { kind: 'custom', description: 'when the door opens' },
    }).state;
    r = ok(s, { type: 'triggerReady', combatantId: 'pc' });
    expect(r.state.reaction!.kind).toBe('action-points.ready');
    r = ok(r.state, { type: 'completeReady', combatantId: 'pc' });
    expect(types(r.events)).toContain('action-points.attack-resolved');
  });
});

describe('free actions in conjunction with others', () => {
  it('"this limitation shouldn\'t be applied to reloading ranged weapons as a free action"', () => {
    let s = encounter([
      { id: 'elf', side: 'a', stats: { weapons: [{ id: 'bow', name: 'Longbow', kind: 'bow', category: 'ranged' }] }, at: { x: 0, y: 0 } },
      { id: 'foe', side: 'b', at: { x: 6, y: 0 } },
    ]);
    s = until(s, 'elf', 'ready-missile');
    s = act(s, 'elf', 'drop-item').state;
    s = act(s, 'elf', 'draw-nock').state; // a second free action this phase: a reload, not limited
    expect(s.combatants.elf!.data.nocked).toBe('bow');
    expect(s.combatants.elf!.data.freeThisPhase).toBe(1);
  });

  it('"you must take any requisite actions before you can take the free action": components while casting; a shield with the move action', () => {
    let s = until(duo({ baseAttackBonus: 1 }), 'pc', 'ready-missile');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'prepare-components' }).rule).toBe('action-points.conjunction');
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'ready-drop-shield', free: true }).rule).toBe('action-points.conjunction');
    s = until(s, 'pc', 'thrown');
    s = act(s, 'pc', 'move', { path: [{ x: -1, y: 0 }] }).state;
    if (s.reaction) s = ok(s, { type: 'reaction.pass', combatantId: 'foe' }).state;
    expect(act(s, 'pc', 'ready-drop-shield', { free: true }).state.combatants.pc!.data.ap).toBe(2);
  });
});

describe('charge', () => {
  it('"If anything hinders or blocks your movement along the path of a charge, you can\'t take the charge action"', () => {
    let s = encounter([
      { id: 'pc', side: 'a', at: { x: 0, y: 0 } },
      { id: 'ally', side: 'a', at: { x: 2, y: 0 } },
      { id: 'foe', side: 'b', at: { x: 5, y: 0 } },
    ]);
    s = until(s, 'pc', 'thrown');
    const path = [
      { x: 1, y: 0 },
      { x: 2, y: 0 },
      { x: 3, y: 0 },
      { x: 4, y: 0 },
    ];
    expect(err(s, { type: 'act', combatantId: 'pc', action: 'charge', targetId: 'foe', path }).message).toContain('ally');
    // a move may pass through an ally's square
    expect(act(s, 'pc', 'move', { path: path.slice(0, 4) }).state.combatants.pc!.position).toEqual({ x: 4, y: 0 });
  });
});
