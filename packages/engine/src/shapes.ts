/**
 * The shapes of the state's parts for copy-on-write (cow.ts): the engine's key order of the root,
 * a combatant and the clock, their monomorphic shallow copies, and `inEngineOrder`.
 */
import type { Clock, Combatant, EncounterState } from './types.js';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null;
}

// Each shallow copy has its own function, so that V8's object-spread cache at each site stays
// monomorphic (one object shape per kind of part): a spread that sees every shape is much slower.
export const copyMap = <T extends object>(v: T): T => ({ ...v });
export const copyCombatant = (v: Combatant): Combatant => ({ ...v });
export const copyRootSpread = <RS>(v: EncounterState<RS>): EncounterState<RS> => ({ ...v });
/** The engine's combatant, field by field in its order (`core.ts` builds it so). */
export const KEYS = ['id', 'name', 'side', 'controller', 'hidden', 'secretStats', 'stats', 'position', 'items', 'data'];
// A literal with the engine's key order: 3-4x cheaper than a spread of these objects.
export const literalCombatant = (v: Combatant): Combatant => ({
  id: v.id,
  name: v.name,
  side: v.side,
  controller: v.controller,
  hidden: v.hidden,
  secretStats: v.secretStats,
  stats: v.stats,
  position: v.position,
  items: v.items,
  data: v.data,
});
/** The state's own keys, in the order `createEncounter` builds it. */
export const ROOT_KEYS = [
  'id',
  'name',
  'ruleset',
  'options',
  'version',
  'status',
  'clock',
  'sides',
  'combatants',
  'effects',
  'reaction',
  'rng',
  'forcedRolls',
  'rolls',
  'rs',
  'dice',
];
export const literalRoot = <RS>(v: EncounterState<RS>): EncounterState<RS> => ({
  id: v.id,
  name: v.name,
  ruleset: v.ruleset,
  options: v.options,
  version: v.version,
  status: v.status,
  clock: v.clock,
  sides: v.sides,
  combatants: v.combatants,
  effects: v.effects,
  reaction: v.reaction,
  rng: v.rng,
  forcedRolls: v.forcedRolls,
  rolls: v.rolls,
  rs: v.rs,
  dice: v.dice,
});
/** Whether `o` has exactly `keys`, in that order (no allocation: a `for in` over its keys). */
export function hasKeys(o: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in o) if (k !== keys[i++]) return false;
  return i === keys.length;
}
/**
 * The last states `finish` returned whose root and every combatant have exactly the engine's keys,
 * in its order (the state a command starts from is nearly always one of these). A small ring of
 * strong references: a WeakSet entry per state cost more than the check it saved.
 */
const SHAPED_RING = 8;
const shapedRing: object[] = [];
let shapedNext = 0;
export function knownShaped(s: object): boolean {
  for (let i = 0; i < shapedRing.length; i++) if (shapedRing[i] === s) return true;
  return false;
}
export function rememberShaped(s: object): void {
  shapedRing[shapedNext] = s;
  shapedNext = (shapedNext + 1) % SHAPED_RING;
}
export function allPlainShaped(root: EncounterState): boolean {
  if (!hasKeys(root, ROOT_KEYS) || !isObj(root.clock) || !hasKeys(root.clock, CLOCK_KEYS)) return false;
  const cs = root.combatants;
  for (const id in cs) if (!hasKeys(cs[id]!, KEYS)) return false;
  return true;
}

/** `o` with `keys` first, in that order (those it has), then any others it has; `o` itself when it has exactly `keys` in order. */
function reordered(o: Obj, keys: readonly string[]): Obj {
  if (hasKeys(o, keys)) return o;
  const out: Obj = {};
  for (const k of keys) if (Object.hasOwn(o, k)) out[k] = o[k];
  for (const k of Object.keys(o)) if (!Object.hasOwn(out, k)) out[k] = o[k];
  return out;
}

/**
 * `state` with its root, its clock and each combatant in the engine's own key order (the order
 * `createEncounter` and `combatant.add` build them in); the same values, and the same object when
 * it is in that order already. A state read back from a store that reorders keys (Postgres `jsonb`
 * sorts them: shorter keys first) otherwise never takes the copy-on-write path's shaped copies
 * (object literals, field-by-field comparisons): every copy is a spread over an object of another
 * shape, and every command costs more (8–13 % of the engine's throughput, measured in
 * docs/journal/performance-2026-11.md, "Session 11"). The combatants keep their ids' order; keys the engine does
 * not know are kept, after its own. Nothing is changed in place.
 */
export function inEngineOrder<S extends EncounterState>(state: S): S {
  if (allPlainShaped(state)) return state;
  // read back from a store: handled as the JSON objects it is, then typed again (same keys, same values)
  const root: unknown = state;
  if (!isObj(root)) return state;
  const out = reordered(root, ROOT_KEYS);
  const next = out === root ? { ...root } : out;
  if (isObj(root.clock)) next.clock = reordered(root.clock, CLOCK_KEYS);
  if (isObj(root.combatants)) {
    const cs: Obj = {};
    for (const [id, c] of Object.entries(root.combatants)) cs[id] = isObj(c) ? reordered(c, KEYS) : c;
    next.combatants = cs;
  }
  return next as S;
}

export const copyClock = (v: Clock): Clock => ({ ...v });
/** The clock's keys, in the order `createEncounter` builds it; a shaped state's clock has exactly these. */
export const CLOCK_KEYS = ['round', 'phase', 'order', 'current'];
export const literalClock = (v: Clock): Clock => ({ round: v.round, phase: v.phase, order: v.order, current: v.current });
/** `sameObj` for two clocks that have exactly `CLOCK_KEYS` (reads that stay monomorphic). */
export const sameClock = (c: Clock, o: Clock): boolean =>
  c.round === o.round && c.phase === o.phase && c.order === o.order && c.current === o.current;
