export * from './types.js';
export * from './display.js';
export * from './errors.js';
export * from './kit.js';
export * from './dice.js';
export * from './rng.js';
export * from './schemas.js';
export * from './grid.js';
export { draftWriter, hasKeys as hasExactKeys, inEngineOrder, sameObj as sameShallow, type Writer } from './cow.js';
export { coreCommands, requireCombatant, makeEffect } from './core.js';
export {
  apply,
  createEncounter,
  commandsOf,
  evolve,
  replay,
  rebuild,
  legalActions,
  hasCondition,
  conditionsOf,
  expireEffects,
  jsonCopy,
  type CreateEncounterInput,
} from './engine.js';
export { projectState, viewKeyOf, viewerOfKey, keepIf, keepKeys, mapValuesShared, withParts } from './projection.js';
export { projectEvent, projectEvents, unseenMarkers } from './project-events.js';
export { unseenBy, unseenIn, redactText, namesUnseen, projectActions, unseenNamedBy, withoutCombatants, UNSEEN_WORD, type Unseen } from './unseen.js';
export { mapLayoutSchema, mapOf, onMap, cellColRow, type MapLayout, type SpaceKind } from './map.js';
