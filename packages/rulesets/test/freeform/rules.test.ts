import { describe, expect, it } from 'vitest';
import { apply, createEncounter, legalActions, vitalSpecs, type EncounterState, type EngineEvent } from '@fray/engine';
import { freeform } from '../../src/freeform/index.js';

const gm = { role: 'gm' } as const;
const p1 = { role: 'player', playerId: 'p1' } as const;

class Table {
  s: EncounterState;
  events: EngineEvent[] = [];
  constructor(options: Record<string, unknown> = {}, seed = 7) {
    this.s = createEncounter(freeform, { id: 'f', seed, options });
  }
  do(cmd: Record<string, unknown>) {
    const r = apply(freeform, this.s, { by: gm, ...cmd });
    if (!r.ok) throw new Error(`${String(cmd.type)}: ${r.error.rule} ${r.error.message}`);
    this.s = r.state;
    this.events = r.events;
    return r.events;
  }
  refuse(cmd: Record<string, unknown>) {
    const r = apply(freeform, this.s, { by: gm, ...cmd });
    if (r.ok) throw new Error(`${String(cmd.type)} was accepted`);
    return r.error;
  }
  add(id: string, stats: Record<string, unknown> = { hp: 10 }, controller: string | null = null) {
    return this.do({
      type: 'combatant.add',
      combatant: { id, name: id.toUpperCase(), side: controller ? 'pcs' : 'npcs', controller, stats },
    });
  }
  data(id: string) {
    return this.s.combatants[id]!.data as Record<string, unknown>;
  }
}

/** Three combatants with entered initiatives a (20), b (15), c (10), in a started fight. */
function fight(options: Record<string, unknown> = {}) {
  const t = new Table(options);
  t.add('a', { hp: 10 }, 'p1');
  t.add('b', { hp: 12, vitals: { Mana: 5, Stress: 4 } });
  t.add('c', { hp: 8 });
  t.do({ type: 'initiative.set', combatantId: 'a', value: 20 });
  t.do({ type: 'initiative.set', combatantId: 'b', value: 15 });
  t.do({ type: 'initiative.set', combatantId: 'c', value: 10 });
  t.do({ type: 'combat.start' });
  return t;
}

