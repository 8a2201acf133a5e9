import { describe, expect, it } from 'vitest';
import { degreesOf, ladder, dcEasy, dcModerate, dcHard } from '../../src/action-round/mechanics/dice.js';
import { optionsSchema } from '../../src/action-round/options.js';
import { act, data, events, force, gm, refuse, run, setup } from './helpers.js';

const pair = (opts: Record<string, unknown> = {}, hero: Record<string, unknown> = {}, orc: Record<string, unknown> = {}) =>
  setup(
    [
      { id: 'hero', side: 'pc', at: [0, 0], stats: { naturalWeapons: true, ...hero } },
      { id: 'orc', side: 'npc', at: [1, 0], stats: { defense: 4, ...orc } },
    ],
    opts,
  ).s;

describe('checks', () => {
  it('DCs: "Easy DC (DC 10)", "Moderate DC (DC 10 + Power Level)", "Hard DC (DC 10 + Power level x 2)"', () => {
    const o = optionsSchema.parse({ powerLevel: 7 });
    expect([dcEasy(), dcModerate(o), dcHard(o)]).toEqual([10, 17, 24]);
    // through the actions that use them: run (Moderate), standing by Acrobatics (Hard)
    let s = pair({ powerLevel: 3 });
    s = force(s, 1);
    const r = act(s, 'move', 'hero', { mode: 'run', path: [{ x: 0, y: 1 }] });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 13, purpose: 'run (Athletics)' });
    s = run(pair({ powerLevel: 3 }), { type: 'effect.apply', by: gm, targetId: 'hero', name: 'prone', condition: 'prone' }).state;
    s = force(s, 1);
    expect(events(act(s, 'stand', 'hero', { acrobatic: true }), 'action-round.check')[0]).toMatchObject({ dc: 16 });
  });

  it('degrees of success and failure: one at the DC, one more per 5 points (degreeStep)', () => {
    expect(degreesOf(15, 15, 5)).toEqual({ success: true, degrees: 1 });
    expect(degreesOf(19, 15, 5)).toEqual({ success: true, degrees: 1 });
    expect(degreesOf(20, 15, 5)).toEqual({ success: true, degrees: 2 });
    expect(degreesOf(14, 15, 5)).toEqual({ success: false, degrees: 1 });
    expect(degreesOf(11, 15, 5)).toEqual({ success: false, degrees: 1 });
    expect(degreesOf(10, 15, 5)).toEqual({ success: false, degrees: 2 });
    expect(degreesOf(5, 15, 5)).toEqual({ success: false, degrees: 3 });
    expect(degreesOf(18, 15, 3)).toEqual({ success: true, degrees: 2 });
  });

  it('"One degree of failure provides no modifier, but two or more degrees impose -1 Disadvantage per additional degree of failure"', () => {
    expect([ladder(3), ladder(1), ladder(0), ladder(-1), ladder(-2), ladder(-4)]).toEqual([3, 1, 0, 0, -1, -3]);
  });

  it('passive defense: "where you just add 10": the attack check meets 10 + defense', () => {
    let s = force(pair(), 14, 1);
    let r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 14, total: 14, success: true });
    s = force(pair(), 13);
    r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 14, success: false });
  });

  it('active defense: "you make a defense check to determine your defense ... you also roll the Fortune Die"', () => {
    let s = pair({}, {}, {});
    s = run(s, { type: 'turn.end', by: gm, combatantId: 'hero' }).state;
    s = force(s, 8, 5);
    const r = act(s, 'defend', 'orc');
    const rolls = events(r, 'dice.rolled');
    expect(rolls.map((e) => e.formula)).toEqual(['1d20+4', '1d6']);
    expect(rolls[1]!.purpose).toContain('Fortune Die');
    expect(data(r.state, 'orc').activeDefense).toBe(17);
    s = run(r.state, { type: 'turn.end', by: gm, combatantId: 'orc' }).state;
    s = force(s, 16);
    expect(events(act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' }), 'action-round.check')[0]).toMatchObject({
      dc: 17,
      success: false,
    });
  });

  it('the fortuneDie option picks the die', () => {
    let s = pair({ fortuneDie: 'd10' });
    s = force(s, 10, 10);
    expect(events(act(s, 'defend', 'hero'), 'dice.rolled').map((e) => e.formula)).toEqual(['1d20', '1d10']);
  });

  it('Advantage and Disadvantage ranks add to and subtract from the d20: the charge\'s "-1 Disadvantage"', () => {
    let s = pair({}, {}, {});
    s = run(s, { type: 'combatant.place', by: gm, combatantId: 'orc', position: { x: 4, y: 0 } }).state;
    s = force(s, 10);
    const r = act(s, 'charge', 'hero', { targetId: 'orc' });
    expect(events(r, 'dice.rolled')[0]!.formula).toBe('1d20-1');
  });

  it('a natural 20 adds a degree of success (natural20 option)', () => {
    let s = force(pair(), 20, 1);
    expect(events(act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' }), 'action-round.check')[0]).toMatchObject({
      total: 20,
      degrees: 3,
    });
    s = force(pair({ natural20: 'none' }), 20, 1);
    expect(events(act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc' }), 'action-round.check')[0]).toMatchObject({ degrees: 2 });
  });

  it('opposed checks: the higher total wins; ties go to the higher bonus, then the defender', () => {
    // trick: hero lore 3 vs orc's better of insight / investigation (0); the orc rolls first
    const tr = (opts: Record<string, unknown>, heroD: number, orcR: number) => {
      let s = pair(opts, { skills: { lore: 3 } }, { skills: { insight: 0, investigation: 0 } });
      s = force(s, orcR, heroD);
      return events(
        act(s, 'trick', 'hero', { targetId: 'orc', skill: 'lore', opposing: ['insight', 'investigation'], condition: 'dazed' }),
        'action-round.check',
      )[0]!;
    };
    expect(tr({}, 10, 12)).toMatchObject({ total: 13, dc: 12, success: true });
    expect(tr({}, 9, 12)).toMatchObject({ total: 12, dc: 12, success: true }); // tie: higher bonus (3 > 0)
    expect(tr({ opposedTies: 'defender' }, 9, 12)).toMatchObject({ total: 12, success: false });
    expect(tr({}, 5, 12)).toMatchObject({ total: 8, success: false, degrees: 1 });
  });

  it('Raise: "increase the DC by +5. If you succeed, the degree of success is increased by +2 degrees. If you fail ... +1 degree"', () => {
    let s = force(pair(), 19, 1);
    let r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc', raises: 1 });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 19, success: true, degrees: 3 });
    expect(events(r, 'action-round.reacted')[0]).toMatchObject({ reaction: 'raise' });
    s = force(pair(), 10);
    r = act(s, 'attack', 'hero', { kind: 'close', targetId: 'orc', raises: 2 });
    expect(events(r, 'action-round.check')[0]).toMatchObject({ dc: 24, success: false, degrees: 5 });
    // "You can make up to two raises on a single check."
    expect(refuse(pair(), { type: 'attack', by: gm, combatantId: 'hero', kind: 'close', targetId: 'orc', raises: 3 }).code).toBe(
      'INVALID_COMMAND',
    );
  });

  it('Hunch: "an Intuition check vs an Easy DC (DC 10). Success grants you +1 Advantage per degree of success on the Skill check"', () => {
    let s = pair({}, { skills: { intuition: 2, lore: 0 } });
    s = force(s, 18, 10); // intuition 20 vs 10 = 3 degrees; then the skill check
    const r = act(s, 'use-skill', 'hero', { skill: 'lore', dc: 'easy', hunch: true });
    const checks = events(r, 'action-round.check');
    expect(checks[0]).toMatchObject({ kind: 'hunch', total: 20, degrees: 3 });
    expect(events(r, 'dice.rolled')[1]!.formula).toBe('1d20+3');
    expect(checks[1]).toMatchObject({ total: 13, success: true });
  });
});
