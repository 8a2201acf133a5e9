import { ruleError, type EngineError } from '@fray/engine';
import { RULE, type ActionType } from '../catalogue.js';
import { incapable, isRestricted, opts, stunned, touched, unawareNow, type S } from '../state/index.js';

/** "Characters act in order, counting down from highest result to lowest": may take its regular action now. */
export function checkTurn(s: S, id: string): EngineError | null {
  if (s.reaction) return ruleError('REACTION_PENDING', RULE.interrupts, 'An interruption is being resolved.');
  const notNow = checkCurrent(s, id);
  if (notNow) return notNow;
  if (incapable(s, id))
    return ruleError('ILLEGAL_ACTION', RULE.incapable, "You can't take actions (for example, because you're unconscious or paralysed).");
  return null;
}

/**
 * Whether it is this character's action; if not, the most specific reason: it cannot act, it is
 * unaware in the Surprise Phase, it delayed or readied its action, it aborted it, its action this
 * Phase is over, or its Initiative has not come up yet.
 */
export function checkCurrent(s: S, id: string): EngineError | null {
  const cur = s.clock.current;
  if (cur === id) return null;
  const c = s.combatants[id]!;
  const now = cur ? `it is ${s.combatants[cur]?.name ?? cur}'s action` : 'nobody is acting now';
  if (incapable(s, id)) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.incapable,
      `${c.name} can't take actions (for example, because it's unconscious or paralysed): it keeps its Initiative score, but its actions are skipped.`,
    );
  }
  if (unawareNow(s, id)) {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.surprise,
      `Characters who are unaware at the start of battle don't get to act in the Surprise Phase: ${c.name} acts from Phase 1.`,
    );
  }
  const h = c.data.hold;
  if (h?.kind === 'delay') {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.delay,
      `${c.name} delayed its action ("you take no action on your own Initiative score and wait to act later"): take the delayed action (actNow) when nobody else is in the middle of an action; ${now}.`,
    );
  }
  if (h?.kind === 'ready') {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.ready,
      `${c.name} readied its action: it takes it in response to its condition (${h.trigger.description}), any time before its next action; ${now}.`,
    );
  }
  if (s.rs.spent.includes(id) || c.data.skipNext) {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.abortGaveUp,
      `${c.name} aborted to a defensive action and gave up this action to do so ("giving up your next Action"): it acts again in the next Phase; ${now}.`,
    );
  }
  if (s.rs.passed.includes(id)) {
    return ruleError(
      'NOT_YOUR_TURN',
      RULE.initiativeOrder,
      `${c.name}'s action this Phase is over (its Initiative came up and its action ended): it acts again in the next Phase; ${now}.`,
    );
  }
  return ruleError(
    'NOT_YOUR_TURN',
    RULE.initiativeOrder,
    `Characters act in order, counting down from highest result to lowest: ${now}; ${c.name}'s Initiative has not come up yet.`,
  );
}

const FULL_PHASE = "A full-phase action requires an entire phase to complete: it can't be coupled with an attack or a move action.";

/**
 * "In a normal Phase, you can perform an attack action and a move action, two move actions, or a
 * full-phase action. You can also perform one or more free actions."
 */
export function checkBudget(s: S, id: string, type: ActionType): EngineError | null {
  const d = s.combatants[id]!.data;
  if (type === 'none') return null;
  if (type === 'free') {
    const limit = opts(s).freeActionLimit;
    if (limit !== null && d.free >= limit) {
      return ruleError(
        'BUDGET_EXHAUSTED',
        RULE.freeActions,
        `Free actions don't take any time at all, though there may be limits: at most ${limit} a Phase here.`,
      );
    }
    return null;
  }
  const restricted = isRestricted(s, id);
  if (type === 'full') {
    if (restricted) {
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.restrictedPhase,
        "You are restricted to a single attack action or a single move action: you can't take a full-phase action (though you can start or complete one by using a move action).",
      );
    }
    if (d.full || d.slots > 0) return ruleError('ILLEGAL_ACTION', RULE.fullPhase, FULL_PHASE);
    return null;
  }
  if (d.full) return ruleError('ILLEGAL_ACTION', RULE.fullPhase, FULL_PHASE);
  const cap = restricted ? 1 : 2;
  if (d.slots >= cap) {
    return restricted
      ? ruleError(
          'BUDGET_EXHAUSTED',
          RULE.restrictedPhase,
          'In this Phase you are limited to taking only a single move action or attack action.',
        )
      : ruleError(
          'BUDGET_EXHAUSTED',
          RULE.actionTypes,
          'In a normal Phase, you can perform an attack action and a move action, two move actions, or a full-phase action.',
        );
  }
  if (type === 'attack' && d.attacks >= 1) {
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.actionTypes,
      'In a normal Phase, you can perform an attack action and a move action, or two move actions — not two attack actions.',
    );
  }
  return null;
}

/** "A Stunned character must Recover from being Stunned" before anything else. */
export function checkStunned(s: S, id: string, row: string): EngineError | null {
  if (stunned(s, id) && row !== 'recover-stunned') {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.stunned,
      'A Stunned character must Recover from being Stunned (a full-phase action) before anything else.',
    );
  }
  return null;
}

/** "By choosing to delay, you take no action on your own Initiative score" */
export function checkDelay(s: S, id: string): EngineError | null {
  if (touched(s.combatants[id]!.data)) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.delay,
      'By choosing to delay, you take no action on your own Initiative score: this character has already acted this Phase.',
    );
  }
  return null;
}

/** "You can specify your new place in the sequence (for example, "immediately before Captain Comet's action")" — later in this Phase. */
export function checkDelayBefore(s: S, id: string, before: string | null): EngineError | null {
  if (before === null) return null;
  const order = s.rs.phase === 'surprise' ? s.rs.order.filter((x) => !s.rs.unaware.includes(x)) : s.rs.order;
  if (before === id || !order.includes(before) || s.rs.passed.includes(before)) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.delay,
      'You can specify your new place in the sequence only later in this Phase ("immediately before Captain Comet\'s action").',
    );
  }
  return null;
}

/** "wait until some time later and act then ... You can't interrupt anyone else's action, as you can with a readied action." */
export function checkActNow(s: S, id: string): EngineError | null {
  if (s.reaction) return ruleError('REACTION_PENDING', RULE.interrupts, 'An interruption is being resolved.');
  const h = s.combatants[id]!.data.hold;
  if (h?.kind !== 'delay') return ruleError('ILLEGAL_ACTION', RULE.delay, 'This character has not delayed its action.');
  if (s.clock.current === id) return ruleError('ILLEGAL_ACTION', RULE.delay, "It is already this character's action.");
  if (incapable(s, id) || unawareNow(s, id)) return ruleError('ILLEGAL_ACTION', RULE.incapable, 'This character cannot act now.');
  const cur = s.clock.current;
  if (cur && (touched(s.combatants[cur]!.data) || s.rs.offered.includes(cur))) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.delayNoInterrupt,
      "You can't interrupt anyone else's action, as you can with a readied action: wait until it ends.",
    );
  }
  return null;
}
