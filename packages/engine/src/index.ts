export * from './types.js';
export * from './display.js';
export * from './errors.js';
export * from './kit.js';
export * from './dice.js';
export * from './rng.js';
export * from './schemas.js';
export * from './grid.js';
export { sameObj as sameShallow } from './cow.js';
export { hasKeys as hasExactKeys, inEngineOrder } from './shapes.js';
export { draftWriter, type Writer } from './writer.js';
export { requireCombatant, makeEffect } from './core.js';
export {
  apply,
  createEncounter,
  commandsOf,
  replay,
  rebuild,
  legalActions,
} from './engine.js';
export { hasCondition, expireEffects } from './effects.js';
export { jsonCopy } from './json-copy.js';
export { projectState, gmView, viewKeyOf, viewerOfKey, keepIf, keepKeys, mapValuesShared, withParts } from './projection.js';
export { projectEvents, withoutGeneratorState, unseenMarkers } from './project-events.js';
export * from './commit.js';
export { unseenBy, unseenIn, redactText, projectActions, unseenNamedBy, withoutCombatants } from './unseen.js';
