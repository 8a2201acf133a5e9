import { inEngineOrder, type EncounterState, type EngineEvent } from '@fray/engine';
import type { HiddenGone } from './unseen.js';

/** What a saved snapshot gives back: the state and the runtime's own settings for it. */
export interface Unwrapped {
  state: EncounterState;
  turnTimerSeconds: number | null;
  hiddenGone: HiddenGone;
}

interface SnapshotWrapper {
  fraySnapshot: 1;
  state: EncounterState;
  runtime?: { turnTimerSeconds?: number | null; hiddenGone?: HiddenGone };
}

function isWrapper(x: unknown): x is SnapshotWrapper {
  return typeof x === 'object' && x !== null && Reflect.get(x, 'fraySnapshot') === 1;
}

/**
 * A snapshot as the store hands it back (the host's wrapper, or an older bare state). A store may
 * give the state back with its keys reordered (Postgres jsonb sorted them before snapshots were
 * stored as json): the engine's own order again, for its fast copies.
 */
export function unwrapSnapshot(x: unknown): Unwrapped {
  if (isWrapper(x))
    return {
      state: inEngineOrder(x.state),
      turnTimerSeconds: x.runtime?.turnTimerSeconds ?? null,
      hiddenGone: { ...x.runtime?.hiddenGone },
    };
  return { state: inEngineOrder(x as EncounterState), turnTimerSeconds: null, hiddenGone: {} };
}

/** A log entry's events (the log holds what the engine emitted: each an object with a type). */
export function isEvents(events: unknown[]): events is EngineEvent[] {
  return events.every((e) => typeof e === 'object' && e !== null && typeof Reflect.get(e, 'type') === 'string');
}

/** A log entry's events as the engine's (see `isEvents`); an entry holding anything else is an error. */
export function eventsOf(entry: { seq: number; events: unknown[] }): EngineEvent[] {
  if (!isEvents(entry.events)) throw new Error(`Log entry ${entry.seq} holds no events.`);
  return entry.events;
}
