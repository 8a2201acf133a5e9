import { describe, expect, it } from 'vitest';
import { replay } from '@fray/engine';
import { legends } from '../../src/legends/index.js';
import { optionDocs } from '../../src/legends/options.js';
import { started, type Spec } from './helpers.js';

const knife = (id: string) => ({ id, name: 'Knife', location: 'right-hand', props: { weapon: 'melee', type: 'blade', damage: '1d4+1' } });
const eng = { zone: 'main', engagement: 'e1' };
const fighters = (toughness = 10): Spec[] => [
  { id: 'a1', side: 'pcs', DEX: 8, stats: { competences: ['blade'] }, items: [knife('k1')], position: eng },
  { id: 'b1', side: 'npcs', DEX: 8, stats: { toughness }, position: eng },
];

function inAction(options: Record<string, unknown> = {}, toughness = 10) {
  const t = started(fighters(toughness), { options });
  t.skipTo('action', 1);
  t.endTurnsUntil('a1');
  return t;
}

describe('legends: attacks get an outcome (option attackOutcome)', () => {
  it(`the option is documented and on by default: "${optionDocs.attackOutcome.slice(0, 60)}…"`, () => {
    expect(optionDocs.attackOutcome).toMatch(/^Attacks get an outcome \(default true\)/);
    expect(legends.optionsSchema.parse({}).attackOutcome).toBe(true);
  });

  it('"a d12 roll on DEX": the server rolls the attack and the damage, and the attack waits for the GM', () => {
    const t = inAction();
    t.forceFaces('1d12', [5]);
    t.forceFaces('1d4+1', [3]);
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'k1' });
    const rolls = ev.filter((e) => e.type === 'dice.rolled');
    expect(rolls.map((r) => r.purpose)).toEqual(['attack roll (melee-attack) on DEX', 'damage (melee-attack)']);
    const rolled = ev.find((e) => e.type === 'legends.attackRolled')!;
    // roll-under: 5 against DEX 8 hits by 3; the knife's own damage formula, 3 + 1
    expect(rolled.attack).toMatchObject({ by: 'a1', target: 'b1', total: 5, margin: 3, hit: true, damage: 4, damageFormula: '1d4+1' });
    expect(t.state.rs.attacks).toHaveLength(1);
    // nothing is lowered until the GM confirms
    expect(t.c('b1').data.wounds).toBe(0);
    t.refuse({ type: 'resolveAttack', by: { role: 'player', playerId: 'p1' }, attackId: t.state.rs.attacks[0]!.id }, /./, 'NOT_AUTHORIZED');
    const done = t.do({ type: 'resolveAttack', attackId: t.state.rs.attacks[0]!.id });
    expect(done.find((e) => e.type === 'legends.attackResolved')).toMatchObject({ hit: true, damage: 4 });
    expect(t.c('b1').data.wounds).toBe(4);
    expect(t.state.rs.attacks).toEqual([]);
    // resolved once only
    t.refuse({ type: 'resolveAttack', attackId: (rolled.attack as { id: string }).id }, 'legends.attack-outcome', 'INVALID_COMMAND');
  });

  it('"Without competence, both melee and ranged attacks are much less effective.": one Hindrance die (the worst kept)', () => {
    const t = started([
      { id: 'a1', side: 'pcs', DEX: 8, items: [knife('k1')], position: eng },
      { id: 'b1', side: 'npcs', DEX: 8, position: eng },
    ]);
    t.skipTo('action', 1);
    t.endTurnsUntil('a1');
    t.forceFaces('2d12kh1', [3, 11]);
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'k1' });
    expect(ev.find((e) => e.type === 'dice.rolled')!.formula).toBe('2d12kh1');
    expect(ev.find((e) => e.type === 'legends.attackRolled')!.attack).toMatchObject({ total: 11, hit: false, damage: 0 });
  });

  it('the GM changes the hit and the damage; a character at its toughness is taken out ("unconscious (e.g. incapacitated, dead)") and the fight ends', () => {
    const t = inAction({}, 5);
    t.forceFaces('1d12', [12]);
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'k1' });
    const a = ev.find((e) => e.type === 'legends.attackRolled')!.attack as { id: string; hit: boolean };
    expect(a.hit).toBe(false);
    const out = t.do({ type: 'resolveAttack', attackId: a.id, hit: true, damage: 6 });
    expect(out.find((e) => e.type === 'legends.attackResolved')).toMatchObject({ hit: true, damage: 6, changed: true });
    expect(t.c('b1').data.wounds).toBe(6);
    expect(t.effectsOn('b1').find((e) => e.condition === 'incapacitated')?.name).toBe('Taken out (wounds)');
    // one side alone is left standing: "so that a fight can end by its own rules"
    expect(out.find((e) => e.type === 'combat.ended')).toMatchObject({ reason: 'only pcs is left standing' });
    expect(t.state.status).toBe('ended');
    // the log rebuilds the same state
    expect(JSON.stringify(replay(legends as never, t.initial as never, t.log as never))).toBe(JSON.stringify(t.state));
  });

  it('the GM rules a miss: no wounds; healing below the toughness brings a taken-out character back', () => {
    const t = inAction({ endWhenOneSideStands: false }, 3);
    t.forceFaces('1d12', [2]);
    const a = t
      .do({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'k1' })
      .find((e) => e.type === 'legends.attackRolled')!.attack as { id: string };
    t.do({ type: 'resolveAttack', attackId: a.id, hit: false });
    expect(t.c('b1').data.wounds).toBe(0);
    t.do({ type: 'combatant.adjust', combatantId: 'b1', vital: 'wounds', amount: 3 });
    expect(t.effectsOn('b1').some((e) => e.condition === 'incapacitated')).toBe(true);
    expect(t.state.status).toBe('active');
    t.do({ type: 'combatant.adjust', combatantId: 'b1', vital: 'wounds', amount: -1 });
    expect(t.effectsOn('b1').some((e) => e.condition === 'incapacitated')).toBe(false);
  });

  it('off: an attack is only declared, as the rule excerpts do (no roll, nothing pending)', () => {
    const t = inAction({ attackOutcome: false });
    const ev = t.do({ type: 'act', combatantId: 'a1', action: 'melee-attack', targetId: 'b1', weaponId: 'k1' });
    expect(ev.some((e) => e.type === 'legends.attacked')).toBe(true);
    expect(ev.some((e) => e.type === 'dice.rolled' || e.type === 'legends.attackRolled')).toBe(false);
    expect(t.state.rs.attacks).toEqual([]);
  });
});
