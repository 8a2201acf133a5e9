import type { Combatant, Effect, EncounterState, ReactionWindow, RollRecord, Ruleset, Viewer } from './types.js';
import { redactText, scrubUnseen, unseenIn, type Unseen } from './unseen.js';
import { publicDice } from './commit.js';

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
export function keepIf<T>(list: T[], keep: (x: T) => boolean): T[] {
  for (let i = 0; i < list.length; i++) {
    if (!keep(list[i]!)) {
      const out = list.slice(0, i);
      for (let j = i + 1; j < list.length; j++) if (keep(list[j]!)) out.push(list[j]!);
      return out;
    }
  }
  return list;
}

/** The record without the keys `keep` refuses, or the record itself when every key is kept. */
export function keepKeys<T>(rec: Record<string, T>, keep: (key: string) => boolean): Record<string, T> {
  for (const k in rec) {
    if (!keep(k)) {
      const out: Record<string, T> = {};
      for (const j in rec) if (keep(j)) out[j] = rec[j]!;
      return out;
    }
  }
  return rec;
}

/** The record with each value mapped, or the record itself when `f` gives every value back unchanged. */
export function mapValuesShared<T>(rec: Record<string, T>, f: (value: T, key: string) => T): Record<string, T> {
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
  return out ?? rec;
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
export function cacheSet<K extends object, V>(cache: WeakMap<K, V>, key: K, value: V): void {
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
    for (const [k, v] of Object.entries(c.stats)) if (!c.secretStats.includes(k)) stats[k] = v;
    out = { ...c, stats };
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
  const unseen: Unseen[] = [];
  for (const id in all) {
    const c = all[id]!;
    if (c.hidden && (playerId === null || c.controller !== playerId)) unseen.push({ id, name: c.name });
  }
  const unseenKey = unseen.map((u) => u.id).join(',');
  for (const id in all) {
    const c = all[id]!;
    const own = playerId !== null && c.controller === playerId;
    if (c.hidden && !own) continue;
    out[id] = withoutUnseen(own || c.secretStats.length === 0 ? c : withoutSecrets(c), unseen, unseenKey);
  }
  if (views) views.push(key, out);
  else cacheSet(combatantViews, all, [key, out]);
  return out;
}

/**
 * A visible combatant whose `data` or `items` name a combatant the viewer cannot see (a ruleset's
 * bookkeeping such as "act:<id>:…"), without those names (`scrubUnseen`); the combatant itself
 * when they name none. The same view for the same combatant and unseen set.
 */
const scrubbed = new WeakMap<Combatant, unknown[]>();
function withoutUnseen(c: Combatant, unseen: readonly Unseen[], unseenKey: string): Combatant {
  if (unseen.length === 0) return c;
  const views = scrubbed.get(c);
  const hit = viewIn<Combatant>(views, unseenKey);
  if (hit) return hit;
  const data = scrubUnseen(c.data, unseen);
  const items = scrubUnseen(c.items, unseen);
  const out = data === c.data && items === c.items ? c : { ...c, data, items };
  if (views) remember(views, 2, unseenKey, out);
  else cacheSet(scrubbed, c, [unseenKey, out]);
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
  if (viewer.role === 'gm') return gmView(state);
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  const combatants = combatantsFor(state.combatants, viewer.role, playerId) as EncounterState<RS>['combatants'];
  const all = combatants === state.combatants;
  const seen = all
    ? (id: string | null) => id === null || state.combatants[id] !== undefined
    : (id: string | null) => id === null || combatants[id] !== undefined;
  const reaction = state.reaction;
  let unseen: readonly Unseen[] | null = null;
  const unseenNow = () => (unseen ??= all ? EMPTY : unseenIn(state.combatants, combatants));
  const out: EncounterState<RS> = {
    ...state,
    combatants,
    clock: all ? state.clock : projectClock(state.clock, combatants, seen),
    effects: projectEffects(state.effects, combatants, seen, unseenNow),
    rolls: projectRolls(state.rolls, combatants, seen, unseenNow()),
    rng: EMPTY,
    forcedRolls: EMPTY,
    reaction: reaction ? projectReaction(reaction, seen, unseenNow()) : null,
    rs: ruleset.projectState
      ? projectRs(ruleset, state, viewer, combatants, unseenNow())
      : all
        ? state.rs
        : scrubUnseen(state.rs, unseenNow()),
  };
  if (state.dice) out.dice = publicDice(state.dice);
  return out;
}

/**
 * The state as the GM sees it: all of it but the generator's state and the committed dice's
 * secret (docs/dice.md: whoever reads them foresees the dice).
 */
export function gmView<S extends EncounterState>(state: S): S {
  if (state.rng.length === 0 && !state.dice?.secret) return state;
  const out: S = { ...state, rng: EMPTY };
  if (state.dice) out.dice = publicDice(state.dice);
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
function projectRs<RS>(ruleset: Ruleset<RS>, state: EncounterState<RS>, viewer: Viewer, visible: object, unseen: readonly Unseen[]): RS {
  const rs = state.rs;
  if (typeof rs !== 'object' || rs === null) return scrubUnseen(ruleset.projectState!(rs, viewer, state), unseen);
  const key = viewer.role === 'player' ? `player:${viewer.playerId}` : viewer.role;
  // [visible, key, view, …]: one ruleset state may be seen with several combatants views (states
  // that changed only their combatants, viewers who see different combatants)
  const views = rsViews.get(rs);
  if (views) for (let i = 0; i < views.length; i += 3) if (views[i] === visible && views[i + 1] === key) return views[i + 2] as RS;
  // what the ruleset's projection still names of an unseen combatant, as a last guard (`scrubUnseen`)
  const out = scrubUnseen(ruleset.projectState!(rs, viewer, state), unseen);
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

/**
 * The effects a viewer sees (not GM-only, on a combatant it sees or on none), each without the
 * unseen combatants it names: its source, and whose turn it began on (`startedAt.current`). The
 * same list when nothing is narrowed; the same effect view for the same effect and combatants view.
 */
const effectViews = new WeakMap<Effect, unknown[]>();
function projectEffects(
  effects: Effect[],
  visible: object,
  seen: (id: string | null) => boolean,
  unseen: () => readonly Unseen[],
): Effect[] {
  let out: Effect[] | null = null;
  for (let i = 0; i < effects.length; i++) {
    const e = effects[i]!;
    const v = e.gmOnly || !seen(e.targetId) ? null : projectEffect(e, visible, seen, unseen);
    if (v !== e && !out) out = effects.slice(0, i);
    if (out && v) out.push(v);
  }
  return out ?? effects;
}
function projectEffect(e: Effect, visible: object, seen: (id: string | null) => boolean, unseen: () => readonly Unseen[]): Effect {
  if (seen(e.sourceId) && seen(e.startedAt.current) && (e.data === undefined || unseen().length === 0)) return e;
  const views = effectViews.get(e);
  const hit = viewIn<Effect>(views, visible);
  if (hit) return hit;
  const out = projectEffectFor(e, seen, unseen());
  if (out === e) return e;
  if (views) remember(views, 2, visible, out);
  else cacheSet(effectViews, e, [visible, out]);
  return out;
}

/**
 * An effect as a viewer who sees its target sees it (`seen`: the combatants it sees): no unseen
 * source, no unseen `startedAt.current`, and its `data` without unseen ids or names.
 */
export function projectEffectFor(e: Effect, seen: (id: string | null) => boolean, unseen: readonly Unseen[]): Effect {
  const data = e.data === undefined ? undefined : scrubUnseen(e.data, unseen);
  if (seen(e.sourceId) && seen(e.startedAt.current) && data === e.data) return e;
  const out: Effect = {
    ...e,
    sourceId: seen(e.sourceId) ? e.sourceId : null,
    startedAt: seen(e.startedAt.current) ? e.startedAt : { ...e.startedAt, current: null },
  };
  if (data !== undefined) out.data = data;
  return out;
}

/** The rolls a viewer sees (not secret, by a combatant it sees or by none), their purposes naming no unseen combatant. */
const rollViews = new WeakMap<RollRecord, unknown[]>();
function projectRolls(rolls: RollRecord[], visible: object, seen: (id: string | null) => boolean, unseen: readonly Unseen[]): RollRecord[] {
  const kept = keepIf(rolls, (r) => !r.gmOnly && seen(r.combatantId));
  if (unseen.length === 0) return kept;
  let out: RollRecord[] | null = null;
  for (let i = 0; i < kept.length; i++) {
    const r = kept[i]!;
    let v = r;
    const purpose = redactText(r.purpose, unseen);
    if (purpose !== r.purpose) {
      const views = rollViews.get(r);
      v = viewIn<RollRecord>(views, visible) ?? { ...r, purpose };
      if (!views) cacheSet(rollViews, r, [visible, v]);
      else if (!views.includes(v)) remember(views, 2, visible, v);
    }
    if (v !== r && !out) out = kept.slice(0, i);
    if (out) out.push(v);
  }
  return out ?? kept;
}

const reactionViews = new WeakMap<ReactionWindow, unknown[]>();
function projectReaction(w: ReactionWindow, seen: (id: string | null) => boolean, unseen: readonly Unseen[]): ReactionWindow {
  const eligible = keepIf(w.eligible, seen);
  const responseIds = Object.keys(w.responses);
  const responses = responseIds.every(seen) ? w.responses : Object.fromEntries(Object.entries(w.responses).filter(([id]) => seen(id)));
  const trigger = projectTrigger(w.trigger, seen, unseen);
  if (w.resume === null && eligible === w.eligible && responses === w.responses && trigger === w.trigger) return w;
  // the same window seen the same way gives the same object
  const key = `${eligible.join(',')}|${Object.keys(responses).join(',')}|${trigger === w.trigger ? '=' : `${trigger.combatantId}|${trigger.description}`}`;
  const views = reactionViews.get(w);
  const hit = viewIn<ReactionWindow>(views, key);
  if (hit) return hit;
  const out: ReactionWindow = { ...w, resume: null, eligible, responses, trigger };
  if (views) views.push(key, out);
  else cacheSet(reactionViews, w, [key, out]);
  return out;
}

/** A reaction window's trigger without an unseen combatant: not as its actor, not named in its description. */
export function projectTrigger(
  t: ReactionWindow['trigger'],
  seen: (id: string | null) => boolean,
  unseen: readonly Unseen[],
): ReactionWindow['trigger'] {
  const description = redactText(t.description, unseen);
  if (seen(t.combatantId) && description === t.description) return t;
  return { ...t, combatantId: seen(t.combatantId) ? t.combatantId : null, description };
}
