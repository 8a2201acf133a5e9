import type { Combatant, Effect, EncounterState, EngineEvent, ReactionWindow, Ruleset, Viewer } from './types.js';
import { cacheSet, projectEffectFor, projectState, projectTrigger } from './projection.js';
import { redactText, scrubUnseen, unseenBy, unseenIn, type Unseen } from './unseen.js';

/**
 * What a viewer may see of events (the state's counterpart is `projection.ts`): the GM sees all;
 * players and spectators never see GM-only events, events about combatants they cannot see, the
 * RNG state, secret stats, or unseen combatants named inside an event.
 */

/**
 * What a viewer may see of an event, or null. `stateAfter` is the state after the event's command
 * (a combatant hidden there hides the events about it).
 */
export function projectEvent<RS>(event: EngineEvent, viewer: Viewer, stateAfter: EncounterState<RS>): EngineEvent | null {
  if (viewer.role === 'gm') return gmEvent(event);
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
    const { rngAfter: _r, forcedIndex: _f, forced, ...rest } = event;
    // with committed dice a forced roll is shown as forced: the verifier would see it anyway
    return stateAfter.dice && forced ? { ...rest, forced } : rest;
  }
  if (event.type === 'reaction.opened') {
    const w = event.window as Record<string, unknown>;
    return { ...event, window: { ...w, resume: null } };
  }
  return event;
}

/** An event as the GM sees it: a roll without the generator's state after it (docs/dice.md). */
export function gmEvent(event: EngineEvent): EngineEvent {
  if (event.type !== 'dice.rolled' || !('rngAfter' in event)) return event;
  const { rngAfter: _r, ...rest } = event;
  return rest;
}

/** Logged events (of any shape) without the generator's state a roll carries: for the GM's log, files and exports. */
export function withoutGeneratorState(events: readonly unknown[]): unknown[] {
  return events.map((e) => {
    if (typeof e !== 'object' || e === null || !('rngAfter' in e)) return e;
    const { rngAfter: _r, ...rest } = e;
    return rest;
  });
}

/** The events of a command as the GM sees them (the list itself when no roll is among them). */
export function gmEvents(events: readonly EngineEvent[]): EngineEvent[] {
  return events.some((e) => e.type === 'dice.rolled') ? events.map(gmEvent) : (events as EngineEvent[]);
}

function stripSecrets(stats: unknown, secret: readonly string[]): unknown {
  if (!stats || typeof stats !== 'object' || secret.length === 0) return stats;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stats)) if (!secret.includes(k)) out[k] = v;
  return out;
}

/** JSON strings (ids and names) of the combatants a viewer cannot see in `projection`. */
export function unseenMarkers(state: EncounterState, projection: EncounterState): string[] {
  const out: string[] = [];
  for (const c of Object.values(state.combatants))
    if (projection.combatants[c.id] === undefined) out.push(JSON.stringify(c.id), JSON.stringify(c.name));
  return out;
}

/** JSON strings (ids and names) of the combatants not seen, computed once per (combatants, view). */
const unseenCache = new WeakMap<object, { all: object; unseen: string[] }>();
function unseenOf(all: Record<string, Combatant>, visible: Record<string, Combatant> | null, seen: (id: unknown) => boolean): string[] {
  if (visible === all) return [];
  const hit = visible ? unseenCache.get(visible) : undefined;
  if (hit && hit.all === all) return hit.unseen;
  const unseen: string[] = [];
  for (const c of Object.values(all)) if (!seen(c.id)) unseen.push(JSON.stringify(c.id), JSON.stringify(c.name));
  if (visible) cacheSet(unseenCache, visible, { all, unseen });
  return unseen;
}

/**
 * The events of one command as a viewer may see them: the engine's `projectEvent`, then what the
 * engine's event projection lets through whole is narrowed the way `projectState` narrows the
 * state: the secret stats of combatants the viewer does not control (`combatant.added`,
 * `combatant.updated`), combatants the viewer cannot see in the turn order (`clock.changed`) and
 * in a reaction window (`reaction.opened`). Last, as a guard, an event that still names a
 * combatant the viewer cannot see is dropped.
 */
export function projectEvents(
  events: readonly EngineEvent[],
  viewer: Viewer,
  stateAfter: EncounterState,
  projection?: EncounterState,
  ruleset?: Ruleset,
): EngineEvent[] {
  if (viewer.role === 'gm') return gmEvents(events);
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  const view = projection ?? (ruleset ? projectState(ruleset, stateAfter, viewer) : null);
  const seen = (id: unknown) =>
    id === null ||
    id === undefined ||
    (typeof id === 'string' && (view ? view.combatants[id] !== undefined : !stateAfter.combatants[id]?.hidden));
  const unseen = unseenOf(stateAfter.combatants, view ? view.combatants : null, seen);
  let unseenList: Unseen[] | null = null;
  const unseenNow = () => (unseenList ??= view ? unseenIn(stateAfter.combatants, view.combatants) : unseenBy(stateAfter, viewer));
  const out: EngineEvent[] = [];
  for (const e of events) {
    let p = projectEvent(e, viewer, stateAfter);
    if (!p) continue;
    if (p.type === 'combatant.added') {
      const c = p.combatant as Combatant | undefined;
      if (c) {
        // the combatant as it is now decides (an old event in the log may predate a secret)
        const now = stateAfter.combatants[c.id];
        const own = playerId !== null && (now ? now.controller : c.controller) === playerId;
        const secret = [...c.secretStats, ...(now?.secretStats ?? [])];
        if (!own && secret.length > 0) p = { ...p, combatant: { ...c, stats: stripSecrets(c.stats, secret) } };
      }
    } else if (p.type === 'combatant.updated') {
      const changes = p.changes as Record<string, unknown> | undefined;
      if (changes && 'stats' in changes) {
        const c = stateAfter.combatants[p.combatantId as string];
        if (!c) {
          const { stats: _s, ...rest } = changes;
          p = { ...p, changes: rest };
        } else {
          const own = playerId !== null && c.controller === playerId;
          const secret = [...c.secretStats, ...((changes.secretStats as string[] | undefined) ?? [])];
          if (!own && secret.length > 0) p = { ...p, changes: { ...changes, stats: stripSecrets(changes.stats, secret) } };
        }
      }
    } else if (p.type === 'clock.changed') {
      const q: EngineEvent = { ...p };
      if (Array.isArray(q.order)) q.order = q.order.filter(seen);
      if ('current' in q && !seen(q.current)) q.current = null;
      p = q;
    } else if (p.type === 'reaction.opened') {
      const w = p.window as ReactionWindow;
      p = {
        ...p,
        window: {
          ...w,
          resume: null,
          eligible: w.eligible.filter(seen),
          responses: Object.fromEntries(Object.entries(w.responses).filter(([id]) => seen(id))),
          trigger: projectTrigger(w.trigger, seen, unseenNow()),
        },
      };
    } else if (p.type === 'dice.rolled' && typeof p.purpose === 'string') {
      const purpose = redactText(p.purpose, unseenNow());
      if (purpose !== p.purpose) p = { ...p, purpose };
    } else if (p.type === 'effect.applied' && p.effect) {
      p = { ...p, effect: projectEffectFor(p.effect as Effect, seen, unseenNow()) };
    }
    if (unseen.length > 0) {
      const text = JSON.stringify(p);
      if (unseen.some((u) => text.includes(u))) continue;
      // what still names one inside a longer text ("act:<id>:…", "<name> moved")
      p = scrubUnseen(p, unseenNow());
    }
    out.push(p);
  }
  return out;
}
