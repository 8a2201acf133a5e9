import { describe, expect, it } from 'vitest';
import { started, type Spec } from './helpers.js';

/**
 * "A character must be wielding a weapon in order to use it to attack": the attacks `legalActions` offers name only the
 * weapons of their kind the character wields, and a ranged attack without a ranged weapon is blocked by that rule, as
 * `apply` refuses it.
 */

const axe = { id: 'axe', name: 'Axe', location: 'right-hand', props: { weapon: 'melee', type: 'axe' } };
const bow = { id: 'bow', name: 'Short bow', location: 'left-hand', props: { weapon: 'ranged', type: 'bow' } };
const foes: Spec[] = [
  { id: 'b1', side: 'foes' },
  { id: 'b2', side: 'foes' },
];
const weaponOptions = (t: ReturnType<typeof started>, action: string) =>
  t
    .legal('a1')
    .find((o) => o.action === action)
    ?.params?.find((p) => p.name === 'weaponId')?.options;

describe('legends: an attack is offered with the weapons of its kind the attacker wields', () => {
  it('a melee weapon in hand only: the ranged attack is blocked by the wielding rule, as apply refuses it', () => {
    const t = started([{ id: 'a1', side: 'heroes', items: [axe] }, { id: 'a2', side: 'heroes' }, ...foes]);
    const ranged = t.legal('a1').find((o) => o.action === 'ranged-attack')!;
    expect(ranged.allowed).toBe(false);
    expect(ranged.blocked?.rule).toBe('legends.wielding');
    expect(ranged.blocked?.message).toContain('wields no ranged weapon');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'ranged-attack', targetId: 'b1', weaponId: 'axe' }, 'legends.wielding');
    expect(weaponOptions(t, 'melee-attack')).toEqual(['axe']);
  });

  it('a melee and a ranged weapon in hand: each attack lists only its own kind', () => {
    const t = started([{ id: 'a1', side: 'heroes', items: [axe, bow] }, { id: 'a2', side: 'heroes' }, ...foes]);
    expect(weaponOptions(t, 'ranged-attack')).toEqual(['bow']);
    expect(weaponOptions(t, 'melee-attack')).toEqual(['axe']);
  });
});
