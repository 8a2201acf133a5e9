import {
  apply as applyWith,
  createEncounter as createWith,
  legalActions as legalWith,
  projectState as projectWith,
  replay as replayWith,
  type ApplyResult,
  type ActionOption,
  type CreateEncounterInput,
  type EncounterState,
  type Ruleset,
  type Viewer,
} from '@fray/engine';
import { registry } from './registry.js';

export { registry };

export function rulesetIds(): string[] {
  return Object.keys(registry);
}

export function getRuleset(id: string): Ruleset | undefined {
  return Object.prototype.hasOwnProperty.call(registry, id) ? registry[id] : undefined;
}

function must(id: string): Ruleset {
  const r = getRuleset(id);
  if (!r) throw new Error(`Unknown ruleset "${id}". Known rulesets: ${Object.keys(registry).join(', ')}.`);
  return r;
}

/** Convenience wrappers that pick the ruleset from the state. */
export function createEncounter(rulesetId: string, input: CreateEncounterInput): EncounterState {
  return createWith(must(rulesetId), input);
}
export function apply(state: EncounterState, command: unknown): ApplyResult {
  return applyWith(must(state.ruleset), state, command);
}
export function legalActions(state: EncounterState, combatantId: string): ActionOption[] {
  return legalWith(must(state.ruleset), state, combatantId);
}
export function replay(initial: EncounterState, commands: readonly unknown[]): EncounterState {
  return replayWith(must(initial.ruleset), initial, commands);
}
export function project(state: EncounterState, viewer: Viewer): EncounterState {
  return projectWith(must(state.ruleset), state, viewer);
}
