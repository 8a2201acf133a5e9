import { withoutGeneratorState, projectEvents as projectEventsFor, unseenMarkers, type EncounterState, type Viewer } from '@fray/engine';
import type { WireError, WireLogEntry } from '@fray/protocol';
import { eventsOf } from './snapshots.js';

/** The events of one command as a viewer may see them (the engine's `projectEvents`). */
export { projectEventsFor, unseenMarkers };

/** One channel per distinct view: the GM, each player id, the spectators. */
export function viewerKey(v: Viewer): string {
  return v.role === 'player' ? `player:${v.playerId}` : v.role;
}

/** A log entry as the store gives it. */
export interface LoggedEntry {
  seq: number;
  commandId: string;
  command: unknown;
  events: unknown[];
  createdAt?: Date;
}

/** Who is behind the command of a log entry. */
function loggedBy(command: unknown): { role?: unknown; playerId?: unknown } | undefined {
  if (typeof command !== 'object' || command === null || !('by' in command)) return undefined;
  const by = command.by;
  return typeof by === 'object' && by !== null ? by : undefined;
}

/**
 * Log entries as a viewer may see them: the GM gets them whole; a player gets the events
 * projected as in a patch and only its own commands; a spectator only the projected events.
 * `state` is the encounter's state with the combatants removed while hidden (old entries may name
 * them); `projection` the viewer's.
 */
export function projectLogFor(
  entries: readonly LoggedEntry[],
  viewer: Viewer,
  state: EncounterState,
  projection: EncounterState,
): WireLogEntry[] {
  const at = (e: { createdAt?: Date }) => (e.createdAt ? e.createdAt.toISOString() : null);
  if (viewer.role === 'gm')
    return entries.map((e) => ({
      seq: e.seq,
      commandId: e.commandId,
      command: e.command,
      events: withoutGeneratorState(e.events),
      at: at(e),
    }));
  const unseen = unseenMarkers(state, projection);
  return entries.map((e) => {
    const by = loggedBy(e.command);
    const text = JSON.stringify(e.command);
    // my own commands, unless they name what I can no longer see
    const mine =
      viewer.role === 'player' && by?.role === 'player' && by.playerId === viewer.playerId && !unseen.some((u) => text.includes(u));
    return {
      seq: e.seq,
      commandId: mine ? e.commandId : '',
      ...(mine ? { command: e.command } : {}),
      events: projectEventsFor(eventsOf(e), viewer, state, projection),
      at: at(e),
    };
  });
}

/** Why a viewer may not ask for a combatant's actions or reach (unknown or unseen, a spectator, not its controller); null when it may. */
export function commandGate(state: EncounterState, projection: EncounterState, viewer: Viewer, combatantId: string): WireError | null {
  const c = state.combatants[combatantId];
  const visible = projection.combatants[combatantId];
  if (!c || !visible) return { code: 'UNKNOWN_COMBATANT', message: `No combatant "${combatantId}".` };
  if (viewer.role === 'spectator') return { code: 'FORBIDDEN', message: 'Spectators only watch.' };
  if (viewer.role === 'player' && c.controller !== viewer.playerId)
    return { code: 'NOT_AUTHORIZED', message: `${c.name} is not yours to command.` };
  return null;
}
