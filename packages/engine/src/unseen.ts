import type { ActionOption, Combatant, EncounterState, ParamSpec, Viewer } from './types.js';

/**
 * What a player or spectator must not learn about the combatants it cannot see (hidden ones it
 * does not control), in the parts that are not state: legal-action answers, the text of refusals
 * and of reaction triggers, and commands that name such a combatant.
 */

/** A combatant a viewer cannot see: its id and its name. */
export interface Unseen {
  id: string;
  name: string;
}

/** The combatants of `state` a viewer cannot see (the GM sees all: none). */
export function unseenBy(state: EncounterState, viewer: Viewer | null): Unseen[] {
  if (!viewer || viewer.role === 'gm') return [];
  const playerId = viewer.role === 'player' ? viewer.playerId : null;
  const out: Unseen[] = [];
  for (const id in state.combatants) {
    const c = state.combatants[id]!;
    if (c.hidden && (playerId === null || c.controller !== playerId)) out.push({ id: c.id, name: c.name });
  }
  return out;
}

/** The combatants in `all` that are not in the viewer's `visible` map. */
export function unseenIn(all: Record<string, Combatant>, visible: Record<string, Combatant>): Unseen[] {
  const out: Unseen[] = [];
  if (visible === all) return out;
  for (const id in all) if (visible[id] === undefined) out.push({ id, name: all[id]!.name });
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What an unseen combatant's name or id becomes in a text shown to a player or spectator. */
export const UNSEEN_WORD = 'someone';

/**
 * The text with every unseen combatant's name and id (as whole words) replaced by "someone": a
 * refusal such as "Waiting for Shade to finish their movement." must not name a hidden Shade.
 */
export function redactText(text: string, unseen: readonly Unseen[]): string {
  let out = text;
  for (const u of unseen) {
    for (const word of [u.name, u.id]) {
      if (!word || !out.includes(word)) continue;
      out = out.replace(new RegExp(`(?<![\\w-])${escape(word)}(?![\\w-])`, 'g'), UNSEEN_WORD);
    }
  }
  return out;
}

/**
 * A JSON value (an effect's `data`, say) without unseen combatants: a string that is an unseen id
 * becomes null, one that names an unseen combatant is redacted (`redactText`). The value itself
 * when nothing changes.
 */
export function scrubUnseen<T>(value: T, unseen: readonly Unseen[]): T {
  if (unseen.length === 0) return value;
  const ids = new Set(unseen.map((u) => u.id));
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return ids.has(v) ? null : redactText(v, unseen);
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.every((x, i) => x === v[i]) ? v : out;
    }
    if (v && typeof v === 'object') {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const y = walk(x);
        if (y !== x) changed = true;
        out[k] = y;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(value) as T;
}

function paramWithout(p: ParamSpec, ids: ReadonlySet<string>): ParamSpec {
  if (!p.options) return p;
  const options = p.options.filter((o) => !ids.has(String(typeof o === 'object' ? o.value : o)));
  return options.length === p.options.length ? p : { ...p, options };
}

/**
 * Legal actions as a player sees them: the rules judge them on the whole state (a hidden enemy
 * still blocks a square), but no hidden combatant it cannot see is offered as a choice, listed as
 * one an action provokes (an action provoked only by unseen combatants shows `provokes: null`), or
 * named in a label or a reason. An option that would still name one (in its template) is left out.
 */
export function projectActions(actions: ActionOption[], unseen: readonly Unseen[]): ActionOption[] {
  if (unseen.length === 0) return actions;
  const ids = new Set(unseen.map((u) => u.id));
  const out: ActionOption[] = [];
  for (const a of actions) {
    const o: ActionOption = { ...a, label: redactText(a.label, unseen) };
    if (a.params) o.params = a.params.map((p) => paramWithout(p, ids));
    if (a.provokes) {
      const from = a.provokes.from.filter((id) => !ids.has(id));
      o.provokes = from.length === 0 && a.provokes.from.length > 0 ? null : { from, reason: redactText(a.provokes.reason, unseen) };
    }
    if (a.blocked) o.blocked = { ...a.blocked, message: redactText(a.blocked.message, unseen) };
    if (a.template && Object.values(a.template).some((v) => typeof v === 'string' && ids.has(v))) continue;
    out.push(o);
  }
  return out;
}

/** The ids of unseen combatants a command names (any string in it equal to one, at any depth; `type` and `by` aside). */
export function unseenNamedBy(command: Record<string, unknown>, unseen: readonly Unseen[]): string[] {
  if (unseen.length === 0) return [];
  const ids = new Set(unseen.map((u) => u.id));
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (ids.has(v)) found.add(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  for (const [k, v] of Object.entries(command)) if (k !== 'type' && k !== 'by') walk(v);
  return [...found];
}

/**
 * The state as if the given combatants did not exist (not in the map, the turn order or a
 * reaction window): a command from a player that names a combatant it cannot see is judged
 * against this, so that it gets the answer an id that never existed gets.
 */
export function withoutCombatants<S extends EncounterState>(state: S, ids: readonly string[]): S {
  const gone = new Set(ids);
  const combatants: Record<string, Combatant> = {};
  for (const id in state.combatants) if (!gone.has(id)) combatants[id] = state.combatants[id]!;
  const clock = {
    ...state.clock,
    order: state.clock.order.filter((id) => !gone.has(id)),
    current: state.clock.current !== null && gone.has(state.clock.current) ? null : state.clock.current,
  };
  const w = state.reaction;
  const reaction = w
    ? {
        ...w,
        eligible: w.eligible.filter((id) => !gone.has(id)),
        responses: Object.fromEntries(Object.entries(w.responses).filter(([id]) => !gone.has(id))),
      }
    : null;
  return { ...state, combatants, clock, reaction, effects: state.effects.filter((e) => e.targetId === null || !gone.has(e.targetId)) };
}
