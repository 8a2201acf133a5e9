import { ruleError, type EngineError, type Hex } from '@fray/engine';
import { ROW, RULE, type Row } from '../catalogue.js';
import { incapable, stunned, unawareNow, type S } from '../state/index.js';

/** "You can abort to any defensive attack or move action before your initiative value comes up in a Phase" */
export function checkAbort(s: S, id: string): EngineError | null {
  const c = s.combatants[id]!;
  if (c.data.abortLock) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.abortLockout,
      'If you aborted your action from the following Phase, you cannot Abort your next action until after your Initiative in the following Phase.',
    );
  }
  if (s.clock.current === id && s.rs.jobs.length === 0) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.abort,
      'Aborting is taking a defensive action when it is not your action: on your own action, take it directly.',
    );
  }
  if (s.rs.jobs.some((j) => j.actor === id))
    return ruleError('ILLEGAL_ACTION', RULE.abort, 'A character cannot abort in the middle of its own action.');
  if (incapable(s, id) || stunned(s, id)) return ruleError('ILLEGAL_ACTION', RULE.incapable, 'This character cannot act.');
  if (unawareNow(s, id))
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.surprise,
      "Characters who are unaware at the start of battle don't get to act in the Surprise Phase.",
    );
  if (s.rs.phase === 'post-turn') return ruleError('WRONG_PHASE', RULE.abort, 'Nobody acts in the Post-Turn period.');
  return null;
}

/** "You can abort to any defensive attack or move action": name one (Block, Dodge, Missile Deflection, Roll With A Punch, a half move). */
export function checkAbortAction(rowId: string): EngineError | null {
  const row = ROW[rowId];
  if (row?.defensive) return null;
  return ruleError(
    'ILLEGAL_ACTION',
    RULE.abortDefensive,
    `You can abort to any defensive attack or move action: ${row?.label ?? rowId} is not one.`,
  );
}

/** Inside a window, only a character offered the chance may abort. */
export function checkAbortOffered(s: S, id: string): EngineError | null {
  const w = s.reaction;
  if (w && !(w.kind === 'ocv-phases.before-action' && w.responses[id] === 'pending')) {
    return ruleError('ILLEGAL_ACTION', RULE.abort, 'Aborting is not offered to this character in this interruption.');
  }
  return null;
}

const readiable = (row: Row): boolean => ['attack', 'defend', 'move', 'free'].includes(row.via);

/** "You can ready an attack action, a move action, or a free action. To do so, specify the action you will take and the conditions" */
export function checkReadyAction(s: S, type: Row['type'], action: string, by: string | undefined): EngineError | null {
  const r = ROW[action];
  if (!r || r.type !== type || !readiable(r) || r.id === 'ready') {
    return ruleError(
      'INVALID_COMMAND',
      RULE.ready,
      'You can ready an attack action, a move action, or a free action: name one of that type.',
    );
  }
  if (by !== undefined && !s.combatants[by])
    return ruleError('UNKNOWN_COMBATANT', RULE.ready, `Ready: the condition names "${by}", who is not in this fight.`);
  return null;
}

/** "Then, any time before your next action, you may take the readied action in response to that condition." */
export function checkTakeReadied(s: S, id: string): EngineError | null {
  const h = s.combatants[id]!.data.hold;
  if (h?.kind !== 'ready') return ruleError('ILLEGAL_ACTION', RULE.ready, 'This character has no readied action.');
  if (s.clock.current === id)
    return ruleError('ILLEGAL_ACTION', RULE.ready, 'The ready action lets you prepare to take an action later, after your turn is over.');
  if (incapable(s, id) || unawareNow(s, id)) return ruleError('ILLEGAL_ACTION', RULE.incapable, 'This character cannot act now.');
  const w = s.reaction;
  const inWindow = !!w && w.kind === 'ocv-phases.before-action' && w.responses[id] === 'pending';
  if (w && !inWindow) return ruleError('ILLEGAL_ACTION', RULE.readyTrigger, 'Not the condition this character readied its action for.');
  if (!w && h.trigger.on !== 'manual') {
    const by = h.trigger.by ? ` by ${s.combatants[h.trigger.by]?.name ?? h.trigger.by}` : '';
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.readyTrigger,
      `The readied action is taken in response to its condition (${h.trigger.on}${by}), which has not happened.`,
    );
  }
  return null;
}

/** The readied action taken is the one readied (or one of its type), and names what it needs. */
export function checkReadiedAction(s: S, id: string, rowId: string | null, step: Hex | null): EngineError | null {
  const h = s.combatants[id]!.data.hold;
  if (h?.kind !== 'ready') return ruleError('ILLEGAL_ACTION', RULE.ready, 'This character has no readied action.');
  if (rowId === null) return step ? null : ruleError('INVALID_COMMAND', RULE.ready, 'Name the readied action to take.');
  const row = ROW[rowId];
  if (!row || row.type !== h.actionType || !readiable(row) || (h.action !== null && h.action !== rowId)) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.ready,
      `The readied action was ${h.action ? ROW[h.action]!.label : `a ${h.actionType} action`}.`,
    );
  }
  return null;
}

/** A move (readied, or aborted to) names its path. */
export function checkPathGiven(path: Hex[] | undefined, rule: string, what: string): EngineError | null {
  return path ? null : ruleError('INVALID_COMMAND', rule, `Give the path of the ${what}.`);
}
