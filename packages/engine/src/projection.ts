import type { Combatant, EncounterState, EngineEvent, Ruleset, Viewer } from './types.js';

/**
 * What a viewer may see of the state. The GM sees everything; players and spectators never see
 * hidden combatants (unless they control them), secret stats of combatants they do not control,
 * GM-only effects and rolls, the RNG state, forced rolls, or a reaction window's continuation.
 */
export function projectState<RS>(ruleset: Ruleset<RS>, state: EncounterState<RS>, viewer: Viewer): EncounterState<RS> {
  if (viewer.role === 'gm') return state;
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  const visible = (c: Combatant) => !c.hidden || (playerId !== null && c.controller === playerId);
  const combatants: EncounterState<RS>['combatants'] = {};
  for (const [id, c] of Object.entries(state.combatants)) {
    if (!visible(c)) continue;
    const own = playerId !== null && c.controller === playerId;
    if (own || c.secretStats.length === 0) {
      combatants[id] = c;
    } else {
      const stats: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(c.stats as Record<string, unknown>)) if (!c.secretStats.includes(k)) stats[k] = v;
      combatants[id] = { ...c, stats: stats as never };
    }
  }
  const seen = (id: string | null) => id === null || combatants[id] !== undefined;
  const out: EncounterState<RS> = {
    ...state,
    combatants,
    clock: { ...state.clock, order: state.clock.order.filter(seen), current: seen(state.clock.current) ? state.clock.current : null },
    effects: state.effects.filter((e) => !e.gmOnly && seen(e.targetId)),
    rolls: state.rolls.filter((r) => !r.gmOnly && seen(r.combatantId)),
    rng: [],
    forcedRolls: [],
    reaction: state.reaction
      ? {
          ...state.reaction,
          resume: null,
          eligible: state.reaction.eligible.filter(seen),
          responses: Object.fromEntries(Object.entries(state.reaction.responses).filter(([id]) => seen(id))),
          trigger: { ...state.reaction.trigger, combatantId: seen(state.reaction.trigger.combatantId) ? state.reaction.trigger.combatantId : null },
        }
      : null,
    rs: ruleset.projectState ? ruleset.projectState(state.rs, viewer, state) : state.rs,
  };
  return out;
}

/**
 * What a viewer may see of an event, or null. `stateAfter` is the state after the event's command
 * (a combatant hidden there hides the events about it).
 */
export function projectEvent<RS>(event: EngineEvent, viewer: Viewer, stateAfter: EncounterState<RS>): EngineEvent | null {
  if (viewer.role === 'gm') return event;
  if (event.gmOnly) return null;
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  for (const key of ['combatantId', 'targetId', 'actorId'] as const) {
    const id = event[key];
    if (typeof id === 'string') {
      const c = stateAfter.combatants[id];
      if (c && c.hidden && c.controller !== playerId) return null;
    }
  }
  if (event.type === 'dice.rolled') {
    const { rngAfter: _r, forcedIndex: _f, forced: _x, ...rest } = event;
    return rest;
  }
  if (event.type === 'reaction.opened') {
    const w = event.window as Record<string, unknown>;
    return { ...event, window: { ...w, resume: null } };
  }
  return event;
}
