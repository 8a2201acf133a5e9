import { ruleError, type Command, type EngineError } from '@fray/engine';
import { AOO_WINDOW, READY_WINDOW, RULE } from '../catalogue/index.js';
import { PHASES } from '../mechanics/phases.js';
import { aooBar, threatens } from '../mechanics/threat.js';
import { optsOf, posOf, type C, type S } from '../state.js';
import { checkCanAct, checkInitiative } from './index.js';

/** The "why not" of the commands other than taking or continuing an action: turns, reactions, GM rulings. */

/** "During this phase [the declaration phase] all of the players declare what actions they intend" */
export function checkDeclare(s: S, c: C): EngineError | null {
  if (s.rs.phaseIdx !== 0)
    return ruleError(
      'WRONG_PHASE',
      RULE.declaration,
      '"During this phase [the declaration phase] all of the players declare what actions they intend".',
    );
  return checkCanAct(s, c);
}

/** "or have chosen to make no further expenditures of AP": a creature that can act and has AP left to stop spending. */
export function checkStop(s: S, c: C): EngineError | null {
  if (c.data.stopped) return ruleError('ILLEGAL_ACTION', RULE.stopped, `${c.name} already stopped.`);
  const a = checkCanAct(s, c);
  if (a) return a;
  if (c.data.ap < 1)
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.actionPoints,
      `${c.name} has no AP left to stop spending: its round is over ("each participant has used their allotment of action points").`,
    );
  return null;
}

/** "it may perform another action now or delay until the next phase": on its own initiative, to a later phase. */
export function checkDelay(s: S, c: C, until: number): EngineError | null {
  if (s.clock.current !== c.id) return checkInitiative(s, c);
  if (until <= s.rs.phaseIdx)
    return ruleError('INVALID_COMMAND', RULE.delay, `Delay to a later phase than the ${PHASES[s.rs.phaseIdx]} phase.`);
  return null;
}

/** "Reactions may be limited to one per phase" (option reactionsPerPhase). */
function checkReactionsPerPhase(s: S, c: C): EngineError | null {
  const n = optsOf(s).reactionsPerPhase;
  return c.data.reactionsThisPhase >= n
    ? ruleError(
        'BUDGET_EXHAUSTED',
        RULE.reactionsPerPhase,
        `${c.name} already reacted in this phase: "Reactions may be limited to one per phase" (limit ${n}).`,
      )
    : null;
}

/** An immediate-action ability: a reaction, on anyone's initiative. */
export function checkImmediate(s: S, c: C): EngineError | null {
  return checkCanAct(s, c) ?? checkReactionsPerPhase(s, c);
}

/** Why `f` may make no attack of opportunity now, whatever the position (the most specific rule). */
export function checkAoO(s: S, f: C): EngineError | null {
  switch (aooBar(s, f)) {
    case null:
      return null;
    case 'cannot-act':
      return checkCanAct(s, f);
    case 'reactions-per-phase':
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.reactionsPerPhase,
        `${f.name} already reacted in this phase: "Reactions may be limited to one per phase".`,
      );
    case 'per-round':
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.aooPerRound,
        `${f.name} already made its ${1 + f.stats.extraAttacksOfOpportunity === 1 ? 'attack' : 'attacks'} of opportunity this round: one a round, more only with Combat Reflexes ("you can make additional attacks of opportunity each round with the Combat Reflexes feat").`,
      );
    case 'no-attacks':
      return ruleError(
        'ILLEGAL_ACTION',
        RULE.totalDefense,
        `${f.name} is under total defense: "you can't take actions with the attack subtype".`,
      );
  }
}

/** "When a foe you threaten provokes an attack of opportunity, you can make a single melee attack against that foe." */
export function checkAoOAgainst(s: S, f: C, t: C): EngineError | null {
  const b = checkAoO(s, f);
  if (b) return b;
  if (!threatens(s, f, posOf(t))) {
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.attackOfOpportunity,
      `${f.name} does not threaten ${t.name}: "When a foe you threaten provokes an attack of opportunity, you can make a single melee attack against that foe."`,
    );
  }
  return null;
}

/** Why `r` may not complete its readied action when the trigger occurs. */
export function checkReady(r: C): EngineError | null {
  const ready = r.data.ready;
  if (!ready) return ruleError('ILLEGAL_ACTION', RULE.ready, `${r.name} has no readied action.`);
  if (r.data.ap < ready.cost)
    return ruleError(
      'BUDGET_EXHAUSTED',
      RULE.ready,
      `"you must have enough AP left to complete the action you ready": ${ready.cost} needed.`,
    );
  return null;
}

/**
 * Why `c` may not react in the open window `w` when the engine finds it is not eligible: the rule of
 * this ruleset that kept it out (null: it answered already, or nothing more specific applies).
 */
export function checkNotEligible(s: S, cmd: Command): EngineError | null {
  const w = s.reaction;
  const c = typeof cmd.combatantId === 'string' ? s.combatants[cmd.combatantId] : undefined;
  const command = cmd.type;
  if (!w || !c || w.responses[c.id] !== undefined) return null;
  const t = w.trigger.combatantId ? s.combatants[w.trigger.combatantId] : undefined;
  if (w.kind === AOO_WINDOW && (command === 'attackOfOpportunity' || command === 'spendAoo')) {
    return t ? checkAoOAgainst(s, c, t) : checkAoO(s, c);
  }
  if (w.kind === READY_WINDOW && command === 'completeReady') {
    const b = checkReady(c) ?? checkCanAct(s, c) ?? checkReactionsPerPhase(s, c);
    if (b) return b;
    return ruleError(
      'ILLEGAL_ACTION',
      RULE.ready,
      `This is not the trigger ${c.name} designated ("${c.data.ready!.trigger.description}"): "when the trigger you designate occurs, you can take that action".`,
    );
  }
  return null;
}
