import { ruleError, type Command, type EngineError } from '@fray/engine';
import { RULE } from '../catalogue/index.js';
import type { Options } from '../options.js';
import { combatant, hasReacted, isIncapacitated, slotFor, type C, type Slot, type State } from '../state/index.js';

/** The turn, the action budget and reactions: the "why not" every action shares. */

const SLOT_RULES: Record<Slot, { rule: string; text: string }> = {
  standard: { rule: RULE.oneStandard, text: 'You’re limited to one standard action each round.' },
  move: { rule: RULE.oneMove, text: 'A move action (or substitute an additional move action for your standard action).' },
  quick: { rule: RULE.oneQuick, text: 'A quick action (or substitute an additional quick action for your move action).' },
};

/**
 * Is it this combatant's turn and can it act at all? "Each character has a turn to take actions."
 * Off its turn, the refusal says why the turn is not its own: it is delaying, its turn was
 * interrupted by a delayed character, or its turn was skipped (incapacitated).
 */
export function checkTurn(s: State, c: C): EngineError | null {
  if (s.clock.current !== c.id) return notYourTurn(s, c);
  if (isIncapacitated(s, c)) return ruleError('ILLEGAL_ACTION', RULE.incapacitated, `${c.name} is incapacitated and cannot take actions.`);
  return null;
}

function notYourTurn(s: State, c: C): EngineError {
  if (c.data.delaying) return ruleError('NOT_YOUR_TURN', RULE.delay, `${c.name} is delaying: take the delayed turn (act-now) first.`);
  const cur = s.clock.current;
  const now = cur === null ? null : combatant(s, cur);
  if (s.rs.interrupted === c.id && now) {
    // "Your initiative moves into the new place in the order where you act."
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.delayInterrupt,
      `${c.name}'s turn is interrupted: ${now.name} took a delayed turn before it ("Your initiative moves into the new place in the order where you act"); ${c.name}'s turn resumes when ${now.name}'s ends.`,
    );
  }
  if (isIncapacitated(s, c)) {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.turnSkipped,
      `${c.name} is incapacitated and cannot take actions: its turns are skipped until it recovers.`,
    );
  }
  return ruleError(
    'NOT_YOUR_TURN',
    RULE.turns,
    `It is not ${c.name}'s turn${now ? ` but ${now.name}'s` : ''}: "Each character has a turn to take actions."`,
  );
}

/** The turn, then a slot of `type` ("one standard, one move and one quick action"), or a free action. */
export function checkBudget(s: State, c: C, type: Slot | 'free'): EngineError | null {
  const t = checkTurn(s, c);
  if (t) return t;
  if (type === 'free') return checkFree(s, c);
  return checkSlot(c, type);
}

/** A slot of `type` left this turn (substitutions included). */
function checkSlot(c: C, type: Slot): EngineError | null {
  if (slotFor(c.data, type) !== null) return null;
  const r = SLOT_RULES[type];
  return ruleError('BUDGET_EXHAUSTED', r.rule, `${c.name} has no ${type} action left this turn. ${r.text}`);
}

/** The free-action limit: the `freeActionLimit` option, changed at the table by the GM's `set-free-action-limit`. */
export function checkFree(s: State, c: C, n = 1): EngineError | null {
  const limit = s.rs.freeActionLimit;
  if (c.data.free + n <= limit) return null;
  return ruleError(
    'BUDGET_EXHAUSTED',
    RULE.freeActions,
    `${c.name} has used the ${limit} free actions the GM allows ("as many free actions in a round as the GM considers reasonable").`,
  );
}

/** May this combatant take a reaction now? `readied` = the reaction is the readied action itself. */
export function checkReaction(s: State, o: Options, c: C, readied = false): EngineError | null {
  if (isIncapacitated(s, c)) return ruleError('ILLEGAL_ACTION', RULE.incapacitated, `${c.name} is incapacitated and cannot react.`);
  if (!readied && c.data.readied) return checkReadiedWaits(c);
  if (hasReacted(s, o, c)) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.oneReaction,
      `${c.name} has already reacted this turn: "as many reactions as are called for, with a limit of one per Turn".`,
    );
  }
  return null;
}

/** "until you take your readied action, you cannot take any other Reactions" */
export function checkReadiedWaits(c: C): EngineError | null {
  if (!c.data.readied) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.readyConcentration,
    `${c.name} is waiting with a readied action (${c.data.readied.action}): "until you take your readied action, you cannot take any other Reactions".`,
  );
}

/**
 * A reaction command from a combatant the open window does not ask (the engine's refuseReaction
 * hook): a readied character "cannot take any other Reactions" until it takes the readied one.
 */
export function refuseReaction(s: State, cmd: Command): EngineError | null {
  const id = cmd['combatantId'];
  const c = typeof id === 'string' ? s.combatants[id] : undefined;
  if (!c || cmd.type === 'readied' || cmd.type === 'reaction.pass') return null;
  return checkReadiedWaits(c);
}

/** Reactions declared on one's own check (Raise, Smash, Slam, Hunch): each is the turn's one reaction. */
export function checkDeclared(c: C, used: string[]): EngineError | null {
  if (used.length <= 1) return null;
  return ruleError(
    'BUDGET_EXHAUSTED',
    RULE.oneReaction,
    `${used.join(' and ')} are ${used.length} reactions for ${c.name}: "as many reactions as are called for, with a limit of one per Turn".`,
  );
}

/** "You can make up to two raises on a single check." */
export function checkRaises(raises: number): EngineError | null {
  if (raises <= 2) return null;
  return ruleError(
    'INVALID_COMMAND',
    RULE.raise,
    `${raises} raises on one check: "You can make up to two raises on a single check" (each raises the DC by 5).`,
  );
}

/** A quick action: from the turn budget on your turn, or "as part of a reaction, so long as you did not use it during your last turn". */
export function checkQuick(s: State, c: C): EngineError | null {
  if (s.clock.current === c.id) return checkSlot(c, 'quick');
  if (!c.data.quickUsedThisTurn && !c.data.quickInReaction) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.quickInReaction,
    `${c.name} may use its quick action as part of a reaction "so long as you did not use it during your last turn".`,
  );
}
