import { ruleError, type EngineError } from '@fray/engine';
/** Every "why not" of the legends ruleset: pure functions of the state answering null (allowed) or the refusal. */
export { actGate, checkAct } from './act.js';
export { targetCheck } from './targets.js';
export { checkReorder } from './turns.js';
export { refuseReaction } from './movement.js';

/** A command names a combatant that is not in the encounter. */
export function unknownCombatant(id: string): EngineError {
  return ruleError('UNKNOWN_COMBATANT', 'engine.combatants', `No combatant "${id}".`);
}
