import type { Viewer } from '@fray/engine';

/** The events of one command as a viewer may see them (the engine's `projectEvents`). */
export { projectEvents as projectEventsFor, unseenMarkers } from '@fray/engine';

/** One channel per distinct view: the GM, each player id, the spectators. */
export function viewerKey(v: Viewer): string {
  return v.role === 'player' ? `player:${v.playerId}` : v.role;
}