describe('freeform (docs/rulesets/freeform.md)', () => {
  it('"Initiative is the combatant\'s own dice (or the option\'s) plus its bonus, unless the GM entered a value."', () => {
    const t = new Table({ initiativeFormula: '1d6' });
    t.add('a', { hp: 5, initiative: '1d1+40' });
    t.add('b', { hp: 5, initiativeBonus: 100 });
    t.add('c', { hp: 5 });
    t.do({ type: 'initiative.set', combatantId: 'c', value: 500 });
    const events = t.do({ type: 'combat.start' });
    const rolls = events.filter((e) => e.type === 'dice.rolled' && e.purpose === 'initiative');
    // the bonus is rolled with the dice, so the log shows the roll that made the value
    expect(rolls.map((r) => [r.combatantId, r.formula])).toEqual([
      ['a', '1d1+40'],
      ['b', '1d6+100'],
    ]);
    expect(t.data('a').initiative).toBe(41);
    expect(t.data('b').initiative).toBeGreaterThanOrEqual(101);
    expect(t.s.clock.order).toEqual(['c', 'b', 'a']);
  });

  it('"Ties are broken by a roll, logged: the higher d20 goes first."', () => {
    const t = new Table();
    t.add('a');
    t.add('b');
    t.do({ type: 'initiative.set', combatantId: 'a', value: 12 });
    t.do({ type: 'initiative.set', combatantId: 'b', value: 12 });
    t.do({ type: 'dice.force', formula: '1d20', total: 3 });
    t.do({ type: 'dice.force', formula: '1d20', total: 17 });
    const events = t.do({ type: 'combat.start' });
    expect(events.filter((e) => e.type === 'freeform.tie-broken').map((e) => [e.combatantId, e.roll])).toEqual([
      ['a', 3],
      ['b', 17],
    ]);
    expect(t.s.clock.order).toEqual(['b', 'a']);
  });

  it('"A turn ends when its combatant (or the GM) ends it"; after the last turn the round ends and a new one begins.', () => {
    const t = fight();
    expect(t.s.clock.current).toBe('a');
    expect(t.refuse({ type: 'turn.end', combatantId: 'b' }).rule).toBe('freeform.turns');
    t.do({ type: 'turn.end', combatantId: 'a' });
    t.do({ type: 'turn.end', combatantId: 'b' });
    const events = t.do({ type: 'turn.end', combatantId: 'c' });
    expect(events.map((e) => e.type)).toContain('freeform.round-started');
    expect(t.s.clock).toMatchObject({ round: 2, current: 'a' });
  });

  it('"There is no action economy: a combatant may take any number of actions on its turn."', () => {
    const t = fight();
    for (let i = 0; i < 5; i++)
      t.do({ type: 'act', by: p1, combatantId: 'a', kind: 'attack', description: 'slash', targetId: 'b', roll: '1d20+4' });
    expect(t.data('a').actions).toBe(5);
    expect(t.events.find((e) => e.type === 'dice.rolled')).toMatchObject({ formula: '1d20+4', purpose: 'slash', combatantId: 'a' });
    expect(t.events.find((e) => e.type === 'freeform.acted')).toMatchObject({ kind: 'attack', targetId: 'b', rolled: true });
  });

  it('"A player acts only on their combatant\'s turn; the GM acts for anyone at any time."', () => {
    const t = fight();
    t.do({ type: 'turn.end', combatantId: 'a' });
    const e = t.refuse({ type: 'act', by: p1, combatantId: 'a', kind: 'other', description: 'shout' });
    expect(e).toMatchObject({ code: 'NOT_YOUR_TURN', rule: 'freeform.own-turn' });
    expect(e.message).toContain("it is B's");
    t.do({ type: 'act', combatantId: 'a', kind: 'other', description: 'the GM moves A' });
    t.do({ type: 'act', combatantId: 'c', kind: 'cast', description: 'a curse' });
    expect(legalActions(freeform, t.s, 'a').find((o) => o.command === 'act')?.blocked?.rule).toBe('freeform.own-turn');
  });

  it('"An action is what the game says it is: a description, an optional target and an optional roll." A bad roll or target is refused.', () => {
    const t = fight();
    expect(t.refuse({ type: 'act', combatantId: 'a', kind: 'attack', description: 'x', roll: 'banana' }).rule).toBe('freeform.rolls');
    expect(t.refuse({ type: 'act', combatantId: 'a', kind: 'attack', description: 'x', targetId: 'nobody' }).rule).toBe('freeform.target');
  });

  it('"Vitals never go below 0 or above their maximum"; "Vitals in `risingVitals` start at 0 and rise toward their maximum (Stress); the others start full.".', () => {
    const t = fight({ vitals: ['Mana', 'Stress'], risingVitals: ['Stress'] });
    expect(t.data('b')).toMatchObject({ hp: 12, Mana: 5, Stress: 0 });
    t.do({ type: 'vital', combatantId: 'b', vital: 'Stress', amount: 9 });
    expect(t.data('b').Stress).toBe(4);
    t.do({ type: 'combatant.adjust', combatantId: 'b', vital: 'hp', amount: 50 });
    expect(t.data('b').hp).toBe(0);
    t.do({ type: 'combatant.adjust', combatantId: 'b', vital: 'hp', amount: -3 });
    expect(t.data('b').hp).toBe(3);
    expect(t.refuse({ type: 'vital', combatantId: 'b', vital: 'Luck', amount: 1 }).rule).toBe('freeform.vitals');
  });

  it('"The GM damages or heals any vital with the table\'s damage/heal control (`combatant.adjust`)": harm lowers a vital and raises a rising one.', () => {
    const t = fight({ vitals: ['Mana', 'Stress'], risingVitals: ['Stress'] });
    const [spent] = t.do({ type: 'combatant.adjust', combatantId: 'b', vital: 'Mana', amount: 2 });
    expect(t.data('b').Mana).toBe(3);
    // the log says which way it went: "B: Mana −2 (now 3)."
    expect(spent).toMatchObject({ type: 'freeform.vital-changed', label: 'Mana', change: '−2', value: 3 });
    t.do({ type: 'combatant.adjust', combatantId: 'b', vital: 'Mana', amount: -9 });
    expect(t.data('b').Mana).toBe(5);
    t.do({ type: 'combatant.adjust', combatantId: 'b', vital: 'Stress', amount: 3 });
    expect(t.data('b').Stress).toBe(3);
    t.do({ type: 'combatant.adjust', combatantId: 'b', vital: 'Stress', amount: -1 });
    expect(t.data('b').Stress).toBe(2);
    const e = t.refuse({ type: 'combatant.adjust', combatantId: 'b', vital: 'Luck', amount: 1 });
    expect(e.rule).toBe('freeform.vitals');
    expect(e.message).toContain('hp, Mana, Stress');
  });

  it('"A combatant has a named vital only when its stat `vitals` gives it a maximum (a Bandit has no Mana)".', () => {
    const t = fight({ vitals: ['Mana', 'Stress'], risingVitals: ['Stress'] });
    expect(t.refuse({ type: 'combatant.adjust', combatantId: 'c', vital: 'Mana', amount: 1 })).toMatchObject({
      rule: 'freeform.vitals',
      message: 'C has no vital "Mana".',
    });
    const change = (id: string) => legalActions(freeform, t.s, id).find((o) => o.command === 'vital')?.params?.[0]?.options;
    expect(change('c')).toEqual([{ value: 'hp', label: 'HP' }]);
    expect(change('b')).toEqual([
      { value: 'hp', label: 'HP' },
      { value: 'Mana', label: 'Mana' },
      { value: 'Stress', label: 'Stress' },
    ]);
  });

  it('"Vitals are HP and the ones the GM names for the encounter": the display names each one, with its maximum and direction.', () => {
    const specs = vitalSpecs(freeform.display, { vitals: ['Mana', 'Stress'], risingVitals: ['Stress'] });
    expect(specs.map((v) => [v.key, v.short, v.direction, v.current, v.max])).toEqual([
      ['hp', 'HP', 'down', { in: 'data', key: 'hp' }, { in: 'stats', key: 'hp' }],
      ['Mana', 'Mana', 'down', { in: 'data', key: 'Mana' }, { in: 'stats', key: 'vitals.Mana' }],
      ['Stress', 'Stress', 'up', { in: 'data', key: 'Stress' }, { in: 'stats', key: 'vitals.Stress' }],
    ]);
    expect(vitalSpecs(freeform.display, {}).map((v) => v.key)).toEqual(['hp']);
  });

  it('"Conditions lasting turns count down at the end of their bearer\'s turn (option conditionsTick: or at its start)."', () => {
    const t = fight();
    t.do({ type: 'effect.apply', targetId: 'b', name: 'Dazed', condition: 'dazed', duration: { unit: 'turns', count: 1 } });
    t.do({ type: 'turn.end', combatantId: 'a' });
    expect(t.s.effects).toHaveLength(1);
    const ended = t.do({ type: 'turn.end', combatantId: 'b' });
    expect(ended.find((e) => e.type === 'effect.expired')).toBeTruthy();
    const s = fight({ conditionsTick: 'start-of-turn' });
    s.do({ type: 'effect.apply', targetId: 'b', name: 'Dazed', duration: { unit: 'turns', count: 1 } });
    const started = s.do({ type: 'turn.end', combatantId: 'a' });
    expect(started.map((e) => e.type)).toEqual(expect.arrayContaining(['freeform.turn-started', 'effect.expired']));
  });

  it('"Conditions lasting rounds count down at the end of each round."', () => {
    const t = fight();
    t.do({ type: 'effect.apply', targetId: 'a', name: 'Blessed', duration: { unit: 'rounds', count: 2 } });
    for (const id of ['a', 'b', 'c']) t.do({ type: 'turn.end', combatantId: id });
    expect(t.s.effects[0]?.expires).toMatchObject({ at: 'round-end', left: 1 });
    for (const id of ['a', 'b']) t.do({ type: 'turn.end', combatantId: id });
    expect(t.do({ type: 'turn.end', combatantId: 'c' }).some((e) => e.type === 'effect.expired')).toBe(true);
  });

  it('"On its turn a combatant may delay: its turn ends and it holds." "A holding combatant may act now: it moves to just after the current combatant."', () => {
    const t = fight();
    expect(t.refuse({ type: 'delay', combatantId: 'b' }).rule).toBe('freeform.delay');
    t.do({ type: 'delay', by: p1, combatantId: 'a' });
    expect(t.s.clock.current).toBe('b');
    expect(t.data('a').holding).toBe(true);
    expect(t.refuse({ type: 'act-now', combatantId: 'c' }).rule).toBe('freeform.hold');
    t.do({ type: 'act-now', by: p1, combatantId: 'a' });
    expect(t.s.clock.order).toEqual(['b', 'a', 'c']);
    t.do({ type: 'turn.end', combatantId: 'b' });
    expect(t.s.clock.current).toBe('a');
    expect(t.data('a').holding).toBe(false);
  });

  it('"A combatant joining a fight in progress takes its place after those with the same initiative"; the GM may re-enter initiative.', () => {
    const t = fight();
    t.do({ type: 'combatant.add', combatant: { id: 'd', name: 'D', side: 'npcs', stats: { hp: 3, initiative: '1d1+14' } } });
    expect(t.s.clock.order).toEqual(['a', 'b', 'd', 'c']);
    t.do({ type: 'initiative.set', combatantId: 'c', value: 30 });
    expect(t.s.clock.order).toEqual(['c', 'a', 'b', 'd']);
    expect(t.s.clock.current).toBe('a');
  });
});
