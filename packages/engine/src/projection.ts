import type { Combatant, EncounterState, EngineEvent, ReactionWindow, Ruleset, Viewer } from './types.js';

/**
 * What a viewer may see of the state. The GM sees everything; players and spectators never see
 * hidden combatants (unless they control them), secret stats of combatants they do not control,
 * GM-only effects and rolls, the RNG state, forced rolls, or a reaction window's continuation.
 */
const EMPTY: never[] = [];
Object.freeze(EMPTY);

/**
 * Helpers for a ruleset's `projectState`: each gives back its input itself when the viewer loses
 * nothing of it, so a projection shares every part it did not narrow with the state (and with the
 * previous projection): the diff skips shared parts, and nothing new is made and kept per command
 * for a part nobody hides anything in (docs/journal/performance-2026-11.md, Session 13).
 */

/** `list.filter(keep)`, but the list itself when nothing is dropped (keeps shared references). */
export function keepIf<T>(list: readonly T[], keep: (x: T) => boolean): T[] {
  for (let i = 0; i < list.length; i++) {
    if (!keep(list[i]!)) {
      const out = list.slice(0, i);
      for (let j = i + 1; j < list.length; j++) if (keep(list[j]!)) out.push(list[j]!);
      return out;
    }
  }
  return list as T[];
}

/** The record without the keys `keep` refuses, or the record itself when every key is kept. */
export function keepKeys<T>(rec: Readonly<Record<string, T>>, keep: (key: string) => boolean): Record<string, T> {
  for (const k in rec) {
    if (!keep(k)) {
      const out: Record<string, T> = {};
      for (const j in rec) if (keep(j)) out[j] = rec[j]!;
      return out;
    }
  }
  return rec as Record<string, T>;
}

/** The record with each value mapped, or the record itself when `f` gives every value back unchanged. */
export function mapValuesShared<T>(rec: Readonly<Record<string, T>>, f: (value: T, key: string) => T): Record<string, T> {
  let out: Record<string, T> | null = null;
  for (const k in rec) {
    const v = rec[k]!;
    const w = f(v, k);
    if (w !== v && !out) {
      out = {};
      for (const j in rec) {
        if (j === k) break;
        out[j] = rec[j]!;
      }
    }
    if (out) out[k] = w;
  }
  return out ?? (rec as Record<string, T>);
}

/** `{ ...base, ...parts }`, or `base` itself when every part is already base's own value. */
export function withParts<T extends object>(base: T, parts: Partial<T>): T {
  for (const k in parts) if (parts[k] !== base[k]) return { ...base, ...parts };
  return base;
}

/**
 * The projection caches below hold, per state part, its view for each viewer key. Most parts get
 * one or two views (the public one, a player's), so each part's views are one flat array
 * `[key, view, key, view, …]` searched in place, not a Map (or a WeakMap of Maps): every new
 * state part lives until the next command replaces it, about a second at a busy table, so what
 * its cache entry allocates is promoted to V8's old generation and marked by its full GCs
 * (docs/journal/performance-2026-11.md, Session 13).
 *
 * A part the viewer loses nothing of is its own view: nothing is cached for it (the check that
 * finds so costs less than the entry), so the caches hold entries only for parts that were
 * narrowed. Every entry is a `WeakMap` ephemeron, which V8's full GC marks apart, partly in its
 * final pause; an encounter with nothing hidden used to keep one entry for each live state's
 * combatants and ruleset part, about 8 of them per encounter (docs/journal/performance-2026-11.md, Session 15).
 */
/** How many keys the projection caches have been given (each a `WeakMap` entry): for tests and diagnostics. */
export const projectionCacheStats = { keys: 0 };
function cacheSet<K extends object, V>(cache: WeakMap<K, V>, key: K, value: V): void {
  projectionCacheStats.keys += 1;
  cache.set(key, value);
}

function viewIn<V>(views: unknown[] | undefined, key: unknown): V | undefined {
  if (views) for (let i = 0; i < views.length; i += 2) if (views[i] === key) return views[i + 1] as V;
  return undefined;
}

/** A combatant without its secret stats, the same object for the same combatant (any viewer who does not control it). */
const stripped = new WeakMap<Combatant, Combatant>();
function withoutSecrets(c: Combatant): Combatant {
  let out = stripped.get(c);
  if (!out) {
    const stats: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(c.stats as Record<string, unknown>)) if (!c.secretStats.includes(k)) stats[k] = v;
    out = { ...c, stats: stats as never };
    cacheSet(stripped, c, out);
  }
  return out;
}

