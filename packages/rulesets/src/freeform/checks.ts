import { parseFormula, ruleError, RuleViolation, type EngineError } from '@fray/engine';
import { RULE } from './catalogue.js';
import { dataOf, vitalsOf, optionsOf, type State } from './state.js';

/**
 * Every "why not" of freeform: each answers null (allowed) or the refusal naming the most
 * specific rule. Commands `ensure` them; legal.ts blocks options with the same checks.
 */

/** "A player acts only on their combatant's turn; the GM acts for anyone at any time." */
export function checkMayAct(s: State, combatantId: string, byGm: boolean): EngineError | null {
  if (byGm || s.clock.current === combatantId) return null;
  const name = s.combatants[combatantId]?.name ?? combatantId;
  const now = s.clock.current ? s.combatants[s.clock.current]?.name : null;
  return ruleError(
    'NOT_YOUR_TURN',
    RULE.ownTurn,
    `It is not ${name}'s turn${now ? ` (it is ${now}'s)` : ''}: players act on their own turn.`,
  );
}

/** "A turn ends when its combatant (or the GM) ends it." Only the current turn can end. */
export function checkEndTurn(s: State, combatantId: string): EngineError | null {
  if (s.clock.current === combatantId) return null;
  return ruleError('NOT_YOUR_TURN', RULE.turns, `It is not ${s.combatants[combatantId]?.name ?? combatantId}'s turn to end.`);
}

/** "On its turn a combatant may delay: its turn ends and it holds." */
export function checkDelay(s: State, combatantId: string): EngineError | null {
  if (s.clock.current === combatantId) return null;
  return ruleError('NOT_YOUR_TURN', RULE.delay, `${s.combatants[combatantId]?.name ?? combatantId} can delay only on its own turn.`);
}

/** "A holding combatant may act now" — only one that holds, while another's turn goes on. */
export function checkActNow(s: State, combatantId: string): EngineError | null {
  const c = s.combatants[combatantId];
  if (!c || !dataOf(c).holding) return ruleError('ILLEGAL_ACTION', RULE.hold, `${c?.name ?? combatantId} is not holding a turn.`);
  return null;
}

export function checkTarget(s: State, targetId: string | undefined): EngineError | null {
  if (targetId === undefined || s.combatants[targetId]) return null;
  return ruleError('UNKNOWN_TARGET', RULE.target, `No combatant "${targetId}" to target.`);
}

/** A roll formula the dice understand. */
export function checkFormula(formula: string | undefined): EngineError | null {
  if (formula === undefined) return null;
  try {
    parseFormula(formula);
    return null;
  } catch (e) {
    if (e instanceof RuleViolation) return ruleError('INVALID_DICE', RULE.rolls, e.message);
    throw e;
  }
}

/** "Vitals are HP and the ones the GM names for the encounter." */
export function checkVital(s: State, combatantId: string, vital: string): EngineError | null {
  const c = s.combatants[combatantId];
  if (c && vitalsOf(c, optionsOf(s)).includes(vital)) return null;
  return ruleError('INVALID_COMMAND', RULE.vitals, `${c?.name ?? combatantId} has no vital "${vital}".`);
}
