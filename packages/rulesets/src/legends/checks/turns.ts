import { ruleError, type EngineError } from '@fray/engine';
import { RULE } from '../catalogue.js';
import { isDown, type LCombatant, type LState } from '../state/index.js';

/** Every "why not" of the turns and the turn order: whose turn it is, why a turn is over, changing places. */

/**
 * "you cannot move in between the adjacent turns of two enemies". Returns an error or null for
 * moving `id` to `index` of the list without it.
 */
export function checkReorder(state: LState, id: string, index: number, initial: boolean): EngineError | null {
  const order = state.clock.order;
  const from = order.indexOf(id);
  const rest = order.filter((x) => x !== id);
  if (index < 0 || index > rest.length) {
    return { code: 'INVALID_COMMAND', rule: 'legends.turn-order.change', message: `Position ${index} is outside the turn order list.` };
  }
  if (initial && index < from) {
    return {
      code: 'ILLEGAL_ACTION',
      rule: 'legends.turn-order.initial',
      message: 'Immediately after the turn order list is made, characters may only "voluntarily move downward in the list".',
    };
  }
  const me = state.combatants[id]!;
  const before = rest[index - 1];
  const after = rest[index];
  if (before !== undefined && after !== undefined && index !== from) {
    const b = state.combatants[before]!;
    const a = state.combatants[after]!;
    if (b.side !== me.side && a.side !== me.side) {
      return {
        code: 'ILLEGAL_ACTION',
        rule: 'legends.turn-order.adjacent-enemies',
        message: `A change in turn order "cannot be used to interrupt adjacent enemy turns": ${b.name} and ${a.name} are adjacent enemies.`,
      };
    }
  }
  return null;
}

/**
 * Why `c`'s turn this round is over, with the rule that ended it: a major action ("After undertaking one major
 * action, your turn is over."), a second minor action ("Your second minor action must end your turn"), a turn
 * forfeited to change turn order, a character who cannot act (its turn was skipped); null when it was simply ended.
 */
function turnOver(s: LState, c: LCombatant): { rule: string; why: string } | null {
  const t = c.data.turn;
  if (t.forfeited) return { rule: RULE.turnOrderChange, why: 'it was forfeited to change turn order ("completely forfeiting one turn")' };
  if (t.major !== null)
    return { rule: RULE.majorAction, why: `${t.major} was a major action: "After undertaking one major action, your turn is over."` };
  if (t.minors.length >= 2)
    return { rule: RULE.doubleMinor, why: `${t.minors[1]} was a second minor action: "Your second minor action must end your turn"` };
  if (isDown(s, c.id)) return { rule: RULE.purelyMental, why: 'it was skipped: no action "can occur when you are unconscious"' };
  return null;
}

/**
 * "Each character takes their turn in the sequence determined by the turn order list." When `c`'s own turn this round
 * already ended by itself, the refusal names the rule that ended it and says so.
 */
export function notYourTurn(s: LState, c: LCombatant): EngineError {
  const t = c.data.turn;
  if (s.clock.phase === 'action' && t.ended && c.data.turnRound === s.clock.round) {
    const over = turnOver(s, c);
    if (over) return ruleError('NOT_YOUR_TURN', over.rule, `${c.name}'s turn is over this round: ${over.why}.`);
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.turns,
      `${c.name}'s turn is over this round (it was ended); the next comes in the next round's action phase.`,
    );
  }
  return ruleError(
    'NOT_YOUR_TURN',
    RULE.turns,
    `It is not ${c.name}'s turn: "Each character takes their turn in the sequence determined by the turn order list."`,
  );
}

/** A turn that ended but is still the current one (nobody left to take the next): nothing more in it. */
export function turnEnded(s: LState, c: LCombatant): EngineError {
  const over = turnOver(s, c);
  return ruleError(
    'BUDGET_EXHAUSTED',
    over?.rule ?? RULE.majorAction,
    over ? `${c.name}'s turn is over: ${over.why}.` : '"After undertaking one major action, your turn is over."',
  );
}

/** `turn.end` and the other things only the acting combatant does on its own turn in the action phase. */
export function checkOwnTurn(s: LState, id: string): EngineError | null {
  if (s.clock.phase === 'action' && s.clock.current === id) return null;
  const c = s.combatants[id];
  if (!c) return ruleError('NOT_YOUR_TURN', RULE.turns, `It is not ${id}'s turn in the action phase.`);
  return notYourTurn(s, c);
}

/** "No character may change their turn order in this way during the first round of combat", and only an untouched turn. */
export function checkForfeit(s: LState, c: LCombatant): EngineError | null {
  const own = checkOwnTurn(s, c.id);
  if (own) return own;
  if (s.clock.round === 1) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.turnOrderChange,
      '"No character may change their turn order in this way during the first round of combat."',
    );
  }
  if (c.data.turn.seq.length > 0) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.turnOrderChange,
      'Changing turn order means "completely forfeiting one turn": no actions may be taken in it.',
    );
  }
  return null;
}

/** The turn order decisions: in their phase, in their order ("This decision begins with the second-to-last character"). */
export function checkTurnOrderDecision(s: LState, id: string): EngineError | null {
  const phase = s.clock.phase;
  if (phase !== 'turn-order' && phase !== 'reorder') {
    return ruleError(
      'WRONG_PHASE',
      RULE.turnOrderChange,
      '"After the initial decisions about turn order, a character can only change their position in the list by completely forfeiting one turn in the action phase."',
    );
  }
  if (s.rs.queue[0] === id) return null;
  return phase === 'turn-order'
    ? ruleError(
        'NOT_YOUR_TURN',
        RULE.turnOrderInitial,
        '"This decision begins with the second-to-last character ... and proceeds up the list"',
      )
    : ruleError('NOT_YOUR_TURN', RULE.turnOrderChange, '"those who were previously earlier in turn order decide last"');
}