/**
 * The combatants map as a viewer sees it, the same object for the same map and viewer: projecting
 * successive states keeps every unchanged combatant (and an unchanged map) by reference, so the
 * per-viewer patch is found by skipping shared subtrees.
 */
const combatantViews = new WeakMap<object, unknown[]>();
function combatantsFor(all: Record<string, Combatant>, role: 'player' | 'spectator', playerId: string | null): Record<string, Combatant> {
  if (!narrows(all, playerId)) return all;
  const key = role === 'player' ? playerId : null;
  const views = combatantViews.get(all);
  const hit = viewIn<Record<string, Combatant>>(views, key);
  if (hit) return hit;
  // `narrows` said the viewer loses something: a combatant left out or one stripped of its secrets
  const out: Record<string, Combatant> = {};
  for (const id in all) {
    const c = all[id]!;
    const own = playerId !== null && c.controller === playerId;
    if (c.hidden && !own) continue;
    out[id] = own || c.secretStats.length === 0 ? c : withoutSecrets(c);
  }
  if (views) views.push(key, out);
  else cacheSet(combatantViews, all, [key, out]);
  return out;
}

/** Whether a viewer (a player, or none) loses anything of the combatants: one hidden, or secret stats, that it does not control. */
function narrows(all: Record<string, Combatant>, playerId: string | null): boolean {
  for (const id in all) {
    const c = all[id]!;
    if ((c.hidden || c.secretStats.length > 0) && (playerId === null || c.controller !== playerId)) return true;
  }
  return false;
}

/**
 * What a viewer may see of the state. The GM sees everything; players and spectators never see
 * hidden combatants (unless they control them), secret stats of combatants they do not control,
 * GM-only effects and rolls, the RNG state, forced rolls, or a reaction window's continuation.
 * Every part the viewer sees unchanged is the state's own object (shared, never copied).
 */
export function projectState<RS>(ruleset: Ruleset<RS>, state: EncounterState<RS>, viewer: Viewer): EncounterState<RS> {
  if (viewer.role === 'gm') return state;
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  const combatants = combatantsFor(state.combatants, viewer.role, playerId) as EncounterState<RS>['combatants'];
  const all = combatants === state.combatants;
  const seen = all ? (id: string | null) => id === null || state.combatants[id] !== undefined : (id: string | null) => id === null || combatants[id] !== undefined;
  const reaction = state.reaction;
  const out: EncounterState<RS> = {
    ...state,
    combatants,
    clock: all ? state.clock : projectClock(state.clock, combatants, seen),
    effects: keepIf(state.effects, (e) => !e.gmOnly && seen(e.targetId)),
    rolls: keepIf(state.rolls, (r) => !r.gmOnly && seen(r.combatantId)),
    rng: EMPTY,
    forcedRolls: EMPTY,
    reaction: reaction ? projectReaction(reaction, seen) : null,
    rs: ruleset.projectState ? projectRs(ruleset, state, viewer, combatants) : state.rs,
  };
  return out;
}

/**
 * Which view of the state a viewer gets: `gm`, `public` (what a spectator sees), or
 * `player:<id>` for a player who controls a hidden combatant or one with secret stats. A player
 * who controls neither sees exactly what a spectator sees (a ruleset's `projectState` may depend
 * on the viewer only through which combatants it can see), so the server projects, diffs and
 * serializes that view once for all of them.
 */
export function viewKeyOf(state: EncounterState, viewer: Viewer): string {
  if (viewer.role === 'gm') return 'gm';
  if (viewer.role === 'player') {
    const all = state.combatants;
    for (const id in all) {
      const c = all[id]!;
      if (c.controller === viewer.playerId && (c.hidden || c.secretStats.length > 0)) return `player:${viewer.playerId}`;
    }
  }
  return 'public';
}

/** The viewer whose projection stands for a view key (`public`: a spectator). */
export function viewerOfKey(key: string, viewer: Viewer): Viewer {
  return key === 'public' ? PUBLIC : viewer;
}
const PUBLIC: Viewer = Object.freeze({ role: 'spectator' }) as Viewer;

/**
 * The ruleset's part of a projection, the same object for the same ruleset state, combatants and
 * viewer (a ruleset's `projectState` reads the state only for its combatants' visibility).
 */
