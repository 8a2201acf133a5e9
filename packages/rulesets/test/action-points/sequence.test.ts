import { describe, expect, it } from 'vitest';
import { act, encounter, end, err, legal, ok, until, types, find } from './helpers.js';

const trio = [
  { id: 'ana', side: 'heroes', stats: { dexterity: 16 }, at: { x: 0, y: 0 } },
  { id: 'bo', side: 'heroes', stats: { dexterity: 12, initiativeModifier: 6 }, at: { x: 0, y: 2 } },
  { id: 'orc', side: 'monsters', stats: { dexterity: 10 }, at: { x: 6, y: 0 } },
];

describe('the sequence of combat', () => {
  it('"All creatures have an initiative equal to their Dexterity score, although spells and abilities may alter it"; highest first', () => {
    const s = encounter(trio);
    expect(s.combatants.ana!.data.initiative).toBe(16);
    expect(s.combatants.bo!.data.initiative).toBe(18);
    expect(s.clock.order).toEqual(['bo', 'ana', 'orc']);
    expect(s.clock.current).toBe('bo');
  });

  it('"Combatants act in initiative order (highest to lowest) during each phase of the combat round"', () => {
    let s = encounter(trio);
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      seen.push(`${s.clock.phase}:${s.clock.current}`);
      s = end(s, s.clock.current!).state;
    }
    expect(seen).toEqual([
      'declaration:bo',
      'declaration:ana',
      'declaration:orc',
      'ready-missile:bo',
      'ready-missile:ana',
      'ready-missile:orc',
    ]);
  });

  it('equal initiatives are broken by a d20 roll-off made once, at the start of combat (option initiativeTies)', () => {
    const twins = [
      { id: 'x', side: 'a', stats: { dexterity: 12 } },
      { id: 'y', side: 'b', stats: { dexterity: 12 } },
    ];
    const s = encounter(twins, {}, 5);
    const rolls = s.rolls.filter((r) => r.purpose.startsWith('initiative tie-break'));
    expect(rolls).toHaveLength(2);
    const first = rolls[0]!.total >= rolls[1]!.total ? rolls[0]!.combatantId : rolls[1]!.combatantId;
    if (rolls[0]!.total !== rolls[1]!.total) expect(s.clock.order[0]).toBe(first);
    const byName = encounter(twins, { initiativeTies: 'name' });
    expect(byName.rolls).toHaveLength(0);
    expect(byName.clock.order).toEqual(['x', 'y']);
  });

  it('"Creatures begin each combat round with 3 AP"', () => {
    const s = encounter(trio);
    expect(s.rs.surprise).toBe(false);
    for (const c of Object.values(s.combatants)) expect(c.data.ap).toBe(3);
  });

  it('"If only some creatures are aware as combat begins only those creatures may act during the first round" with "2 action points"', () => {
    let s = encounter(trio, {}, 1, { orc: false });
    expect(s.rs.surprise).toBe(true);
    expect(s.combatants.ana!.data.ap).toBe(2);
    expect(s.combatants.orc!.data.ap).toBe(0);
    // the unaware orc never gets a place in the order of a phase
    const seen = new Set<string>();
    for (let i = 0; i < 40 && s.rs.surprise; i++) {
      seen.add(s.clock.current!);
      s = end(s, s.clock.current!).state;
    }
    expect(seen.has('orc')).toBe(false);
    expect(s.rs.surprise).toBe(false);
    expect(s.clock.round).toBe(2);
    expect(s.combatants.orc!.data.ap).toBe(3);
  });

  it('an unaware creature cannot act in the surprise round (typed error)', () => {
    const s = encounter(trio, {}, 1, { orc: false });
    const e = err(s, { type: 'act', combatantId: 'orc', action: 'speak', text: 'huh?' });
    expect(e.rule).toBe('action-points.surprise-round');
    expect(legal(s, 'orc').filter((o) => o.allowed && o.command === 'act')).toHaveLength(0);
  });

  it('"If no creatures are surprised, there is no surprise round" (nor when none is aware)', () => {
    expect(encounter(trio).rs.surprise).toBe(false);
    expect(encounter(trio, {}, 1, { ana: false, bo: false, orc: false }).rs.surprise).toBe(false);
    expect(encounter(trio, { surpriseRound: false }, 1, { orc: false }).rs.surprise).toBe(false);
  });

  it('"unspent AP are lost": AP "do not carry over from one round to the next"', () => {
    let s = encounter(trio);
    s = until(s, 'ana', 'ready-missile');
    s = act(s, 'ana', 'draw-sheathe').state;
    expect(s.combatants.ana!.data.ap).toBe(2);
    let lost: Record<string, number> | undefined;
    for (let i = 0; i < 40 && s.clock.round === 1; i++) {
      const r = end(s, s.clock.current!);
      const e = find(r.events, 'action-points.round-ended');
      if (e) lost = e.lost as Record<string, number>;
      s = r.state;
    }
    expect(lost).toEqual({ ana: 2, bo: 3, orc: 3 });
    expect(s.combatants.ana!.data.ap).toBe(3);
  });

  it('"there are 10 rounds in a combat turn"', () => {
    let s = encounter([{ id: 'solo', side: 'a' }]);
    for (let r = 1; r <= 11; r++) {
      expect(s.rs.combatTurn).toBe(r <= 10 ? 1 : 2);
      s = ok(s, { type: 'stop', combatantId: 'solo' }).state;
    }
    expect(s.clock.round).toBe(12);
  });

  it('"The combat round ends when all combatants have spent their available action points or have chosen to make no further expenditures of AP"', () => {
    let s = encounter(trio);
    s = ok(s, { type: 'stop', combatantId: 'orc' }).state;
    s = ok(s, { type: 'stop', combatantId: 'ana' }).state;
    expect(s.clock.round).toBe(1);
    const r = ok(s, { type: 'stop', combatantId: 'bo' });
    expect(types(r.events)).toContain('action-points.round-ended');
    expect(r.state.clock.round).toBe(2);
    expect(r.state.clock.phase).toBe('declaration');
  });

  it('the round also ends early once everybody has spent all AP (before the very slow phase)', () => {
    let s = encounter([{ id: 'solo', side: 'a', at: { x: 0, y: 0 } }]);
    s = until(s, 'solo', 'ready-missile');
    s = act(s, 'solo', 'draw-sheathe').state;
    s = end(s, 'solo').state;
    s = act(s, 'solo', 'step', { path: [{ x: 1, y: 0 }] }).state;
    s = end(s, 'solo').state;
    expect(s.clock.phase).toBe('fast');
    s = act(s, 'solo', 'light-torch').state;
    const r = end(s, 'solo');
    expect(types(r.events)).toContain('action-points.round-ended');
    expect(r.state.clock.round).toBe(2);
  });

  it('"spells and abilities may alter it": a changed initiative takes its place from the next round', () => {
    let s = encounter(trio);
    s = ok(s, { type: 'combatant.setStat', combatantId: 'orc', stat: 'initiativeModifier', value: 20 }).state;
    expect(s.clock.order[0]).toBe('bo');
    for (let i = 0; i < 3; i++) s = ok(s, { type: 'stop', combatantId: ['ana', 'bo', 'orc'][i]! }).state;
    expect(s.clock.round).toBe(2);
    expect(s.clock.order).toEqual(['orc', 'bo', 'ana']);
    expect(s.clock.current).toBe('orc');
  });
});
