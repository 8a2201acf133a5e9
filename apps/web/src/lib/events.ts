/** The engine's events and effects as they come in a log entry (JSON), narrowed. */
import { isRecord, isString } from './guards.js';
import type { Effect, EngineEvent, LogEntry } from './types.js';

export const isEvent = (e: unknown): e is EngineEvent => isRecord(e) && isString(e.type);

/** The events of a log entry (anything that is not an event is left out). */
export const eventsOf = (entry: Pick<LogEntry, 'events'>): EngineEvent[] => entry.events.filter(isEvent);

/** What the log tells of an effect. */
export type EffectView = Pick<Effect, 'id' | 'name' | 'targetId' | 'duration'> & { condition?: string };

/** An effect in an event (`effect.applied`): its id, name, condition, target and duration. */
export function effectOf(v: unknown): EffectView {
  const o = isRecord(v) ? v : {};
  const d = o.duration;
  const duration = isRecord(d) && isString(d.unit) && typeof d.count === 'number' ? { unit: d.unit, count: d.count } : null;
  return {
    id: String(o.id),
    name: String(o.name),
    targetId: isString(o.targetId) ? o.targetId : null,
    duration,
    ...(isString(o.condition) ? { condition: o.condition } : {}),
  };
}
