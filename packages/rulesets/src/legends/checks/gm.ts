import { ruleError, type EngineError } from '@fray/engine';
import { RULE } from '../catalogue.js';
import { inHand, type LCombatant, type LState } from '../state/index.js';

/** Every "why not" of the GM's tools in the fight. */

/** "Items dropped due to Hand/Arm Injuries fall under the rules above": an item the character holds. */
export function checkGmDrop(c: LCombatant, itemId: string): EngineError | null {
  const it = c.items.find((i) => i.id === itemId);
  return it && inHand(it) ? null : ruleError('ILLEGAL_ACTION', RULE.droppedItems, `${c.name} holds no "${itemId}".`);
}

/** Only the actions the GM defined may be removed. */
export function checkRemoveAction(s: LState, key: string): EngineError | null {
  return s.rs.customActions[key] ? null : ruleError('INVALID_COMMAND', RULE.actions, `No GM-defined action "${key}".`);
}

/** The GM rules on an attack still waiting for it. */
export function checkPendingAttack(s: LState, attackId: string): EngineError | null {
  if (s.rs.attacks?.some((x) => x.id === attackId)) return null;
  return ruleError('INVALID_COMMAND', RULE.attackOutcome, `No pending attack "${attackId}": it was resolved already, or never made.`);
}