const rsViews = new WeakMap<object, unknown[]>();
function projectRs<RS>(ruleset: Ruleset<RS>, state: EncounterState<RS>, viewer: Viewer, visible: object): RS {
  const rs = state.rs;
  if (typeof rs !== 'object' || rs === null) return ruleset.projectState!(rs, viewer, state);
  const key = viewer.role === 'player' ? `player:${viewer.playerId}` : viewer.role;
  // [visible, key, view, …]: one ruleset state may be seen with several combatants views (states
  // that changed only their combatants, viewers who see different combatants)
  const views = rsViews.get(rs);
  if (views) for (let i = 0; i < views.length; i += 3) if (views[i] === visible && views[i + 1] === key) return views[i + 2] as RS;
  const out = ruleset.projectState!(rs, viewer, state);
  if (out === rs) return out; // nothing narrowed: nothing to keep
  if (views) remember(views, 3, visible, key, out);
  else cacheSet(rsViews, rs, [visible, key, out]);
  return out;
}

/**
 * Adds an entry of `width` slots to a part's views, the oldest let go past MAX_VIEWS entries (an
 * unchanged part seen with ever new combatants views must not keep them all).
 */
const MAX_VIEWS = 4;
function remember(views: unknown[], width: number, ...entry: unknown[]): void {
  if (views.length >= MAX_VIEWS * width) views.splice(0, width);
  views.push(...entry);
}

/** The turn order without unseen combatants, the same object for the same clock and view. */
const clockViews = new WeakMap<object, unknown[]>();
function projectClock(clock: EncounterState['clock'], visible: object, seen: (id: string | null) => boolean): EncounterState['clock'] {
  const views = clockViews.get(clock);
  const hit = viewIn<EncounterState['clock']>(views, visible);
  if (hit) return hit;
  const order = keepIf(clock.order, seen);
  const current = seen(clock.current) ? clock.current : null;
  if (order === clock.order && current === clock.current) return clock; // nothing narrowed: nothing to keep
  const out = { ...clock, order, current };
  if (views) remember(views, 2, visible, out);
  else cacheSet(clockViews, clock, [visible, out]);
  return out;
}

const reactionViews = new WeakMap<ReactionWindow, unknown[]>();
function projectReaction(w: ReactionWindow, seen: (id: string | null) => boolean): ReactionWindow {
  const eligible = keepIf(w.eligible, seen);
  const responseIds = Object.keys(w.responses);
  const responses = responseIds.every(seen) ? w.responses : Object.fromEntries(Object.entries(w.responses).filter(([id]) => seen(id)));
  const trigger = seen(w.trigger.combatantId) ? w.trigger : { ...w.trigger, combatantId: null };
  if (w.resume === null && eligible === w.eligible && responses === w.responses && trigger === w.trigger) return w;
  // the same window seen the same way gives the same object
  const key = `${eligible.join(',')}|${Object.keys(responses).join(',')}|${trigger === w.trigger ? 1 : 0}`;
  const views = reactionViews.get(w);
  const hit = viewIn<ReactionWindow>(views, key);
  if (hit) return hit;
  const out: ReactionWindow = { ...w, resume: null, eligible, responses, trigger };
  if (views) views.push(key, out);
  else cacheSet(reactionViews, w, [key, out]);
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

function stripSecrets(stats: unknown, secret: readonly string[]): unknown {
  if (!stats || typeof stats !== 'object' || secret.length === 0) return stats;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stats as Record<string, unknown>)) if (!secret.includes(k)) out[k] = v;
  return out;
}

/** JSON strings (ids and names) of the combatants a viewer cannot see in `projection`. */
export function unseenMarkers(state: EncounterState, projection: EncounterState): string[] {
  const out: string[] = [];
  for (const c of Object.values(state.combatants)) if (projection.combatants[c.id] === undefined) out.push(JSON.stringify(c.id), JSON.stringify(c.name));
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
  if (viewer.role === 'gm') return events as EngineEvent[];
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  const view = projection ?? (ruleset ? projectState(ruleset, stateAfter, viewer) : null);
  const seen = (id: unknown) => id === null || id === undefined || (typeof id === 'string' && (view ? view.combatants[id] !== undefined : !stateAfter.combatants[id]?.hidden));
  const unseen = unseenOf(stateAfter.combatants, view ? view.combatants : null, seen);
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
      if (Array.isArray(q.order)) q.order = (q.order as string[]).filter(seen);
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
          trigger: { ...w.trigger, combatantId: seen(w.trigger.combatantId) ? w.trigger.combatantId : null },
        },
      };
    }
    if (unseen.length > 0) {
      const text = JSON.stringify(p);
      if (unseen.some((u) => text.includes(u))) continue;
    }
    out.push(p);
  }
  return out;
}
