import {
  apply,
  legalActions,
  projectActions,
  redactText,
  unseenBy,
  unseenIn,
  unseenNamedBy,
  withoutCombatants,
  type Actor,
  type EncounterState,
  type Ruleset,
  type Viewer,
} from '@fray/engine';

/**
 * The runtime's side of "a hidden combatant's id never reaches a player or a spectator": the
 * answers that are not projections of the state (legal actions, refusals) and commands that name
 * a combatant their sender cannot see.
 */

/** The viewer an actor is (the runtime and the GM see everything). */
function viewerOfActor(by: Actor): Viewer | null {
  return by.role === 'player' ? by : null;
}

/**
 * A player's command that names a combatant the player cannot see is answered as if that
 * combatant did not exist: judged against the state without it. A refusal there is the answer (the
 * same one an id that never existed gets); null when the command does not name one, or passes
 * without it too (the name was only text), and is then judged as every command is.
 */
export function refusalAsIfUnseenAbsent(
  ruleset: Ruleset,
  state: EncounterState,
  command: Record<string, unknown>,
  by: Actor,
): { code: string; message: string; rule?: string } | null {
  const unseen = unseenBy(state, viewerOfActor(by));
  const named = unseenNamedBy(command, unseen);
  if (named.length === 0) return null;
  let r;
  try {
    r = apply(ruleset, withoutCombatants(state, named), command);
  } catch {
    return { code: 'UNKNOWN_COMBATANT', message: `No combatant "${named[0]}".`, rule: 'engine.combatants' };
  }
  return r.ok ? null : { code: r.error.code, message: r.error.message, rule: r.error.rule };
}

/**
 * A refusal as a player sender sees it: no combatant it cannot see named in its message (the ids
 * its own command named aside: echoing those tells nothing).
 */
export function refusalFor<E extends { message: string }>(error: E, state: EncounterState, by: Actor, command: Record<string, unknown>): E {
  let unseen = unseenBy(state, viewerOfActor(by));
  if (unseen.length === 0) return error;
  const named = new Set(unseenNamedBy(command, unseen));
  if (named.size > 0) unseen = unseen.map((u) => (named.has(u.id) ? { id: '', name: u.name } : u));
  const message = redactText(error.message, unseen);
  return message === error.message ? error : { ...error, message };
}

/** What a combatant may do, as `viewer` may see it (judged on the whole state, shown without what it cannot see). */
export function legalFor(
  ruleset: Ruleset,
  state: EncounterState,
  projection: EncounterState,
  viewer: Viewer,
  combatantId: string,
): unknown[] {
  const actions = legalActions(ruleset, state, combatantId);
  return viewer.role === 'gm' ? actions : projectActions(actions, unseenIn(state.combatants, projection.combatants));
}

/**
 * Combatants removed while hidden (id → name). The state forgets them, but the log keeps events
 * that name them; a player reading the log must not meet them there. Kept by the host, saved with
 * its snapshots (`runtime.hiddenGone`) and found again in the log tail on load.
 */
export type HiddenGone = Record<string, string>;

/** Adds to `gone` the combatants a command's events removed while they were hidden (`before`: the state before the command). */
export function noteHiddenRemovals(gone: HiddenGone, before: EncounterState, events: readonly unknown[]): void {
  for (const e of events) {
    if (
      typeof e !== 'object' ||
      e === null ||
      !('type' in e) ||
      e.type !== 'combatant.removed' ||
      !('combatantId' in e) ||
      typeof e.combatantId !== 'string'
    )
      continue;
    const c = before.combatants[e.combatantId];
    if (c?.hidden) gone[c.id] = c.name;
  }
}

/**
 * The state with the combatants removed while hidden back in it, hidden and controlled by nobody:
 * what players and spectators are shown is projected from it, so that what still names them (an
 * effect's data, a roll made for one after it left, an old log entry) is narrowed as it was while
 * they were there. The state itself when there is none; the same combatants map for the same map
 * (the projection caches and the diff rely on shared parts).
 */
const ghosted = new WeakMap<object, { n: number; map: EncounterState['combatants'] }>();
export function withHiddenGone(state: EncounterState, gone: HiddenGone): EncounterState {
  let n = 0;
  for (const id in gone) if (state.combatants[id] === undefined) n += 1;
  if (n === 0) return state;
  const size = Object.keys(gone).length;
  const hit = ghosted.get(state.combatants);
  if (hit && hit.n === size) return { ...state, combatants: hit.map };
  const combatants: EncounterState['combatants'] = { ...state.combatants };
  for (const id in gone) {
    if (state.combatants[id] !== undefined) continue;
    combatants[id] = {
      id,
      name: gone[id]!,
      side: '',
      controller: null,
      hidden: true,
      secretStats: [],
      stats: {},
      position: null,
      items: [],
      data: {},
    };
  }
  ghosted.set(state.combatants, { n: size, map: combatants });
  return { ...state, combatants };
}
