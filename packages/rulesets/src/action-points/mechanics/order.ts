import { hasSlot, initKey, type C, type S } from '../state.js';

/** The initiative order ("Combatants act in initiative order (highest to lowest) during each phase"). */

export function keyBefore(a: [number, number], b: [number, number]): boolean {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}

/** The whole initiative order, highest first ("Combatants act in initiative order (highest to lowest)"). */
export function orderOf(s: S): string[] {
  return sortedOrder(s).slice();
}

interface OrderRow {
  id: string;
  name: string;
  initiative: number;
  tiebreak: number;
}
/** The last order computed, with what it was computed from (it changes only when initiatives do). */
let lastRows: OrderRow[] = [];
let lastOrder: string[] = [];

/** Whether the combatants are those of `lastRows`, with the same names, initiatives and tiebreaks. */
function sameRows(cs: S['combatants']): boolean {
  let n = 0;
  for (const _id in cs) n++;
  if (n !== lastRows.length) return false;
  for (const r of lastRows) {
    const c = cs[r.id];
    if (c === undefined || c.id !== r.id || c.name !== r.name || c.data.initiative !== r.initiative || c.data.tiebreak !== r.tiebreak)
      return false;
  }
  return true;
}

/** The order as `orderOf` gives it, shared: not to be changed or handed out. */
function sortedOrder(s: S): readonly string[] {
  const cs = s.combatants;
  if (sameRows(cs)) return lastOrder;
  // Each combatant is read once (on a draft every read is a proxy trap), then the keys are sorted.
  const rows = Object.values(cs).map((c) => ({ id: c.id, name: c.name, initiative: c.data.initiative, tiebreak: c.data.tiebreak }));
  rows.sort((a, b) => b.initiative - a.initiative || b.tiebreak - a.tiebreak || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  lastRows = rows;
  lastOrder = rows.map((c) => c.id);
  return lastOrder;
}

/** The next combatant after `cursor` (from the start when null) with a place in this phase. */
export function nextSlot(s: S, phase: number, cursor: [number, number] | null): C | undefined {
  for (const id of sortedOrder(s)) {
    const c = s.combatants[id]!;
    if (!hasSlot(s, c, phase)) continue;
    if (cursor === null || keyBefore(cursor, initKey(c))) return c;
  }
  return undefined;
}
