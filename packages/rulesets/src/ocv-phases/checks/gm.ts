import { ruleError, type EngineError } from '@fray/engine';
import { RULE } from '../catalogue.js';
import type { S } from '../state/index.js';

/** A GM tool names a combatant of this encounter. */
export function checkKnown(s: S, id: string): EngineError | null {
  return s.combatants[id] ? null : ruleError('UNKNOWN_COMBATANT', 'engine.combatants', 'No such combatant.');
}

/** "Characters who are unaware at the start of battle": awareness is set before combat starts. */
export function checkAwarenessInSetup(s: S): EngineError | null {
  return s.status === 'setup'
    ? null
    : ruleError('WRONG_PHASE', RULE.surprise, 'Awareness at the start of battle is set before combat starts.');
}

/** The GM restarts a stopped clock only. */
export function checkClockStopped(s: S): EngineError | null {
  return s.clock.current === null
    ? null
    : ruleError('ILLEGAL_ACTION', RULE.initiativeOrder, 'The clock is running: end the current action instead.');
}
