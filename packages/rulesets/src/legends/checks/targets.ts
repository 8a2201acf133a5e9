import { ruleError, type EngineError } from '@fray/engine';
import type { ActInput } from '../catalogue.js';
import { isBypassing } from '../mechanics/defense.js';
import { rangeBetween } from '../mechanics/space.js';
import {
  groupedUp,
  hasCond,
  isDown,
  isEnemy,
  isProtected,
  opts,
  posOf,
  type ActionDef,
  type LCombatant,
  type LState,
} from '../state/index.js';

/** Who an action may target. */

export function checkTarget(state: LState, c: LCombatant, d: ActionDef, a: ActInput): EngineError | null {
  if (d.target === 'none' || d.target === 'self') return null;
  if (!a.targetId) return ruleError('INVALID_COMMAND', 'legends.actions', `${d.name} needs a target.`);
  const t = state.combatants[a.targetId];
  if (!t) return ruleError('UNKNOWN_TARGET', 'legends.actions', `No target "${a.targetId}".`);
  return targetCheck(state, c, d, t, a.willing, true);
}

/** A value that stands for "refused" when the reason is not wanted (legalActions only lists targets). */
const REFUSED: EngineError = Object.freeze({ code: 'ILLEGAL_ACTION', rule: 'legends.actions', message: 'refused' });

/**
 * Whether `t` may be the target of `d` by `c` (null when it may), for a target that exists and an
 * action that takes one. With `explain` false the refusal is `REFUSED` and no message is built:
 * legalActions asks this for every action and every combatant.
 */
export function targetCheck(
  state: LState,
  c: LCombatant,
  d: ActionDef,
  t: LCombatant,
  willingIn: boolean | undefined,
  explain: boolean,
): EngineError | null {
  if (t.id === c.id && d.target !== 'combatant')
    return explain ? ruleError('ILLEGAL_ACTION', 'legends.actions', `${d.name} cannot target yourself.`) : REFUSED;
  if (d.target === 'enemy' && !isEnemy(c, t))
    return explain ? ruleError('ILLEGAL_ACTION', 'legends.actions', `${t.name} is not an enemy.`) : REFUSED;
  if (d.target === 'ally' && isEnemy(c, t))
    return explain ? ruleError('ILLEGAL_ACTION', 'legends.actions', `${t.name} is not an ally.`) : REFUSED;
  if (d.tags.includes('melee-attack')) {
    const e = meleeTargetCheck(state, c, d, t, explain);
    if (e) return e;
  }
  if (d.tags.includes('touch')) {
    const e = touchTargetCheck(state, c, t, willingIn, explain);
    if (e) return e;
  }
  if (d.key === 'offer-from-inventory' || d.key === 'give-into-inventory') {
    if (!groupedUp(c, t))
      return explain ? ruleError('ILLEGAL_ACTION', 'legends.giving', '"You must be grouped-up with the other character."') : REFUSED;
  }
  if (d.key === 'stow-for-ally') {
    if (!isDown(state, t.id)) return explain ? ruleError('ILLEGAL_ACTION', 'legends.fallen-items', `${t.name} has not fallen.`) : REFUSED;
    if (!groupedUp(c, t) && rangeBetween(state, c, t) !== 'short')
      return explain ? ruleError('ILLEGAL_ACTION', 'legends.fallen-items', '"Any ally that can touch your body"') : REFUSED;
  }
  if (d.key === 'drop-carried' && t.data.carriedBy !== c.id)
    return explain ? ruleError('ILLEGAL_ACTION', 'legends.carrying', `${c.name} is not carrying ${t.name}.`) : REFUSED;
  return null;
}

/** Melee: an enemy in one's engagement, not protected by group defense (unless bypassed; never for a grapple). */
function meleeTargetCheck(state: LState, c: LCombatant, d: ActionDef, t: LCombatant, explain: boolean): EngineError | null {
  const pc = posOf(c);
  if (!pc.engagement || pc.engagement !== posOf(t).engagement) {
    return explain
      ? ruleError(
          'ILLEGAL_ACTION',
          'legends.engagement',
          `${t.name} is not in ${c.name}'s engagement: melee needs "characters ... able to attack each other with melee weapons without significant movement".`,
        )
      : REFUSED;
  }
  if (isProtected(state, t.id)) {
    if (d.tags.includes('grapple'))
      return explain
        ? ruleError(
            'ILLEGAL_ACTION',
            'legends.group-defense.grapple',
            '"characters are immune to grappling (even from characters who bypass) if already defended."',
          )
        : REFUSED;
    if (!c.data.turn.bypassed) {
      return explain
        ? ruleError(
            'ILLEGAL_ACTION',
            'legends.group-defense',
            `${t.name} is protected: "Characters protected by group defense cannot receive melee attacks unless the enemy follows special rules for bypassing group defense".`,
          )
        : REFUSED;
    }
  }
  return null;
}

/** "Touching another character in combat is a slowing free action that requires a free hand": whom one may touch. */
function touchTargetCheck(
  state: LState,
  c: LCombatant,
  t: LCombatant,
  willingIn: boolean | undefined,
  explain: boolean,
): EngineError | null {
  const o = opts(state);
  if (c.data.turn.touched)
    return explain ? ruleError('BUDGET_EXHAUSTED', 'legends.touch', '"you may only touch one character per turn"') : REFUSED;
  const willing = willingIn ?? !isEnemy(c, t);
  if (!willing && !hasCond(state, c.id, ['grappling']))
    return explain
      ? ruleError('ILLEGAL_ACTION', 'legends.touch', '"If the character is unwilling, you may only touch them if you are in a grapple."')
      : REFUSED;
  if (!isEnemy(c, t)) {
    if (!groupedUp(c, t))
      return explain ? ruleError('ILLEGAL_ACTION', 'legends.touch', '"You must be grouped-up with any ally you touch"') : REFUSED;
    if (isBypassing(state, t))
      return explain ? ruleError('ILLEGAL_ACTION', 'legends.touch', '"the ally must not currently be bypassing group defense"') : REFUSED;
  }
  const touchers = new Set(state.rs.touchLog.filter((x) => x.endsWith(`>${t.id}`)).map((x) => x.slice(0, x.indexOf('>'))));
  if (!touchers.has(c.id) && touchers.size >= o.maxTouchersPerRound) {
    return explain
      ? ruleError(
          'ILLEGAL_ACTION',
          'legends.touch',
          `"Characters can only be touched via these rules by ${o.maxTouchersPerRound} characters per round"`,
        )
      : REFUSED;
  }
  return null;
}
