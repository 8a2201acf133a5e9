/**
 * Typed errors. Every refusal names the rule that forbids the command, so that a client can
 * show the player *why* and a GM can point at the rulebook.
 */
export type ErrorCode =
  | 'UNKNOWN_COMMAND'
  | 'INVALID_COMMAND'
  | 'INVALID_STATS'
  | 'INVALID_OPTIONS'
  | 'NOT_AUTHORIZED'
  | 'NOT_YOUR_TURN'
  | 'UNKNOWN_COMBATANT'
  | 'UNKNOWN_TARGET'
  | 'COMBAT_NOT_STARTED'
  | 'COMBAT_ALREADY_STARTED'
  | 'COMBAT_ENDED'
  | 'REACTION_PENDING'
  | 'NO_REACTION_PENDING'
  | 'ILLEGAL_ACTION'
  | 'WRONG_PHASE'
  | 'BUDGET_EXHAUSTED'
  | 'STALE_VERSION'
  | 'INVALID_DICE'
  | 'DICE_NOT_COMMITTED'
  | 'DICE_SEALED'
  | 'DICE_ALREADY_CONTRIBUTED'
  | 'DICE_ALREADY_REVEALED'
  | 'DICE_REVEAL_TOO_EARLY'
  | 'DICE_REVEALED';

export interface EngineError {
  code: ErrorCode;
  /** The rule that forbids the command, e.g. `legends.double-minor` plus a short quote. */
  rule: string;
  message: string;
}

/** Thrown inside a command handler to refuse it; `apply` turns it into an `EngineError`. */
export class RuleViolation extends Error {
  readonly code: ErrorCode;
  readonly rule: string;
  constructor(code: ErrorCode, rule: string, message: string) {
    super(message);
    this.name = 'RuleViolation';
    this.code = code;
    this.rule = rule;
  }
  toJSON(): EngineError {
    return { code: this.code, rule: this.rule, message: this.message };
  }
}
