import type { Item } from '@fray/engine';
import { inHand, opts, weaponSchema, type LCombatant, type LState, type Weapon } from '../state/index.js';

/** Weapons: wielding one (stat requirements, hands), competence, and the damage formula of a hit. */

export function weaponOf(it: Item): Weapon | null {
  const p = weaponSchema.safeParse(it.props ?? {});
  return p.success ? p.data : null;
}

/**
 * "A character is considered to be wielding a melee weapon if they meet the stat requirements
 * to do so in the manner they are currently holding it (two-handed or one-handed)."
 */
export function wielding(c: LCombatant, it: Item): { wielding: boolean; competent: boolean; reason: string } {
  const w = weaponOf(it);
  if (!w) return { wielding: false, competent: false, reason: `${it.name} is not a weapon.` };
  if (!inHand(it)) return { wielding: false, competent: false, reason: `${it.name} is not in hand.` };
  const two = it.location === 'both-hands';
  if (!two && w.twoHandedOnly) return { wielding: false, competent: false, reason: `${it.name} needs two hands.` };
  const req = two ? (w.twoHanded ?? w.oneHanded ?? {}) : (w.oneHanded ?? {});
  for (const [stat, min] of Object.entries(req)) {
    if ((stat === 'DEX' || stat === 'SPD' || stat === 'STR') && min !== undefined && c.stats[stat] < min) {
      return {
        wielding: false,
        competent: false,
        reason: `${c.name} does not meet ${stat} ${min} to wield ${it.name} ${two ? 'two-handed' : 'one-handed'}.`,
      };
    }
  }
  return { wielding: true, competent: c.stats.competences.includes(w.type), reason: '' };
}

/** The items `c` wields as a weapon of this kind now: what an attack of that kind may be made with. */
export function attackWeapons(c: LCombatant, kind: 'melee' | 'ranged'): Item[] {
  return c.items.filter((it) => weaponOf(it)?.weapon === kind && wielding(c, it).wielding);
}

const DICE = /^[1-9]?\d?d\d{1,3}([+-]\d{1,3})?$/;

export function damageFormula(s: LState, c: LCombatant, weaponId: string | null): string {
  const o = opts(s);
  if (!weaponId) return o.unarmedDamage;
  const it = c.items.find((i) => i.id === weaponId);
  const own = it?.props?.damage;
  return typeof own === 'string' && DICE.test(own) && it && weaponOf(it) ? own : o.attackDamage;
}
